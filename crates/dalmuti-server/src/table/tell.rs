//! Commit, then tell: an event is written before anyone hears of it, and
//! each viewer is told only what it may see.

use std::sync::Arc;
use std::time::Duration;

use dalmuti_core::Action;

use tokio::time::Instant;

use super::actor::Actor;
use super::expiry::Retire;
use super::replay::replay_log;
use super::state::{self, Live, SeatAction, Stored, TableState};
use super::talk::Talk;
use crate::error::{Conflict, ServerError};
use crate::metrics::{LeaseChange, StoreOp};
use crate::names::PlayerName;
use crate::protocol::News;
use crate::protocol::{Outgoing, ServerMsg, StateKind, TalkLine, Told};
use crate::store::{FinishedGame, FinishedSeat};

/// A change to the table to commit: an event as the log keeps it (a
/// seat taken, a deal, a choice held by name), or a seat's action resolved
/// once from its token, its stand-in or its clock and carried to the game
/// as that seat.
pub(super) enum Change {
    /// An event applied as the log reads it.
    Logged(Stored),
    /// A seat's action.
    Act(SeatAction),
}

impl Change {
    /// The event the log keeps of it.
    fn event(&self) -> &Stored {
        match self {
            Change::Logged(event) => event,
            Change::Act(act) => act.event(),
        }
    }
}

impl From<Stored> for Change {
    fn from(event: Stored) -> Change {
        Change::Logged(event)
    }
}

impl From<SeatAction> for Change {
    fn from(act: SeatAction) -> Change {
        Change::Act(act)
    }
}

impl Actor {
    /// Checks a change, writes it, then broadcasts it, with its news.
    pub(super) async fn commit(&mut self, change: impl Into<Change>) -> Result<u64, ServerError> {
        let change = change.into();
        let was_over = self.state.is_over();
        let news = self.news_of(change.event());
        let v = self.commit_quietly(change).await?;
        self.tell_programs();
        if let Some(news) = news {
            self.news(news).await;
        }
        if !was_over && self.state.is_over() {
            tracing::info!(
                hands = self.state.game.as_ref().map_or(0, |g| g.hands().len()),
                v,
                "game over"
            );
            let winner = self
                .state
                .standings()
                .first()
                .map(|w| PlayerName::seated(w));
            self.news(News::Over { winner }).await;
            self.count_the_game().await;
        }
        Ok(v)
    }

    /// Keeps the game just over in its players' histories, and in the
    /// ratings if it counts ([`crate::ratings`]): the players who left
    /// before the end are placed after everyone who stayed, the last to
    /// leave first (leaving a rated game costs its rating, as an abandoned
    /// game does on lichess). Told after the game is over, which the log
    /// already holds: a failure here loses a line of history, never the
    /// game, and is logged for the operator.
    async fn count_the_game(&mut self) {
        let standings: Vec<&str> = self.state.standings();
        let stayed = standings
            .iter()
            .filter_map(|name| self.state.seats.iter().find(|s| s.name == *name));
        let seats = stayed
            .chain(self.state.left.iter().rev())
            .enumerate()
            .map(|(i, seat)| FinishedSeat {
                key: match &seat.bot {
                    Some(level) => Some(format!("bot:{}", state::bot_name(level))),
                    None => seat.player.clone(),
                },
                name: match &seat.bot {
                    Some(level) => state::bot_name(level).to_string(),
                    None => seat.name.to_string(),
                },
                bot: seat.bot.is_some(),
                place: i + 1,
                from: seat.from.clone(),
            })
            .collect();
        let game = FinishedGame {
            table: self.state.row.id.clone(),
            table_name: self.state.row.name.clone(),
            at: super::talk::now_ms(),
            game: self.state.rules.variant.word().to_string(),
            rated: self.state.row.rated,
            public: self.state.row.public,
            seats,
        };
        let counted = self
            .blocking(move |store, _| store.record_game(&game, crate::ratings::rate))
            .await;
        match counted {
            // The ratings it moved, for the game over to show (kept with
            // the table's news: a reload, another node, show it too).
            Ok(ratings) if !ratings.is_empty() => self.news(News::Rated { ratings }).await,
            Ok(_) => {}
            Err(e) => {
                tracing::error!(error = %e, "the game over was not kept in its players' histories");
            }
        }
    }

