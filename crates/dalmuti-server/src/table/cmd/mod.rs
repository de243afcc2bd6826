//! What a table's actor is asked to do: one typed command per request of
//! its [`TableHandle`](super::TableHandle), each with its reply channel and
//! the code that carries it out, grouped by job (as mini-redis' `cmd/`).

mod chat;
mod connect;
mod play;
mod seats;
mod table;

pub(super) use chat::{Chat, Report, Silence, SpectatorChat};
pub(super) use connect::{Resync, Subscribe, Unsubscribe};
pub(super) use play::{Act, Start};
pub(super) use seats::{AddBot, Join, Leave, Place, Reclaim, RemoveBot};
pub(super) use table::{AskRematch, Evict, HandOver, Info, Query};

use super::actor::Actor;

/// A request to the actor, answered on its own channel.
pub(super) enum Command {
    Join(Join),
    Reclaim(Reclaim),
    AddBot(AddBot),
    RemoveBot(RemoveBot),
    Leave(Leave),
    Place(Place),
    Start(Start),
    Act(Act),
    Subscribe(Subscribe),
    Resync(Resync),
    Unsubscribe(Unsubscribe),
    Chat(Chat),
    SpectatorChat(SpectatorChat),
    Silence(Silence),
    Report(Report),
    Rematch(AskRematch),
    Info(Info),
    Query(Query),
    HandOver(HandOver),
    Evict(Evict),
    /// A bug, simulated: the actor panics while handling it.
    #[cfg(test)]
    Panic,
    /// Tests: the seat named `0` is played by bot `1` from now.
    #[cfg(test)]
    Bot(crate::names::PlayerName, Box<dyn dalmuti_bots::Bot>),
}

impl Actor {
    /// Carries out one command and answers it.
    pub(super) async fn handle(&mut self, command: Command) {
        match command {
            Command::Join(c) => c.apply(self).await,
            Command::Reclaim(c) => c.apply(self).await,
            Command::AddBot(c) => c.apply(self).await,
            Command::RemoveBot(c) => c.apply(self).await,
            Command::Leave(c) => c.apply(self).await,
            Command::Place(c) => c.apply(self).await,
            Command::Start(c) => c.apply(self).await,
            Command::Act(c) => c.apply(self).await,
            Command::Subscribe(c) => c.apply(self).await,
            Command::Resync(c) => c.apply(self),
            Command::Unsubscribe(c) => c.apply(self),
            Command::Chat(c) => c.apply(self).await,
            Command::SpectatorChat(c) => c.apply(self).await,
            Command::Silence(c) => c.apply(self).await,
            Command::Report(c) => c.apply(self).await,
            Command::Rematch(c) => c.apply(self).await,
            Command::Info(c) => c.apply(self),
            Command::Query(c) => c.apply(self),
            Command::HandOver(c) => c.apply(self).await,
            Command::Evict(c) => c.apply(self).await,
            #[cfg(test)]
            Command::Bot(name, bot) => {
                self.occupant(&name).bot = Some(bot);
            }
            #[cfg(test)]
            Command::Panic => {
                // Half-done work, as a real bug would leave it.
                self.state.events.clear();
                panic!("a simulated bug");
            }
        }
    }
}
