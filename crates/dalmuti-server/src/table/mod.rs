//! One table: an actor task that owns its [`TableState`] and bots, and a
//! cheap-to-clone [`TableHandle`] holding only a channel sender. Commands
//! are handled one at a time, in order: no lock guards the game.
//!
//! Every accepted change is a [`Stored`] event, numbered from 1, written to
//! disk (through the [`Writer`]) *before* it is broadcast. Each lobby seat
//! has its own broadcast channel and spectators share one: a message for a
//! seat is built from that seat's view only, so a receiver never holds
//! another seat's cards.
//!
//! Beyond the log the actor keeps what is live: connections per seat, who
//! is away (gone past the grace period: a stand-in bot plays for them), the
//! turn timer, the pause before the next deal, a newcomer waiting for the
//! Greater Dalmuti to place them, and the "look at your cards" pause of each
//! hand's setup. Bots think on tokio's blocking pool so a slow `search` bot
//! never stalls the table.
//!
//! While a hand is set up, everyone whose only choice is to say ready (a
//! holder of both Jesters among them: saying ready keeps quiet) is made
//! ready together when the setup pause ends, bots included: so the setup
//! looks and lasts the same whoever holds the Jesters (RULES.md, D25).

pub mod expiry;
pub mod state;
pub mod talk;

use std::collections::{HashMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use dalmuti_bots::{Bot, HeuristicBot};
use dalmuti_core::{Action, Decision, Seed, Viewer};
use futures_util::FutureExt;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::Instant;
use tracing::Instrument;

use crate::bots::{self, Budget, Level};
use crate::error::ServerError;
use crate::metrics::{LeaseChange, LiveTable, Metrics, StoreOp};
use crate::names;
use crate::protocol::{Outgoing, ServerMsg};
use crate::store::{Store, TableRow, TalkKind, Writer, hash_token, new_id, new_token};
pub use expiry::{Lifetimes, Retire};
pub use state::{Live, Placement, Stored, TableState};
use talk::{News, Talk};

/// How many messages a slow receiver may fall behind before it must resync.
const CHANNEL: usize = 256;
/// How many events a returning client may have missed and still get them
/// one by one; further behind, it gets a snapshot.
const CATCHUP: u64 = 1000;

/// A receiver of one viewer's messages.
pub type Feed = broadcast::Receiver<Arc<Outgoing>>;

/// A table's timings.
#[derive(Clone, Copy, Debug)]
pub struct Timings {
    /// How long a seat may be gone before a bot plays for it.
    pub grace: Duration,
    /// The pause before each bot move.
    pub bot_delay: Duration,
    /// The pause between hands.
    pub hand_pause: Duration,
    /// How long a hand's setup lasts at least: the "look at your cards"
    /// pause, at whose end everyone still to say ready is made ready.
    pub setup_pause: Duration,
    /// How long a table may have no human connected before the lobby
    /// stops listing it as open (it can still be reached by its link).
    pub listed_idle: Duration,
}

impl Timings {
    /// For tests: no pauses, so that bots and hands follow at once (a
    /// grace of 30 s and the lobby's two minutes, as served).
    pub fn for_tests() -> Timings {
        Timings {
            grace: Duration::from_secs(30),
            bot_delay: Duration::ZERO,
            hand_pause: Duration::ZERO,
            setup_pause: Duration::ZERO,
            listed_idle: Duration::from_secs(120),
        }
    }
}

/// A public summary of a table, for the lobby list.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TableInfo {
    /// The id.
    pub id: String,
    /// The name.
    pub name: String,
    /// The name's parts when it is a default one ("Ada's table 2"), for
    /// clients to say it in their player's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_name: Option<crate::names::DefaultTableName>,
    /// Seats in all.
    pub seats: usize,
    /// Seats taken (players and bots), by display name.
    pub taken: Vec<String>,
    /// Whether play has started.
    pub started: bool,
    /// Whether the game is over.
    pub over: bool,
    /// Whether the lobby lists it.
    pub public: bool,
    /// The game played: `dalmuti` or `corporate-shuffle`.
    pub variant: dalmuti_core::Variant,
    /// The current hand's number (0 before the start).
    pub hand: usize,
    /// The table's event number.
    pub v: u64,
    /// When the game was over, in milliseconds since the Unix epoch.
    pub finished_at: Option<u64>,
    /// The first in the final standings, once the game is over.
    pub winner: Option<String>,
    /// No human seat has had a connection for [`Timings::listed_idle`]:
    /// the lobby does not list it as open.
    #[serde(skip)]
    pub idle: bool,
    /// How long the table has been in this node's memory.
    #[serde(skip)]
    pub age: Duration,
}

type Reply<T> = oneshot::Sender<Result<T, ServerError>>;
/// A refused action carries the resync message for the one who sent it.
pub type Refusal = (ServerError, ServerMsg);

enum Command {
    Join(String, Reply<String>),
    AddBot(String, String, Reply<String>),
    RemoveBot(String, String, Reply<()>),
    Leave(String, Reply<()>),
    Start(String, Option<Seed>, Reply<()>),
    Act {
        token: String,
        action: Action,
        v: u64,
        reply: oneshot::Sender<Result<u64, Refusal>>,
    },
    Place {
        token: String,
        name: String,
        seat: usize,
        v: u64,
        reply: oneshot::Sender<Result<u64, Refusal>>,
    },
    Subscribe(Option<String>, u64, Reply<Subscription>),
    Resync(Option<String>, ServerError, oneshot::Sender<ServerMsg>),
    Unsubscribe(String),
    Chat(Speaker, String, Reply<()>),
    SpectatorChat(String, bool, Reply<()>),
    Rematch(String, Box<Context>, Reply<Rematch>),
    Info(oneshot::Sender<TableInfo>),
    Query(Query, Reply<Value>),
    /// Stop serving the table (another node serves it now); give its
    /// lease up first if `true` (a drain), not if it was lost.
    HandOver(bool, oneshot::Sender<()>),
    /// Make room: leave memory if nobody has played or been here for a
    /// while (unstarted, no person connected for the lobby's idle time);
    /// answers whether it did.
    Evict(oneshot::Sender<bool>),
    /// A bug, simulated: the actor panics while handling it.
    #[cfg(test)]
    Panic,
    /// Tests: the seat named `0` is played by bot `1` from now.
    #[cfg(test)]
    Bot(String, Box<dyn Bot>),
}

/// Read-only questions about a table.
#[derive(Clone, Copy, Debug)]
enum Query {
    Record,
    Replay,
    Fairness,
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
enum Voice {
    Seat(String),
    Spectators(std::net::IpAddr),
}

/// Lines of chat a voice may say at once, and then one a second (a line
/// is kept and sent to everyone at the table, and pushes the oldest kept
/// line out).
pub const CHAT_BURST: u32 = 5;

/// The chat limit of every voice at a table.
fn chat_limit() -> governor::DefaultKeyedRateLimiter<Voice> {
    let burst = std::num::NonZeroU32::new(CHAT_BURST).expect("a burst of lines");
    governor::RateLimiter::keyed(
        governor::Quota::per_second(std::num::NonZeroU32::MIN).allow_burst(burst),
    )
}

/// A rematch asked for: the new table's id, and its handle if this
/// request made it (`None`: it existed already).
pub struct Rematch {
    /// The rematch's table.
    pub id: String,
    /// The new table, to be registered by the caller.
    pub created: Option<TableHandle>,
}

/// A connection's view of a table: its feed, the first message to send
/// (`snapshot` or `catchup`), and the seat's name (`None`: a spectator).
pub struct Subscription {
    /// The messages to come.
    pub feed: Feed,
    /// The first message.
    pub first: ServerMsg,
    /// The seat's name.
    pub seat: Option<String>,
}

/// A handle to a table's actor: clone it freely.
#[derive(Clone)]
pub struct TableHandle {
    tx: mpsc::Sender<Command>,
    retired: Arc<OnceLock<Retire>>,
    name: Arc<str>,
}

fn closed() -> Refusal {
    (
        ServerError::Closed,
        ServerMsg::error(0, &ServerError::Closed),
    )
}

impl TableHandle {
    /// Whether the table's actor has stopped (the table left memory).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Why the table left memory, once it has.
    pub fn retired(&self) -> Option<Retire> {
        self.retired.get().copied()
    }

    /// The table's name (it never changes).
    pub fn name(&self) -> &str {
        &self.name
    }

    async fn ask<T>(&self, make: impl FnOnce(Reply<T>) -> Command) -> Result<T, ServerError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(make(reply))
            .await
            .map_err(|_| ServerError::Closed)?;
        rx.await.map_err(|_| ServerError::Closed)?
    }

