//! A table as the rest of the server holds it: a cheap handle that asks
//! the actor, one command at a time; and the actor's task, which answers
//! them and keeps the table going through a panic.

use std::sync::{Arc, OnceLock};

use dalmuti_core::{Action, Seed};
use tokio::sync::{mpsc, oneshot};

use super::TableInfo;
use super::actor::{Actor, BotDone};
use super::cmd::{
    Act, AddBot, AskRematch, Chat, Command, Evict, HandOver, Info, Join, Leave, Place, Query,
    Reclaim, RemoveBot, Report, Resync, Silence, SpectatorChat, Start, Subscribe, Unsubscribe,
};
use super::context::Context;
use super::expiry::Retire;
use super::talk::Speaker;
use super::{ActReply, Refusal, Reply, Subscription};
use crate::error::ServerError;
use crate::fairness::{FairRecord, Fairness};
use crate::ids::TableId;
use crate::names::PlayerName;
use crate::protocol::{Replay, ServerMsg};
use crate::token::SeatToken;
use futures_util::FutureExt;
use std::panic::AssertUnwindSafe;
use tokio::time::Instant;
use tracing::Instrument;

/// A rematch asked for: the new table's id, and its handle if this
/// request made it (`None`: it existed already).
pub struct Rematch {
    /// The rematch's table.
    pub id: TableId,
    /// The new table, to be registered by the caller.
    pub created: Option<TableHandle>,
}

/// A handle to a table's actor: clone it freely.
#[derive(Clone)]
pub struct TableHandle {
    pub(super) tx: mpsc::Sender<Command>,
    pub(super) retired: Arc<OnceLock<Retire>>,
    pub(super) name: Arc<str>,
}

