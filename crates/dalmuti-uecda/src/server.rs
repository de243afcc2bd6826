//! `dalmuti uecda serve`: a UECda server over TCP on the [`Referee`].
//!
//! Like the reference server it waits for five players (or fewer, the
//! rest our bots), numbers them in the order they came, and plays the
//! match in lockstep. Unlike it, it never waits forever: a client that
//! sends no first table within the hello time, speaks another protocol,
//! answers no play or exchange within the answer time, closes its
//! connection or stops reading is logged, and a stand-in bot plays its
//! seat for the rest of the match (the answer it failed to give counts as
//! the reference server counts a bad one: a pass, or its strongest
//! cards). Every socket is `TCP_NODELAY`, and a turn's messages to a
//! player go out in one write.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use dalmuti_bots::{Bot, BotSpec, fallback};
use dalmuti_core::Seed;
use tracing::{info, warn};

use crate::cells::Cells;
use crate::conn::{Client, Fault, hello, no_table};
use crate::referee::{Deal, MatchConfig, Referee, RefereeError};
use crate::state::{EndFlag, Hello, PLAYERS, PlayerNo};
use crate::transcript::{Direction, Line, Message};
use crate::wire::{HEX_BYTES, INT_BYTES, Protocol, RawTable};

/// What `dalmuti uecda serve` is told.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Games in the match.
    pub games: u32,
    /// Games in each class cycle (the first of each has no classes).
    pub class_cycle: u32,
    /// The seed of the seats and deals; `None` draws one from the
    /// operating system (and logs it, so a match can be dealt again).
    pub seed: Option<u64>,
    /// Our bots at the table, taking the last player numbers; the server
    /// waits for the other seats' clients.
    pub bots: Vec<BotSpec>,
    /// The bot that plays for a client that fails.
    pub stand_in: BotSpec,
    /// How long a client may take to answer a play or an exchange (zero:
    /// forever, as the reference server waits).
    pub answer_timeout: Duration,
    /// How long a new connection may take to send its first table.
    pub hello_timeout: Duration,
    /// Where to write the match as a game record (`dalmuti-record/2`),
    /// rewritten as games end (at most once a second) and at the end.
    pub record: Option<PathBuf>,
    /// Where to write the points table: a CSV row of every player's total
    /// after each game.
    pub points: Option<PathBuf>,
    /// Where to write every message of the match (a transcript).
    pub transcript: Option<PathBuf>,
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig {
            games: 100,
            class_cycle: 100,
            seed: None,
            bots: Vec::new(),
            stand_in: BotSpec::Heuristic,
            answer_timeout: Duration::from_secs(10),
            hello_timeout: Duration::from_secs(3),
            record: None,
            points: None,
            transcript: None,
        }
    }
}

/// A match that could not be played.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The listening socket failed.
    #[error("accepting players: {0}")]
    Accept(std::io::Error),
    /// A file could not be written.
    #[error("writing {path}: {error}")]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// More bots than seats, or a bot that cannot be built.
    #[error("{0}")]
    Config(String),
    /// The referee refused what the server sent it (a bug).
    #[error(transparent)]
    Referee(#[from] RefereeError),
}

/// How a match went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeReport {
    /// The players' names, by player number.
    pub names: [String; PLAYERS],
    /// Who each player was: a client (with its address) or our bot.
    pub kinds: [String; PLAYERS],
    /// Points, by player number.
    pub points: [u32; PLAYERS],
    /// How often each player finished in each place (大富豪 first).
    pub places: [[u32; PLAYERS]; PLAYERS],
    /// Games played.
    pub games: u32,
    /// The seed the match was dealt from.
    pub seed: u64,
    /// Clients that failed and were stood in for, with why.
    pub stood_in: Vec<(PlayerNo, String)>,
    /// Plays refused (each counted as a pass).
    pub refused: u32,
}

/// One seat: a client over TCP, or our bot.
enum Seat {
    Client(Client),
    Bot(Box<dyn Bot>),
}

/// The transcript being written, if asked for.
struct Recorder(Option<(PathBuf, BufWriter<File>)>);

