//! The table as a whole: its rematch, its summary, its record, and
//! leaving memory (handed over to another node, or evicted).

use tokio::sync::oneshot;

use crate::error::{Conflict, ServerError};
use crate::fairness::{FairRecord, Fairness};
use crate::ids::TableId;
use crate::metrics::LeaseChange;
use crate::protocol::News;
use crate::protocol::{Replay, StateKind};
use crate::store::Store;
use crate::store::TableRow;
use crate::table::Reply;
use crate::table::TableInfo;
use crate::table::actor::Actor;
use crate::table::context::Context;
use crate::table::expiry::Retire;
use crate::table::state::TableState;
use crate::table::state::{self, Stored};
use crate::token::SeatToken;

/// The host of a finished game asks for a rematch in `ctx`.
pub(in crate::table) struct AskRematch {
    pub host_token: SeatToken,
    pub ctx: Box<Context>,
    pub reply: Reply<RematchMade>,
}

/// The rematch's table id, and its actor, to be started by the handle,
/// if this request made it (`None`: it existed already).
pub(in crate::table) struct RematchMade {
    pub id: TableId,
    pub made: Option<Box<Actor>>,
}

impl AskRematch {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let _ = self
            .reply
            .send(actor.rematch(&self.host_token, *self.ctx).await);
    }
}

/// The table's public summary.
pub(in crate::table) struct Info {
    pub reply: oneshot::Sender<TableInfo>,
}

impl Info {
    pub(super) fn apply(self, actor: &mut Actor) {
        let _ = self.reply.send(actor.info());
    }
}

/// Read-only questions about a table.
/// A read-only question about a finished game, and where its answer goes.
pub(in crate::table) enum Query {
    /// The record, with its fairness data (the record's own JSON).
    Record(Reply<FairRecord>),
    /// Every step, every hand shown.
    Replay(Reply<Replay>),
    /// The deal commitments and revealed seeds.
    Fairness(Reply<Fairness>),
}

impl Query {
    pub(super) fn apply(self, actor: &mut Actor) {
        let state = &actor.state;
        match self {
            Query::Record(reply) => drop(reply.send(state.record().map_err(Into::into))),
            Query::Replay(reply) => drop(reply.send(state.replay().map_err(Into::into))),
            Query::Fairness(reply) => drop(reply.send(Ok(state.fairness()))),
        }
    }
}

/// Stop serving the table (another node serves it now); give its lease
/// up first if `release` (a drain), not if it was lost.
pub(in crate::table) struct HandOver {
    pub release: bool,
    pub reply: oneshot::Sender<()>,
}

impl HandOver {
    pub(super) async fn apply(self, actor: &mut Actor) {
        if !self.release {
            tracing::warn!("lease lost: handed over to another node");
            actor.lost_lease();
        } else if actor.retired.set(Retire::Moved).is_ok()
            && let Some(cluster) = actor.ctx.cluster.clone()
        {
            // Another node may take it at once; a release that fails
            // leaves the lease to expire.
            let id = actor.state.row.id.clone();
            match actor.blocking(move |_, _| cluster.release(&id)).await {
                Ok(()) => tracing::info!("handed over: lease released"),
                Err(e) => {
                    tracing::error!(error = %e, "releasing the lease failed: it expires")
                }
            }
            actor.ctx.metrics.lease_changed(LeaseChange::Released);
        }
        let _ = self.reply.send(());
    }
}

/// Make room: leave memory if nobody has played or been here for a while
/// (unstarted, no person connected for the lobby's idle time); answers
/// whether it did.
pub(in crate::table) struct Evict {
    pub reply: oneshot::Sender<bool>,
}

impl Evict {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let unattended = actor.state.game.is_none()
            && !actor.any_human_connected()
            && actor.clocks.idle_since.elapsed() >= actor.ctx.timings.listed_idle;
        if unattended {
            tracing::info!("evicted to make room: unstarted, nobody here");
            actor.retire(Retire::Expired).await;
        }
        let _ = self.reply.send(unattended && actor.retired.get().is_some());
    }
}

