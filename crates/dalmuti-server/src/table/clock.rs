//! The actor's timers: turns, the setup pause, the grace period, bots'
//! turns, the next deal and the table's retirement.

use std::collections::HashSet;
use std::time::Duration;

use dalmuti_core::{Action, Seed};
use sha2::{Digest, Sha256};
use tokio::time::Instant;

use super::actor::Actor;
use super::expiry::{self, Retire};
use super::state::{Placement, Stored};
use super::talk;
use crate::metrics::StoreOp;
use crate::names::PlayerName;
use crate::protocol::News;
use crate::protocol::StateKind;

impl Actor {
    /// The first seat a bot should play now, and whether it is a stand-in.
    /// Saying ready waits for the end of the setup pause, for bots as for
    /// people; a person's is then made by [`Actor::tick`], not a stand-in.
    pub(super) fn bot_due(&self, now: Instant) -> Option<(usize, bool)> {
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
            if self.bots.held.iter().any(|(name, ..)| *name == seat.name) {
                return None;
            }
            if seat.bot.is_some() {
                return Some((i, false));
            }
            let stand_in = seat.leaving
                || (self.away(&seat.name) && self.any_human_connected())
                || turn.is_some_and(|t| {
                    self.occupants
                        .get(&seat.name)
                        .and_then(|o| o.turn_since)
                        .is_some_and(|since| now >= since + t)
                });
            stand_in.then_some((i, true))
        })
    }

    /// Starts the turn timers of humans with a new decision and stops
    /// those of humans without one. Saying ready has no turn timer: the
    /// setup pause bounds it.
    pub(super) fn update_turns(&mut self, now: Instant) {
        let to_act: HashSet<PlayerName> = self
            .state
            .to_act()
            .into_iter()
            .filter(|&i| !self.to_say_ready(i))
            .map(|i| self.state.seats[i].name.clone())
            .filter(|n| self.is_human(n))
            .collect();
        for (name, occupant) in self.occupants.iter_mut() {
            if !to_act.contains(name) {
                occupant.turn_since = None;
            }
        }
        for name in to_act {
            self.occupant(&name).turn_since.get_or_insert(now);
        }
    }

    /// Sets the timers the state calls for.
    pub(super) fn schedule(&mut self) {
        let now = Instant::now();
        if self.clocks.over_since.is_none() && self.state.is_over() {
            self.clocks.over_since = Some(now);
            self.clocks.finished_at = Some(talk::now_ms());
        }
        self.update_turns(now);
        self.schedule_setup(now);
        if !self.bots.thinking && self.clocks.bot_at.is_none() {
            if let Some((i, stand_in)) = self.bot_due(now) {
                // A turn timer's move is played at once; bots take their
                // time so people can follow, but saying ready shows nothing
                // to follow.
                let timed_out = stand_in
                    && !self.state.seats[i].leaving
                    && !self.away(&self.state.seats[i].name);
                self.clocks.bot_at = Some(if timed_out || self.to_say_ready(i) {
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
    pub(super) fn schedule_setup(&mut self, now: Instant) {
        if !self.state.in_setup() {
            self.clocks.setup_until = None;
            self.bots.held.clear();
        } else if self.clocks.setup_until.is_none() {
            self.clocks.setup_until = Some(now + self.ctx.timings.setup_pause);
            self.clocks.setup_readied = false;
        }
    }

    /// A table rebuilt from its log during a setup (a takeover, a drain,
    /// a restart, a recovery) keeps what is left of the pause since the
    /// deal, not a whole new one (issue 24, D5). Only then: on the node
    /// that dealt, the pause is the same for every hand, to the
    /// millisecond, whoever holds what.
    pub(super) fn resume_setup(&mut self, now: Instant) {
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
        self.clocks.setup_until = Some(now + left);
        self.clocks.setup_readied = false;
    }

    /// When a hand is over and another is due, the next deal comes after
    /// the pause (set before the hand's last event is broadcast, so
    /// everyone sees the countdown).
    pub(super) fn schedule_deal(&mut self, now: Instant) {
        if !self.state.deal_due() {
            self.clocks.deal_at = None;
        } else if self.clocks.deal_at.is_none() && self.clocks.place.is_none() {
            self.clocks.deal_at = Some(now + self.ctx.timings.hand_pause);
        }
    }

    pub(super) fn next_wake(&self) -> Option<Instant> {
        let grace = self.ctx.timings.grace;
        let turn = self
            .state
            .row
            .turn_seconds
            .map(|s| Duration::from_secs(s.into()));
        let graces = self
            .occupants
            .values()
            .filter(|o| !o.away)
            .filter_map(|o| o.gone_since)
            .map(|t| t + grace);
        let turns = self
            .occupants
            .values()
            .filter_map(|o| Some(o.turn_since? + turn?));
        // Once: then the people are ready, and the bots' turns are their
        // own timer.
        let setup = self
            .clocks
            .setup_until
            .filter(|_| !self.clocks.setup_readied);
        graces
            .chain(turns)
            .chain(setup)
            .chain(self.clocks.bot_at)
            .chain(self.clocks.deal_at)
            .chain(self.clocks.place.as_ref().map(|p| p.1))
            .chain(self.retire_due().map(|(at, _)| at))
            .min()
    }

    /// When the table should leave memory, and why.
    pub(super) fn retire_due(&self) -> Option<(Instant, Retire)> {
        let lifetimes = self.ctx.lifetimes.as_ref()?;
        let facts = expiry::Facts {
            born: self.clocks.born,
            started: self.state.game.is_some(),
            over_since: self.clocks.over_since,
            humans_connected: self.any_human_connected(),
            idle_since: self.clocks.idle_since,
        };
        let (at, why) = expiry::due(lifetimes, &facts)?;
        Some((self.clocks.retry_retire.map_or(at, |r| r.max(at)), why))
    }

    /// Leaves memory: a finished game is kept in the store as a record,
    /// an expired table deleted. The actor stops after this step.
    pub(super) async fn retire(&mut self, why: Retire) {
        let Some(lifetimes) = self.ctx.lifetimes else {
            return;
        };
        let id = self.state.row.id.clone();
        let stored = match why {
            Retire::Finished => {
                let summary = self.info();
                self.blocking(move |store, metrics| {
                    metrics.time(StoreOp::Finish, || {
                        store.finish(&id, &summary, lifetimes.max_finished)
                    })
                })
                .await
            }
            Retire::Expired => {
                self.blocking(move |store, metrics| {
                    metrics.time(StoreOp::Delete, || store.delete(&id))
                })
                .await
            }
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
                self.clocks.retry_retire = Some(Instant::now() + Duration::from_secs(60));
            }
        }
    }

    pub(super) async fn tick(&mut self) {
        let now = Instant::now();
        if let Some((at, why)) = self.retire_due()
            && now >= at
        {
            self.retire(why).await;
            return;
        }
        let grace = self.ctx.timings.grace;
        let expired: Vec<PlayerName> = self
            .occupants
            .iter()
            .filter(|(_, o)| !o.away && o.gone_since.is_some_and(|t| now >= t + grace))
            .map(|(n, _)| n.clone())
            .collect();
        if !expired.is_empty() {
            for name in &expired {
                self.occupant(name).away = true;
            }
            self.broadcast(StateKind::Presence, None);
            // Only people who play: away before the start changes nothing.
            if self.state.game.is_some() {
                let people: Vec<PlayerName> =
                    expired.into_iter().filter(|n| self.is_human(n)).collect();
                for name in people {
                    self.news(News::Away { name }).await;
                }
            }
        }
        if !self.clocks.setup_readied && self.clocks.setup_until.is_some_and(|t| now >= t) {
            self.clocks.setup_readied = true;
            self.release_held().await;
            self.everyone_ready().await;
        }
        if self.clocks.bot_at.is_some_and(|t| now >= t) {
            self.clocks.bot_at = None;
            self.start_bot(now);
        }
        if self.clocks.place.as_ref().is_some_and(|p| now >= p.1) {
            let (placement, _) = self.clocks.place.take().expect("checked");
            let _ = self
                .commit(Stored::Join {
                    name: placement.newcomer,
                    seat: placement.seats[0],
                })
                .await;
            self.clocks.deal_at = Some(now);
        }
        if self.clocks.deal_at.is_some_and(|t| now >= t) {
            self.clocks.deal_at = None;
            self.between_hands().await;
        }
    }

    /// The setup pause is over: every person who has only to say ready is
    /// made ready, in seat order, whatever their cards (a holder of both
    /// Jesters who said nothing keeps quiet). Bots follow, as bots.
    pub(super) async fn everyone_ready(&mut self) {
        // Saying ready changes no lobby seat: each is resolved once, here.
        let mut people: Vec<(usize, usize)> = (0..self.state.seats.len())
            .filter(|&i| self.state.seats[i].bot.is_none() && self.to_say_ready(i))
            .filter_map(|i| Some((self.state.game_seat(i)?.index(), i)))
            .collect();
        people.sort_unstable();
        for (_, i) in people {
            let ready = self.state.seat_action(i, Action::Ready, true);
            let _ = self.commit(ready).await;
        }
    }

    /// Leaves, joins (asking the Greater Dalmuti where a newcomer sits
    /// when two seats qualify), then the next deal.
    pub(super) async fn between_hands(&mut self) {
        if !self.state.deal_due() || self.clocks.place.is_some() {
            return;
        }
        let leaving: Vec<PlayerName> = self
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
                self.clocks.place = Some((placement, Instant::now() + self.ctx.timings.grace));
                self.broadcast(StateKind::Presence, None);
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
                seed,
                at: Some(talk::now_ms()),
            })
            .await;
    }

    pub(super) fn next_seed(&self) -> Seed {
        match self.bots.test_seed {
            Some(base) => {
                let mut hasher = Sha256::new();
                hasher.update(base.0);
                hasher.update((self.state.seeds.len() as u64).to_le_bytes());
                Seed(hasher.finalize().into())
            }
            None => Seed::from_entropy(),
        }
    }

    pub(super) fn forget(&mut self, name: &str) {
        // Its connections see the feed close.
        self.occupants.remove(name);
    }
}
