//! When a table leaves memory (`docs/PROTOCOL.md`, Limits): a table that
//! never starts expires, and so does a game every human has left; a
//! finished game becomes a record in the store once its players are gone.
//! Expired tables are deleted; finished ones are kept, up to a bound.

use std::time::Duration;

use tokio::time::Instant;

/// How long tables live, from the server's [`crate::Config`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lifetimes {
    /// A table not started this long after its creation (or the server's
    /// start) expires.
    pub unstarted: Duration,
    /// A started game with no human seat connected this long expires.
    pub abandoned: Duration,
    /// A finished game stays live at most this long after its end (less
    /// if its last human connection closes first).
    pub finished: Duration,
    /// The most finished games kept in the store, oldest pruned first.
    pub max_finished: usize,
}

/// Why a table leaves memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retire {
    /// Never started, or abandoned: deleted with its log.
    Expired,
    /// Its game is over: kept in the store as a record.
    Finished,
    /// Another node serves it now (its lease was lost, or this node is
    /// stopping and handed it over): its clients reconnect.
    Moved,
}

impl Retire {
    /// The reason given to connections still open when it happens.
    pub fn reason(self) -> &'static str {
        match self {
            Retire::Expired => "this table expired: it was not played",
            Retire::Finished => "the game is over",
            Retire::Moved => crate::error::MOVED,
        }
    }
}

/// What the rule looks at.
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    /// When the table was created or loaded.
    pub born: Instant,
    /// Whether play has started.
    pub started: bool,
    /// When the game was seen to be over, if it is.
    pub over_since: Option<Instant>,
    /// Whether a human seat has a connection now.
    pub humans_connected: bool,
    /// Since when no human seat has had a connection (meaningful while
    /// none has).
    pub idle_since: Instant,
}

/// When the table should leave memory, and why; `None` while it is in
/// use.
pub fn due(lifetimes: &Lifetimes, facts: &Facts) -> Option<(Instant, Retire)> {
    if let Some(over) = facts.over_since {
        let at = if facts.humans_connected {
            over + lifetimes.finished
        } else {
            over
        };
        return Some((at, Retire::Finished));
    }
    if !facts.started {
        return Some((facts.born + lifetimes.unstarted, Retire::Expired));
    }
    (!facts.humans_connected).then(|| (facts.idle_since + lifetimes.abandoned, Retire::Expired))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIFETIMES: Lifetimes = Lifetimes {
        unstarted: Duration::from_secs(1800),
        abandoned: Duration::from_secs(3600),
        finished: Duration::from_secs(600),
        max_finished: 10,
    };

    #[test]
    fn each_kind_of_table_has_its_time() {
        let t0 = Instant::now();
        let facts = Facts {
            born: t0,
            started: false,
            over_since: None,
            humans_connected: true,
            idle_since: t0,
        };
        // Unstarted: from its birth, connected or not.
        let unstarted = due(&LIFETIMES, &facts);
        assert_eq!(unstarted, Some((t0 + LIFETIMES.unstarted, Retire::Expired)));
        // Started: only while nobody is connected.
        let playing = Facts {
            started: true,
            ..facts
        };
        assert_eq!(due(&LIFETIMES, &playing), None);
        let later = t0 + Duration::from_secs(5);
        let left = Facts {
            humans_connected: false,
            idle_since: later,
            ..playing
        };
        assert_eq!(
            due(&LIFETIMES, &left),
            Some((later + LIFETIMES.abandoned, Retire::Expired))
        );
        // Over: at once when nobody is connected, else after a while.
        let over = Facts {
            over_since: Some(later),
            ..playing
        };
        assert_eq!(
            due(&LIFETIMES, &over),
            Some((later + LIFETIMES.finished, Retire::Finished))
        );
        let over_alone = Facts {
            humans_connected: false,
            ..over
        };
        assert_eq!(
            due(&LIFETIMES, &over_alone),
            Some((later, Retire::Finished))
        );
    }
}
