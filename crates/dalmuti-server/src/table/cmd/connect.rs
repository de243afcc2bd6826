//! Connections: a viewer subscribes (a seat by its token, or a
//! spectator), is resynced after a refusal, and goes.

use tokio::sync::{broadcast, oneshot};
use tokio::time::Instant;

use crate::error::{Conflict, ServerError};
use crate::names::PlayerName;
use crate::protocol::News;
use crate::protocol::{ServerMsg, StateKind};
use crate::table::actor::Actor;
use crate::table::{CATCHUP, CHANNEL};
use crate::table::{Reply, Subscription};
use crate::token::SeatToken;

/// Connect a viewer that last saw event `v` (0: none).
pub(in crate::table) struct Subscribe {
    pub token: Option<SeatToken>,
    pub v: u64,
    pub reply: Reply<Subscription>,
}

impl Subscribe {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let _ = self
            .reply
            .send(actor.subscribe(self.token.as_ref(), self.v).await);
        for name in std::mem::take(&mut actor.feeds.back) {
            actor.news(News::Back { name }).await;
        }
    }
}

/// The `resync` for a refusal made before the table saw the request.
pub(in crate::table) struct Resync {
    pub token: Option<SeatToken>,
    pub reason: ServerError,
    pub reply: oneshot::Sender<ServerMsg>,
}

impl Resync {
    pub(super) fn apply(self, actor: &mut Actor) {
        let who = self.token.and_then(|t| actor.state.seat_of_token(&t).ok());
        let _ = self.reply.send(actor.resync(&self.reason, who));
    }
}

/// A connection of seat `seat` closed.
pub(in crate::table) struct Unsubscribe {
    pub seat: PlayerName,
}

impl Unsubscribe {
    pub(super) fn apply(self, actor: &mut Actor) {
        if let Some(occupant) = actor.occupants.get_mut(&self.seat)
            && occupant.connections > 0
        {
            occupant.connections -= 1;
            if occupant.connections == 0 {
                occupant.gone_since = Some(Instant::now());
                if !actor.any_human_connected() {
                    actor.clocks.idle_since = Instant::now();
                }
                actor.broadcast(StateKind::Presence, None);
            }
        }
    }
}

impl Actor {
    /// Whether this node still holds the table's lease, as the database
    /// says (true if it cannot say).
    fn holds_lease(
        &self,
        cluster: std::sync::Arc<crate::cluster::Cluster>,
    ) -> impl Future<Output = bool> + Send + 'static {
        let id = self.state.row.id.clone();
        self.blocking(move |_, _| cluster.holds(&id).unwrap_or(true))
    }

    async fn subscribe(
        &mut self,
        token: Option<&SeatToken>,
        v: u64,
    ) -> Result<Subscription, ServerError> {
        let who = token.map(|t| self.state.seat_of_token(t)).transpose()?;
        // A client that saw more than this node holds saw it from another
        // node, which took the table over behind this one's back (a pause
        // past the lease): this node is handed over rather than take the
        // client's v back (issue 24, D1).
        if v > self.state.v()
            && let Some(cluster) = self.ctx.cluster.clone()
            && !self.holds_lease(cluster).await
        {
            tracing::warn!(v, "a client saw more than this node: the lease was lost");
            self.lost_lease();
            return Err(ServerError::Conflict(Conflict::Moved));
        }
        let feed = match who {
            Some(i) => {
                let name = self.state.seats[i].name.clone();
                let occupant = self.occupant(&name);
                occupant.connections += 1;
                occupant.gone_since = None;
                let back = std::mem::take(&mut occupant.away);
                let feed = occupant
                    .feed
                    .get_or_insert_with(|| broadcast::channel(CHANNEL).0)
                    .subscribe();
                // Everyone sees them connected (and no longer away).
                self.broadcast(StateKind::Presence, None);
                if back && self.state.game.is_some() {
                    self.feeds.back.push(name);
                }
                feed
            }
            None => self.feeds.spectators.subscribe(),
        };
        let first = self.state.greeting(
            v,
            CATCHUP,
            who,
            &self.live(),
            self.feeds.talk.chat(),
            self.feeds.talk.news(),
        );
        Ok(Subscription {
            feed,
            first,
            seat: who.map(|i| self.state.seats[i].name.clone()),
        })
    }
}
