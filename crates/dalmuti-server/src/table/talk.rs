//! The last lines of chat and of table news a table keeps, so that a
//! reload, a reconnection or a server restart shows them again
//! (`docs/PROTOCOL.md`, Chat and news).
//!
//! News is structured (a `kind` and names or numbers), never a sentence:
//! each client words it in its own language. Chat and news share one
//! count per table, `n`, so a client can tell which lines it has seen.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;

use crate::ids::TableId;
use crate::names::PlayerName;
use crate::protocol::{ChatLine, News, NewsLine, TalkLine};
use crate::store::{Store, StoreError, TalkKind, TalkRow};
use crate::token::SeatToken;

/// How many lines of chat, and how many of news, a table keeps.
pub const KEPT: usize = 50;

/// The kept lines of one table, and the next line's number.
#[derive(Clone, Debug, Default)]
pub struct Talk {
    chat: VecDeque<ChatLine>,
    news: VecDeque<NewsLine>,
    next: u64,
    /// Where each seat chatted from (the last few addresses): what a
    /// silence holds beside the seat's name ([`crate::store::Silenced`]).
    heard_from: HashMap<PlayerName, VecDeque<IpAddr>>,
}

/// Addresses remembered per seat.
const HEARD_FROM: usize = 4;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl Talk {
    /// The lines table `id` kept in the store.
    pub fn load(store: &dyn Store, id: &TableId) -> Result<Talk, StoreError> {
        let mut talk = Talk {
            next: 1,
            ..Talk::default()
        };
        for kind in [TalkKind::Chat, TalkKind::News] {
            for (n, line) in store.talk(id, kind)? {
                // A line that does not read is skipped, not fatal: it is
                // only talk.
                if let Some(line) = line {
                    talk.remember(line);
                }
                talk.next = talk.next.max(n + 1);
            }
        }
        Ok(talk)
    }

    /// A chat line from `from` (null for a spectator who gave no name),
    /// numbered; not yet kept.
    pub fn chat_line(
        &mut self,
        from: Option<&PlayerName>,
        spectator: bool,
        text: &str,
    ) -> TalkLine {
        TalkLine::Chat(ChatLine {
            n: self.number(),
            at: now_ms(),
            from: from.cloned(),
            spectator,
            text: text.to_string(),
        })
    }

    /// A news line, numbered; not yet kept.
    pub fn news_line(&mut self, news: News) -> TalkLine {
        TalkLine::News(NewsLine {
            n: self.number(),
            at: now_ms(),
            news,
        })
    }

    fn number(&mut self) -> u64 {
        let n = self.next.max(1);
        self.next = n + 1;
        n
    }

    /// The row that keeps `line` in the store.
    pub fn row(table: &TableId, line: &TalkLine) -> TalkRow {
        TalkRow {
            table: table.clone(),
            line: line.clone(),
            keep: KEPT,
        }
    }

    /// Keeps a line the store holds in memory (the newest [`KEPT`] of its
    /// kind).
    pub fn remember(&mut self, line: TalkLine) {
        fn keep<T>(lines: &mut VecDeque<T>, line: T) {
            lines.push_back(line);
            while lines.len() > KEPT {
                lines.pop_front();
            }
        }
        match line {
            TalkLine::Chat(line) => keep(&mut self.chat, line),
            TalkLine::News(line) => keep(&mut self.news, line),
        }
    }

    /// Forgets the kept chat lines of seat `name`; answers their numbers.
    pub fn forget_seat_lines(&mut self, name: &PlayerName) -> Vec<u64> {
        let gone: Vec<u64> = self
            .chat
            .iter()
            .filter(|l| !l.spectator && l.from.as_ref() == Some(name))
            .map(|l| l.n)
            .collect();
        self.chat.retain(|l| !gone.contains(&l.n));
        gone
    }

    /// Seat `name` chatted from `from`.
    pub fn heard(&mut self, name: &PlayerName, from: IpAddr) {
        let from = crate::limits::address_key(from);
        let heard = self.heard_from.entry(name.clone()).or_default();
        if !heard.contains(&from) {
            heard.push_back(from);
            if heard.len() > HEARD_FROM {
                heard.pop_front();
            }
        }
    }

    /// The addresses seat `name` chatted from, as of now.
    pub fn heard_from(&self, name: &PlayerName) -> Vec<IpAddr> {
        self.heard_from
            .get(name)
            .map(|h| h.iter().copied().collect())
            .unwrap_or_default()
    }

    /// The kept chat line numbered `n`, if it is still kept.
    pub fn kept_chat_line(&self, n: u64) -> Option<&ChatLine> {
        self.chat.iter().find(|l| l.n == n)
    }

    /// The kept chat lines, oldest first.
    pub fn chat(&self) -> Vec<ChatLine> {
        self.chat.iter().cloned().collect()
    }

    /// The kept news lines, oldest first.
    pub fn news(&self) -> Vec<NewsLine> {
        self.news.iter().cloned().collect()
    }
}

/// Who says a chat line: a seat by its token, or a spectator with the
/// name it gave (if any); each with the address it connected from.
#[derive(Clone, Debug)]
pub enum Speaker {
    /// A seat, by its token.
    Seat {
        /// The seat's token.
        token: SeatToken,
        /// Where it connected from.
        from: IpAddr,
    },
    /// A spectator, the name it gave in `hello` and its address.
    Spectator {
        /// The name it gave in `hello`, if any.
        name: Option<PlayerName>,
        /// Where it connected from.
        from: IpAddr,
    },
}

/// Whose lines of chat are counted together: a seat's on every connection
/// it holds, the spectators' of one address whatever names they give
/// (issue 24, S4: sixty connections of one seat filled the history).
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub(in crate::table) enum Voice {
    Seat(PlayerName),
    Spectators(std::net::IpAddr),
}

/// Lines of chat a voice may say at once, and then one a second (a line
/// is kept and sent to everyone at the table, and pushes the oldest kept
/// line out).
pub const CHAT_BURST: u32 = 5;

/// Lines of chat one player who kept a name may say at once over all
/// their tables, then one a second: the limit is theirs, not their
/// seat's, so a second table or a second seat does not double it.
pub const PLAYER_CHAT_BURST: u32 = 8;

/// The chat limit of every player who kept a name, shared by every table
/// of the node (one per [`crate::table::Context`]).
pub fn player_chat_limit() -> governor::DefaultKeyedRateLimiter<String> {
    let burst = std::num::NonZeroU32::new(PLAYER_CHAT_BURST).expect("a burst of lines");
    governor::RateLimiter::keyed(
        governor::Quota::per_second(std::num::NonZeroU32::MIN).allow_burst(burst),
    )
}

/// The chat limit of every voice at a table.
pub(in crate::table) fn chat_limit() -> governor::DefaultKeyedRateLimiter<Voice> {
    let burst = std::num::NonZeroU32::new(CHAT_BURST).expect("a burst of lines");
    governor::RateLimiter::keyed(
        governor::Quota::per_second(std::num::NonZeroU32::MIN).allow_burst(burst),
    )
}