    /// What the table's news says of an event (most plays say nothing:
    /// they are the hand's log).
    pub(super) fn news_of(&self, event: &Stored) -> Option<News> {
        let name = |n: &PlayerName| n.clone();
        let level = |b: &Option<String>| b.as_deref().map(|s| state::bot_name(s).to_string());
        // The parts of a name the server gave a bot ("normal bot 3").
        let number = |n: &PlayerName, b: &Option<String>| {
            b.as_deref()
                .and_then(|s| crate::names::bot_number(state::bot_name(s), n))
        };
        Some(match event {
            Stored::Seat { name: n, bot, .. } => News::Seat {
                name: name(n),
                bot: level(bot),
                bot_n: number(n, bot),
            },
            Stored::Waiting { name: n, bot, .. } => News::Waiting {
                name: name(n),
                bot: level(bot),
                bot_n: number(n, bot),
            },
            Stored::Unseat { name: n } => News::Unseat { name: name(n) },
            Stored::Start { .. } => News::Start,
            Stored::Deal { .. } => News::Hand {
                hand: self.state.seeds.len() + 1,
            },
            Stored::Rekey { .. } => return None,
            Stored::Leaving { name: n } => News::Leaving { name: name(n) },
            Stored::Leave { name: n } => News::Leave { name: name(n) },
            Stored::Join { name: n, seat } => News::Join {
                name: name(n),
                seat: *seat,
            },
            Stored::Act {
                player,
                action: Action::CallRevolution,
                ..
            } => News::Revolution { name: name(player) },
            Stored::Act { .. } => return None,
        })
    }

    /// Keeps a news line and sends it to everyone. News the store could
    /// not keep is not said (the log already holds what it tells of).
    pub(super) async fn news(&mut self, news: News) {
        let line = self.feeds.talk.news_line(news);
        let _ = self.say(line).await;
    }

    /// Keeps a line in the store, then in memory, then sends it to every
    /// viewer: a line the store refused is never said, so that no one
    /// holds a line numbered as another that the store keeps (issue 24,
    /// D2).
    pub(super) async fn say(&mut self, line: TalkLine) -> Result<(), ServerError> {
        let row = Talk::row(&self.state.row.id, &line);
        if let Err(e) = self.ctx.writer.talk(row).await {
            // What failed, not the line: chat is the players' own.
            tracing::warn!(kind = ?line.kind(), error = %e, "keeping a line of talk failed: it is not said");
            if e.is_fenced() && self.ctx.cluster.is_some() {
                self.lost_lease();
            }
            return Err(ServerError::Storage(crate::store::StoreError::Failed(
                "the line could not be kept: say it again".into(),
            )));
        }
        let told = match line.clone() {
            TalkLine::Chat(line) => Told::Chat(line),
            TalkLine::News(line) => Told::News(line),
        };
        self.feeds.talk.remember(line);
        let msg = Arc::new(Outgoing::from(&ServerMsg {
            v: self.state.v(),
            told,
        }));
        for feed in self.occupants.values().filter_map(|o| o.feed.as_ref()) {
            let _ = feed.send(msg.clone());
        }
        let _ = self.feeds.spectators.send(msg);
        Ok(())
    }

