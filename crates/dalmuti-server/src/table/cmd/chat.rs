//! Chat: lines from seats and (if the host lets them) spectators,
//! bounded per voice.

use super::super::actor::Actor;
use super::super::handle::Reply;
use super::super::talk::News;
use crate::error::ServerError;
use crate::store::TalkKind;

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
pub(in crate::table) enum Voice {
    Seat(String),
    Spectators(std::net::IpAddr),
}

/// Lines of chat a voice may say at once, and then one a second (a line
/// is kept and sent to everyone at the table, and pushes the oldest kept
/// line out).
pub const CHAT_BURST: u32 = 5;

/// The chat limit of every voice at a table.
pub(in crate::table) fn chat_limit() -> governor::DefaultKeyedRateLimiter<Voice> {
    let burst = std::num::NonZeroU32::new(CHAT_BURST).expect("a burst of lines");
    governor::RateLimiter::keyed(
        governor::Quota::per_second(std::num::NonZeroU32::MIN).allow_burst(burst),
    )
}

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
    pub host_token: String,
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
}
