//! A match's messages as text, one a line, in the order they crossed the
//! wire: what `dalmuti uecda serve --transcript` writes, and the form of
//! the fixtures recorded from the reference server (the crate's
//! `examples/capture.rs`, a recording proxy; `tests/fixtures/README.md`).
//!
//! A line is the player's number, `>` for a message to the server or `<`
//! for one to the player, and the message: `t` and a table's nonzero cells
//! (`row.column=value`, [`RawTable`]'s text form), `h` and a table of
//! protocol 20140's 33 characters, or `i` and an integer. Lines starting
//! with `#` are comments.
//!
//! ```
//! use dalmuti_uecda::transcript::{Direction, Line, Message, Transcript};
//! use dalmuti_uecda::PlayerNo;
//! let text = "# a pass answered 8\n3 > t\n3 < i 8\n";
//! let transcript: Transcript = text.parse().unwrap();
//! let p3 = PlayerNo::new(3).unwrap();
//! assert_eq!(transcript.lines[1], Line { player: p3, direction: Direction::ToPlayer, message: Message::Int(8) });
//! assert_eq!(transcript.to_string(), text);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::state::PlayerNo;
use crate::wire::{HEX_BYTES, RawTable};

/// Which way a message went.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From the player to the server (`>`).
    ToServer,
    /// From the server to the player (`<`).
    ToPlayer,
}

/// One message.
// Most messages are tables: boxing them would not make a transcript
// smaller.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Message {
    /// A table of protocol 20070.
    Table(RawTable),
    /// A table of protocol 20140, as its 33 characters.
    Hex([u8; HEX_BYTES]),
    /// An integer.
    Int(i32),
}

/// One line: a message and who it went between.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    /// The player (the connection).
    pub player: PlayerNo,
    /// Which way.
    pub direction: Direction,
    /// What.
    pub message: Message,
}

/// A whole transcript: its comments (at the top) and its lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    /// The comment lines at the top, without their `#`.
    pub comments: Vec<String>,
    /// The messages in order.
    pub lines: Vec<Line>,
}

impl Transcript {
    /// The messages between the server and one player, in order.
    pub fn of_player(&self, player: PlayerNo) -> impl Iterator<Item = &Line> + '_ {
        self.lines.iter().filter(move |l| l.player == player)
    }
}

/// A line of a transcript that cannot be read: which, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("transcript line {line}: {why}")]
pub struct BadLine {
    /// The line's number, from 1.
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let arrow = match self.direction {
            Direction::ToServer => '>',
            Direction::ToPlayer => '<',
        };
        write!(f, "{} {arrow} ", self.player.index())?;
        match &self.message {
            Message::Table(t) if t.nonzero().next().is_none() => f.write_str("t"),
            Message::Table(t) => write!(f, "t {t}"),
            Message::Hex(h) => write!(f, "h {}", String::from_utf8_lossy(h)),
            Message::Int(n) => write!(f, "i {n}"),
        }
    }
}

impl FromStr for Line {
    type Err = String;

    fn from_str(text: &str) -> Result<Line, String> {
        let mut parts = text.splitn(4, ' ');
        let player = parts
            .next()
            .and_then(|p| p.parse::<usize>().ok())
            .and_then(PlayerNo::new)
            .ok_or("a line starts with a player's number, 0 to 4")?;
        let direction = match parts.next() {
            Some(">") => Direction::ToServer,
            Some("<") => Direction::ToPlayer,
            _ => return Err("the player's number is followed by > or <".into()),
        };
        let kind = parts.next().ok_or("a message is t, h or i")?;
        let rest = parts.next().unwrap_or("");
        let message = match kind {
            "t" => Message::Table(rest.parse().map_err(|e| format!("{e}"))?),
            "h" => Message::Hex(
                rest.as_bytes()
                    .try_into()
                    .map_err(|_| format!("a 20140 table is {HEX_BYTES} characters"))?,
            ),
            "i" => Message::Int(
                rest.parse()
                    .map_err(|_| format!("{rest:?} is no integer"))?,
            ),
            _ => return Err(format!("{kind:?} is no message: t, h or i")),
        };
        Ok(Line {
            player,
            direction,
            message,
        })
    }
}

impl fmt::Display for Transcript {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.comments {
            writeln!(f, "#{c}")?;
        }
        for line in &self.lines {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

impl FromStr for Transcript {
    type Err = BadLine;

    fn from_str(text: &str) -> Result<Transcript, BadLine> {
        let mut out = Transcript::default();
        for (i, line) in text.lines().enumerate() {
            if let Some(comment) = line.strip_prefix('#') {
                if out.lines.is_empty() {
                    out.comments.push(comment.to_string());
                }
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            out.lines
                .push(line.parse().map_err(|why| BadLine { line: i + 1, why })?);
        }
        Ok(out)
    }
}
