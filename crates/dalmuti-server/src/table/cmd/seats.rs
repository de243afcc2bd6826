//! Seats: taking one, seating a bot, leaving, and the Greater Dalmuti
//! placing a newcomer.

use std::sync::Arc;

use tokio::time::Instant;

use crate::bots;
use crate::error::{BadRequest, Conflict, NotFound, ServerError};
use crate::names::{self, PlayerName};
use crate::protocol::{Outgoing, ServerMsg, Taken, Told};
use crate::table::actor::Actor;
use crate::table::state::{self, Stored};
use crate::table::{ActReply, Refusal, Reply};
use crate::token::SeatToken;

/// Take a seat under a display name: a seat before the start, a place
/// among the newcomers after it. Answers the seat's secret token.
pub(in crate::table) struct Join {
    pub name: PlayerName,
    /// The key of the player who kept the name, if they take the seat.
    pub player: Option<String>,
    /// Where the seat is taken from ([`crate::ratings::origin`]).
    pub from: Option<String>,
    pub reply: Reply<SeatToken>,
}

impl Join {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let joined = actor.join(&self.name, self.player, self.from).await;
        let _ = self.reply.send(joined);
    }
}

/// The player whose key is `player` takes their seat back, on another
/// device: a new token for it (the old one plays it no more).
pub(in crate::table) struct Reclaim {
    pub player: String,
    pub reply: Reply<SeatToken>,
}

impl Reclaim {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let _ = self.reply.send(actor.reclaim(&self.player).await);
    }
}

/// The host seats a bot of level `spec`. Answers the bot's name.
pub(in crate::table) struct AddBot {
    pub host_token: SeatToken,
    pub spec: String,
    pub reply: Reply<PlayerName>,
}

impl AddBot {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let _ = self
            .reply
            .send(actor.add_bot(&self.host_token, &self.spec).await);
    }
}

/// The host removes the bot named `name`.
pub(in crate::table) struct RemoveBot {
    pub host_token: SeatToken,
    pub name: PlayerName,
    pub reply: Reply<()>,
}

impl RemoveBot {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let result = match actor.check_host(&self.host_token) {
            Ok(()) => actor.remove(&self.name, true).await,
            Err(e) => Err(e),
        };
        let _ = self.reply.send(result);
    }
}

/// The token's player leaves.
pub(in crate::table) struct Leave {
    pub token: SeatToken,
    pub reply: Reply<()>,
}

impl Leave {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let result = match actor.state.seat_of_token(&self.token) {
            Ok(i) => {
                let name = actor.state.seats[i].name.clone();
                actor.remove(&name, false).await
            }
            Err(e) => Err(e.into()),
        };
        let _ = self.reply.send(result);
    }
}

/// The Greater Dalmuti places newcomer `name` at `seat`, chosen at event
/// `v`.
pub(in crate::table) struct Place {
    pub token: SeatToken,
    pub name: PlayerName,
    pub seat: usize,
    pub v: u64,
    pub reply: ActReply,
}

impl Place {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let placed = actor
            .place(&self.token, &self.name, self.seat, self.v)
            .await;
        let _ = self.reply.send(placed);
    }
}

impl Actor {
    async fn join(
        &mut self,
        name: &PlayerName,
        player: Option<String>,
        from: Option<String>,
    ) -> Result<SeatToken, ServerError> {
        // A seat nobody can be held to would cancel the rating for all,
        // or be a free rating for whoever sits beside it.
        if self.state.row.rated && player.is_none() {
            return Err(ServerError::Conflict(Conflict::RatedNeedsName));
        }
        // The same name exactly: the log's own refusal says so.
        if let Some(taken) = self.name_like(name).filter(|t| t != name.as_str()) {
            return Err(ServerError::Conflict(Conflict::NameTooLike {
                name: name.to_string(),
                taken: taken.to_string(),
            }));
        }
        let token = SeatToken::new();
        let hash = Some(state::hash_hex(&token.hash()));
        let event = if self.state.game.is_some() {
            Stored::Waiting {
                name: name.clone(),
                hash,
                bot: None,
                player,
                from,
            }
        } else {
            Stored::Seat {
                name: name.clone(),
                hash,
                bot: None,
                player,
                from,
            }
        };
        self.commit(event).await?;
        self.occupant(name).gone_since = Some(Instant::now());
        Ok(token)
    }

    async fn reclaim(&mut self, player: &str) -> Result<SeatToken, ServerError> {
        let seat = self
            .state
            .seats
            .iter()
            .find(|s| s.player.as_deref() == Some(player))
            .ok_or(NotFound::NoSeat)?;
        let name = seat.name.clone();
        let token = SeatToken::new();
        let hash = state::hash_hex(&token.hash());
        let v = self
            .commit(Stored::Rekey {
                name: name.clone(),
                hash,
            })
            .await?;
        self.tell_taken(&name, v);
        Ok(token)
    }

