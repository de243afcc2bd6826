//! `dalmuti uecda join`: any of our bots as a UECda client, over TCP.
//!
//! It speaks as the kit's default client does (`connection.c`): its first
//! table, then each game's dealt table, the cards it gives back when rich,
//! and each turn's hand table, play, answer, table and end flag. The
//! [`Follower`] follows the game from the tables so that the bot sees its
//! seat's view, as it does at our own tables.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use dalmuti_bots::BotSpec;
use tracing::{info, warn};

use crate::cells::Cells;
use crate::follow::Follower;
use crate::state::{EndFlag, Hello, PLAYERS, PlayerNo, StateTable};
use crate::wire::{INT_BYTES, Protocol, RawTable, TABLE_BYTES, int_from_bytes};

/// What `dalmuti uecda join` is told.
#[derive(Clone, Debug)]
pub struct JoinConfig {
    /// The server's host name or address.
    pub host: String,
    /// The server's port.
    pub port: u16,
    /// The bot that plays.
    pub bot: BotSpec,
    /// The name sent to the server (a table holds 14 characters).
    pub name: String,
    /// The protocol to speak.
    pub protocol: Protocol,
    /// The bot's randomness (reseeded each game from it).
    pub seed: u64,
}

/// How the match went, as the player saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JoinReport {
    /// The player number the server gave.
    pub player: Option<PlayerNo>,
    /// Games played.
    pub games: u32,
    /// How often the player finished in each place (大富豪 first), where
    /// the tables told it (a game ended by twenty passes in a row places
    /// those left at random, unseen).
    pub places: [u32; PLAYERS],
    /// Points (5 for a 大富豪 … 1 for a 大貧民) over the games whose place
    /// is known.
    pub points: u32,
    /// Decisions the follower could not make sense of, answered safely.
    pub faults: u32,
}

/// A match that could not be played to its end.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// The server could not be reached.
    #[error("connecting to {0}: {1}")]
    Connect(String, std::io::Error),
    /// The connection failed in the middle of the match.
    #[error("the connection failed while {0}: {1}")]
    Io(&'static str, std::io::Error),
    /// The server sent something that is not the protocol.
    #[error("the server sent {0}")]
    Protocol(String),
    /// The bot could not be built.
    #[error("{0}")]
    Bot(String),
}

struct Conn {
    stream: TcpStream,
    protocol: Protocol,
}

impl Conn {
    fn read_table(&mut self, what: &'static str) -> Result<StateTable, JoinError> {
        let mut buf = [0u8; TABLE_BYTES];
        let len = self.protocol.table_bytes();
        self.stream
            .read_exact(&mut buf[..len])
            .map_err(|e| JoinError::Io(what, e))?;
        let raw = RawTable::decode(self.protocol, &buf[..len])
            .map_err(|e| JoinError::Protocol(format!("{what}: {e}")))?;
        StateTable::from_table(&raw).map_err(|e| JoinError::Protocol(format!("{what}: {e}")))
    }

    fn read_int(&mut self, what: &'static str) -> Result<i32, JoinError> {
        let mut buf = [0u8; INT_BYTES];
        self.stream
            .read_exact(&mut buf)
            .map_err(|e| JoinError::Io(what, e))?;
        Ok(int_from_bytes(buf))
    }

    fn send(&mut self, cells: &Cells, what: &'static str) -> Result<(), JoinError> {
        self.stream
            .write_all(&cells.to_table().encode(self.protocol))
            .map_err(|e| JoinError::Io(what, e))
    }
}