impl Recorder {
    fn line(&mut self, player: PlayerNo, direction: Direction, message: Message) {
        if let Some((_, w)) = &mut self.0 {
            // A transcript is for reading a match again; a full disk must not
            // stop the match, so a failed write is only logged once.
            if let Err(e) = writeln!(
                w,
                "{}",
                Line {
                    player,
                    direction,
                    message
                }
            ) {
                warn!("the transcript could not be written: {e}");
                self.0 = None;
            }
        }
    }
}

/// Plays a match on `listener`: waits for the clients, plays every game,
/// writes the record and the points, and says how it went.
pub fn serve(listener: TcpListener, config: ServeConfig) -> Result<ServeReport, ServeError> {
    if config.bots.len() >= PLAYERS {
        return Err(ServeError::Config(format!(
            "{} bots leave no seat for a client (a table seats {PLAYERS})",
            config.bots.len()
        )));
    }
    if config.class_cycle < 2 || config.games == 0 {
        return Err(ServeError::Config(
            "a match has at least one game, and a class cycle at least two".into(),
        ));
    }
    let seed = config.seed.unwrap_or_else(|| u64::from_le_bytes(os_seed()));
    let mut recorder = Recorder(match &config.transcript {
        Some(path) => Some((
            path.clone(),
            BufWriter::new(File::create(path).map_err(|error| ServeError::File {
                path: path.clone(),
                error,
            })?),
        )),
        None => None,
    });
    let clients = PLAYERS - config.bots.len();
    let mut seats: Vec<Seat> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut kinds: Vec<String> = Vec::new();
    info!(
        "waiting for {clients} UECda client(s) on {}",
        listener
            .local_addr()
            .map_or("?".into(), |a: SocketAddr| a.to_string())
    );
    while seats.len() < clients {
        let (stream, addr) = listener.accept().map_err(ServeError::Accept)?;
        let player = PlayerNo::ALL[seats.len()];
        match greet(stream, player, config.hello_timeout) {
            Ok((client, hello)) => {
                let name = unique_name(&hello.name, &names, player);
                info!(
                    "{player} is {name:?} from {addr} (protocol {})",
                    client.protocol
                );
                recorder.line(
                    player,
                    Direction::ToServer,
                    Message::Table(hello.to_table()),
                );
                recorder.line(
                    player,
                    Direction::ToPlayer,
                    Message::Int(player.index() as i32),
                );
                names.push(name);
                kinds.push(format!("client at {addr}"));
                seats.push(Seat::Client(client));
            }
            Err(Fault(why)) => warn!("a connection from {addr} {why}: closed"),
        }
    }
    for (i, spec) in config.bots.iter().enumerate() {
        let player = PlayerNo::ALL[seats.len()];
        let bot = spec
            .build(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .map_err(|e| ServeError::Config(e.to_string()))?;
        let name = unique_name(&format!("dalmuti-{}", bot.name()), &names, player);
        info!("{player} is our bot {name:?} ({spec})");
        names.push(name);
        kinds.push(format!("bot {spec}"));
        seats.push(Seat::Bot(bot));
    }
    let names: [String; PLAYERS] = names.try_into().expect("five names");
    let kinds: [String; PLAYERS] = kinds.try_into().expect("five players");
    info!("the match begins: {} games, seed {seed}", config.games);
    let match_config = MatchConfig {
        games: config.games,
        class_cycle: config.class_cycle,
        seed: Seed::from(seed),
    };
    let mut table = Table {
        referee: Referee::new(names.clone(), match_config)?,
        seats,
        recorder,
        stand_in: config.stand_in.clone(),
        answer_timeout: config.answer_timeout,
        seed,
        stood_in: Vec::new(),
        refused: 0,
    };
    let mut points_file = match &config.points {
        Some(path) => {
            let mut w = BufWriter::new(File::create(path).map_err(|error| ServeError::File {
                path: path.clone(),
                error,
            })?);
            let header: Vec<String> = names.iter().map(|n| csv_field(n)).collect();
            writeln!(w, "game,{}", header.join(",")).map_err(|error| ServeError::File {
                path: path.clone(),
                error,
            })?;
            Some((path.clone(), w))
        }
        None => None,
    };
    let mut places = [[0u32; PLAYERS]; PLAYERS];
    let mut record_written = Instant::now();
    let started = Instant::now();
    loop {
        let end = table.play_game()?;
        let game = table.referee.game();
        for (place, &seat) in game.hand().finish_order().iter().enumerate() {
            let id = game.player_at(seat);
            let p = names
                .iter()
                .position(|n| n == game.name(id))
                .expect("a player");
            places[p][place] += 1;
        }
        if let Some((path, w)) = &mut points_file {
            let row: Vec<String> = PlayerNo::ALL
                .iter()
                .map(|&p| table.referee.points(p).to_string())
                .collect();
            writeln!(w, "{},{}", table.referee.number(), row.join(","))
                .and_then(|()| w.flush())
                .map_err(|error| ServeError::File {
                    path: path.clone(),
                    error,
                })?;
        }
        let last = end == EndFlag::MatchOver;
        if let Some(path) = &config.record
            && (last || record_written.elapsed() >= Duration::from_secs(1))
        {
            write_record(path, &table.referee)?;
            record_written = Instant::now();
        }
        if last {
            break;
        }
    }
    let games = table.referee.number();
    info!(
        "the match is over: {games} games in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    for seat in &mut table.seats {
        if let Seat::Client(c) = seat {
            let _ = c.flush();
            let _ = c.stream.shutdown(Shutdown::Both);
        }
    }
    if let Some((path, mut w)) = table.recorder.0.take() {
        w.flush()
            .map_err(|error| ServeError::File { path, error })?;
    }
    Ok(ServeReport {
        points: PlayerNo::ALL.map(|p| table.referee.points(p)),
        names,
        kinds,
        places,
        games,
        seed,
        stood_in: table.stood_in,
        refused: table.refused,
    })
}

/// Reads a new connection's first table and tells it its number.
fn greet(stream: TcpStream, player: PlayerNo, timeout: Duration) -> Result<(Client, Hello), Fault> {
    let (mut client, hello) = hello(stream, timeout)?;
    client.queue_int(player.index() as i32);
    client.flush()?;
    Ok((client, hello))
}

/// A client's own name, told apart from the names already taken.
fn unique_name(name: &str, taken: &[String], player: PlayerNo) -> String {
    let base = if name.is_empty() {
        "player".to_string()
    } else {
        name.to_string()
    };
    if taken.contains(&base) || name.is_empty() {
        format!("{base}#{}", player.index())
    } else {
        base
    }
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn write_record(path: &PathBuf, referee: &Referee) -> Result<(), ServeError> {
    let tmp = path.with_extension("json.part");
    let text = referee.record().to_json_string();
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|error| ServeError::File {
            path: path.clone(),
            error,
        })
}

fn os_seed() -> [u8; 8] {
    // The standard library's hasher keys come from the operating system's
    // randomness; two of them make a seed without another dependency.
    use std::hash::{BuildHasher, RandomState};
    let a = RandomState::new().hash_one(0u8);
    let b = RandomState::new().hash_one(Instant::now());
    (a ^ b.rotate_left(17)).to_le_bytes()
}

/// The match being played: the referee and the seats.
struct Table {
    referee: Referee,
    seats: Vec<Seat>,
    recorder: Recorder,
    stand_in: BotSpec,
    answer_timeout: Duration,
    seed: u64,
    stood_in: Vec<(PlayerNo, String)>,
    refused: u32,
}

impl Table {
    fn send_table(&mut self, player: PlayerNo, table: &RawTable) {
        if let Seat::Client(c) = &mut self.seats[player.index()] {
            c.queue_table(table);
            let message = match c.protocol {
                Protocol::Tables => Message::Table(*table),
                Protocol::Hex => Message::Hex(table.to_hex()),
            };
            self.recorder.line(player, Direction::ToPlayer, message);
        }
    }

    fn send_int(&mut self, player: PlayerNo, n: i32) {
        if let Seat::Client(c) = &mut self.seats[player.index()] {
            c.queue_int(n);
            self.recorder
                .line(player, Direction::ToPlayer, Message::Int(n));
        }
    }

    /// Writes every client's waiting messages; a client that cannot take
    /// them is stood in for.
    fn flush(&mut self) {
        for p in PlayerNo::ALL {
            if let Seat::Client(c) = &mut self.seats[p.index()]
                && let Err(fault) = c.flush()
            {
                self.stand_in(p, fault);
            }
        }
    }

    fn stand_in(&mut self, player: PlayerNo, Fault(why): Fault) {
        let bot = self
            .stand_in
            .build(self.seed ^ 0x5717_d000 ^ player.index() as u64)
            .or_else(|_| BotSpec::Greedy.build(0))
            .expect("the greedy bot builds");
        warn!(
            "{player} {:?} {why}: a stand-in ({}) plays for them from now on",
            self.referee.name(player),
            self.stand_in
        );
        if let Seat::Client(c) = &self.seats[player.index()] {
            let _ = c.stream.shutdown(Shutdown::Both);
        }
        self.seats[player.index()] = Seat::Bot(bot);
        self.stood_in.push((player, why));
    }

    /// The table a player answers with: read from its client, or its bot's
    /// choice written as one. `None` if the client failed (it is then stood
    /// in for, and its answer counts as a bad one).
    fn answer(&mut self, player: PlayerNo, what: &str) -> Option<Cells> {
        self.flush();
        let timeout = self.answer_timeout;
        match &mut self.seats[player.index()] {
            Seat::Client(c) => match c.read_table(what, timeout) {
                Ok((_, Ok(table))) => {
                    let message = match c.protocol {
                        Protocol::Tables => Message::Table(table),
                        Protocol::Hex => Message::Hex(table.to_hex()),
                    };
                    self.recorder.line(player, Direction::ToServer, message);
                    Some(Cells::of_table(&table))
                }
                Ok((bytes, Err(why))) => {
                    info!(
                        "game {}: {player} {:?} sent a {what} that is no table ({why}): \
                         taken as a bad one",
                        self.referee.number(),
                        self.referee.name(player)
                    );
                    if let Ok(hex) = <[u8; HEX_BYTES]>::try_from(bytes.as_slice())
                        && hex.iter().all(u8::is_ascii_graphic)
                    {
                        self.recorder
                            .line(player, Direction::ToServer, Message::Hex(hex));
                    }
                    // A card below the 3: a refused play, or an exchange
                    // replaced by the strongest cards.
                    Some(no_table())
                }
                Err(fault) => {
                    self.stand_in(player, fault);
                    None
                }
            },
            Seat::Bot(bot) => {
                let view = self.referee.view(player);
                let legal = view.legal_actions();
                let action = bot
                    .decide(&view, &legal)
                    .unwrap_or_else(|_| fallback(&legal));
                Some(Cells::of_action(&action))
            }
        }
    }

    /// One game, from the deal to its end flag.
    fn play_game(&mut self) -> Result<EndFlag, ServeError> {
        let dealt = self.referee.start_game(Deal::Shuffled)?;
        for p in PlayerNo::ALL {
            self.send_table(p, &dealt[p.index()]);
        }
        for (p, _) in self.referee.to_exchange() {
            let cells = self.answer(p, "cards to give back").unwrap_or(Cells::EMPTY);
            let outcome = self.referee.exchange(p, &cells)?;
            if let Some(why) = outcome.replaced {
                info!(
                    "game {}: {p} {:?} gave back a table the server cannot take ({why}): \
                     its strongest cards are given",
                    self.referee.number(),
                    self.referee.name(p)
                );
            }
        }
        loop {
            let tables = self.referee.turn_tables();
            for p in PlayerNo::ALL {
                self.send_table(p, &tables[p.index()]);
            }
            let player = self.referee.turn().ok_or(RefereeError::Phase("no turn"))?;
            let cells = self.answer(player, "play").unwrap_or(Cells::EMPTY);
            let outcome = self.referee.play(player, &cells)?;
            if let Some(why) = &outcome.refused {
                self.refused += 1;
                info!(
                    "game {}: {player} {:?} played {}, refused ({why}): a pass",
                    self.referee.number(),
                    self.referee.name(player),
                    cells.to_table()
                );
            }
            self.send_int(player, outcome.ack.number());
            for p in PlayerNo::ALL {
                self.send_table(p, &outcome.table);
            }
            for p in PlayerNo::ALL {
                self.send_int(p, outcome.end.number());
            }
            self.flush();
            if outcome.end != EndFlag::Continue {
                return Ok(outcome.end);
            }
        }
    }
}

const _: () = assert!(INT_BYTES == 4);