    /// Tells the seat's connections (the old device's) at once that the
    /// seat was taken back elsewhere, and lets them go: their feed ends
    /// after `taken`, and the new device's connections get a feed of
    /// their own.
    fn tell_taken(&mut self, name: &PlayerName, v: u64) {
        let Some(feed) = self.occupants.get_mut(name).and_then(|o| o.feed.take()) else {
            return;
        };
        let taken = ServerMsg {
            v,
            told: Told::Taken(Taken {
                name: name.clone(),
                reason: "the seat was taken back on another device".into(),
            }),
        };
        let _ = feed.send(Arc::new(Outgoing::from(&taken)));
    }

    /// A name of this table's seats or game that looks like `name`.
    pub(in crate::table) fn name_like(&self, name: &str) -> Option<String> {
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

    async fn add_bot(&mut self, token: &SeatToken, spec: &str) -> Result<PlayerName, ServerError> {
        self.check_host(token)?;
        if spec == crate::bots::PROGRAM {
            return self.add_program().await;
        }
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
                player: None,
                from: None,
            }
        } else {
            Stored::Seat {
                name: name2,
                hash: None,
                bot: bot_spec,
                player: None,
                from: None,
            }
        };
        self.commit(event).await?;
        self.occupant(&name).bot = Some(bot);
        Ok(name)
    }

    /// Seats the contest program that has waited longest at the server's
    /// UECda port ([`crate::programs`]): before the start, at a table of
    /// the contest's Daifugō for five. The seat is named as the program
    /// named itself (told apart if taken); until the game starts, and
    /// after the program is lost, a `normal` bot is its stand-in.
    async fn add_program(&mut self) -> Result<PlayerName, ServerError> {
        let programs = self.ctx.programs.clone().ok_or(BadRequest::NoProgramPort)?;
        if self.state.game.is_some() {
            return Err(BadRequest::ProgramAfterStart.into());
        }
        dalmuti_uecda::ContestSeats::check_rules(&self.state.rules, self.state.row.seats)
            .map_err(BadRequest::NotTheContest)?;
        let program = programs.take().ok_or(BadRequest::NoProgramWaiting {
            port: programs.port(),
        })?;
        let free = |n: &PlayerName| self.name_like(n.as_str()).is_none();
        let own = PlayerName::new(program.name()).ok().filter(free);
        let name = match own {
            Some(name) => name,
            None => (1..)
                .map(|i| names::bot_name(crate::bots::PROGRAM, i))
                .find(free)
                .expect("a free name"),
        };
        let seated = self
            .commit(Stored::Seat {
                name: name.clone(),
                hash: None,
                bot: Some(crate::bots::PROGRAM.to_string()),
                player: None,
                from: None,
            })
            .await;
        if let Err(e) = seated {
            // A full table, say: the program waits on for another.
            programs.give_back(program);
            return Err(e);
        }
        tracing::info!(seat = %name, addr = %program.addr(), "a contest program is seated");
        let occupant = self.occupant(&name);
        occupant.bot = Some(bots::build(bots::Level::Normal, 0));
        occupant.program = Some(program);
        Ok(name)
    }

    /// Frees a seat before the start (or a newcomer's), else marks its
    /// player as leaving when the hand ends.
    async fn remove(&mut self, name: &PlayerName, bot: bool) -> Result<(), ServerError> {
        let i = self
            .state
            .seat_named(name)
            .filter(|&i| !bot || self.state.seats[i].bot.is_some())
            .ok_or_else(|| BadRequest::NoBot { name: name.clone() })?;
        if self.state.game.is_none() || self.state.seats[i].waiting {
            self.commit(Stored::Unseat { name: name.clone() }).await?;
            self.forget(name);
        } else {
            self.commit(Stored::Leaving { name: name.clone() }).await?;
        }
        Ok(())
    }

    async fn place(
        &mut self,
        token: &SeatToken,
        name: &PlayerName,
        seat: usize,
        v: u64,
    ) -> Result<u64, Refusal> {
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
            return Err(self.refusal(e, i));
        }
        let Some((placement, _)) = self.clocks.place.as_ref().filter(|p| p.0.chooser == i) else {
            let e = ServerError::Conflict(Conflict::NoNewcomer);
            return Err(self.refusal(e, i));
        };
        if placement.newcomer != *name || !placement.seats.contains(&seat) {
            let e = ServerError::BadRequest(BadRequest::PlaceAt {
                newcomer: placement.newcomer.clone(),
                seats: placement.seats.clone(),
            });
            return Err(self.refusal(e, i));
        }
        self.clocks.place = None;
        let result = self
            .commit(Stored::Join {
                name: name.clone(),
                seat,
            })
            .await;
        self.clocks.deal_at = Some(Instant::now());
        match result {
            Ok(v) => Ok(v),
            Err(e) => Err(self.refusal(e, i)),
        }
    }
}