    async fn ask_act(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<u64, Refusal>>) -> Command,
    ) -> Result<u64, Refusal> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(make(reply)).await.map_err(|_| closed())?;
        rx.await.map_err(|_| closed())?
    }

    /// Takes a seat with a display name (before the start: a seat; after
    /// it: a newcomer for the next hand); returns the seat's secret token.
    pub async fn join(&self, name: &str) -> Result<String, ServerError> {
        let name = name.to_string();
        self.ask(|r| Command::Join(name, r)).await
    }

    /// The host seats a bot of one of the offered levels
    /// ([`crate::bots::LEVELS`]); returns its display name.
    pub async fn add_bot(&self, host_token: &str, spec: &str) -> Result<String, ServerError> {
        let (token, spec) = (host_token.to_string(), spec.to_string());
        self.ask(|r| Command::AddBot(token, spec, r)).await
    }

    /// The host removes a bot (after the start: when the hand ends).
    pub async fn remove_bot(&self, host_token: &str, name: &str) -> Result<(), ServerError> {
        let (token, name) = (host_token.to_string(), name.to_string());
        self.ask(|r| Command::RemoveBot(token, name, r)).await
    }

    /// The token's player leaves (after the start: when the hand ends).
    pub async fn leave(&self, token: &str) -> Result<(), ServerError> {
        let token = token.to_string();
        self.ask(|r| Command::Leave(token, r)).await
    }

    /// The host starts the game; every deal is seeded from the operating
    /// system's random source.
    pub async fn start(&self, host_token: &str) -> Result<(), ServerError> {
        let token = host_token.to_string();
        self.ask(|r| Command::Start(token, None, r)).await
    }

    /// Starts with the draw and every deal following from `seed`: for tests
    /// only. The HTTP API never offers it: whoever chose the seed would
    /// know every hand.
    pub async fn start_with_seed(&self, host_token: &str, seed: Seed) -> Result<(), ServerError> {
        let token = host_token.to_string();
        self.ask(|r| Command::Start(token, Some(seed), r)).await
    }

    /// Plays an action for the token's seat, chosen at event `v`. Returns
    /// the new event number, or the refusal with a resync message.
    pub async fn act(&self, token: &str, action: Action, v: u64) -> Result<u64, Refusal> {
        let token = token.to_string();
        self.ask_act(|reply| Command::Act {
            token,
            action,
            v,
            reply,
        })
        .await
    }

    /// The Greater Dalmuti places a newcomer at `seat`.
    pub async fn place(
        &self,
        token: &str,
        name: &str,
        seat: usize,
        v: u64,
    ) -> Result<u64, Refusal> {
        let (token, name) = (token.to_string(), name.to_string());
        self.ask_act(|reply| Command::Place {
            token,
            name,
            seat,
            v,
            reply,
        })
        .await
    }

    /// Connects a viewer: a seat by its token, or a spectator. `v` is the
    /// last event the client saw (0 if none).
    pub async fn subscribe(
        &self,
        token: Option<&str>,
        v: u64,
    ) -> Result<Subscription, ServerError> {
        let token = token.map(str::to_string);
        self.ask(|r| Command::Subscribe(token, v, r)).await
    }

    /// The `resync` for a connection whose `act` or `place` was refused
    /// before it reached the table (unreadable, rate-limited, from a
    /// spectator): the state of the token's seat (a spectator's if none),
    /// with `error` as its `error`.
    pub async fn resync(
        &self,
        token: Option<&str>,
        error: &ServerError,
    ) -> Result<ServerMsg, ServerError> {
        let (token, reason) = (token.map(str::to_string), error.clone());
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Command::Resync(token, reason, reply))
            .await
            .map_err(|_| ServerError::Closed)?;
        rx.await.map_err(|_| ServerError::Closed)
    }

    /// A seat's connection closed.
    pub async fn unsubscribe(&self, seat: &str) {
        let _ = self.tx.send(Command::Unsubscribe(seat.to_string())).await;
    }

    /// Sends a chat line to everyone at the table, from a seat or (if the
    /// host lets them) a spectator; the table keeps the last lines.
    pub async fn chat(&self, from: Speaker, text: &str) -> Result<(), ServerError> {
        let text = text.to_string();
        self.ask(|r| Command::Chat(from, text, r)).await
    }

    /// The host lets spectators chat, or stops them.
    pub async fn set_spectator_chat(
        &self,
        host_token: &str,
        allowed: bool,
    ) -> Result<(), ServerError> {
        let token = host_token.to_string();
        self.ask(|r| Command::SpectatorChat(token, allowed, r))
            .await
    }

    /// The host of a finished game asks for a rematch: a new table in
    /// `ctx` with the same rules and the same seats (each person's token
    /// holds their seat there too), unless one was made already.
    pub async fn rematch(&self, host_token: &str, ctx: Context) -> Result<Rematch, ServerError> {
        let token = host_token.to_string();
        self.ask(|r| Command::Rematch(token, Box::new(ctx), r))
            .await
    }

    /// Stops serving the table: its actor ends once the command under
    /// way is done (so nothing more is written), then gives the table's
    /// lease up if `release` (a node that is stopping hands its tables
    /// over), and its connections are told the table `moved`.
    pub async fn hand_over(&self, release: bool) {
        let (reply, rx) = oneshot::channel();
        if self
            .tx
            .send(Command::HandOver(release, reply))
            .await
            .is_ok()
        {
            let _ = rx.await;
        }
    }

    /// Leaves memory if unstarted and unattended for the lobby's idle
    /// time (nobody connected): room for a new table when the node is
    /// full. Whether it left.
    pub async fn evict(&self) -> bool {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::Evict(reply)).await.is_ok() && rx.await.unwrap_or(false)
    }

    /// The table's public summary.
    pub async fn info(&self) -> Result<TableInfo, ServerError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Command::Info(reply))
            .await
            .map_err(|_| ServerError::Closed)?;
        rx.await.map_err(|_| ServerError::Closed)
    }

    /// The finished game's record, with its fairness data.
    pub async fn record(&self) -> Result<Value, ServerError> {
        self.ask(|r| Command::Query(Query::Record, r)).await
    }

    /// The finished game step by step, every hand shown.
    pub async fn replay(&self) -> Result<Value, ServerError> {
        self.ask(|r| Command::Query(Query::Replay, r)).await
    }

    /// The deal commitments and revealed seeds.
    pub async fn fairness(&self) -> Result<Value, ServerError> {
        self.ask(|r| Command::Query(Query::Fairness, r)).await
    }
}

/// What a table needs from the server.
#[derive(Clone)]
pub struct Context {
    /// Where the log is read from on start.
    pub store: Arc<dyn Store>,
    /// Where events are written.
    pub writer: Writer,
    /// The table's timings.
    pub timings: Timings,
    /// The server's budget for bot thinking, shared by every table.
    pub budget: Budget,
    /// When tables leave memory; `None`: never.
    pub lifetimes: Option<Lifetimes>,
    /// This node among others on one database, if it is: tables are
    /// created leased to it, and give their lease up when handed over.
    pub cluster: Option<Arc<crate::cluster::Cluster>>,
    /// The node's metrics (`/metrics`), shared by every table.
    pub metrics: Metrics,
    /// Finished games' records and replays, built once and kept.
    pub archive: Arc<crate::records::Archive>,
}

impl Context {
    /// A context over `store` with its own writer, a bot budget of one
    /// decision per core, and tables that never leave memory.
    pub fn new(store: Arc<dyn Store>, timings: Timings) -> Context {
        let metrics = Metrics::default();
        Context {
            writer: Writer::metered(store.clone(), metrics.clone()),
            store,
            timings,
            budget: Budget::new(crate::default_bot_threads(), Duration::from_secs(2)),
            lifetimes: None,
            cluster: None,
            metrics,
            archive: Arc::default(),
        }
    }
}

/// Creates a new table in the store and starts its actor.
pub fn create(ctx: Context, row: TableRow) -> Result<TableHandle, ServerError> {
    let state = store_new(&ctx, row)?;
    created(&state.row);
    start(ctx, state)
}

/// Logs that table `row` was created (where the request was answered,
/// not on the blocking pool that wrote it, so the line is in the
/// request's context).
pub(crate) fn created(row: &TableRow) {
    tracing::info!(
        table = %row.id,
        seats = row.seats,
        public = row.public,
        "table created"
    );
}

/// The first half of [`create`]: the new table's row written to the store
/// (under a lease on several nodes). A blocking store call: async code
/// runs it on the blocking pool, then [`start`]s the table.
pub fn store_new(ctx: &Context, row: TableRow) -> Result<TableState, ServerError> {
    let state = TableState::new(row)?;
    let id = state.row.id.clone();
    ctx.metrics
        .time(StoreOp::Create, || match &ctx.cluster {
            Some(cluster) => cluster.create(&state.row),
            None => ctx
                .store
                .create_table(&state.row)
                .map_err(ServerError::from),
        })
        .inspect_err(|e| tracing::error!(table = %id, error = %e, "creating a table failed"))?;
    Ok(state)
}

/// The second half of [`create`]: the actor of a table [`store_new`] wrote.
pub fn start(ctx: Context, state: TableState) -> Result<TableHandle, ServerError> {
    Ok(spawn(counted(Actor::new(ctx, state)?)))
}

/// Creates a new table in the store with these events already in its
/// log (seats taken), without starting its actor.
fn create_with(
    store: &dyn Store,
    row: TableRow,
    events: Vec<Stored>,
) -> Result<TableState, ServerError> {
    let mut state = TableState::new(row)?;
    for event in &events {
        state.apply(event.clone())?;
    }
    store.create_table(&state.row)?;
    for (i, event) in events.iter().enumerate() {
        let text = serde_json::to_string(event).expect("an event serializes");
        if let Err(e) = store.append(&state.row.id, i as u64 + 1, &text) {
            let _ = store.delete(&state.row.id);
            return Err(e.into());
        }
    }
    Ok(state)
}

/// Rebuilds a stored table by replaying its log, and starts its actor.
pub fn load(ctx: Context, row: TableRow) -> Result<TableHandle, ServerError> {
    let id = row.id.clone();
    let start = std::time::Instant::now();
    let state = ctx
        .metrics
        .time(StoreOp::Replay, || replay_log(ctx.store.as_ref(), row))
        .inspect_err(|e| tracing::error!(table = %id, error = %e, "loading a table failed"))?;
    tracing::info!(
        table = %id,
        events = state.v(),
        ms = start.elapsed().as_millis() as u64,
        "table loaded from its log"
    );
    Ok(spawn(counted(Actor::new(ctx, state)?)))
}

/// An actor of a live table of this node, counted in the metrics
/// (`dalmuti_tables`, `dalmuti_seats`) while it runs; a finished game
/// served to one connection ([`revive`]) is not.
fn counted(mut actor: Actor) -> Actor {
    actor.gauge = Some(actor.ctx.metrics.live_table());
    actor.count_seats();
    actor
}

/// A table whose state is already rebuilt, with its actor started (a
/// finished game served to one connection, [`crate::records`]).
pub fn revive(ctx: Context, state: TableState) -> Result<TableHandle, ServerError> {
    Ok(spawn(Actor::new(ctx, state)?))
}

/// A table rebuilt by replaying its log from the store.
pub fn replay_log(store: &dyn Store, row: TableRow) -> Result<TableState, ServerError> {
    let id = row.id.clone();
    let log = store.log(&id)?;
    let mut events = Vec::with_capacity(log.len());
    for (i, text) in log.iter().enumerate() {
        let event: Stored = serde_json::from_str(text)
            .map_err(|e| ServerError::Storage(format!("table {id}, event {}: {e}", i + 1)))?;
        events.push(event);
    }
    TableState::replayed(row, events).map_err(|e| ServerError::Storage(format!("table {id}: {e}")))
}

