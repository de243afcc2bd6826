//! Chat: lines from seats and (if the host lets them) spectators,
//! bounded per voice.

use crate::error::ServerError;
use crate::protocol::News;
use crate::protocol::StateKind;
use crate::table::Reply;
use crate::table::actor::Actor;
use crate::table::talk::{CHAT_BURST, Speaker, Voice};
use crate::token::SeatToken;

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

impl Actor {
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
        let line = self.talk.chat_line(name.as_ref(), spectator, text);
        self.say(line).await
    }

    async fn set_spectator_chat(&mut self, token: &str, allowed: bool) -> Result<(), ServerError> {
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
