//! Contest programs in the seats of a game refereed elsewhere: a table of
//! `dalmuti serve`, where people and our bots sit beside them.
//!
//! The game is the table's: its engine deals, takes every action and says
//! whose turn it is. [`ContestSeats`] follows it with a [`Referee`] of its
//! own, dealt the same cards and given the same actions, so that each
//! program is sent, message for message, what the contest's reference
//! server would send it at that point of the match ([`crate::Referee`]'s
//! tables, byte for byte): the deal, the tables of every turn, the answer
//! to its play, the table after each play and the end flags. A program's
//! answer is read when the table asks its seat to act and becomes the
//! action the table applies, judged as the reference server judges it (a
//! refused play is a pass; an exchange that cannot be taken gives the
//! strongest cards).
//!
//! Each program is sent only the referee's tables addressed to it, which
//! hold its own cards and what every player sees; nothing is logged of
//! any card.

use std::net::{Shutdown, SocketAddr, TcpStream};
use std::time::Duration;

use dalmuti_bots::BotFault;
use dalmuti_core::{Action, Cards, Decision, Event, Game, HandLog, PlayerId, Rules, Seed, Viewer};
use tracing::{info, warn};

use crate::cells::{Cells, Submitted};
use crate::conn::{Client, Fault, hello, no_table};
use crate::referee::{Deal, MatchConfig, Referee};
use crate::state::{PLAYERS, PlayerNo};
use crate::wire::RawTable;

/// A contest program that has connected and said its protocol and name,
/// waiting to be seated. Its player number is told when its match begins.
pub struct Program {
    client: Client,
    name: String,
    addr: SocketAddr,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("name", &self.name)
            .field("addr", &self.addr)
            .finish()
    }
}

impl Program {
    /// Reads a new connection's first table (its protocol and name) within
    /// `timeout`; the error says what the connection failed to do.
    pub fn greet(
        stream: TcpStream,
        addr: SocketAddr,
        timeout: Duration,
    ) -> Result<Program, String> {
        let (client, hello) = hello(stream, timeout).map_err(|Fault(why)| why)?;
        Ok(Program {
            client,
            name: hello.name,
            addr,
        })
    }

    /// The name it sent (at most 14 characters; may be empty).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where it connected from.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Whether it is still connected: it has not closed its end. (A
    /// program sends nothing while it waits for its number.)
    pub fn is_connected(&self) -> bool {
        let stream = &self.client.stream;
        if stream.set_nonblocking(true).is_err() {
            return false;
        }
        let mut byte = [0u8; 1];
        let alive = match stream.peek(&mut byte) {
            Ok(0) => false,
            Ok(_) => true,
            Err(e) => e.kind() == std::io::ErrorKind::WouldBlock,
        };
        alive && stream.set_nonblocking(false).is_ok()
    }

    /// Closes its connection (a program turned away).
    pub fn close(self) {
        let _ = self.client.stream.shutdown(Shutdown::Both);
    }
}

/// Why a game cannot seat contest programs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotTheContest {
    /// The rules are not the contest's.
    #[error(
        "contest programs play Daifugō by the contest's rules (the preset uecda) with a set number of games"
    )]
    Rules,
    /// Not five players.
    #[error("contest programs play at a table of five, not {0}")]
    Players(usize),
    /// A program's seat is not a player of the game.
    #[error("{0:?} is not a player of this game")]
    NoSuchPlayer(String),
}

/// Why the referee could not follow: said without the action, which may
/// hold cards nobody watching the log may see.
const REFUSED: &str = "the contest's referee refused what the table's game did";

/// Contest programs playing some seats of a game: see the module's
/// documentation.
pub struct ContestSeats {
    /// The game as the contest's server would referee it.
    referee: Referee,
    /// The programs by player number (`None`: a person or a bot of the
    /// table, or a program lost).
    programs: [Option<Client>; PLAYERS],
    /// The players' ids in the table's game, by player number.
    ids: [PlayerId; PLAYERS],
    /// A program's answer, with the action it became, until the table's
    /// game shows what was applied.
    pending: [Option<(Cells, Action)>; PLAYERS],
    /// The tables of the turn now due have been sent.
    told_turn: bool,
    answer_timeout: Duration,
    /// Programs lost since last asked: their seat's name, and why.
    lost: Vec<(String, String)>,
    /// The table's game went where the contest's cannot follow.
    broken: bool,
}