/// What woke the actor.
enum Wake {
    Command(Command),
    Bot(BotDone),
    Timer,
}

/// Recoveries in a row after which a table gives up (its log replays into
/// a state that panics again at once).
const MAX_RECOVERIES: u32 = 3;

fn spawn(mut actor: Actor) -> TableHandle {
    let (tx, mut rx) = mpsc::channel(256);
    let retired = actor.retired.clone();
    let name: Arc<str> = actor.state.row.name.as_str().into();
    // Everything the actor logs says which table it is.
    let span = tracing::info_span!("table", table = %actor.state.row.id);
    tokio::spawn(
        async move {
            let mut recoveries = 0;
            loop {
                // A bug must not take a table down with its players' game: a
                // panic rebuilds the table from its log (what every player has
                // been told) and it goes on.
                let planned = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    actor.schedule();
                    actor.next_wake()
                }));
                let wake = match planned {
                    Ok(wake) => wake,
                    Err(_) => {
                        recoveries += 1;
                        if recoveries > MAX_RECOVERIES || !actor.recover() {
                            tracing::error!(
                                recoveries,
                                "the table gave up after a panic in its actor"
                            );
                            return;
                        }
                        continue;
                    }
                };
                let woke = tokio::select! {
                    command = rx.recv() => match command {
                        Some(command) => Wake::Command(command),
                        None => return,
                    },
                    Some(done) = actor.bot_rx.recv() => Wake::Bot(done),
                    _ = sleep_until(wake) => Wake::Timer,
                };
                let step = AssertUnwindSafe(async {
                    match woke {
                        Wake::Command(command) => actor.handle(command).await,
                        Wake::Bot(done) => actor.bot_done(done).await,
                        Wake::Timer => actor.tick().await,
                    }
                });
                if step.catch_unwind().await.is_err() {
                    recoveries += 1;
                    if recoveries > MAX_RECOVERIES || !actor.recover() {
                        tracing::error!(recoveries, "the table gave up after a panic in its actor");
                        return;
                    }
                } else {
                    recoveries = 0;
                }
                if actor.retired.get().is_some() {
                    // Dropping the actor closes every feed: connections end,
                    // told why by the handle.
                    return;
                }
            }
        }
        .instrument(span),
    );
    TableHandle { tx, retired, name }
}

async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// A bot's answer, back from the blocking pool.
struct BotDone {
    name: String,
    /// `None` if it panicked: the seat's bot is built afresh.
    bot: Option<Box<dyn Bot>>,
    action: Action,
    /// A stand-in for a human seat (not the seat's own bot).
    stand_in: bool,
}

struct Actor {
    state: TableState,
    ctx: Context,
    feeds: HashMap<String, broadcast::Sender<Arc<Outgoing>>>,
    spectators: broadcast::Sender<Arc<Outgoing>>,
    connections: HashMap<String, usize>,
    gone_since: HashMap<String, Instant>,
    away: HashSet<String>,
    /// Seat bots and stand-ins, by seat name; out while thinking.
    bots: HashMap<String, Box<dyn Bot>>,
    thinking: bool,
    bot_at: Option<Instant>,
    turn_since: HashMap<String, Instant>,
    /// When the current hand's setup pause ends, and whether the people
    /// still to say ready have been made ready since.
    setup_until: Option<Instant>,
    setup_readied: bool,
    /// Bots' setup choices made during the setup pause, told only when it
    /// ends, all together: how long a bot thought (longer, dealt both
    /// Jesters) is nobody's to see (issue 24, S8). By seat name: the
    /// action and whether a stand-in chose it.
    held: Vec<(String, Action, bool)>,
    deal_at: Option<Instant>,
    place: Option<(Placement, Instant)>,
    /// Tests: deal seeds follow from this seed instead of the OS.
    test_seed: Option<Seed>,
    bot_tx: mpsc::Sender<BotDone>,
    bot_rx: mpsc::Receiver<BotDone>,
    /// When the table was created or loaded.
    born: Instant,
    /// Since when no human seat has had a connection.
    idle_since: Instant,
    /// When the game was seen to be over.
    over_since: Option<Instant>,
    /// The same, in milliseconds since the Unix epoch.
    finished_at: Option<u64>,
    /// The last lines of chat and news.
    talk: Talk,
    chat_limit: governor::DefaultKeyedRateLimiter<Voice>,
    /// People back from away, for the news once their subscription is
    /// answered.
    back: Vec<String>,
    /// A failed retirement is tried again then.
    retry_retire: Option<Instant>,
    retired: Arc<OnceLock<Retire>>,
    /// This table in the node's metrics, if it is one of its live tables
    /// ([`counted`]); dropped with the actor.
    gauge: Option<LiveTable>,
    /// When the action being handled reached the actor: its broadcast
    /// is timed from then (`dalmuti_action_broadcast_seconds`).
    arrived: Option<std::time::Instant>,
}

impl Actor {
    fn new(ctx: Context, state: TableState) -> Result<Actor, ServerError> {
        let (bot_tx, bot_rx) = mpsc::channel(4);
        let now = Instant::now();
        let talk = Talk::load(ctx.store.as_ref(), &state.row.id)?;
        let mut actor = Actor {
            talk,
            chat_limit: chat_limit(),
            finished_at: None,
            back: Vec::new(),
            ctx,
            feeds: HashMap::new(),
            spectators: broadcast::channel(CHANNEL).0,
            connections: HashMap::new(),
            gone_since: HashMap::new(),
            away: HashSet::new(),
            bots: HashMap::new(),
            thinking: false,
            bot_at: None,
            turn_since: HashMap::new(),
            setup_until: None,
            setup_readied: false,
            held: Vec::new(),
            deal_at: None,
            place: None,
            test_seed: None,
            bot_tx,
            bot_rx,
            state,
            born: now,
            idle_since: now,
            over_since: None,
            retry_retire: None,
            retired: Arc::new(OnceLock::new()),
            gauge: None,
            arrived: None,
        };
        actor.resume_setup(now);
        for (i, seat) in actor.state.seats.clone().iter().enumerate() {
            match &seat.bot {
                Some(spec) => {
                    let bot = bots::build(Level::from_stored(spec), i as u64);
                    actor.bots.insert(seat.name.clone(), bot);
                }
                // After a restart nobody is connected yet: the grace
                // period starts now.
                None => {
                    actor.gone_since.insert(seat.name.clone(), now);
                }
            }
        }
        Ok(actor)
    }

    /// After a panic: the state again from the log, timers and bots
    /// afresh, and everyone resynced. False if the log cannot be read.
    fn recover(&mut self) -> bool {
        tracing::error!(
            v = self.state.v(),
            "the table's actor panicked: rebuilding the table from its log"
        );
        let (store, row) = (self.ctx.store.clone(), self.state.row.clone());
        let replayed = self
            .ctx
            .metrics
            .time(StoreOp::Replay, || replay_log(store.as_ref(), row));
        let state = match replayed {
            Ok(state) => state,
            Err(e) => {
                tracing::error!(error = %e, "rebuilding the table from its log failed");
                return false;
            }
        };
        self.state = state;
        self.count_seats();
        self.thinking = false;
        self.bot_at = None;
        self.setup_until = None;
        self.held.clear();
        self.resume_setup(Instant::now());
        self.deal_at = None;
        self.place = None;
        self.turn_since.clear();
        for (i, seat) in self.state.seats.iter().enumerate() {
            if let Some(spec) = &seat.bot
                && !self.bots.contains_key(&seat.name)
            {
                let bot = bots::build(Level::from_stored(spec), i as u64);
                self.bots.insert(seat.name.clone(), bot);
            }
        }
        self.broadcast("resync", None);
        true
    }

    /// Tells the metrics how many seats people hold here now.
    fn count_seats(&mut self) {
        let people = self.state.seats.iter().filter(|s| s.bot.is_none()).count();
        if let Some(gauge) = self.gauge.as_mut() {
            gauge.set_seats(people);
        }
    }

    fn is_human(&self, name: &str) -> bool {
        self.state
            .seat_named(name)
            .is_some_and(|i| self.state.seats[i].bot.is_none())
    }

    fn connected(&self, name: &str) -> bool {
        self.connections.get(name).copied().unwrap_or(0) > 0
    }

    fn any_human_connected(&self) -> bool {
        self.state
            .seats
            .iter()
            .any(|s| s.bot.is_none() && self.connected(&s.name))
    }

    /// Whether lobby seat `i` has only to say ready (or, dealt both
    /// Jesters, call a revolution instead).
    fn to_say_ready(&self, i: usize) -> bool {
        self.state.decision_of(i) == Some(Decision::Ready)
    }

    /// Whether the setup pause is still running: nobody says ready yet.
    fn looking_at_cards(&self, now: Instant) -> bool {
        self.setup_until.is_some_and(|until| now < until)
    }

    /// The first seat a bot should play now, and whether it is a stand-in.
    /// Saying ready waits for the end of the setup pause, for bots as for
    /// people; a person's is then made by [`Actor::tick`], not a stand-in.
    fn bot_due(&self, now: Instant) -> Option<(usize, bool)> {
        let turn = self
            .state
            .row
            .turn_seconds
            .map(|s| Duration::from_secs(s.into()));
        let looking = self.looking_at_cards(now);
        self.state.to_act().into_iter().find_map(|i| {
            let seat = &self.state.seats[i];
            if self.to_say_ready(i) && (looking || seat.bot.is_none()) {
                return None;
            }
            if self.held.iter().any(|(name, ..)| *name == seat.name) {
                return None;
            }
            if seat.bot.is_some() {
                return Some((i, false));
            }
            let stand_in = seat.leaving
                || (self.away.contains(&seat.name) && self.any_human_connected())
                || turn.is_some_and(|t| {
                    self.turn_since
                        .get(&seat.name)
                        .is_some_and(|&since| now >= since + t)
                });
            stand_in.then_some((i, true))
        })
    }

    /// Starts the turn timers of humans with a new decision and stops
    /// those of humans without one. Saying ready has no turn timer: the
    /// setup pause bounds it.
    fn update_turns(&mut self, now: Instant) {
        let to_act: HashSet<String> = self
            .state
            .to_act()
            .into_iter()
            .filter(|&i| !self.to_say_ready(i))
            .map(|i| self.state.seats[i].name.clone())
            .filter(|n| self.is_human(n))
            .collect();
        self.turn_since.retain(|n, _| to_act.contains(n));
        for name in to_act {
            self.turn_since.entry(name).or_insert(now);
        }
    }