impl Actor {
    /// A new table with this one's rules and seats: bots of the same
    /// levels, and each person's seat held by the same token's hash (so
    /// their token here claims it there, and only theirs).
    async fn rematch(
        &mut self,
        token: &SeatToken,
        ctx: Context,
    ) -> Result<RematchMade, ServerError> {
        self.check_host(token)?;
        if !self.state.is_over() {
            return Err(ServerError::Conflict(Conflict::RematchTooSoon));
        }
        if let Some(id) = &self.state.row.rematch {
            return Ok(RematchMade {
                id: id.clone(),
                made: None,
            });
        }
        let row = TableRow {
            id: TableId::new(),
            rematch: None,
            ..self.state.row.clone()
        };
        // A contest program's connection ended with its match: its seat is
        // left free for a program that connects again.
        let seats = self
            .state
            .seats
            .iter()
            .filter(|s| s.bot.as_deref() != Some(crate::bots::PROGRAM))
            .map(|s| Stored::Seat {
                name: s.name.clone(),
                hash: s.hash.as_ref().map(state::hash_hex),
                bot: s.bot.clone(),
                player: s.player.clone(),
                from: s.from.clone(),
            })
            .collect();
        let this = self.state.row.id.clone();
        let (id, made) = self
            .blocking(move |_, _| make_rematch(ctx, &this, row, seats))
            .await?;
        self.state.row.rematch = Some(id.clone());
        let made = made?;
        self.broadcast(StateKind::Presence, None);
        self.news(News::Rematch { table: id.clone() }).await;
        Ok(RematchMade { id, made })
    }
}

/// The rematch's actor, if this request made the table: built, or why
/// not.
type Made = Result<Option<Box<Actor>>, ServerError>;

/// The rematch's table written (its seats taken) and claimed as this
/// table's rematch, `this`; a blocking store call. Its id, and its actor
/// if this request made it (another connection's may have won).
fn make_rematch(
    ctx: Context,
    this: &TableId,
    row: TableRow,
    seats: Vec<Stored>,
) -> Result<(TableId, Made), ServerError> {
    let new = create_with(ctx.store.as_ref(), row, seats)?;
    if let Some(cluster) = &ctx.cluster
        && !cluster.take(&new.row.id)?
    {
        return Err(ServerError::Storage(crate::store::StoreError::Failed(
            format!(
                "the rematch's table {} was taken by another node",
                new.row.id
            ),
        )));
    }
    // Atomic in the store: a finished game may be served by more than
    // one actor (one per connection), and only one rematch may win.
    let id = match ctx.store.set_rematch(this, &new.row.id) {
        Ok(id) => id,
        Err(e) => {
            let _ = ctx.store.delete(&new.row.id);
            return Err(e.into());
        }
    };
    if id == new.row.id {
        tracing::info!(rematch = %id, "rematch table created");
        // The players who kept their names have it among their games.
        let at = crate::table::talk::now_ms();
        for key in new.seats.iter().filter_map(|s| s.player.as_deref()) {
            if let Err(e) = ctx.store.add_player_table(key, &id, at) {
                tracing::error!(error = %e, "a player's rematch was not added to their games");
            }
        }
        let made = Actor::new(ctx, new).map(|actor| Some(Box::new(actor.counted())));
        Ok((id, made))
    } else {
        let _ = ctx.store.delete(&new.row.id);
        Ok((id, Ok(None)))
    }
}

/// Creates a new table in the store with these events already in its
/// log (seats taken), without starting its actor.
pub(super) fn create_with(
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
        if let Err(e) = store.append(&state.row.id, i as u64 + 1, event) {
            let _ = store.delete(&state.row.id);
            return Err(e.into());
        }
    }
    Ok(state)
}
