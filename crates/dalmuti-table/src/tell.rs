//! What a viewer is told of a table: the STATE messages built for one seat
//! (or a spectator) from the table's fold, the same for the server's
//! sockets and the browser's offline engine (a Web Worker), so that both
//! say the same thing the same way.

use crate::error::TableError;
use crate::protocol::{
    ChatLine, ErrorKind, Missed, NewsLine, ServerMsg, StateKind, StateMsg, Told,
};
use crate::state::{Live, TableState};

impl TableError {
    /// The kind of refusal this is, for programs (`docs/PROTOCOL.md`).
    ///
    /// ```
    /// use dalmuti_table::TableError;
    /// use dalmuti_table::error::Conflict;
    /// use dalmuti_table::protocol::ErrorKind;
    /// assert_eq!(TableError::BadToken.kind(), ErrorKind::BadToken);
    /// assert_eq!(TableError::from(Conflict::Started).kind(), ErrorKind::Conflict);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        match self {
            TableError::BadRequest(_) => ErrorKind::BadRequest,
            TableError::BadToken => ErrorKind::BadToken,
            TableError::Conflict(_) => ErrorKind::Conflict,
            TableError::Illegal(_) => ErrorKind::Illegal,
            TableError::Storage(_) => ErrorKind::Storage,
        }
    }
}

impl TableState {
    /// The message telling lobby seat `who` (a spectator if `None`) of
    /// the table now: a STATE sent because of `kind`, with event `event`
    /// described as `who` may know it.
    ///
    /// ```
    /// use dalmuti_table::protocol::{MsgType, StateKind};
    /// use dalmuti_table::row::TableRow;
    /// use dalmuti_table::state::{Live, TableState};
    /// let table = TableState::new(TableRow { seats: 4, ..TableRow::default() }).unwrap();
    /// let msg = table.told(StateKind::Presence, None, None, &Live::default());
    /// assert_eq!((msg.t(), msg.v), (MsgType::Presence, 0));
    /// ```
    pub fn told(
        &self,
        kind: StateKind,
        event: Option<u64>,
        who: Option<usize>,
        live: &Live,
    ) -> ServerMsg {
        ServerMsg {
            v: self.v(),
            told: Told::State(
                kind,
                Box::new(StateMsg {
                    e: event.and_then(|v| self.describe(v, who)),
                    ..self.state(who, live).into()
                }),
            ),
        }
    }

    /// The `resync` that follows a refusal: the table as `who` may see it,
    /// with the refusal's words and kind.
    pub fn resync(
        &self,
        reason: String,
        kind: ErrorKind,
        who: Option<usize>,
        live: &Live,
    ) -> ServerMsg {
        let state = StateMsg {
            error: Some(reason),
            error_kind: Some(kind),
            ..self.state(who, live).into()
        };
        ServerMsg {
            v: self.v(),
            told: Told::State(StateKind::Resync, Box::new(state)),
        }
    }

    /// The answer to a `hello` from `who`, who last saw event `seen`: a
    /// `catchup` with every event since, described as `who` may know them,
    /// when `seen` is at most `catchup` events behind; a `snapshot`
    /// otherwise. Both carry the talk kept.
    pub fn greeting(
        &self,
        seen: u64,
        catchup: u64,
        who: Option<usize>,
        live: &Live,
        chat: Vec<ChatLine>,
        news: Vec<NewsLine>,
    ) -> ServerMsg {
        let current = self.v();
        let catching_up = seen != 0 && seen <= current && current - seen <= catchup;
        let first = StateMsg {
            missed: catching_up.then(|| {
                (seen + 1..=current)
                    .filter_map(|k| {
                        Some(Missed {
                            v: k,
                            e: self.describe(k, who)?,
                        })
                    })
                    .collect()
            }),
            chat: Some(chat),
            news: Some(news),
            ..self.state(who, live).into()
        };
        let kind = if catching_up {
            StateKind::Catchup
        } else {
            StateKind::Snapshot
        };
        ServerMsg {
            v: current,
            told: Told::State(kind, Box::new(first)),
        }
    }
}