/// Joins the server and plays every game of the match with the bot.
pub fn join(config: JoinConfig) -> Result<JoinReport, JoinError> {
    let mut bot = config
        .bot
        .build(config.seed)
        .map_err(|e| JoinError::Bot(e.to_string()))?;
    let address = format!("{}:{}", config.host, config.port);
    let stream = connect(&address)?;
    let _ = stream.set_nodelay(true);
    let mut conn = Conn {
        stream,
        protocol: config.protocol,
    };
    let hello = Hello::new(config.protocol, &config.name);
    conn.stream
        .write_all(&hello.to_table().to_bytes())
        .map_err(|e| JoinError::Io("saying hello", e))?;
    let number = conn.read_int("reading the player number")?;
    let me = usize::try_from(number)
        .ok()
        .and_then(PlayerNo::new)
        .ok_or_else(|| JoinError::Protocol(format!("the player number {number}")))?;
    info!("joined {address} as {me} {:?}", hello.name);
    let mut report = JoinReport {
        player: Some(me),
        ..JoinReport::default()
    };
    let mut follower = Follower::new(me);
    loop {
        let dealt = conn.read_table("reading the cards dealt")?;
        bot.reseed(config.seed ^ u64::from(report.games).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut sane = follow(&mut report, follower.dealt(&dealt), "the cards dealt");
        if (1..100).contains(&dealt.exchange) {
            let owed = dealt.exchange as u32;
            let cells = match sane.then(|| follower.decide(&mut *bot)) {
                Some(Ok(cells)) => cells,
                other => {
                    if let Some(Err(e)) = other {
                        follow(&mut report, Err(e), "the exchange");
                    }
                    // The weakest cards: always ours to give.
                    Cells::of_hand(&dealt.cards.hand().unwrap_or_default().worst(owed))
                }
            };
            conn.send(&cells, "giving back cards")?;
        }
        let mut place = None;
        let end = loop {
            let hand = conn.read_table("reading a hand")?;
            sane &= follow(&mut report, follower.hand(&hand), "a hand");
            if hand.my_turn {
                let cells = match sane.then(|| follower.decide(&mut *bot)) {
                    Some(Ok(cells)) => cells,
                    Some(Err(e)) => {
                        sane = follow(&mut report, Err(e), "a play");
                        Cells::EMPTY
                    }
                    None => Cells::EMPTY,
                };
                conn.send(&cells, "playing")?;
                conn.read_int("reading the answer to a play")?;
            }
            let table = conn.read_table("reading the table")?;
            sane &= follow(&mut report, follower.table(&table), "the table");
            if place.is_none() && table.counts[me.index()] == 0 {
                place = Some(table.counts.iter().filter(|&&c| c == 0).count() - 1);
            }
            let end = EndFlag::from_number(conn.read_int("reading the end flag")?);
            if end != EndFlag::Continue {
                if place.is_none() && table.counts.iter().filter(|&&c| c == 0).count() == 4 {
                    place = Some(PLAYERS - 1);
                }
                break end;
            }
        };
        report.games += 1;
        if let Some(place) = place {
            report.places[place] += 1;
            report.points += (PLAYERS - place) as u32;
        }
        if end == EndFlag::MatchOver {
            info!(
                "the match is over: {} games, {} points",
                report.games, report.points
            );
            return Ok(report);
        }
    }
}

/// Logs what the follower could not make sense of; whether it could.
fn follow(report: &mut JoinReport, result: Result<(), crate::FollowError>, what: &str) -> bool {
    match result {
        Ok(()) => true,
        Err(e) => {
            report.faults += 1;
            warn!(
                "game {}: following {what}: {e}; this game's answers are safe ones (a pass, the weakest cards)",
                report.games + 1
            );
            false
        }
    }
}

fn connect(address: &str) -> Result<TcpStream, JoinError> {
    let addrs: Vec<_> = address
        .to_socket_addrs()
        .map_err(|e| JoinError::Connect(address.into(), e))?
        .collect();
    let mut last = std::io::Error::other("no address");
    for addr in addrs {
        match TcpStream::connect_timeout(&addr, Duration::from_secs(10)) {
            Ok(s) => return Ok(s),
            Err(e) => last = e,
        }
    }
    Err(JoinError::Connect(address.into(), last))
}