pub(crate) fn closed() -> Refusal {
    (ServerError::Closed, (ServerError::Closed).to_msg(0))
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

    async fn ask_act(&self, make: impl FnOnce(ActReply) -> Command) -> Result<u64, Refusal> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(make(reply)).await.map_err(|_| closed())?;
        rx.await.map_err(|_| closed())?
    }

    /// Takes a seat with a display name (before the start: a seat; after
    /// it: a newcomer for the next hand), from `from`
    /// ([`crate::ratings::origin`]); returns the seat's secret token.
    pub async fn join(&self, name: &str, from: Option<String>) -> Result<SeatToken, ServerError> {
        let name = crate::names::check_new_name(name)?;
        self.ask(|r| {
            Command::Join(Join {
                name,
                player: None,
                from,
                reply: r,
            })
        })
        .await
    }

    /// The host removes seat `name`'s chat: its kept lines go, and it
    /// may chat no more here.
    pub async fn silence(
        &self,
        host_token: &SeatToken,
        name: &PlayerName,
    ) -> Result<(), ServerError> {
        let (host_token, name) = (host_token.clone(), name.clone());
        self.ask(|r| {
            Command::Silence(Silence {
                host_token,
                name,
                reply: r,
            })
        })
        .await
    }

    /// The seat of `token` reports kept chat line `n`, saying `why`.
    pub async fn report(&self, token: &SeatToken, n: u64, why: &str) -> Result<(), ServerError> {
        let (token, why) = (token.clone(), why.to_string());
        self.ask(|r| {
            Command::Report(Report {
                token,
                n,
                why,
                reply: r,
            })
        })
        .await
    }

    /// `player` takes back the seat they took here, on another device:
    /// a new token for it; the old one plays it no more.
    pub async fn reclaim(&self, player: &crate::names::Player) -> Result<SeatToken, ServerError> {
        let player = player.key.clone();
        self.ask(|r| Command::Reclaim(Reclaim { player, reply: r }))
            .await
    }

    /// Takes a seat as `player`, who kept their name ([`crate::players`]):
    /// the seat carries the player's key, in the log too.
    pub async fn join_as(
        &self,
        player: &crate::names::Player,
        from: Option<String>,
    ) -> Result<SeatToken, ServerError> {
        let (name, key) = (player.name.clone(), player.key.clone());
        self.ask(|r| {
            Command::Join(Join {
                name,
                player: Some(key),
                from,
                reply: r,
            })
        })
        .await
    }

    /// The host seats a bot of one of the offered levels
    /// ([`crate::bots::LEVELS`]); returns its display name.
    pub async fn add_bot(
        &self,
        host_token: &SeatToken,
        spec: &str,
    ) -> Result<PlayerName, ServerError> {
        let (token, spec) = (host_token.clone(), spec.to_string());
        self.ask(|r| {
            Command::AddBot(AddBot {
                host_token: token,
                spec,
                reply: r,
            })
        })
        .await
    }

    /// The host removes a bot (after the start: when the hand ends).
    pub async fn remove_bot(
        &self,
        host_token: &SeatToken,
        name: &PlayerName,
    ) -> Result<(), ServerError> {
        let (token, name) = (host_token.clone(), name.clone());
        self.ask(|r| {
            Command::RemoveBot(RemoveBot {
                host_token: token,
                name,
                reply: r,
            })
        })
        .await
    }

    /// The token's player leaves (after the start: when the hand ends).
    pub async fn leave(&self, token: &SeatToken) -> Result<(), ServerError> {
        let token = token.clone();
        self.ask(|r| Command::Leave(Leave { token, reply: r }))
            .await
    }

    /// The host starts the game; every deal is seeded from the operating
    /// system's random source.
    pub async fn start(&self, host_token: &SeatToken) -> Result<(), ServerError> {
        let token = host_token.clone();
        self.ask(|r| {
            Command::Start(Start {
                host_token: token,
                seed: None,
                reply: r,
            })
        })
        .await
    }

    /// Starts with the draw and every deal following from `seed`: for tests
    /// only. The HTTP API never offers it to a player: whoever chose the
    /// seed would know every hand (a test server's operator may, with
    /// `dalmuti serve --deal-seed`).
    pub async fn start_with_seed(
        &self,
        host_token: &SeatToken,
        seed: Seed,
    ) -> Result<(), ServerError> {
        let token = host_token.clone();
        self.ask(|r| {
            Command::Start(Start {
                host_token: token,
                seed: Some(seed),
                reply: r,
            })
        })
        .await
    }

    /// Plays an action for the token's seat, chosen at event `v`. Returns
    /// the new event number, or the refusal with a resync message.
    pub async fn act(&self, token: &SeatToken, action: Action, v: u64) -> Result<u64, Refusal> {
        let token = token.clone();
        self.ask_act(|reply| {
            Command::Act(Act {
                token,
                action,
                v,
                reply,
            })
        })
        .await
    }

    /// The Greater Dalmuti places a newcomer at `seat`.
    pub async fn place(
        &self,
        token: &SeatToken,
        name: &PlayerName,
        seat: usize,
        v: u64,
    ) -> Result<u64, Refusal> {
        let (token, name) = (token.clone(), name.clone());
        self.ask_act(|reply| {
            Command::Place(Place {
                token,
                name,
                seat,
                v,
                reply,
            })
        })
        .await
    }

    /// Connects a viewer: a seat by its token, or a spectator. `v` is the
    /// last event the client saw (0 if none).
    pub async fn subscribe(
        &self,
        token: Option<&SeatToken>,
        v: u64,
    ) -> Result<Subscription, ServerError> {
        let token = token.cloned();
        self.ask(|r| Command::Subscribe(Subscribe { token, v, reply: r }))
            .await
    }

    /// The `resync` for a connection whose `act` or `place` was refused
    /// before it reached the table (unreadable, rate-limited, from a
    /// spectator): the state of the token's seat (a spectator's if none),
    /// with `error` as its `error`.
    pub async fn resync(
        &self,
        token: Option<&SeatToken>,
        error: &ServerError,
    ) -> Result<ServerMsg, ServerError> {
        let (token, reason) = (token.cloned(), error.clone());
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Command::Resync(Resync {
                token,
                reason,
                reply,
            }))
            .await
            .map_err(|_| ServerError::Closed)?;
        rx.await.map_err(|_| ServerError::Closed)
    }

    /// A seat's connection closed.
    pub async fn unsubscribe(&self, seat: &PlayerName) {
        let _ = self
            .tx
            .send(Command::Unsubscribe(Unsubscribe { seat: seat.clone() }))
            .await;
    }

    /// Sends a chat line to everyone at the table, from a seat or (if the
    /// host lets them) a spectator; the table keeps the last lines.
    pub async fn chat(&self, from: Speaker, text: &str) -> Result<(), ServerError> {
        let text = text.to_string();
        self.ask(|r| {
            Command::Chat(Chat {
                from,
                text,
                reply: r,
            })
        })
        .await
    }

    /// The host lets spectators chat, or stops them.
    pub async fn set_spectator_chat(
        &self,
        host_token: &SeatToken,
        allowed: bool,
    ) -> Result<(), ServerError> {
        let token = host_token.clone();
        self.ask(|r| {
            Command::SpectatorChat(SpectatorChat {
                host_token: token,
                allowed,
                reply: r,
            })
        })
        .await
    }

    /// The host of a finished game asks for a rematch: a new table in
    /// `ctx` with the same rules and the same seats (each person's token
    /// holds their seat there too), unless one was made already.
    pub async fn rematch(
        &self,
        host_token: &SeatToken,
        ctx: Context,
    ) -> Result<Rematch, ServerError> {
        let token = host_token.clone();
        let made = self
            .ask(|r| {
                Command::Rematch(AskRematch {
                    host_token: token,
                    ctx: Box::new(ctx),
                    reply: r,
                })
            })
            .await?;
        Ok(Rematch {
            id: made.id,
            created: made.made.map(|actor| spawn(*actor)),
        })
    }

    /// Stops serving the table: its actor ends once the command under
    /// way is done (so nothing more is written), then gives the table's
    /// lease up if `release` (a node that is stopping hands its tables
    /// over), and its connections are told the table `moved`.
    pub async fn hand_over(&self, release: bool) {
        let (reply, rx) = oneshot::channel();
        if self
            .tx
            .send(Command::HandOver(HandOver { release, reply }))
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
        self.tx.send(Command::Evict(Evict { reply })).await.is_ok() && rx.await.unwrap_or(false)
    }

    /// The table's public summary.
    pub async fn info(&self) -> Result<TableInfo, ServerError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Command::Info(Info { reply }))
            .await
            .map_err(|_| ServerError::Closed)?;
        rx.await.map_err(|_| ServerError::Closed)
    }

    /// The finished game's record, with its fairness data.
    pub async fn record(&self) -> Result<FairRecord, ServerError> {
        self.ask(|r| Command::Query(Query::Record(r))).await
    }

    /// The finished game step by step, every hand shown.
    pub async fn replay(&self) -> Result<Replay, ServerError> {
        self.ask(|r| Command::Query(Query::Replay(r))).await
    }

    /// The deal commitments and revealed seeds.
    pub async fn fairness(&self) -> Result<Fairness, ServerError> {
        self.ask(|r| Command::Query(Query::Fairness(r))).await
    }
}

/// What woke the actor.
pub(crate) enum Wake {
    Command(Command),
    Bot(BotDone),
    Timer,
}

/// Recoveries in a row after which a table gives up (its log replays into
/// a state that panics again at once).
pub(crate) const MAX_RECOVERIES: u32 = 3;

pub(crate) fn spawn(mut actor: Actor) -> TableHandle {
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
                        if recoveries > MAX_RECOVERIES || !actor.recover().await {
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
                    Some(done) = actor.bots.rx.recv() => Wake::Bot(done),
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
                    if recoveries > MAX_RECOVERIES || !actor.recover().await {
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

pub(crate) async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
