//! The actor's state: the table's log and what is live beyond it.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use dalmuti_bots::Bot;
use dalmuti_core::{Action, Decision, Seed};
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

use super::Refusal;
use super::context::Context;
use super::expiry::Retire;
use super::replay::replay_log;
use super::state::{Placement, TableState};
use super::talk::Talk;
use super::talk::{Voice, chat_limit};
use super::{CHANNEL, TableInfo};
use crate::bots::{self, Level};
use crate::error::ServerError;
use crate::metrics::{LiveTable, Metrics, StoreOp};
use crate::names::PlayerName;
use crate::protocol::Outgoing;
use crate::protocol::StateKind;
use crate::store::Store;
use crate::token::SeatToken;

/// What is live of one seat beyond the log: its feed and connections,
/// its timers, and its bot. Forgotten with the seat.
#[derive(Default)]
pub(crate) struct Occupant {
    /// Messages for this seat (its connections subscribe), once it had one.
    pub(super) feed: Option<broadcast::Sender<Arc<Outgoing>>>,
    /// Open connections.
    pub(super) connections: usize,
    /// Since when a person has had no connection (`None`: connected).
    pub(super) gone_since: Option<Instant>,
    /// Gone past the grace period: a stand-in plays for them.
    pub(super) away: bool,
    /// The seat's bot or a person's stand-in; out while thinking.
    pub(super) bot: Option<Box<dyn Bot>>,
    /// Since when a person's decision has been waiting (the turn timer).
    pub(super) turn_since: Option<Instant>,
    /// A contest program seated here, waiting for the start
    /// ([`crate::programs`]); then [`BotRoom::contest`] holds it.
    pub(super) program: Option<dalmuti_uecda::Program>,
}

pub(crate) struct Actor {
    pub(super) state: TableState,
    pub(super) ctx: Context,
    /// What is live of each seat, by seat name.
    pub(super) occupants: HashMap<PlayerName, Occupant>,
    /// The table's timers and moments.
    pub(super) clocks: Clocks,
    /// The bots' side: who is thinking and what they chose.
    pub(super) bots: BotRoom,
    /// What the table says beyond each seat's feed.
    pub(super) feeds: Feeds,
    pub(super) retired: Arc<OnceLock<Retire>>,
    /// This table in the node's metrics, if it is one of its live tables
    /// ([`Actor::counted`]); dropped with the actor.
    pub(super) gauge: Option<LiveTable>,
    /// When the action being handled reached the actor: its broadcast
    /// is timed from then (`dalmuti_action_broadcast_seconds`).
    pub(super) arrived: Option<std::time::Instant>,
}

/// The table's timers and moments: what its loop waits for next
/// ([`Actor::next_wake`](super::clock)) and how old and idle it is.
pub(crate) struct Clocks {
    /// When the next bot (or stand-in) is due to think.
    pub(super) bot_at: Option<Instant>,
    /// When the current hand's setup pause ends, and whether the people
    /// still to say ready have been made ready since.
    pub(super) setup_until: Option<Instant>,
    pub(super) setup_readied: bool,
    /// When the next hand is dealt.
    pub(super) deal_at: Option<Instant>,
    /// A finished hand's placement, shown until then.
    pub(super) place: Option<(Placement, Instant)>,
    /// When the table was created or loaded.
    pub(super) born: Instant,
    /// Since when no human seat has had a connection.
    pub(super) idle_since: Instant,
    /// When the game was seen to be over.
    pub(super) over_since: Option<Instant>,
    /// The same, in milliseconds since the Unix epoch.
    pub(super) finished_at: Option<u64>,
    /// A failed retirement is tried again then.
    pub(super) retry_retire: Option<Instant>,
}

impl Clocks {
    fn new(now: Instant) -> Clocks {
        Clocks {
            bot_at: None,
            setup_until: None,
            setup_readied: false,
            deal_at: None,
            place: None,
            born: now,
            idle_since: now,
            over_since: None,
            finished_at: None,
            retry_retire: None,
        }
    }
}

