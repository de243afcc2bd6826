//! The thread bots think on, and what crosses to it and back: a bot and a
//! copy of the game go, the bot and its decision come back.

use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Instant;

use dalmuti_bots::{Bot, BotFault};
use dalmuti_core::{Action, Decision, Game, PlayerId, Seat, Viewer};

/// One bot at the table.
pub(super) struct SeatedBot {
    pub(super) player: PlayerId,
    /// The bot; `None` while it thinks on the worker thread, which holds
    /// it until it answers.
    pub(super) bot: Option<Box<dyn Bot>>,
    pub(super) spec: String,
    pub(super) seed: u64,
}

/// A decision handed to the worker thread: the bot, and a copy of the game
/// from which it sees its own seat's view, nothing more.
pub(super) struct Job {
    pub(super) bot: Box<dyn Bot>,
    pub(super) game: Game,
    pub(super) seat: Seat,
}

/// The worker's answer, with the bot handed back.
pub(super) struct Answer {
    pub(super) bot: Box<dyn Bot>,
    pub(super) decided: Result<Action, BotFault>,
}

/// The thread bots think on, so that the screen is never held by a long
/// search. One decision at a time, like a table. Nobody waits for it to
/// end: when the session goes (the player quits), its queue closes and the
/// thread ends after the decision in hand, or with the program.
pub(super) struct Worker {
    pub(super) jobs: Sender<Job>,
    pub(super) answers: Receiver<Answer>,
}

impl Worker {
    /// A new worker thread, or `None` if the system has no thread to give
    /// (then bots decide on the caller's thread, as in plain mode).
    pub(super) fn start() -> Option<Worker> {
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let (answer_tx, answers) = mpsc::channel();
        std::thread::Builder::new()
            .name("dalmuti-bot".into())
            .spawn(move || {
                for Job {
                    mut bot,
                    game,
                    seat,
                } in job_rx
                {
                    let view = game.view(Viewer::Seat(seat));
                    let legal = view.legal_actions();
                    let decided = bot.decide(&view, &legal);
                    if answer_tx.send(Answer { bot, decided }).is_err() {
                        return;
                    }
                }
            })
            .ok()?;
        Some(Worker { jobs, answers })
    }
}

/// A bot's decision in progress on the worker thread.
pub(super) struct Pending {
    pub(super) player: PlayerId,
    pub(super) seat: Seat,
    pub(super) decision: Decision,
    /// The hand it was asked in.
    pub(super) hand: usize,
    pub(super) since: Instant,
    /// Its answer, once the worker gave it.
    pub(super) answer: Option<Answer>,
}