    /// Sets the timers the state calls for.
    fn schedule(&mut self) {
        let now = Instant::now();
        if self.over_since.is_none() && self.state.is_over() {
            self.over_since = Some(now);
            self.finished_at = Some(talk::now_ms());
        }
        self.update_turns(now);
        self.schedule_setup(now);
        if !self.thinking && self.bot_at.is_none() {
            if let Some((i, stand_in)) = self.bot_due(now) {
                // A turn timer's move is played at once; bots take their
                // time so people can follow, but saying ready shows nothing
                // to follow.
                let timed_out = stand_in
                    && !self.state.seats[i].leaving
                    && !self.away.contains(&self.state.seats[i].name);
                self.bot_at = Some(if timed_out || self.to_say_ready(i) {
                    now
                } else {
                    now + self.ctx.timings.bot_delay
                });
            }
        }
        self.schedule_deal(now);
    }

    /// A hand being set up has its setup pause, from the deal (or, after a
    /// restart, from now: people are given the time again).
    fn schedule_setup(&mut self, now: Instant) {
        if !self.state.in_setup() {
            self.setup_until = None;
            self.held.clear();
        } else if self.setup_until.is_none() {
            self.setup_until = Some(now + self.ctx.timings.setup_pause);
            self.setup_readied = false;
        }
    }

    /// A table rebuilt from its log during a setup (a takeover, a drain,
    /// a restart, a recovery) keeps what is left of the pause since the
    /// deal, not a whole new one (issue 24, D5). Only then: on the node
    /// that dealt, the pause is the same for every hand, to the
    /// millisecond, whoever holds what.
    fn resume_setup(&mut self, now: Instant) {
        if !self.state.in_setup() {
            return;
        }
        let gone = self
            .state
            .dealt_at()
            .map_or(0, |at| talk::now_ms().saturating_sub(at));
        let left = self
            .ctx
            .timings
            .setup_pause
            .saturating_sub(Duration::from_millis(gone));
        self.setup_until = Some(now + left);
        self.setup_readied = false;
    }

    /// When a hand is over and another is due, the next deal comes after
    /// the pause (set before the hand's last event is broadcast, so
    /// everyone sees the countdown).
    fn schedule_deal(&mut self, now: Instant) {
        if !self.state.deal_due() {
            self.deal_at = None;
        } else if self.deal_at.is_none() && self.place.is_none() {
            self.deal_at = Some(now + self.ctx.timings.hand_pause);
        }
    }

    fn next_wake(&self) -> Option<Instant> {
        let grace = self.ctx.timings.grace;
        let turn = self
            .state
            .row
            .turn_seconds
            .map(|s| Duration::from_secs(s.into()));
        let graces = self
            .gone_since
            .iter()
            .filter(|(n, _)| !self.away.contains(*n))
            .map(|(_, &t)| t + grace);
        let turns = self
            .turn_since
            .values()
            .filter_map(|&t| turn.map(|d| t + d));
        // Once: then the people are ready, and the bots' turns are their
        // own timer.
        let setup = self.setup_until.filter(|_| !self.setup_readied);
        graces
            .chain(turns)
            .chain(setup)
            .chain(self.bot_at)
            .chain(self.deal_at)
            .chain(self.place.as_ref().map(|p| p.1))
            .chain(self.retire_due().map(|(at, _)| at))
            .min()
    }

    /// When the table should leave memory, and why.
    fn retire_due(&self) -> Option<(Instant, Retire)> {
        let lifetimes = self.ctx.lifetimes.as_ref()?;
        let facts = expiry::Facts {
            born: self.born,
            started: self.state.game.is_some(),
            over_since: self.over_since,
            humans_connected: self.any_human_connected(),
            idle_since: self.idle_since,
        };
        let (at, why) = expiry::due(lifetimes, &facts)?;
        Some((self.retry_retire.map_or(at, |r| r.max(at)), why))
    }

    /// Leaves memory: a finished game is kept in the store as a record,
    /// an expired table deleted. The actor stops after this step.
    fn retire(&mut self, why: Retire) {
        let Some(lifetimes) = self.ctx.lifetimes else {
            return;
        };
        let id = &self.state.row.id;
        let metrics = &self.ctx.metrics;
        let stored = match why {
            Retire::Finished => {
                let summary = serde_json::to_string(&self.info()).expect("info serializes");
                metrics.time(StoreOp::Finish, || {
                    self.ctx.store.finish(id, &summary, lifetimes.max_finished)
                })
            }
            Retire::Expired => metrics.time(StoreOp::Delete, || self.ctx.store.delete(id)),
            Retire::Moved => Ok(()),
        };
        match stored {
            Ok(()) => {
                match why {
                    Retire::Finished => {
                        tracing::info!("the finished game left memory: kept as a record");
                    }
                    Retire::Expired => tracing::info!("the table expired: deleted"),
                    Retire::Moved => tracing::info!("handed over to another node"),
                }
                let _ = self.retired.set(why);
            }
            // The store will be asked again in a minute; meanwhile the
            // table stays as it is.
            Err(e) => {
                tracing::error!(
                    error = %e,
                    retire = ?why,
                    "retiring the table failed in the store: trying again in a minute"
                );
                self.retry_retire = Some(Instant::now() + Duration::from_secs(60));
            }
        }
    }

    async fn tick(&mut self) {
        let now = Instant::now();
        if let Some((at, why)) = self.retire_due()
            && now >= at
        {
            self.retire(why);
            return;
        }
        let grace = self.ctx.timings.grace;
        let expired: Vec<String> = self
            .gone_since
            .iter()
            .filter(|(n, t)| !self.away.contains(*n) && now >= **t + grace)
            .map(|(n, _)| n.clone())
            .collect();
        if !expired.is_empty() {
            self.away.extend(expired.iter().cloned());
            self.broadcast("presence", None);
            // Only people who play: away before the start changes nothing.
            if self.state.game.is_some() {
                let people: Vec<String> =
                    expired.into_iter().filter(|n| self.is_human(n)).collect();
                for name in people {
                    self.news(News::Away { name }).await;
                }
            }
        }
        if !self.setup_readied && self.setup_until.is_some_and(|t| now >= t) {
            self.setup_readied = true;
            self.release_held().await;
            self.everyone_ready().await;
        }
        if self.bot_at.is_some_and(|t| now >= t) {
            self.bot_at = None;
            self.start_bot(now);
        }
        if self.place.as_ref().is_some_and(|p| now >= p.1) {
            let (placement, _) = self.place.take().expect("checked");
            let _ = self
                .commit(Stored::Join {
                    name: placement.newcomer,
                    seat: placement.seats[0],
                })
                .await;
            self.deal_at = Some(now);
        }
        if self.deal_at.is_some_and(|t| now >= t) {
            self.deal_at = None;
            self.between_hands().await;
        }
    }

    /// The setup pause is over: every person who has only to say ready is
    /// made ready, in seat order, whatever their cards (a holder of both
    /// Jesters who said nothing keeps quiet). Bots follow, as bots.
    async fn everyone_ready(&mut self) {
        let mut people: Vec<(usize, String)> = (0..self.state.seats.len())
            .filter(|&i| self.state.seats[i].bot.is_none() && self.to_say_ready(i))
            .filter_map(|i| {
                let seat = self.state.game_seat(i)?;
                Some((seat.index(), self.state.seats[i].name.clone()))
            })
            .collect();
        people.sort();
        let people = people.into_iter().map(|(_, name)| name);
        for name in people {
            let _ = self
                .commit(Stored::Act {
                    player: name,
                    action: crate::protocol::encode_action(&Action::Ready),
                    auto: true,
                })
                .await;
        }
    }

    /// Leaves, joins (asking the Greater Dalmuti where a newcomer sits
    /// when two seats qualify), then the next deal.
    async fn between_hands(&mut self) {
        if !self.state.deal_due() || self.place.is_some() {
            return;
        }
        let leaving: Vec<String> = self
            .state
            .seats
            .iter()
            .filter(|s| s.leaving)
            .map(|s| s.name.clone())
            .collect();
        for name in leaving {
            if self
                .commit(Stored::Leave { name: name.clone() })
                .await
                .is_ok()
            {
                self.forget(&name);
            }
        }
        while let Some(newcomer) = self.state.seats.iter().find(|s| s.waiting).cloned() {
            let seats = self.state.join_options();
            let game = self.state.game.as_ref().expect("started");
            let chooser = game
                .next_seating()
                .first()
                .and_then(|&p| self.state.seat_named(game.name(p)));
            let asks = seats.len() > 1
                && chooser.is_some_and(|c| {
                    let name = &self.state.seats[c].name;
                    self.is_human(name) && self.connected(name) && !self.state.seats[c].leaving
                });
            if asks {
                let placement = Placement {
                    chooser: chooser.expect("checked"),
                    newcomer: newcomer.name,
                    seats,
                };
                self.place = Some((placement, Instant::now() + self.ctx.timings.grace));
                self.broadcast("presence", None);
                return;
            }
            let join = Stored::Join {
                name: newcomer.name.clone(),
                seat: seats[0],
            };
            if self.commit(join).await.is_err() {
                // Cannot seat them (the table is full): they stay waiting.
                break;
            }
        }
        let seed = self.next_seed();
        let _ = self
            .commit(Stored::Deal {
                seed: seed.to_string(),
                at: Some(talk::now_ms()),
            })
            .await;
    }

    fn next_seed(&self) -> Seed {
        match self.test_seed {
            Some(base) => {
                let mut hasher = Sha256::new();
                hasher.update(base.0);
                hasher.update((self.state.seeds.len() as u64).to_le_bytes());
                Seed(hasher.finalize().into())
            }
            None => Seed::from_entropy(),
        }
    }

    fn forget(&mut self, name: &str) {
        self.bots.remove(name);
        self.connections.remove(name);
        self.gone_since.remove(name);
        self.away.remove(name);
        self.turn_since.remove(name);
        // Its connections see the feed close.
        self.feeds.remove(name);
    }