/// The bots' side of the table: one thinks at a time, on the blocking
/// pool, and its answer comes back on `rx`.
pub(crate) struct BotRoom {
    /// A bot is thinking now.
    pub(super) thinking: bool,
    /// Bots' setup choices made during the setup pause, told only when it
    /// ends, all together: how long a bot thought (longer, dealt both
    /// Jesters) is nobody's to see (issue 24, S8). By seat name: the
    /// action and whether a stand-in chose it.
    pub(super) held: Vec<(PlayerName, Action, bool)>,
    /// Tests: deal seeds follow from this seed instead of the OS.
    pub(super) test_seed: Option<Seed>,
    pub(super) tx: mpsc::Sender<BotDone>,
    pub(super) rx: mpsc::Receiver<BotDone>,
    /// The contest programs playing seats of this game, told of every
    /// change to it; locked by one blocking task at a time.
    pub(super) contest: Option<Arc<std::sync::Mutex<dalmuti_uecda::ContestSeats>>>,
    /// The seats a contest program plays (the rest of its seats' bots are
    /// stand-ins), kept here so that the actor never waits for the lock.
    pub(super) programs: Vec<PlayerName>,
}

impl BotRoom {
    fn new() -> BotRoom {
        let (tx, rx) = mpsc::channel(4);
        BotRoom {
            thinking: false,
            held: Vec::new(),
            test_seed: None,
            tx,
            rx,
            contest: None,
            programs: Vec::new(),
        }
    }
}

/// What the table says beyond each seat's own feed: the spectators'
/// feed, chat and news.
pub(crate) struct Feeds {
    pub(super) spectators: broadcast::Sender<Arc<Outgoing>>,
    /// The last lines of chat and news.
    pub(super) talk: Talk,
    pub(super) chat_limit: governor::DefaultKeyedRateLimiter<Voice>,
    /// People back from away, for the news once their subscription is
    /// answered.
    pub(super) back: Vec<PlayerName>,
}

/// A bot's answer, back from the blocking pool.
pub(crate) struct BotDone {
    pub(super) name: PlayerName,
    /// `None` if it panicked: the seat's bot is built afresh.
    pub(super) bot: Option<Box<dyn Bot>>,
    pub(super) action: Action,
    /// A stand-in for a human seat (not the seat's own bot).
    pub(super) stand_in: bool,
    /// Contest programs lost while this one was asked: their seats' names
    /// and why.
    pub(super) lost: Vec<(String, String)>,
}

impl Actor {
    /// An actor of a live table of this node, counted in the metrics
    /// (`dalmuti_tables`, `dalmuti_seats`) while it runs; a finished game
    /// served to one connection ([`super::revive`]) is not.
    pub(super) fn counted(mut self) -> Actor {
        self.gauge = Some(self.ctx.metrics.live_table());
        self.count_seats();
        self
    }

    pub(super) fn new(ctx: Context, state: TableState) -> Result<Actor, ServerError> {
        let now = Instant::now();
        let talk = Talk::load(ctx.store.as_ref(), &state.row.id)?;
        let mut actor = Actor {
            ctx,
            occupants: HashMap::new(),
            clocks: Clocks::new(now),
            bots: BotRoom::new(),
            feeds: Feeds {
                spectators: broadcast::channel(CHANNEL).0,
                talk,
                chat_limit: chat_limit(),
                back: Vec::new(),
            },
            state,
            retired: Arc::new(OnceLock::new()),
            gauge: None,
            arrived: None,
        };
        actor.resume_setup(now);
        for (i, seat) in actor.state.seats.clone().iter().enumerate() {
            match &seat.bot {
                Some(spec) => {
                    let bot = bots::build(Level::from_stored(spec), i as u64);
                    actor.occupant(&seat.name).bot = Some(bot);
                }
                // After a restart nobody is connected yet: the grace
                // period starts now.
                None => {
                    actor.occupant(&seat.name).gone_since = Some(now);
                }
            }
        }
        Ok(actor)
    }

