//! The last lines of chat and of table news a table keeps, so that a
//! reload, a reconnection or a server restart shows them again
//! (`docs/PROTOCOL.md`, Chat and news).
//!
//! News is structured (a `kind` and names or numbers), never a sentence:
//! each client words it in its own language. Chat and news share one
//! count per table, `n`, so a client can tell which lines it has seen.

use std::collections::VecDeque;

use serde::Serialize;
use serde_json::{Value, json};

use crate::store::{Store, StoreError, TalkKind, TalkRow};

/// How many lines of chat, and how many of news, a table keeps.
pub const KEPT: usize = 50;

/// Something that happened at a table, as its news says it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum News {
    /// A seat taken before the start (`bot`: the bot's level).
    Seat {
        /// Who.
        name: String,
        /// The bot's level, or null for a person.
        bot: Option<String>,
    },
    /// A seat freed before the start, or a newcomer gone before entering.
    Unseat {
        /// Who.
        name: String,
    },
    /// The game started.
    Start,
    /// Hand number `hand` was dealt.
    Hand {
        /// Its number, from 1.
        hand: usize,
    },
    /// A newcomer waits for the next hand.
    Waiting {
        /// Who.
        name: String,
        /// The bot's level, or null for a person.
        bot: Option<String>,
    },
    /// A newcomer entered at `seat`.
    Join {
        /// Who.
        name: String,
        /// The seat of play, from 0.
        seat: usize,
    },
    /// A player leaves when the hand ends.
    Leaving {
        /// Who.
        name: String,
    },
    /// A player left.
    Leave {
        /// Who.
        name: String,
    },
    /// A player is gone past the grace period: a bot plays for them.
    Away {
        /// Who.
        name: String,
    },
    /// A player who was away is back.
    Back {
        /// Who.
        name: String,
    },
    /// A player called a revolution.
    Revolution {
        /// Who.
        name: String,
    },
    /// The game is over.
    Over {
        /// The first in the final standings (see `results`).
        winner: Option<String>,
    },
    /// The host asked for a rematch at table `table`.
    Rematch {
        /// The new table's id.
        table: String,
    },
    /// The host let spectators chat, or stopped them.
    SpectatorChat {
        /// Whether they may now.
        allowed: bool,
    },
}

/// The kept lines of one table, and the next line's number.
#[derive(Clone, Debug, Default)]
pub struct Talk {
    chat: VecDeque<Value>,
    news: VecDeque<Value>,
    next: u64,
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl Talk {
    /// The lines table `id` kept in the store.
    pub fn load(store: &dyn Store, id: &str) -> Result<Talk, StoreError> {
        let mut talk = Talk {
            next: 1,
            ..Talk::default()
        };
        for (kind, lines) in [
            (TalkKind::Chat, &mut talk.chat),
            (TalkKind::News, &mut talk.news),
        ] {
            for (n, line) in store.talk(id, kind)? {
                // A line that does not read is skipped, not fatal: it is
                // only talk.
                if let Ok(line) = serde_json::from_str(&line) {
                    lines.push_back(line);
                }
                talk.next = talk.next.max(n + 1);
            }
        }
        Ok(talk)
    }

    /// A chat line from `from` (null for a spectator who gave no name),
    /// numbered; not yet kept.
    pub fn chat_line(&mut self, from: Option<&str>, spectator: bool, text: &str) -> Value {
        let n = self.number();
        json!({ "n": n, "at": now_ms(), "from": from, "spectator": spectator, "text": text })
    }

    /// A news line, numbered; not yet kept.
    pub fn news_line(&mut self, news: &News) -> Value {
        let mut line = json!({ "n": self.number(), "at": now_ms() });
        if let (Value::Object(line), Ok(Value::Object(news))) =
            (&mut line, serde_json::to_value(news))
        {
            line.extend(news);
        }
        line
    }

    fn number(&mut self) -> u64 {
        let n = self.next.max(1);
        self.next = n + 1;
        n
    }

    /// The row that keeps `line` in the store.
    pub fn row(table: &str, kind: TalkKind, line: &Value) -> TalkRow {
        TalkRow {
            table: table.to_string(),
            n: line["n"].as_u64().unwrap_or(0),
            kind,
            line: line.to_string(),
            keep: KEPT,
        }
    }

    /// Keeps a line the store holds in memory (the newest [`KEPT`] of its
    /// kind).
    pub fn remember(&mut self, kind: TalkKind, line: Value) {
        let lines = match kind {
            TalkKind::Chat => &mut self.chat,
            TalkKind::News => &mut self.news,
        };
        lines.push_back(line);
        while lines.len() > KEPT {
            lines.pop_front();
        }
    }

    /// The kept chat lines, oldest first.
    pub fn chat(&self) -> Value {
        Value::Array(self.chat.iter().cloned().collect())
    }

    /// The kept news lines, oldest first.
    pub fn news(&self) -> Value {
        Value::Array(self.news.iter().cloned().collect())
    }
}

/// Who says a chat line: a seat by its token, or a spectator with the
/// name it gave (if any) and the address it connected from.
#[derive(Clone, Debug)]
pub enum Speaker {
    /// A seat's token.
    Seat(String),
    /// A spectator, the name it gave in `hello` and its address.
    Spectator {
        /// The name it gave in `hello`, if any.
        name: Option<String>,
        /// Where it connected from.
        from: std::net::IpAddr,
    },
}

/// Whose lines of chat are counted together: a seat's on every connection
/// it holds, the spectators' of one address whatever names they give
/// (issue 24, S4: sixty connections of one seat filled the history).
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub(in crate::table) enum Voice {
    Seat(String),
    Spectators(std::net::IpAddr),
}

/// Lines of chat a voice may say at once, and then one a second (a line
/// is kept and sent to everyone at the table, and pushes the oldest kept
/// line out).
pub const CHAT_BURST: u32 = 5;

/// The chat limit of every voice at a table.
pub(in crate::table) fn chat_limit() -> governor::DefaultKeyedRateLimiter<Voice> {
    let burst = std::num::NonZeroU32::new(CHAT_BURST).expect("a burst of lines");
    governor::RateLimiter::keyed(
        governor::Quota::per_second(std::num::NonZeroU32::MIN).allow_burst(burst),
    )
}