impl ContestSeats {
    /// Seats `programs` (each with the name of its seat in `game`) in
    /// `game`, which must be the contest's Daifugō for five, not yet past
    /// its first deal's exchange. Players are numbered in the order the
    /// game lists them; each program is told its number now.
    pub fn new(
        game: &Game,
        programs: Vec<(String, Program)>,
        answer_timeout: Duration,
    ) -> Result<ContestSeats, (NotTheContest, Vec<Program>)> {
        let ids: Vec<PlayerId> = game.players().collect();
        let refuse = |why, programs: Vec<(String, Program)>| {
            Err((why, programs.into_iter().map(|(_, p)| p).collect()))
        };
        let config = match ContestSeats::check_rules(game.rules(), ids.len()) {
            Ok(config) => config,
            Err(why) => return refuse(why, programs),
        };
        let ids = <[PlayerId; PLAYERS]>::try_from(ids.as_slice()).expect("checked: five");
        if let Some((name, _)) = programs
            .iter()
            .find(|(n, _)| game.player_named(n).is_none())
        {
            let name = name.clone();
            return refuse(NotTheContest::NoSuchPlayer(name), programs);
        }
        let names = ids.map(|id| game.name(id).to_string());
        let seating: Vec<PlayerId> = match game.hands().first() {
            Some(first) => first.dealt_seating.clone(),
            None => game.next_seating().to_vec(),
        };
        let seats = seating
            .iter()
            .map(|id| PlayerNo::ALL[ids.iter().position(|i| i == id).expect("a player")]);
        let seats: [PlayerNo; PLAYERS] = seats.collect::<Vec<_>>().try_into().expect("five seats");
        let referee = match Referee::seated(names.clone(), seats, config) {
            Ok(referee) => referee,
            Err(_) => return refuse(NotTheContest::Rules, programs),
        };
        let mut seated: [Option<Client>; PLAYERS] = Default::default();
        for (name, program) in programs {
            let p = names
                .iter()
                .position(|n| *n == name)
                .expect("checked above");
            let mut client = program.client;
            client.queue_int(p as i32);
            seated[p] = Some(client);
        }
        let mut seats = ContestSeats {
            referee,
            programs: seated,
            ids,
            pending: Default::default(),
            told_turn: false,
            answer_timeout,
            lost: Vec::new(),
            broken: false,
        };
        seats.flush();
        Ok(seats)
    }

    /// Whether a game of `players` under `rules` is the contest's: Daifugō
    /// by the contest's rules (`Climbing::UECDA`, any class cycle) for
    /// five, with a set number of games. Its match's settings if so.
    ///
    /// ```
    /// use dalmuti_uecda::{ContestSeats, MatchConfig, NotTheContest};
    /// let contest = MatchConfig { games: 10, class_cycle: 3, seed: 0.into() }.rules();
    /// assert_eq!(ContestSeats::check_rules(&contest, 5).unwrap().games, 10);
    /// assert_eq!(ContestSeats::check_rules(&contest, 4), Err(NotTheContest::Players(4)));
    /// let president = dalmuti_core::Rules::president();
    /// assert_eq!(ContestSeats::check_rules(&president, 5), Err(NotTheContest::Rules));
    /// ```
    pub fn check_rules(rules: &Rules, players: usize) -> Result<MatchConfig, NotTheContest> {
        let config = MatchConfig {
            games: rules.hands.unwrap_or(0),
            class_cycle: rules.climbing().class_cycle,
            seed: Seed::from(0u64),
        };
        if rules.hands.is_none() || config.rules() != *rules {
            return Err(NotTheContest::Rules);
        }
        if players != PLAYERS {
            return Err(NotTheContest::Players(players));
        }
        Ok(config)
    }

    /// Whether the program in the seat named `name` is still playing it.
    pub fn plays(&self, name: &str) -> bool {
        self.player_named(name)
            .is_some_and(|p| self.programs[p.index()].is_some())
    }

