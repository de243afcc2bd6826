//! Bots' turns: a bot thinks on the blocking pool and its answer comes
//! back to the actor.

use std::panic::AssertUnwindSafe;

use dalmuti_bots::{Bot, HeuristicBot};
use dalmuti_core::Viewer;
use tokio::time::Instant;
use tracing::Instrument;

use super::actor::Actor;
use super::actor::BotDone;
use super::state::Stored;
use crate::bots::{self, Level};

impl Actor {
    pub(super) fn start_bot(&mut self, now: Instant) {
        let Some((i, stand_in)) = self.bot_due(now) else {
            return;
        };
        let Some(seat) = self.state.game_seat(i) else {
            return;
        };
        let name = self.state.seats[i].name.clone();
        let seed = i as u64;
        let bot = self
            .occupant(&name)
            .bot
            .take()
            .unwrap_or_else(|| Box::new(HeuristicBot::new(seed)));
        let game = self
            .state
            .game
            .clone()
            .expect("a seat of play means a game");
        let done = self.bots.tx.clone();
        let budget = self.ctx.budget.clone();
        self.bots.thinking = true;
        // The bot thinks on another thread: its logs name the table too.
        let span = tracing::Span::current();
        let thinking = span.clone();
        tokio::spawn(async move {
            let decided = budget
                .run(move |granted| {
                    let _table = thinking.entered();
                    let mut bot = bot;
                    let view = game.view(Viewer::Seat(seat));
                    let legal = view.legal_actions();
                    // No permit in time: the server is busy thinking for
                    // other tables, so the cheap heuristic decides.
                    let mut panicked = false;
                    let decided = if granted {
                        // A bot's bug must not stall its table: the
                        // heuristic decides this once, and the seat's bot
                        // is built afresh (its state may be half-changed).
                        std::panic::catch_unwind(AssertUnwindSafe(|| bot.decide(&view, &legal)))
                            .unwrap_or_else(|_| {
                                tracing::error!(seat = %name, "a bot panicked while deciding: the heuristic decides");
                                panicked = true;
                                HeuristicBot::new(seed).decide(&view, &legal)
                            })
                    } else {
                        tracing::debug!(seat = %name, "no thinking permit in time: the heuristic decides");
                        HeuristicBot::new(seed).decide(&view, &legal)
                    };
                    let action = decided.unwrap_or_else(|fault| {
                        // The fault's kind only: its text may quote the
                        // cards the bot answered.
                        tracing::warn!(
                            seat = %name,
                            fault = bots::fault_kind(&fault),
                            "a bot failed to decide: a fallback action is played"
                        );
                        dalmuti_bots::fallback(&legal)
                    });
                    BotDone {
                        name,
                        bot: (!panicked).then_some(bot),
                        action,
                        stand_in,
                    }
                })
                .await;
            match decided {
                Some(decided) => {
                    let _ = done.send(decided).await;
                }
                None => tracing::error!("a bot panicked while deciding: its seat waits"),
            }
        }
        .instrument(span));
    }

    pub(super) async fn bot_done(&mut self, done: BotDone) {
        let arrived = std::time::Instant::now();
        self.bots.thinking = false;
        let Some(i) = self.state.seat_named(&done.name) else {
            return;
        };
        // A human who came back while the stand-in thought plays themself.
        let still_due = self
            .bot_due(Instant::now())
            .is_some_and(|(j, stand_in)| j == i && stand_in == done.stand_in);
        match done.bot {
            Some(bot) => {
                self.occupant(&done.name).bot = Some(bot);
            }
            None => {
                if let Some(spec) = self.state.seats[i].bot.clone() {
                    let bot = bots::build(Level::from_stored(&spec), i as u64);
                    self.occupant(&done.name).bot = Some(bot);
                }
            }
        }
        if still_due && self.state.in_setup() && self.looking_at_cards(Instant::now()) {
            self.bots.held.push((done.name, done.action, done.stand_in));
        } else if still_due {
            self.arrived = Some(arrived);
            let act = self.state.seat_action(i, done.action, done.stand_in);
            let _ = self.commit(act).await;
        }
    }

    /// The bots' setup choices held through the pause, told now in seat
    /// order; one the setup no longer takes (a revolution was called
    /// meanwhile) is dropped, and its bot decides again.
    pub(super) async fn release_held(&mut self) {
        let mut held = std::mem::take(&mut self.bots.held);
        held.sort_by_key(|(name, ..)| {
            self.state
                .seat_named(name)
                .and_then(|i| self.state.game_seat(i))
                .map(|s| s.index())
        });
        for (name, action, stand_in) in held {
            let _ = self
                .commit(Stored::Act {
                    player: name,
                    action,
                    auto: stand_in,
                })
                .await;
        }
    }
}