    fn start_bot(&mut self, now: Instant) {
        let Some((i, stand_in)) = self.bot_due(now) else {
            return;
        };
        let Some(seat) = self.state.game_seat(i) else {
            return;
        };
        let name = self.state.seats[i].name.clone();
        let seed = i as u64;
        let bot = self
            .bots
            .remove(&name)
            .unwrap_or_else(|| Box::new(HeuristicBot::new(seed)));
        let game = self
            .state
            .game
            .clone()
            .expect("a seat of play means a game");
        let done = self.bot_tx.clone();
        let budget = self.ctx.budget.clone();
        self.thinking = true;
        // The bot thinks on another thread: its logs name the table too.
        let span = tracing::Span::current();
        let thinking = span.clone();
        tokio::spawn(async move {
            let decided = budget
                .run(move |granted| {
                    let _table = thinking.entered();
                    let mut bot = bot;
                    let view = game.view(Viewer::Seat(seat));
                    let legal = view.legal_actions();
                    // No permit in time: the server is busy thinking for
                    // other tables, so the cheap heuristic decides.
                    let mut panicked = false;
                    let decided = if granted {
                        // A bot's bug must not stall its table: the
                        // heuristic decides this once, and the seat's bot
                        // is built afresh (its state may be half-changed).
                        std::panic::catch_unwind(AssertUnwindSafe(|| bot.decide(&view, &legal)))
                            .unwrap_or_else(|_| {
                                tracing::error!(seat = %name, "a bot panicked while deciding: the heuristic decides");
                                panicked = true;
                                HeuristicBot::new(seed).decide(&view, &legal)
                            })
                    } else {
                        tracing::debug!(seat = %name, "no thinking permit in time: the heuristic decides");
                        HeuristicBot::new(seed).decide(&view, &legal)
                    };
                    let action = decided.unwrap_or_else(|fault| {
                        // The fault's kind only: its text may quote the
                        // cards the bot answered.
                        tracing::warn!(
                            seat = %name,
                            fault = bots::fault_kind(&fault),
                            "a bot failed to decide: a fallback action is played"
                        );
                        dalmuti_bots::fallback(&legal)
                    });
                    BotDone {
                        name,
                        bot: (!panicked).then_some(bot),
                        action,
                        stand_in,
                    }
                })
                .await;
            match decided {
                Some(decided) => {
                    let _ = done.send(decided).await;
                }
                None => tracing::error!("a bot panicked while deciding: its seat waits"),
            }
        }
        .instrument(span));
    }

    async fn bot_done(&mut self, done: BotDone) {
        let arrived = std::time::Instant::now();
        self.thinking = false;
        let Some(i) = self.state.seat_named(&done.name) else {
            return;
        };
        // A human who came back while the stand-in thought plays themself.
        let still_due = self
            .bot_due(Instant::now())
            .is_some_and(|(j, stand_in)| j == i && stand_in == done.stand_in);
        match done.bot {
            Some(bot) => {
                self.bots.insert(done.name.clone(), bot);
            }
            None => {
                if let Some(spec) = &self.state.seats[i].bot {
                    let bot = bots::build(Level::from_stored(spec), i as u64);
                    self.bots.insert(done.name.clone(), bot);
                }
            }
        }
        if still_due && self.state.in_setup() && self.looking_at_cards(Instant::now()) {
            self.held.push((done.name, done.action, done.stand_in));
        } else if still_due {
            self.arrived = Some(arrived);
            let _ = self
                .commit(Stored::Act {
                    player: done.name,
                    action: crate::protocol::encode_action(&done.action),
                    auto: done.stand_in,
                })
                .await;
        }
    }

    /// The bots' setup choices held through the pause, told now in seat
    /// order; one the setup no longer takes (a revolution was called
    /// meanwhile) is dropped, and its bot decides again.
    async fn release_held(&mut self) {
        let mut held = std::mem::take(&mut self.held);
        held.sort_by_key(|(name, ..)| {
            self.state
                .seat_named(name)
                .and_then(|i| self.state.game_seat(i))
                .map(|s| s.index())
        });
        for (name, action, stand_in) in held {
            let _ = self
                .commit(Stored::Act {
                    player: name,
                    action: crate::protocol::encode_action(&action),
                    auto: stand_in,
                })
                .await;
        }
    }

    /// Checks an event, writes it, then broadcasts it, with its news.
    async fn commit(&mut self, event: Stored) -> Result<u64, ServerError> {
        let was_over = self.state.is_over();
        let news = self.news_of(&event);
        let v = self.commit_quietly(event).await?;
        if let Some(news) = news {
            self.news(news).await;
        }
        if !was_over && self.state.is_over() {
            tracing::info!(
                hands = self.state.game.as_ref().map_or(0, |g| g.hands().len()),
                v,
                "game over"
            );
            let winner = self.state.standings().first().map(|w| w.to_string());
            self.news(News::Over { winner }).await;
        }
        Ok(v)
    }

    /// What the table's news says of an event (most plays say nothing:
    /// they are the hand's log).
    fn news_of(&self, event: &Stored) -> Option<News> {
        let name = |n: &String| n.clone();
        let level = |b: &Option<String>| b.as_deref().map(|s| state::bot_name(s).to_string());
        Some(match event {
            Stored::Seat { name: n, bot, .. } => News::Seat {
                name: name(n),
                bot: level(bot),
            },
            Stored::Waiting { name: n, bot, .. } => News::Waiting {
                name: name(n),
                bot: level(bot),
            },
            Stored::Unseat { name: n } => News::Unseat { name: name(n) },
            Stored::Start { .. } => News::Start,
            Stored::Deal { .. } => News::Hand {
                hand: self.state.seeds.len() + 1,
            },
            Stored::Leaving { name: n } => News::Leaving { name: name(n) },
            Stored::Leave { name: n } => News::Leave { name: name(n) },
            Stored::Join { name: n, seat } => News::Join {
                name: name(n),
                seat: *seat,
            },
            Stored::Act { player, action, .. } if *action == "call_revolution" => {
                News::Revolution { name: name(player) }
            }
            Stored::Act { .. } => return None,
        })
    }

    /// Keeps a news line and sends it to everyone. News the store could
    /// not keep is not said (the log already holds what it tells of).
    async fn news(&mut self, news: News) {
        let line = self.talk.news_line(&news);
        let _ = self.say("news", TalkKind::News, line).await;
    }

    /// Keeps a line in the store, then in memory, then sends it to every
    /// viewer: a line the store refused is never said, so that no one
    /// holds a line numbered as another that the store keeps (issue 24,
    /// D2).
    async fn say(
        &mut self,
        t: &'static str,
        kind: TalkKind,
        line: Value,
    ) -> Result<(), ServerError> {
        let row = Talk::row(&self.state.row.id, kind, &line);
        if let Err(e) = self.ctx.writer.talk(row).await {
            // What failed, not the line: chat is the players' own.
            tracing::warn!(kind = ?kind, error = %e, "keeping a line of talk failed: it is not said");
            if e.is_fenced() && self.ctx.cluster.is_some() {
                self.lost_lease();
            }
            return Err(ServerError::Storage(
                "the line could not be kept: say it again".into(),
            ));
        }
        self.talk.remember(kind, line.clone());
        let msg = Arc::new(Outgoing::from(&ServerMsg {
            t,
            v: self.state.v(),
            d: line,
        }));
        for feed in self.feeds.values() {
            let _ = feed.send(msg.clone());
        }
        let _ = self.spectators.send(msg);
        Ok(())
    }

    /// Checks an event, writes it, then broadcasts it: nothing of it is
    /// told or timed until the store holds it.
    async fn commit_quietly(&mut self, event: Stored) -> Result<u64, ServerError> {
        // An action without an arrival (everyone made ready when the
        // setup pause ends) is timed from here.
        let arrived = self.arrived.take().unwrap_or_else(std::time::Instant::now);
        let acted = match &event {
            Stored::Act { player, .. } => Some(player.clone()),
            _ => None,
        };
        let text = serde_json::to_string(&event).expect("an event serializes");
        let committed = self.state.v();
        // Applied first to check it; undone below if the store refuses it.
        self.state.apply(event)?;
        let v = self.state.v();
        if let Err(e) = self.ctx.writer.append(&self.state.row.id, v, text).await {
            return Err(self.refused_write(committed, e));
        }
        if let Some(player) = &acted {
            self.turn_since.remove(player);
        }
        let now = Instant::now();
        self.update_turns(now);
        // Before the broadcast, so that the deal's own message counts the
        // setup pause down (and a hand's last event the next deal).
        self.schedule_setup(now);
        self.schedule_deal(now);
        self.broadcast("event", Some(v));
        if acted.is_some() {
            self.ctx.metrics.action(arrived.elapsed());
        } else {
            self.count_seats();
        }
        Ok(v)
    }

    /// After the store refused event `committed + 1`: the table goes back
    /// to what the log holds, so that no one is ever told of the refused
    /// event (issue 24, D1). Under a lost lease the table is handed over.
    fn refused_write(&mut self, committed: u64, e: crate::store::StoreError) -> ServerError {
        let row = self.state.row.clone();
        let ours = self.state.events[..committed as usize].to_vec();
        if e.is_fenced() && self.ctx.cluster.is_some() {
            // Another node took the table over: this one stops serving it
            // (its clients are told it moved) and writes nothing more, as
            // the database would refuse anyway.
            tracing::warn!(
                v = committed + 1,
                "another node took the table over: handed over"
            );
            self.lost_lease();
            if let Ok(state) = TableState::replayed(row, ours) {
                self.state = state;
            }
            return ServerError::Conflict(Retire::Moved.reason().into());
        }
        tracing::error!(v = committed + 1, error = %e, "writing an event failed: the table goes back to its log");
        // A write that failed may still have landed (the database answered
        // too late): the log says which. Without the log, what this table
        // wrote before is what the log holds.
        let store = self.ctx.store.clone();
        let replayed = self
            .ctx
            .metrics
            .time(StoreOp::Replay, || replay_log(store.as_ref(), row.clone()))
            .inspect_err(|e| tracing::error!(error = %e, "reading the table's log back failed"))
            .ok()
            .filter(|state| state.v() >= committed)
            .or_else(|| TableState::replayed(row, ours).ok());
        if let Some(state) = replayed {
            let landed = state.v() > committed;
            self.state = state;
            if landed {
                // Everyone is told what the log holds now.
                self.broadcast("resync", None);
            }
        }
        self.count_seats();
        let now = Instant::now();
        self.update_turns(now);
        self.schedule_setup(now);
        self.schedule_deal(now);
        e.into()
    }

