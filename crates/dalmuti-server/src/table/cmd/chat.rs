//! Chat: lines from seats and (if the host lets them) spectators,
//! bounded per voice.

use crate::error::{BadRequest, Conflict, NotFound, ServerError, TooMany};
use crate::names::PlayerName;
use crate::protocol::News;
use crate::protocol::StateKind;
use crate::store::{ReportRow, Silenced};
use crate::table::Reply;
use crate::table::actor::{Actor, Feeds};
use crate::table::talk::{CHAT_BURST, PLAYER_CHAT_BURST, Speaker, Voice};
use crate::token::SeatToken;
use dalmuti_table::error::BadRequest as TableBadRequest;

/// A chat line from `from`.
pub(in crate::table) struct Chat {
    pub from: Speaker,
    pub text: String,
    pub reply: Reply<()>,
}

impl Chat {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let _ = self.reply.send(actor.chat(self.from, &self.text).await);
    }
}

/// The host lets spectators chat, or stops them.
pub(in crate::table) struct SpectatorChat {
    pub host_token: SeatToken,
    pub allowed: bool,
    pub reply: Reply<()>,
}

impl SpectatorChat {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let _ = self.reply.send(
            actor
                .set_spectator_chat(&self.host_token, self.allowed)
                .await,
        );
    }
}

/// The host removes seat `name`'s chat: its kept lines go, and it may
/// chat no more at this table.
pub(in crate::table) struct Silence {
    pub host_token: SeatToken,
    pub name: PlayerName,
    pub reply: Reply<()>,
}

impl Silence {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let _ = self
            .reply
            .send(actor.silence(&self.host_token, &self.name).await);
    }
}

/// A seat reports kept chat line `n`, saying `why`.
pub(in crate::table) struct Report {
    pub token: SeatToken,
    pub n: u64,
    pub why: String,
    pub reply: Reply<()>,
}

impl Report {
    pub(super) async fn apply(self, actor: &mut Actor) {
        let _ = self
            .reply
            .send(actor.report(&self.token, self.n, self.why).await);
    }
}

impl Feeds {
    /// Counts a line from `voice`, or refuses it past the voice's rate.
    fn admit_line(&mut self, voice: &Voice) -> Result<(), ServerError> {
        if self.chat_limit.check_key(voice).is_err() {
            let burst = CHAT_BURST;
            return Err(ServerError::TooMany(TooMany::ChatLines { burst }));
        }
        // Spectators who stopped talking are forgotten.
        if self.chat_limit.len() > 256 {
            self.chat_limit.retain_recent();
        }
        Ok(())
    }
}

impl Actor {
    async fn chat(&mut self, from: Speaker, text: &str) -> Result<(), ServerError> {
        let (name, spectator, voice) = match from {
            Speaker::Seat { token, from } => {
                let i = self.state.seat_of_token(&token)?;
                let seat = &self.state.seats[i];
                let name = seat.name.clone();
                if self.state.row.silenced.iter().any(|s| s.name == name) {
                    return Err(ServerError::Conflict(Conflict::ChatRemoved));
                }
                self.check_not_silenced(Some(&name), seat.player.as_deref(), from)?;
                self.feeds.talk.heard(&name, from);
                if let Some(key) = &seat.player
                    && self.ctx.player_chat.check_key(key).is_err()
                {
                    let burst = PLAYER_CHAT_BURST;
                    return Err(ServerError::TooMany(TooMany::PlayerChatLines { burst }));
                }
                (Some(name.clone()), false, Voice::Seat(name))
            }
            Speaker::Spectator { name, from } => {
                if !self.state.row.spectator_chat {
                    return Err(ServerError::Conflict(Conflict::SpectatorsQuiet));
                }
                self.check_not_silenced(None, None, from)?;
                if let Some(n) = &name
                    && self.name_like(n).is_some()
                {
                    return Err(ServerError::Conflict(Conflict::SpectatorAsSeat {
                        name: n.to_string(),
                    }));
                }
                // Nor a bot's ([`crate::names::reserved`]).
                if let Some(n) = &name
                    && let Some(why) = crate::names::reserved(n)
                {
                    return Err(ServerError::Conflict(Conflict::SpectatorNameReserved {
                        name: n.to_string(),
                        why: why.to_string(),
                    }));
                }
                // Nor a name a player kept on this server ([`crate::players`]).
                if let Some(n) = &name {
                    let lookup = n.clone();
                    let kept = self
                        .blocking(move |store, _| store.player_named(&lookup))
                        .await
                        .map_err(|e| {
                            ServerError::Storage(crate::store::StoreError::Failed(e.to_string()))
                        })?;
                    if kept.is_some() {
                        return Err(ServerError::Conflict(Conflict::SpectatorAsPlayer {
                            name: n.to_string(),
                        }));
                    }
                }
                (
                    name,
                    true,
                    Voice::Spectators(crate::limits::address_key(from)),
                )
            }
        };
        self.feeds.admit_line(&voice)?;
        let line = self.feeds.talk.chat_line(name.as_ref(), spectator, text);
        self.say(line).await
    }