    /// Checks an event, writes it, then broadcasts it: nothing of it is
    /// told or timed until the store holds it.
    pub(super) async fn commit_quietly(
        &mut self,
        change: impl Into<Change>,
    ) -> Result<u64, ServerError> {
        let change = change.into();
        // An action without an arrival (everyone made ready when the
        // setup pause ends) is timed from here.
        let arrived = self.arrived.take().unwrap_or_else(std::time::Instant::now);
        let written = change.event().clone();
        let acted = match &written {
            Stored::Act { player, .. } => Some(player.clone()),
            _ => None,
        };
        let committed = self.state.v();
        // Applied first to check it; undone below if the store refuses it.
        match change {
            Change::Logged(event) => self.state.apply(event)?,
            Change::Act(act) => self.state.act(act)?,
        }
        let v = self.state.v();
        if let Err(e) = self.ctx.writer.append(&self.state.row.id, v, written).await {
            return Err(self.refused_write(committed, e).await);
        }
        if let Some(player) = &acted {
            self.occupant(player).turn_since = None;
        }
        let now = Instant::now();
        self.update_turns(now);
        // Before the broadcast, so that the deal's own message counts the
        // setup pause down (and a hand's last event the next deal).
        self.schedule_setup(now);
        self.schedule_deal(now);
        self.broadcast(StateKind::Event, Some(v));
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
    pub(super) async fn refused_write(
        &mut self,
        committed: u64,
        e: crate::store::StoreError,
    ) -> ServerError {
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
            return ServerError::Conflict(Conflict::Moved);
        }
        tracing::error!(v = committed + 1, error = %e, "writing an event failed: the table goes back to its log");
        // A write that failed may still have landed (the database answered
        // too late): the log says which. Without the log, what this table
        // wrote before is what the log holds.
        let again = row.clone();
        let replayed = self
            .blocking(|store, metrics| metrics.time(StoreOp::Replay, || replay_log(store, again)))
            .await
            .inspect_err(|e| tracing::error!(error = %e, "reading the table's log back failed"))
            .ok()
            .filter(|state| state.v() >= committed)
            .or_else(|| TableState::replayed(row, ours).ok());
        if let Some(state) = replayed {
            let landed = state.v() > committed;
            self.state = state;
            if landed {
                // Everyone is told what the log holds now.
                self.broadcast(StateKind::Resync, None);
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
    pub(super) fn lost_lease(&mut self) {
        if self.retired.set(Retire::Moved).is_ok() {
            self.ctx.metrics.lease_changed(LeaseChange::Lost);
        }
        if let Some(cluster) = &self.ctx.cluster {
            cluster.forget(&self.state.row.id);
        }
    }

    pub(super) fn live(&self) -> Live {
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
                .map(|s| self.away(&s.name) || s.leaving)
                .collect(),
            deadline_ms: seats
                .iter()
                .map(|s| {
                    let since = self.occupants.get(&s.name)?.turn_since?;
                    let left = (since + turn?).saturating_duration_since(now);
                    Some(left.as_millis() as u64)
                })
                .collect(),
            setup_ms: self
                .clocks
                .setup_until
                .filter(|_| self.state.in_setup())
                .map(|t| t.saturating_duration_since(now).as_millis() as u64),
            next_deal_ms: self
                .clocks
                .deal_at
                .map(|t| t.saturating_duration_since(now).as_millis() as u64),
            place: self.clocks.place.as_ref().map(|p| p.0.clone()),
            program_port: self
                .ctx
                .programs
                .as_ref()
                .filter(|_| {
                    self.state.game.is_none()
                        && dalmuti_uecda::ContestSeats::check_rules(
                            &self.state.rules,
                            self.state.row.seats,
                        )
                        .is_ok()
                })
                .map(|p| p.port()),
        }
    }

    /// Sends every viewer its own message: `kind` with the state, and
    /// event `v` described as that viewer may know it.
    pub(super) fn broadcast(&mut self, kind: StateKind, v: Option<u64>) {
        let live = self.live();
        let told =
            |who: Option<usize>| Arc::new(Outgoing::from(&self.state.told(kind, v, who, &live)));
        for (i, seat) in self.state.seats.iter().enumerate() {
            let Some(feed) = self.occupants.get(&seat.name).and_then(|o| o.feed.as_ref()) else {
                continue;
            };
            if feed.receiver_count() == 0 {
                continue;
            }
            let _ = feed.send(told(Some(i)));
        }
        if self.feeds.spectators.receiver_count() > 0 {
            let _ = self.feeds.spectators.send(told(None));
        }
    }

    pub(super) fn resync(&self, error: &ServerError, who: Option<usize>) -> ServerMsg {
        self.state
            .resync(error.to_string(), error.kind(), who, &self.live())
    }
}