    /// This node no longer holds the table's lease: it is handed over,
    /// counted once however many writes learn it.
    fn lost_lease(&mut self) {
        if self.retired.set(Retire::Moved).is_ok() {
            self.ctx.metrics.lease_changed(LeaseChange::Lost);
        }
        if let Some(cluster) = &self.ctx.cluster {
            cluster.forget(&self.state.row.id);
        }
    }

    fn live(&self) -> Live {
        let now = Instant::now();
        let turn = self
            .state
            .row
            .turn_seconds
            .map(|s| Duration::from_secs(s.into()));
        let seats = &self.state.seats;
        Live {
            connected: seats.iter().map(|s| self.connected(&s.name)).collect(),
            away: seats
                .iter()
                .map(|s| self.away.contains(&s.name) || s.leaving)
                .collect(),
            deadline_ms: seats
                .iter()
                .map(|s| {
                    let since = self.turn_since.get(&s.name)?;
                    let left = (*since + turn?).saturating_duration_since(now);
                    Some(left.as_millis() as u64)
                })
                .collect(),
            setup_ms: self
                .setup_until
                .filter(|_| self.state.in_setup())
                .map(|t| t.saturating_duration_since(now).as_millis() as u64),
            next_deal_ms: self
                .deal_at
                .map(|t| t.saturating_duration_since(now).as_millis() as u64),
            place: self.place.as_ref().map(|p| p.0.clone()),
        }
    }

    fn message(&self, t: &'static str, who: Option<usize>, live: &Live) -> ServerMsg {
        ServerMsg {
            t,
            v: self.state.v(),
            d: self.state.state(who, live),
        }
    }

    /// Sends every viewer its own message: `t` with the state, and event
    /// `v` described as that viewer may know it.
    fn broadcast(&mut self, t: &'static str, v: Option<u64>) {
        let live = self.live();
        let now = self.state.v();
        for (i, seat) in self.state.seats.iter().enumerate() {
            let Some(feed) = self.feeds.get(&seat.name) else {
                continue;
            };
            if feed.receiver_count() == 0 {
                continue;
            }
            let e = v.map(|v| self.state.describe(v, Some(i)));
            let d = self
                .state
                .state_text(Some(i), &live, e.as_ref().map(|e| ("e", e)));
            let _ = feed.send(Arc::new(Outgoing::new(t, now, &d)));
        }
        if self.spectators.receiver_count() > 0 {
            let e = v.map(|v| self.state.describe(v, None));
            let d = self
                .state
                .state_text(None, &live, e.as_ref().map(|e| ("e", e)));
            let _ = self.spectators.send(Arc::new(Outgoing::new(t, now, &d)));
        }
    }

    fn resync(&self, error: &ServerError, who: Option<usize>) -> ServerMsg {
        let mut msg = self.message("resync", who, &self.live());
        msg.d["error"] = json!(error.to_string());
        msg.d["error_kind"] = json!(error.kind());
        msg
    }

