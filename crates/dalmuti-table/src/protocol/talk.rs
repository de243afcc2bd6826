//! The lines of chat and of table news (`docs/PROTOCOL.md`, Chat and
//! news). Chat and news share one count per table, `n`, so a client can
//! tell which lines it has seen.
//!
//! News is structured (a `kind` and names or numbers), never a sentence:
//! each client words it in its own language.

use serde::{Deserialize, Serialize};

use crate::ids::TableId;
use crate::names::PlayerName;
use crate::rating::RatingChange;

use super::MsgType;
use crate::row::TalkKind;

/// Something that happened at a table, as its news says it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum News {
    /// A seat taken before the start (`bot`: the bot's level).
    Seat {
        /// Who.
        name: PlayerName,
        /// The bot's level, or null for a person.
        bot: Option<String>,
        /// The bot's number when the server named it ("normal bot 3"),
        /// so that a client says the name in its player's words.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot_n: Option<u32>,
    },
    /// A seat freed before the start, or a newcomer gone before entering.
    Unseat {
        /// Who.
        name: PlayerName,
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
        name: PlayerName,
        /// The bot's level, or null for a person.
        bot: Option<String>,
        /// The bot's number, as in `Seat`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot_n: Option<u32>,
    },
    /// A newcomer entered at `seat`.
    Join {
        /// Who.
        name: PlayerName,
        /// The seat of play, from 0.
        seat: usize,
    },
    /// A player leaves when the hand ends.
    Leaving {
        /// Who.
        name: PlayerName,
    },
    /// A player left.
    Leave {
        /// Who.
        name: PlayerName,
    },
    /// A player is gone past the grace period: a bot plays for them.
    Away {
        /// Who.
        name: PlayerName,
    },
    /// A player who was away is back.
    Back {
        /// Who.
        name: PlayerName,
    },
    /// A player called a revolution.
    Revolution {
        /// Who.
        name: PlayerName,
    },
    /// The game is over.
    Over {
        /// The first in the final standings (see `results`).
        winner: Option<PlayerName>,
    },
    /// The host asked for a rematch at table `table`.
    Rematch {
        /// The new table's id.
        table: TableId,
    },
    /// The host removed a seat's chat: its lines are gone, and it may
    /// chat no more at this table.
    ChatRemoved {
        /// Whose.
        name: PlayerName,
    },
    /// The host let spectators chat, or stopped them.
    SpectatorChat {
        /// Whether they may now.
        allowed: bool,
    },
    /// The game over moved the ratings (a rated game that counted): each
    /// player's, and each bot level's once.
    Rated {
        /// How each moved, in the order of the final standings.
        ratings: Vec<RatingChange>,
    },
}

/// A line of chat.
///
/// ```
/// use dalmuti_table::{names::PlayerName, protocol::ChatLine};
/// let from = Some(PlayerName::new("Ada").unwrap());
/// let line = ChatLine { n: 4, at: 1_700_000_000_000, from, spectator: false, text: "gg".into() };
/// let text = serde_json::to_string(&line).unwrap();
/// assert_eq!(text, r#"{"n":4,"at":1700000000000,"from":"Ada","spectator":false,"text":"gg"}"#);
/// assert_eq!(serde_json::from_str::<ChatLine>(&text).unwrap(), line);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// The line's number, counted with the news.
    pub n: u64,
    /// When it was said, in milliseconds since the Unix epoch.
    pub at: u64,
    /// Who said it (null for a spectator who gave no name).
    pub from: Option<PlayerName>,
    /// Whether a spectator said it.
    pub spectator: bool,
    /// What was said.
    pub text: String,
}

/// A line of the table's news.
///
/// ```
/// use dalmuti_table::protocol::{News, NewsLine};
/// let line = NewsLine { n: 5, at: 9, news: News::Hand { hand: 2 } };
/// assert_eq!(serde_json::to_string(&line).unwrap(), r#"{"n":5,"at":9,"kind":"hand","hand":2}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NewsLine {
    /// The line's number, counted with the chat.
    pub n: u64,
    /// When it happened, in milliseconds since the Unix epoch.
    pub at: u64,
    /// What happened.
    #[serde(flatten)]
    pub news: News,
}

/// A line of talk: chat or news.
#[derive(Clone, Debug, PartialEq)]
pub enum TalkLine {
    /// A line of chat.
    Chat(ChatLine),
    /// A line of news.
    News(NewsLine),
}

impl TalkLine {
    /// Its number.
    pub fn n(&self) -> u64 {
        match self {
            TalkLine::Chat(line) => line.n,
            TalkLine::News(line) => line.n,
        }
    }

    /// Which kind of talk it is.
    pub fn kind(&self) -> TalkKind {
        match self {
            TalkLine::Chat(_) => TalkKind::Chat,
            TalkLine::News(_) => TalkKind::News,
        }
    }

    /// The type of the message that says it.
    pub fn t(&self) -> MsgType {
        match self {
            TalkLine::Chat(_) => MsgType::Chat,
            TalkLine::News(_) => MsgType::News,
        }
    }

    /// The line as JSON text, as the store keeps it.
    pub fn to_text(&self) -> String {
        match self {
            TalkLine::Chat(line) => serde_json::to_string(line),
            TalkLine::News(line) => serde_json::to_string(line),
        }
        .expect("a line serializes")
    }
}

/// Whether a chat line may not hold `c`: a control character (escape,
/// carriage return, line feed, tab…: a colour code in a terminal, a
/// forged line in a log or in `dalmuti serve --list-reports`), a line or
/// paragraph separator, or a control of text direction (which reorders
/// the text around it). A chat line is one line of plain text.
///
/// ```
/// use dalmuti_table::protocol::unprintable;
/// assert!(unprintable('\u{1b}') && unprintable('\n') && unprintable('\u{202e}'));
/// assert!(!unprintable('é') && !unprintable('👍') && !unprintable(' '));
/// ```
pub fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` fit to print on a terminal or in a log: each [`unprintable`]
/// character, and the backslash, written as an escape (`\u{1b}`, `\n`,
/// `\\`), so that what a stranger typed never acts on the operator's
/// screen nor passes for another line. For lines kept before chat
/// refused such characters.
///
/// ```
/// use dalmuti_table::protocol::printable;
/// assert_eq!(printable("gg"), "gg");
/// assert_eq!(printable("a\u{1b}[31mb\nc\\d"), "a\\u{1b}[31mb\\nc\\\\d");
/// ```
pub fn printable(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || unprintable(c) {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}
