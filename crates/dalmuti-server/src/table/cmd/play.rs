//! Play: the host starts the game, a seat acts.

use dalmuti_core::{Action, Seed};

use crate::error::{Conflict, ServerError};
use crate::table::actor::Actor;
use crate::table::state::Stored;
use crate::table::talk;
use crate::table::{ActReply, Refusal, Reply};
use crate::token::SeatToken;

/// The host starts the game, its deals seeded from `seed` (tests) or the
/// operating system.
pub(in crate::table) struct Start {
    pub host_token: SeatToken,
    pub seed: Option<Seed>,
    pub reply: Reply<()>,
}

impl Start {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let _ = self
            .reply
            .send(actor.start(&self.host_token, self.seed).await);
    }
}

/// The token's seat plays `action`, chosen at event `v`.
pub(in crate::table) struct Act {
    pub token: SeatToken,
    pub action: Action,
    pub v: u64,
    pub reply: ActReply,
}

impl Act {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let _ = self
            .reply
            .send(actor.act(&self.token, self.action, self.v).await);
    }
}

impl Actor {
    async fn start(&mut self, token: &SeatToken, seed: Option<Seed>) -> Result<(), ServerError> {
        self.check_host(token)?;
        // Contest programs' match is for five: the host fills every seat.
        if self.occupants.values().any(|o| o.program.is_some()) {
            dalmuti_uecda::ContestSeats::check_rules(&self.state.rules, self.state.seats.len())
                .map_err(crate::error::BadRequest::NotTheContest)?;
        }
        self.bots.test_seed = seed;
        let draw_seed = seed.unwrap_or_else(Seed::from_entropy);
        self.commit(Stored::Start { draw_seed }).await?;
        tracing::info!(seats = self.state.seats.len(), "game started");
        self.seat_programs();
        let seed = self.next_seed();
        self.commit(Stored::Deal {
            seed,
            at: Some(talk::now_ms()),
        })
        .await?;
        Ok(())
    }

    async fn act(&mut self, token: &SeatToken, action: Action, v: u64) -> Result<u64, Refusal> {
        let arrived = std::time::Instant::now();
        let i = self
            .state
            .seat_of_token(token)
            .map_err(ServerError::from)
            .map_err(|e| (e.clone(), self.resync(&e, None)))?;
        if !self.state.is_current(v) {
            let e = ServerError::Stale {
                sent: v,
                current: self.state.v(),
            };
            return Err((e.clone(), self.resync(&e, Some(i))));
        }
        if action == Action::Ready {
            // Everyone is made ready together when the pause ends: a
            // person saying it early would be the only one to.
            let e = ServerError::Conflict(Conflict::ReadyComesItself);
            return Err(self.refusal(e, i));
        }
        let act = self.state.seat_action(i, action, false);
        self.arrived = Some(arrived);
        match self.commit(act).await {
            Ok(v) => Ok(v),
            Err(e) => Err((e.clone(), self.resync(&e, Some(i)))),
        }
    }
}