    async fn set_spectator_chat(
        &mut self,
        token: &SeatToken,
        allowed: bool,
    ) -> Result<(), ServerError> {
        self.check_host(token)?;
        if self.state.row.spectator_chat == allowed {
            return Ok(());
        }
        let id = self.state.row.id.clone();
        self.blocking(move |store, _| store.set_spectator_chat(&id, allowed))
            .await?;
        self.state.row.spectator_chat = allowed;
        self.broadcast(StateKind::Presence, None);
        self.news(News::SpectatorChat { allowed }).await;
        Ok(())
    }
}

impl Actor {
    /// Refuses the chat of the person behind a silenced seat under
    /// another name, or watching: the player who kept the silenced name
    /// (`player`, a seat's key), or a newcomer or spectator at an address
    /// it chatted from (`seat`: the seat's name; the host and the seats
    /// there when it was silenced are spared the address).
    fn check_not_silenced(
        &self,
        seat: Option<&PlayerName>,
        player: Option<&str>,
        from: std::net::IpAddr,
    ) -> Result<(), ServerError> {
        let silenced = &self.state.row.silenced;
        if silenced.is_empty() {
            return Ok(());
        }
        let host = self.state.host().map(|i| &self.state.seats[i].name);
        let mark = Silenced::mark(&self.state.row.id, from);
        let held = silenced.iter().find(|s| {
            let by_key = player.is_some() && s.player.as_deref() == player;
            let spared = seat.is_some_and(|n| Some(n) == host || s.spared.contains(n));
            by_key || (!spared && s.from.contains(&mark))
        });
        match held {
            Some(s) => Err(ServerError::Conflict(Conflict::ChatHeld {
                seat: s.name.to_string(),
            })),
            None => Ok(()),
        }
    }
}

/// The longest reason a report keeps.
const MAX_WHY: usize = 200;

impl Actor {
    async fn silence(
        &mut self,
        host_token: &SeatToken,
        name: &PlayerName,
    ) -> Result<(), ServerError> {
        self.check_host(host_token)?;
        let i = self
            .state
            .seat_named(name)
            .ok_or_else(|| TableBadRequest::NoSeatNamed {
                name: name.to_string(),
            })?;
        if self.state.seats[i].bot.is_some() {
            let name = name.clone();
            return Err(BadRequest::BotChat { name }.into());
        }
        if self.state.host() == Some(i) {
            return Err(BadRequest::HostChat.into());
        }
        if self.state.row.silenced.iter().any(|s| &s.name == name) {
            return Ok(());
        }
        let mut silenced = self.state.row.silenced.clone();
        let table = &self.state.row.id;
        silenced.push(Silenced {
            name: name.clone(),
            player: self.state.seats[i].player.clone(),
            from: (self.feeds.talk.heard_from(name).into_iter())
                .map(|ip| Silenced::mark(table, ip))
                .collect(),
            spared: (self.state.seats.iter())
                .filter(|s| &s.name != name && s.bot.is_none())
                .map(|s| s.name.clone())
                .collect(),
        });
        let mut talk = self.feeds.talk.clone();
        let gone = talk.forget_seat_lines(name);
        let (id, names, lines) = (self.state.row.id.clone(), silenced.clone(), gone);
        self.blocking(move |store, _| store.silence(&id, &names, &lines))
            .await?;
        self.feeds.talk = talk;
        self.state.row.silenced = silenced;
        self.broadcast(StateKind::Presence, None);
        self.news(News::ChatRemoved { name: name.clone() }).await;
        Ok(())
    }

    async fn report(&mut self, token: &SeatToken, n: u64, why: String) -> Result<(), ServerError> {
        let i = self.state.seat_of_token(token)?;
        let reporter = self.state.seats[i].name.clone();
        let line = (self.feeds.talk.kept_chat_line(n)).ok_or(NotFound::ChatLine { n })?;
        if !line.spectator && line.from.as_ref() == Some(&reporter) {
            return Err(BadRequest::OwnLine.into());
        }
        let why: String = why.trim().chars().take(MAX_WHY).collect();
        if why.chars().any(char::is_control) {
            return Err(BadRequest::WhyControl.into());
        }
        let row = ReportRow {
            table: self.state.row.id.clone(),
            table_name: self.state.row.name.clone(),
            n,
            line: serde_json::to_string(line).expect("a chat line serializes"),
            reporter: reporter.to_string(),
            why,
            at: crate::table::talk::now_ms(),
        };
        self.blocking(move |store, _| store.add_report(&row))
            .await?;
        tracing::info!(line = n, "a chat line was reported");
        Ok(())
    }
}