    /// The programs lost since last asked (closed, silent, or left behind
    /// by a game the contest cannot follow): their seat's name and why.
    /// Their seats are the table's to play from now on.
    pub fn take_lost(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.lost)
    }

    fn player_named(&self, name: &str) -> Option<PlayerNo> {
        (0..PLAYERS)
            .find(|&p| self.referee.name(PlayerNo::ALL[p]) == name)
            .map(|p| PlayerNo::ALL[p])
    }

    /// Sends every program what happened in `game` since it was last
    /// followed: the deals, the tables of each turn, the answers to plays,
    /// the tables after them and the end flags. A program that cannot be
    /// written to is lost; a game the contest's referee cannot follow
    /// (one it did not deal, say) loses them all.
    pub fn follow(&mut self, game: &Game) {
        if self.broken {
            return;
        }
        if let Err(why) = self.catch_up(game) {
            warn!("contest programs cannot follow this game ({why}): their seats are the table's");
            self.broken = true;
            for p in PlayerNo::ALL {
                self.lose(
                    p,
                    "the game went where the contest's rules cannot follow".into(),
                );
            }
        }
        self.flush();
    }

    fn catch_up(&mut self, game: &Game) -> Result<(), String> {
        let hands = game.hands();
        loop {
            let mirrored = self.referee.number() as usize;
            if mirrored > 0 {
                self.catch_up_hand(&hands[mirrored - 1])?;
            }
            if mirrored < hands.len() && self.referee.game().is_between_hands() {
                self.deal(&hands[mirrored])?;
            } else {
                return Ok(());
            }
        }
    }

    fn player_of(&self, id: PlayerId) -> Result<PlayerNo, String> {
        self.ids
            .iter()
            .position(|&i| i == id)
            .map(|p| PlayerNo::ALL[p])
            .ok_or_else(|| "a player who was not at the table at the start".to_string())
    }

    fn deal(&mut self, log: &HandLog) -> Result<(), String> {
        if self.referee.is_over() {
            return Err("more games than the match has".into());
        }
        let mut seats = PlayerNo::ALL;
        let mut cards = [Cards::EMPTY; PLAYERS];
        if log.dealt_seating.len() != PLAYERS {
            return Err(format!("{} players", log.dealt_seating.len()));
        }
        for (i, &id) in log.dealt_seating.iter().enumerate() {
            let p = self.player_of(id)?;
            seats[i] = p;
            cards[p.index()] = log.hand.dealt(dalmuti_core::Seat::new(i));
        }
        let dealt = self
            .referee
            .start_game(Deal::Given {
                seats,
                cards,
                chance: log.hand.chance(),
            })
            .map_err(|_| REFUSED.to_string())?;
        self.told_turn = false;
        for p in PlayerNo::ALL {
            self.send_table(p, &dealt[p.index()]);
        }
        Ok(())
    }

    fn catch_up_hand(&mut self, log: &HandLog) -> Result<(), String> {
        let events = log.hand.events();
        loop {
            if !self.told_turn && self.referee.turn().is_some() {
                let tables = self.referee.turn_tables();
                for p in PlayerNo::ALL {
                    self.send_table(p, &tables[p.index()]);
                }
                self.told_turn = true;
            }
            let from = self.referee.game().hand().events().len();
            let Some(&next) = events.get(from) else {
                return Ok(());
            };
            let player_at = |seat| self.player_of(log.player_at(seat));
            match next {
                Event::TaxPaid(tax) => {
                    let p = player_at(tax.dalmuti)?;
                    let action = Action::GiveTax(tax.gift);
                    let cells = self.answered(p, &action, || Cells::of_hand(&tax.gift));
                    self.referee
                        .exchange(p, &cells)
                        .map_err(|_| REFUSED.to_string())?;
                }
                Event::Played { seat, set } => {
                    let p = player_at(seat)?;
                    let cells = self.answered(p, &Action::Play(set), || Cells::of_play(&set));
                    self.play(p, &cells)?;
                }
                Event::Passed { seat } => {
                    let p = player_at(seat)?;
                    let cells = self.answered(p, &Action::Pass, || Cells::EMPTY);
                    self.play(p, &cells)?;
                }
                // Said without the event: it may hold cards (the log is
                // the operator's, who may not see them).
                _ => {
                    return Err(
                        "the table's game went on with an event the contest's rules do not have"
                            .into(),
                    );
                }
            }
            let now = self.referee.game().hand().events();
            if now.len() <= from || events.get(from..now.len()) != Some(&now[from..]) {
                return Err("the contest's referee and the table's game disagree".into());
            }
        }
    }

    /// The cells a player's action is told with: its program's own answer
    /// when that is what the table applied, else the action's cells.
    fn answered(&mut self, p: PlayerNo, action: &Action, cells: impl FnOnce() -> Cells) -> Cells {
        match self.pending[p.index()].take() {
            Some((answer, became)) if became == *action => answer,
            _ => cells(),
        }
    }

    fn play(&mut self, p: PlayerNo, cells: &Cells) -> Result<(), String> {
        let outcome = self
            .referee
            .play(p, cells)
            .map_err(|_| REFUSED.to_string())?;
        self.send_int(p, outcome.ack.number());
        for q in PlayerNo::ALL {
            self.send_table(q, &outcome.table);
        }
        for q in PlayerNo::ALL {
            self.send_int(q, outcome.end.number());
        }
        self.told_turn = false;
        Ok(())
    }

    /// Asks the program in the seat named `name` for its decision in
    /// `game` (where that seat is to act), after telling every program what
    /// happened before it. The answer is judged as the contest's server
    /// judges it; a program that gives none in time, or closed its
    /// connection, is lost and the fault says so.
    pub fn answer(&mut self, game: &Game, name: &str) -> Result<Action, BotFault> {
        self.follow(game);
        let p = self
            .player_named(name)
            .filter(|p| self.programs[p.index()].is_some())
            .ok_or_else(|| BotFault::Crashed("the contest program is gone".into()))?;
        let id = self.ids[p.index()];
        let seat = game
            .seat_of(id)
            .ok_or_else(|| BotFault::Crashed("the seat is not in this game".into()))?;
        let view = game.view(Viewer::Seat(seat));
        let (what, tax) = match view.decision() {
            Some(Decision::Tax { count, .. }) => ("cards to give back", Some(count)),
            Some(Decision::Lead | Decision::Follow { .. }) => ("play", None),
            other => {
                return Err(BotFault::Garbage(format!(
                    "a contest program is never asked for {other:?}"
                )));
            }
        };
        let timeout = self.answer_timeout;
        let client = self.programs[p.index()].as_mut().expect("checked above");
        let cells = match client.read_table(what, timeout) {
            Ok((_, Ok(table))) => Cells::of_table(&table),
            Ok((_, Err(_))) => no_table(),
            Err(Fault(why)) => {
                let fault = if why.contains("within") {
                    BotFault::TimedOut(timeout)
                } else {
                    BotFault::Crashed(why.clone())
                };
                self.lose(p, why);
                return Err(fault);
            }
        };
        let held = view.cards().unwrap_or(Cards::EMPTY);
        let action = match tax {
            Some(count) => {
                // The 大富豪 gives back exactly two cards; the 富豪 may send
                // its table with more marked (the reference server's check).
                let strict = view.class(seat) == Some(0);
                Action::GiveTax(
                    cells
                        .read_gift(&held, count, strict)
                        .unwrap_or_else(|_| held.best(u32::from(count))),
                )
            }
            None => match cells.read() {
                Submitted::Play(set) => {
                    let mut trial = game.hand().clone();
                    match trial.apply(seat, Action::Play(set)) {
                        Ok(()) => Action::Play(set),
                        Err(_) => Action::Pass,
                    }
                }
                Submitted::Pass | Submitted::Unreadable(_) => Action::Pass,
            },
        };
        self.pending[p.index()] = Some((cells, action));
        Ok(action)
    }

    fn lose(&mut self, p: PlayerNo, why: String) {
        if let Some(client) = self.programs[p.index()].take() {
            let _ = client.stream.shutdown(Shutdown::Both);
            let name = self.referee.name(p).to_string();
            info!("the contest program in seat {name:?} {why}: the table plays its seat");
            self.lost.push((name, why));
        }
    }

    fn send_table(&mut self, p: PlayerNo, table: &RawTable) {
        if let Some(client) = &mut self.programs[p.index()] {
            client.queue_table(table);
        }
    }

    fn send_int(&mut self, p: PlayerNo, n: i32) {
        if let Some(client) = &mut self.programs[p.index()] {
            client.queue_int(n);
        }
    }

    fn flush(&mut self) {
        for p in PlayerNo::ALL {
            if let Some(client) = &mut self.programs[p.index()]
                && let Err(Fault(why)) = client.flush()
            {
                self.lose(p, why);
            }
        }
    }
}

impl Drop for ContestSeats {
    fn drop(&mut self) {
        for client in self.programs.iter_mut().flatten() {
            let _ = client.flush();
            let _ = client.stream.shutdown(Shutdown::Both);
        }
    }
}
