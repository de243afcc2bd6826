//! Bots' turns: a bot thinks on the blocking pool and its answer comes
//! back to the actor.

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};

use dalmuti_bots::{Bot, HeuristicBot};
use dalmuti_core::Viewer;
use dalmuti_uecda::ContestSeats;
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
        let game = self
            .state
            .game
            .clone()
            .expect("a seat of play means a game");
        let done = self.bots.tx.clone();
        self.bots.thinking = true;
        // The bot thinks on another thread: its logs name the table too.
        let span = tracing::Span::current();
        if let Some(contest) = self.bots.contest.clone()
            && self.bots.programs.contains(&name)
        {
            tokio::spawn(Self::ask_program(contest, game, name, seed, done).instrument(span));
            return;
        }
        let bot = self
            .occupant(&name)
            .bot
            .take()
            .unwrap_or_else(|| Box::new(HeuristicBot::new(seed)));
        let budget = self.ctx.budget.clone();
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
                        lost: Vec::new(),
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

    /// A contest program's turn: its answer is read on the blocking pool
    /// (it thinks on its own machine: no permit of the bots' budget), after
    /// every program is told what happened; one that gives none in time
    /// is lost and a `normal` bot decides for its seat, now and from then on.
    async fn ask_program(
        contest: Arc<Mutex<ContestSeats>>,
        game: dalmuti_core::Game,
        name: crate::names::PlayerName,
        seed: u64,
        done: tokio::sync::mpsc::Sender<BotDone>,
    ) {
        let asked = tokio::task::spawn_blocking(move || {
            let mut seats = contest.lock().unwrap_or_else(|e| e.into_inner());
            let answer = seats.answer(&game, name.as_str());
            let lost = seats.take_lost();
            drop(seats);
            let action = answer.unwrap_or_else(|_| {
                let seat = game
                    .seat_of(game.player_named(name.as_str()).expect("a player"))
                    .expect("seated");
                let view = game.view(Viewer::Seat(seat));
                let legal = view.legal_actions();
                bots::build(Level::Normal, seed)
                    .decide(&view, &legal)
                    .unwrap_or_else(|_| dalmuti_bots::fallback(&legal))
            });
            BotDone {
                name,
                bot: None,
                action,
                stand_in: false,
                lost,
            }
        })
        .await;
        match asked {
            Ok(asked) => {
                let _ = done.send(asked).await;
            }
            Err(_) => tracing::error!("asking a contest program panicked: its seat waits"),
        }
    }

    /// Tells the contest programs, if any play here, what the last change
    /// did to the game, on the blocking pool with a copy of it. The tasks
    /// may run in any order: a copy older than one already followed adds
    /// nothing. Once the game is over they are told its end and let go.
    pub(super) fn tell_programs(&mut self) {
        let (Some(contest), Some(game)) = (self.bots.contest.clone(), self.state.game.as_ref())
        else {
            return;
        };
        let game = game.clone();
        if game.is_over() {
            self.bots.contest = None;
            self.bots.programs.clear();
        }
        let span = tracing::Span::current();
        tokio::task::spawn_blocking(move || {
            let _table = span.entered();
            contest
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .follow(&game);
        });
    }

    /// At the start: the contest programs seated here begin their match,
    /// told their numbers. (The start is refused while they are fewer
    /// than the contest's five players; should the game still not be the
    /// contest's, they are let go and their seats' `normal` bots play.)
    pub(super) fn seat_programs(&mut self) {
        let programs: Vec<(String, dalmuti_uecda::Program)> = self
            .occupants
            .iter_mut()
            .filter_map(|(name, o)| o.program.take().map(|p| (name.as_str().to_string(), p)))
            .collect();
        let Some(game) = self.state.game.as_ref().filter(|_| !programs.is_empty()) else {
            return;
        };
        match ContestSeats::new(game, programs, crate::programs::ANSWER_TIME) {
            Ok(seats) => {
                self.bots.programs = self
                    .state
                    .seats
                    .iter()
                    .filter(|s| seats.plays(s.name.as_str()))
                    .map(|s| s.name.clone())
                    .collect();
                self.bots.contest = Some(Arc::new(Mutex::new(seats)));
            }
            Err((why, programs)) => {
                tracing::warn!(
                    "the contest programs seated here cannot play this game ({why}): bots play their seats"
                );
                for program in programs {
                    program.close();
                }
            }
        }
    }

    pub(super) async fn bot_done(&mut self, done: BotDone) {
        let arrived = std::time::Instant::now();
        self.bots.thinking = false;
        for (name, why) in &done.lost {
            tracing::warn!(seat = %name, "a contest program was lost ({why}): a normal bot plays its seat");
            self.bots.programs.retain(|n| n.as_str() != name);
        }
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