    fn check_host(&self, token: &str) -> Result<(), ServerError> {
        let i = self.state.seat_of_token(token)?;
        if self.state.host() != Some(i) {
            return Err(ServerError::NotHost);
        }
        Ok(())
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join(name, reply) => {
                let _ = reply.send(self.join(&name).await);
            }
            Command::AddBot(token, spec, reply) => {
                let _ = reply.send(self.add_bot(&token, &spec).await);
            }
            Command::RemoveBot(token, name, reply) => {
                let result = match self.check_host(&token) {
                    Ok(()) => self.remove(&name, true).await,
                    Err(e) => Err(e),
                };
                let _ = reply.send(result);
            }
            Command::Leave(token, reply) => {
                let result = match self.state.seat_of_token(&token) {
                    Ok(i) => {
                        let name = self.state.seats[i].name.clone();
                        self.remove(&name, false).await
                    }
                    Err(e) => Err(e),
                };
                let _ = reply.send(result);
            }
            Command::Start(token, seed, reply) => {
                let _ = reply.send(self.start(&token, seed).await);
            }
            Command::Act {
                token,
                action,
                v,
                reply,
            } => {
                let _ = reply.send(self.act(&token, action, v).await);
            }
            Command::Place {
                token,
                name,
                seat,
                v,
                reply,
            } => {
                let _ = reply.send(self.place(&token, &name, seat, v).await);
            }
            Command::Subscribe(token, v, reply) => {
                let _ = reply.send(self.subscribe(token.as_deref(), v));
                for name in std::mem::take(&mut self.back) {
                    self.news(News::Back { name }).await;
                }
            }
            Command::Resync(token, reason, reply) => {
                let who = token.and_then(|t| self.state.seat_of_token(&t).ok());
                let _ = reply.send(self.resync(&reason, who));
            }
            Command::Unsubscribe(name) => {
                if let Some(n) = self.connections.get_mut(&name) {
                    *n = n.saturating_sub(1);
                    if *n == 0 {
                        self.gone_since.insert(name, Instant::now());
                        if !self.any_human_connected() {
                            self.idle_since = Instant::now();
                        }
                        self.broadcast("presence", None);
                    }
                }
            }
            Command::Chat(from, text, reply) => {
                let _ = reply.send(self.chat(from, &text).await);
            }
            Command::SpectatorChat(token, allowed, reply) => {
                let _ = reply.send(self.set_spectator_chat(&token, allowed).await);
            }
            Command::Rematch(token, ctx, reply) => {
                let _ = reply.send(self.rematch(&token, *ctx).await);
            }
            Command::Info(reply) => {
                let _ = reply.send(self.info());
            }
            Command::HandOver(release, reply) => {
                if !release {
                    tracing::warn!("lease lost: handed over to another node");
                    self.lost_lease();
                } else if self.retired.set(Retire::Moved).is_ok()
                    && let Some(cluster) = self.ctx.cluster.as_ref()
                {
                    // Another node may take it at once; a release that
                    // fails leaves the lease to expire.
                    match cluster.release(&self.state.row.id) {
                        Ok(()) => tracing::info!("handed over: lease released"),
                        Err(e) => {
                            tracing::error!(error = %e, "releasing the lease failed: it expires")
                        }
                    }
                    self.ctx.metrics.lease_changed(LeaseChange::Released);
                }
                let _ = reply.send(());
            }
            Command::Evict(reply) => {
                let unattended = self.state.game.is_none()
                    && !self.any_human_connected()
                    && self.idle_since.elapsed() >= self.ctx.timings.listed_idle;
                if unattended {
                    tracing::info!("evicted to make room: unstarted, nobody here");
                    self.retire(Retire::Expired);
                }
                let _ = reply.send(unattended && self.retired.get().is_some());
            }
            #[cfg(test)]
            Command::Bot(name, bot) => {
                self.bots.insert(name, bot);
            }
            #[cfg(test)]
            Command::Panic => {
                // Half-done work, as a real bug would leave it.
                self.state.events.clear();
                panic!("a simulated bug");
            }
            Command::Query(query, reply) => {
                let result = match query {
                    Query::Record => self.state.record(),
                    Query::Replay => self.state.replay(),
                    Query::Fairness => Ok(json!(self.state.fairness())),
                };
                let _ = reply.send(result);
            }
        }
    }

    fn info(&self) -> TableInfo {
        let state = &self.state;
        TableInfo {
            id: state.row.id.clone(),
            name: state.row.name.clone(),
            default_name: crate::names::DefaultTableName::of(&state.row.name),
            seats: state.row.seats,
            taken: state.seats.iter().map(|s| s.name.clone()).collect(),
            started: state.game.is_some(),
            over: state.is_over(),
            public: state.row.public,
            variant: state.rules.variant,
            hand: state.game.as_ref().map_or(0, |g| g.hands().len()),
            v: state.v(),
            finished_at: self.finished_at,
            winner: self
                .finished_at
                .and_then(|_| state.standings().first().map(|w| w.to_string())),
            idle: !self.any_human_connected()
                && self.idle_since.elapsed() >= self.ctx.timings.listed_idle,
            age: self.born.elapsed(),
        }
    }

    async fn chat(&mut self, from: Speaker, text: &str) -> Result<(), ServerError> {
        let (name, spectator, voice) = match from {
            Speaker::Seat(token) => {
                let i = self.state.seat_of_token(&token)?;
                let name = self.state.seats[i].name.clone();
                (Some(name.clone()), false, Voice::Seat(name))
            }
            Speaker::Spectator { name, from } => {
                if !self.state.row.spectator_chat {
                    return Err(ServerError::Conflict(
                        "spectators may not chat at this table (the host may allow it)".into(),
                    ));
                }
                if let Some(n) = &name
                    && self.name_like(n).is_some()
                {
                    return Err(ServerError::Conflict(format!(
                        "{n:?} is a seat's name at this table, or looks like one: a spectator says hello with another"
                    )));
                }
                (
                    name,
                    true,
                    Voice::Spectators(crate::limits::address_key(from)),
                )
            }
        };
        if self.chat_limit.check_key(&voice).is_err() {
            return Err(ServerError::TooMany(format!(
                "too many chat lines: at most {CHAT_BURST} at once, then one a second"
            )));
        }
        // Spectators who stopped talking are forgotten.
        if self.chat_limit.len() > 256 {
            self.chat_limit.retain_recent();
        }
        let line = self.talk.chat_line(name.as_deref(), spectator, text);
        self.say("chat", TalkKind::Chat, line).await
    }

    async fn set_spectator_chat(&mut self, token: &str, allowed: bool) -> Result<(), ServerError> {
        self.check_host(token)?;
        if self.state.row.spectator_chat == allowed {
            return Ok(());
        }
        self.ctx
            .store
            .set_spectator_chat(&self.state.row.id, allowed)?;
        self.state.row.spectator_chat = allowed;
        self.broadcast("presence", None);
        self.news(News::SpectatorChat { allowed }).await;
        Ok(())
    }

    /// A new table with this one's rules and seats: bots of the same
    /// levels, and each person's seat held by the same token's hash (so
    /// their token here claims it there, and only theirs).
    async fn rematch(&mut self, token: &str, ctx: Context) -> Result<Rematch, ServerError> {
        self.check_host(token)?;
        if !self.state.is_over() {
            return Err(ServerError::Conflict(
                "a rematch is asked for once the game is over".into(),
            ));
        }
        if let Some(id) = &self.state.row.rematch {
            return Ok(Rematch {
                id: id.clone(),
                created: None,
            });
        }
        let row = TableRow {
            id: new_id(),
            rematch: None,
            ..self.state.row.clone()
        };
        let seats = self
            .state
            .seats
            .iter()
            .map(|s| Stored::Seat {
                name: s.name.clone(),
                hash: s.hash.as_ref().map(state::hash_hex),
                bot: s.bot.clone(),
            })
            .collect();
        let new = create_with(ctx.store.as_ref(), row, seats)?;
        if let Some(cluster) = &ctx.cluster
            && !cluster.take(&new.row.id)?
        {
            return Err(ServerError::Storage(format!(
                "the rematch's table {} was taken by another node",
                new.row.id
            )));
        }
        // Atomic in the store: a finished game may be served by more than
        // one actor (one per connection), and only one rematch may win.
        let id = match ctx.store.set_rematch(&self.state.row.id, &new.row.id) {
            Ok(id) => id,
            Err(e) => {
                let _ = ctx.store.delete(&new.row.id);
                return Err(e.into());
            }
        };
        self.state.row.rematch = Some(id.clone());
        let created = if id == new.row.id {
            tracing::info!(rematch = %id, "rematch table created");
            Some(spawn(counted(Actor::new(ctx, new)?)))
        } else {
            let _ = ctx.store.delete(&new.row.id);
            None
        };
        self.broadcast("presence", None);
        self.news(News::Rematch { table: id.clone() }).await;
        Ok(Rematch { id, created })
    }

    async fn join(&mut self, name: &str) -> Result<String, ServerError> {
        let name = names::check_new_name(name)?;
        // The same name exactly: the log's own refusal says so.
        if let Some(taken) = self.name_like(&name).filter(|t| *t != name) {
            return Err(ServerError::Conflict(format!(
                "the name {name:?} is too like {taken:?}, taken at this table"
            )));
        }
        let token = new_token();
        let hash = Some(state::hash_hex(&hash_token(&token)));
        let event = if self.state.game.is_some() {
            Stored::Waiting {
                name: name.clone(),
                hash,
                bot: None,
            }
        } else {
            Stored::Seat {
                name: name.clone(),
                hash,
                bot: None,
            }
        };
        self.commit(event).await?;
        self.gone_since.insert(name, Instant::now());
        Ok(token)
    }

    /// A name of this table's seats or game that looks like `name`.
    fn name_like(&self, name: &str) -> Option<String> {
        let seats = self.state.seats.iter().map(|s| s.name.as_str());
        let players = self
            .state
            .game
            .iter()
            .flat_map(|g| g.players().map(|p| g.name(p)));
        seats
            .chain(players)
            .find(|taken| names::alike(taken, name))
            .map(str::to_string)
    }

    async fn add_bot(&mut self, token: &str, spec: &str) -> Result<String, ServerError> {
        self.check_host(token)?;
        let level = bots::parse_level(spec)?;
        let bot = bots::build(level, self.state.seats.len() as u64);
        // Named by level, as the host chose it ("hard bot 1"), not by the
        // bot that plays it, which the level may change.
        let name = (1..)
            .map(|i| crate::names::bot_name(level.name(), i))
            .find(|n| {
                self.state.seat_named(n).is_none()
                    && self
                        .state
                        .game
                        .as_ref()
                        .is_none_or(|g| g.player_named(n).is_none())
            })
            .expect("a free name");
        let (name2, bot_spec) = (name.clone(), Some(level.name().to_string()));
        let event = if self.state.game.is_some() {
            Stored::Waiting {
                name: name2,
                hash: None,
                bot: bot_spec,
            }
        } else {
            Stored::Seat {
                name: name2,
                hash: None,
                bot: bot_spec,
            }
        };
        self.commit(event).await?;
        self.bots.insert(name.clone(), bot);
        Ok(name)
    }

    /// Frees a seat before the start (or a newcomer's), else marks its
    /// player as leaving when the hand ends.
    async fn remove(&mut self, name: &str, bot: bool) -> Result<(), ServerError> {
        let i = self
            .state
            .seat_named(name)
            .filter(|&i| !bot || self.state.seats[i].bot.is_some())
            .ok_or_else(|| ServerError::BadRequest(format!("no bot named {name:?}")))?;
        if self.state.game.is_none() || self.state.seats[i].waiting {
            self.commit(Stored::Unseat {
                name: name.to_string(),
            })
            .await?;
            self.forget(name);
        } else {
            self.commit(Stored::Leaving {
                name: name.to_string(),
            })
            .await?;
        }
        Ok(())
    }

    async fn start(&mut self, token: &str, seed: Option<Seed>) -> Result<(), ServerError> {
        self.check_host(token)?;
        self.test_seed = seed;
        let draw_seed = seed.unwrap_or_else(Seed::from_entropy);
        self.commit(Stored::Start {
            draw_seed: draw_seed.to_string(),
        })
        .await?;
        tracing::info!(seats = self.state.seats.len(), "game started");
        let seed = self.next_seed();
        self.commit(Stored::Deal {
            seed: seed.to_string(),
            at: Some(talk::now_ms()),
        })
        .await?;
        Ok(())
    }

    async fn act(&mut self, token: &str, action: Action, v: u64) -> Result<u64, Refusal> {
        let arrived = std::time::Instant::now();
        let i = self
            .state
            .seat_of_token(token)
            .map_err(|e| (e.clone(), self.resync(&e, None)))?;
        if v != self.state.v() {
            let e = ServerError::Stale {
                sent: v,
                current: self.state.v(),
            };
            return Err((e.clone(), self.resync(&e, Some(i))));
        }
        if action == Action::Ready {
            // Everyone is made ready together when the pause ends: a
            // person saying it early would be the only one to.
            let e = ServerError::Conflict(
                "no need to say ready: everyone is made ready together when the \
                 look-at-your-cards pause ends (setup_ms)"
                    .into(),
            );
            return Err(self.refusal(e, i));
        }
        let event = Stored::Act {
            player: self.state.seats[i].name.clone(),
            action: crate::protocol::encode_action(&action),
            auto: false,
        };
        self.arrived = Some(arrived);
        match self.commit(event).await {
            Ok(v) => Ok(v),
            Err(e) => Err((e.clone(), self.resync(&e, Some(i)))),
        }
    }

    async fn place(
        &mut self,
        token: &str,
        name: &str,
        seat: usize,
        v: u64,
    ) -> Result<u64, Refusal> {
        let i = self
            .state
            .seat_of_token(token)
            .map_err(|e| (e.clone(), self.resync(&e, None)))?;
        if v != self.state.v() {
            let e = ServerError::Stale {
                sent: v,
                current: self.state.v(),
            };
            return Err(self.refusal(e, i));
        }
        let Some((placement, _)) = self.place.as_ref().filter(|p| p.0.chooser == i) else {
            let e = ServerError::Conflict("you have no newcomer to place".into());
            return Err(self.refusal(e, i));
        };
        if placement.newcomer != name || !placement.seats.contains(&seat) {
            let e = ServerError::BadRequest(format!(
                "place {} at seat {:?}",
                placement.newcomer, placement.seats
            ));
            return Err(self.refusal(e, i));
        }
        self.place = None;
        let result = self
            .commit(Stored::Join {
                name: name.to_string(),
                seat,
            })
            .await;
        self.deal_at = Some(Instant::now());
        match result {
            Ok(v) => Ok(v),
            Err(e) => Err(self.refusal(e, i)),
        }
    }

    fn refusal(&self, error: ServerError, who: usize) -> Refusal {
        let resync = self.resync(&error, Some(who));
        (error, resync)
    }

    fn subscribe(&mut self, token: Option<&str>, v: u64) -> Result<Subscription, ServerError> {
        let who = token.map(|t| self.state.seat_of_token(t)).transpose()?;
        // A client that saw more than this node holds saw it from another
        // node, which took the table over behind this one's back (a pause
        // past the lease): this node is handed over rather than take the
        // client's v back (issue 24, D1).
        if v > self.state.v()
            && let Some(cluster) = &self.ctx.cluster
            && !cluster.holds(&self.state.row.id).unwrap_or(true)
        {
            tracing::warn!(v, "a client saw more than this node: the lease was lost");
            self.lost_lease();
            return Err(ServerError::Conflict(Retire::Moved.reason().into()));
        }
        let feed = match who {
            Some(i) => {
                let name = self.state.seats[i].name.clone();
                *self.connections.entry(name.clone()).or_default() += 1;
                self.gone_since.remove(&name);
                let back = self.away.remove(&name);
                let feed = self
                    .feeds
                    .entry(name.clone())
                    .or_insert_with(|| broadcast::channel(CHANNEL).0)
                    .subscribe();
                // Everyone sees them connected (and no longer away).
                self.broadcast("presence", None);
                if back && self.state.game.is_some() {
                    self.back.push(name);
                }
                feed
            }
            None => self.spectators.subscribe(),
        };
        let current = self.state.v();
        let live = self.live();
        let first = if v == 0 || v > current || current - v > CATCHUP {
            self.message("snapshot", who, &live)
        } else {
            let mut msg = self.message("catchup", who, &live);
            msg.d["missed"] = (v + 1..=current)
                .map(|k| json!({ "v": k, "e": self.state.describe(k, who) }))
                .collect();
            msg
        };
        let mut first = first;
        first.d["chat"] = self.talk.chat();
        first.d["news"] = self.talk.news();
        Ok(Subscription {
            feed,
            first,
            seat: who.map(|i| self.state.seats[i].name.clone()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SqliteStore;
    use crate::store::faulty::{Faulty, Ping};

    fn timings() -> Timings {
        Timings::for_tests()
    }

    /// Table "t" of `seats`, with the default rules.
    fn row(seats: usize) -> TableRow {
        TableRow {
            id: "t".into(),
            name: "t".into(),
            seats,
            rules: "{}".into(),
            public: true,
            ..TableRow::default()
        }
    }

    /// Ada and three greedy bots on `store`, the game started, up to Ada's
    /// first decision that is not saying ready: the table, Ada's token,
    /// her feed and that message.
    async fn adas_turn(
        store: Arc<dyn Store>,
    ) -> (
        TableHandle,
        String,
        broadcast::Receiver<Arc<Outgoing>>,
        ServerMsg,
    ) {
        let table = create(Context::new(store, timings()), row(4)).unwrap();
        let token = table.join("Ada").await.unwrap();
        for _ in 0..3 {
            table.add_bot(&token, "greedy").await.unwrap();
        }
        let mut feed = table.subscribe(Some(&token), 0).await.unwrap().feed;
        table.start_with_seed(&token, Seed::from(3)).await.unwrap();
        // When Ada is to act, nobody else moves (saying ready is not hers
        // to do: the table does it when the setup pause ends).
        // (Once the bots have said ready: until then they still move.)
        let before = loop {
            let msg = feed.recv().await.unwrap().to_msg();
            let view = &msg.d["view"];
            let others_done = view["stage"] == "play" || view["ready"] == json!(3);
            if !msg.d["decision"].is_null() && msg.d["decision"]["kind"] != "ready" && others_done {
                break msg;
            }
        };
        (table, token, feed, before)
    }

    /// A legal action of Ada's at `msg`'s decision.
    fn adas_action(msg: &ServerMsg) -> Action {
        let hand = msg.d["view"]["hand"].as_str().unwrap();
        let cards: Vec<&str> = hand.split(' ').collect();
        match msg.d["decision"]["kind"].as_str().unwrap() {
            "follow" => Action::Pass,
            // Ada deals first: the Greater Dalmuti gives any cards.
            "tax" => {
                let n = msg.d["decision"]["count"].as_u64().unwrap() as usize;
                Action::GiveTax(cards[cards.len() - n..].join(" ").parse().unwrap())
            }
            _ => Action::Play(cards[0].parse().unwrap()),
        }
    }

    /// Commit, then tell (issue 24, D1 and D2): with the database down,
    /// an act is refused with the state as the log holds it, nobody is
    /// told of it, and a line of chat is neither kept nor said; once the
    /// database is back, the same act is played at the same number.
    #[tokio::test]
    async fn with_the_database_down_nothing_uncommitted_is_told() {
        let store = Faulty::new(Ping::Works);
        let (table, token, mut feed, before) = adas_turn(store.clone()).await;
        store.down(Some(
            "could not receive data from server: Connection reset by peer",
        ));
        let action = adas_action(&before);
        let (error, resync) = table.act(&token, action, before.v).await.unwrap_err();
        assert!(matches!(error, ServerError::Storage(_)), "{error}");
        assert_eq!(resync.v, before.v, "the refused act is not applied");
        assert_eq!(resync.d["view"], before.d["view"]);
        assert_eq!(resync.d["decision"], before.d["decision"]);
        let said = table
            .chat(Speaker::Seat(token.clone()), "hello?")
            .await
            .unwrap_err();
        assert!(said.to_string().contains("could not be kept"), "{said}");
        // Nobody was told anything past what the log holds.
        while let Ok(msg) = feed.try_recv() {
            let msg = msg.to_msg();
            assert!(msg.v <= before.v, "told of v {}: {msg:?}", msg.v);
            assert_ne!(msg.t, "chat", "a line the store did not keep: {msg:?}");
        }
        let now = table.subscribe(Some(&token), 0).await.unwrap().first;
        assert_eq!((now.v, &now.d["view"]), (before.v, &before.d["view"]));
        assert_eq!(now.d["chat"], json!([]));

        store.down(None);
        assert_eq!(
            table.act(&token, action, before.v).await.unwrap(),
            before.v + 1
        );
        assert_eq!(store.log("t").unwrap().len() as u64, before.v + 1);
        table.chat(Speaker::Seat(token), "back").await.unwrap();
        let line = loop {
            let msg = feed.recv().await.unwrap().to_msg();
            if msg.t == "chat" {
                break msg;
            }
        };
        assert_eq!(line.d["text"], "back");
        assert_eq!(store.talk("t", TalkKind::Chat).unwrap().len(), 1);
    }

    /// Chat is bounded per seat, however many connections it holds, and
    /// per address for spectators, whatever names they give (issue 24,
    /// S4); the history keeps other voices' lines.
    #[tokio::test]
    async fn chat_is_bounded_per_seat_and_per_spectator_address() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        let row = TableRow {
            spectator_chat: true,
            ..row(4)
        };
        let table = create(Context::new(store, timings()), row).unwrap();
        let ada = table.join("Ada").await.unwrap();
        let bob = table.join("Bob").await.unwrap();
        let seat = |token: &str| Speaker::Seat(token.to_string());
        for i in 0..CHAT_BURST {
            table.chat(seat(&ada), &format!("line {i}")).await.unwrap();
        }
        let e = table.chat(seat(&ada), "one more").await.unwrap_err();
        assert!(matches!(e, ServerError::TooMany(_)), "{e}");
        // Another seat still speaks.
        table.chat(seat(&bob), "hi Ada").await.unwrap();
        let from = |a: [u8; 4]| std::net::IpAddr::from(a);
        let spectator = |name: String, a| Speaker::Spectator {
            name: Some(name),
            from: from(a),
        };
        for i in 0..CHAT_BURST {
            let name = format!("watcher {i}");
            table
                .chat(spectator(name, [10, 0, 0, 1]), "look")
                .await
                .unwrap();
        }
        let e = table
            .chat(spectator("watcher 9".into(), [10, 0, 0, 1]), "look")
            .await
            .unwrap_err();
        assert!(matches!(e, ServerError::TooMany(_)), "{e}");
        table
            .chat(spectator("elsewhere".into(), [10, 0, 0, 2]), "hello")
            .await
            .unwrap();
        // Names that look like a seat's are refused to spectators.
        for name in ["ADA", "\u{410}da"] {
            let e = table
                .chat(spectator(name.into(), [10, 0, 0, 3]), "I am Ada")
                .await
                .unwrap_err();
            assert!(e.to_string().contains("looks like"), "{name}: {e}");
        }
        // A newcomer's look-alike name is refused too.
        let e = table.join("ada").await.unwrap_err();
        assert!(e.to_string().contains("too like"), "{e}");
    }

    /// A table taken over (or restarted) during the setup pause keeps what
    /// was left of the pause, not a whole new one (issue 24, D5).
    #[tokio::test]
    async fn the_setup_pause_survives_a_takeover_with_its_time_left() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        let pause = Duration::from_secs(4);
        let timings = Timings {
            setup_pause: pause,
            ..timings()
        };
        let table = create(Context::new(store.clone(), timings), row(3)).unwrap();
        let token = table.join("Ada").await.unwrap();
        for _ in 0..2 {
            table.add_bot(&token, "greedy").await.unwrap();
        }
        table.start_with_seed(&token, Seed::from(3)).await.unwrap();
        let setup_ms = |msg: &ServerMsg| msg.d["setup_ms"].as_u64();
        let first = table.subscribe(Some(&token), 0).await.unwrap().first;
        assert!(
            setup_ms(&first).is_some(),
            "in the setup pause: {:?}",
            first.d
        );
        tokio::time::sleep(Duration::from_millis(1500)).await;
        // Another node (here: another actor on the same store) takes over.
        let other = load(Context::new(store, timings), row(3)).unwrap();
        let taken = other.subscribe(Some(&token), 0).await.unwrap().first;
        assert_eq!(taken.v, first.v);
        let left = setup_ms(&taken).expect("still in the setup pause");
        assert!(
            (1000..=2600).contains(&left),
            "{left} ms left of the {pause:?} pause after 1.5 s"
        );
    }

    /// A bot with a bug: it panics at every decision.
    struct Panicky;

    impl Bot for Panicky {
        fn name(&self) -> &str {
            "panicky"
        }
        fn decide(
            &mut self,
            _: &dalmuti_core::View<'_>,
            _: &[Action],
        ) -> Result<Action, dalmuti_bots::BotFault> {
            panic!("a bot's bug")
        }
    }

    /// A bot that panics while deciding does not stall its table: the
    /// heuristic decides for it that once, and the game goes on with the
    /// seat's own bot built afresh.
    #[tokio::test]
    async fn a_bot_that_panics_is_replaced_for_that_decision() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        let (table, token, mut feed, before) = adas_turn(store.clone()).await;
        let seats = table.info().await.unwrap().taken;
        let bot = seats[1].clone();
        let _ = table
            .tx
            .send(Command::Bot(bot.clone(), Box::new(Panicky)))
            .await;
        // Ada plays on (passing or leading) until the bot has acted twice.
        let mut msg = before;
        let mut acted = 0;
        while acted < 2 {
            if !msg.d["decision"].is_null() && msg.d["decision"]["kind"] != "ready" {
                let _ = table.act(&token, adas_action(&msg), msg.v).await;
            }
            msg = tokio::time::timeout(Duration::from_secs(20), feed.recv())
                .await
                .expect("the table goes on")
                .unwrap()
                .to_msg();
            if msg.d["e"]["kind"] == "act" && msg.d["e"]["name"] == json!(bot) {
                acted += 1;
            }
        }
    }

    #[tokio::test]
    async fn a_panic_rebuilds_the_table_from_its_log_and_play_goes_on() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        let (table, token, mut feed, before) = adas_turn(store).await;
        let _ = table.tx.send(Command::Panic).await;
        // Everyone is told to start again from the state as it is.
        loop {
            let msg = feed.recv().await.unwrap().to_msg();
            if msg.t == "resync" {
                assert_eq!(msg.v, before.v);
                break;
            }
        }
        let after = table.subscribe(Some(&token), 0).await.unwrap().first;
        assert_eq!(after.v, before.v, "nothing lost, nothing added");
        assert_eq!(after.d["view"], before.d["view"]);
        // And the table still plays.
        let action = adas_action(&after);
        assert_eq!(
            table.act(&token, action, after.v).await.unwrap(),
            after.v + 1
        );
    }
}