    /// Runs `f`, a blocking store call, on the blocking pool: the actor's
    /// task (and the runtime thread under it) never waits on the database
    /// (issue 26). The actor still does nothing else meanwhile, so its
    /// commands stay in order. A panic in `f` is the actor's, recovered as
    /// any ([`super::handle::spawn`]).
    // Not an `async fn`: the future borrows nothing of the actor, whose
    // bots are not `Sync`.
    pub(super) fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Store, &Metrics) -> T + Send + 'static,
    ) -> impl Future<Output = T> + Send + 'static {
        let (store, metrics) = (self.ctx.store.clone(), self.ctx.metrics.clone());
        let span = tracing::Span::current();
        async move {
            let done = tokio::task::spawn_blocking(move || {
                let _table = span.entered();
                f(store.as_ref(), &metrics)
            })
            .await;
            match done {
                Ok(t) => t,
                Err(e) => match e.try_into_panic() {
                    Ok(panic) => std::panic::resume_unwind(panic),
                    Err(e) => panic!("a store call was cancelled: {e}"),
                },
            }
        }
    }

    /// After a panic: the state again from the log, timers and bots
    /// afresh, and everyone resynced. False if the log cannot be read.
    pub(super) async fn recover(&mut self) -> bool {
        tracing::error!(
            v = self.state.v(),
            "the table's actor panicked: rebuilding the table from its log"
        );
        let row = self.state.row.clone();
        let replayed = self
            .blocking(|store, metrics| metrics.time(StoreOp::Replay, || replay_log(store, row)))
            .await;
        let state = match replayed {
            Ok(state) => state,
            Err(e) => {
                tracing::error!(error = %e, "rebuilding the table from its log failed");
                return false;
            }
        };
        self.state = state;
        self.count_seats();
        self.bots.thinking = false;
        self.clocks.bot_at = None;
        self.clocks.setup_until = None;
        self.bots.held.clear();
        self.resume_setup(Instant::now());
        self.clocks.deal_at = None;
        self.clocks.place = None;
        for occupant in self.occupants.values_mut() {
            occupant.turn_since = None;
        }
        for (i, seat) in self.state.seats.clone().iter().enumerate() {
            if let Some(spec) = &seat.bot {
                let occupant = self.occupant(&seat.name);
                occupant
                    .bot
                    .get_or_insert_with(|| bots::build(Level::from_stored(spec), i as u64));
            }
        }
        self.broadcast(StateKind::Resync, None);
        true
    }

    /// Tells the metrics how many seats people hold here now.
    pub(super) fn count_seats(&mut self) {
        let people = self.state.seats.iter().filter(|s| s.bot.is_none()).count();
        if let Some(gauge) = self.gauge.as_mut() {
            gauge.set_seats(people);
        }
    }

    /// Seat `name`'s live state, made when first needed.
    pub(super) fn occupant(&mut self, name: &PlayerName) -> &mut Occupant {
        self.occupants.entry(name.clone()).or_default()
    }

    /// Whether a stand-in plays for seat `name` (gone past the grace).
    pub(super) fn away(&self, name: &str) -> bool {
        self.occupants.get(name).is_some_and(|o| o.away)
    }

    pub(super) fn is_human(&self, name: &str) -> bool {
        self.state
            .seat_named(name)
            .is_some_and(|i| self.state.seats[i].bot.is_none())
    }

    pub(super) fn connected(&self, name: &str) -> bool {
        self.occupants.get(name).is_some_and(|o| o.connections > 0)
    }

    pub(super) fn any_human_connected(&self) -> bool {
        self.state
            .seats
            .iter()
            .any(|s| s.bot.is_none() && self.connected(&s.name))
    }

    /// Whether lobby seat `i` has only to say ready (or, dealt both
    /// Jesters, call a revolution instead).
    pub(super) fn to_say_ready(&self, i: usize) -> bool {
        self.state.decision_of(i) == Some(Decision::Ready)
    }

    /// Whether the setup pause is still running: nobody says ready yet.
    pub(super) fn looking_at_cards(&self, now: Instant) -> bool {
        self.clocks.setup_until.is_some_and(|until| now < until)
    }

    pub(super) fn check_host(&self, token: &SeatToken) -> Result<(), ServerError> {
        let i = self.state.seat_of_token(token)?;
        if self.state.host() != Some(i) {
            return Err(ServerError::NotHost);
        }
        Ok(())
    }

    pub(super) fn refusal(&self, error: ServerError, who: usize) -> Refusal {
        let resync = self.resync(&error, Some(who));
        (error, resync)
    }

    pub(super) fn info(&self) -> TableInfo {
        let state = &self.state;
        TableInfo {
            id: state.row.id.clone(),
            name: state.row.name.clone(),
            default_name: crate::names::DefaultTableName::of(&state.row.name),
            seats: state.row.seats,
            taken: state.seats.iter().map(|s| s.name.clone()).collect(),
            bots: state.bots_named(),
            started: state.game.is_some(),
            over: state.is_over(),
            public: state.row.public,
            variant: state.rules.variant,
            hand: state.game.as_ref().map_or(0, |g| g.hands().len()),
            v: state.v(),
            finished_at: self.clocks.finished_at,
            winner: self
                .clocks
                .finished_at
                .and_then(|_| state.standings().first().map(|w| PlayerName::seated(w))),
            idle: !self.any_human_connected()
                && self.clocks.idle_since.elapsed() >= self.ctx.timings.listed_idle,
            age: self.clocks.born.elapsed(),
        }
    }
}
