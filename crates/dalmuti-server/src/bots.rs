//! The bots the server offers, and the server-wide budget they think in.
//!
//! Over HTTP a host picks one of the four levels named by strength
//! ([`LEVELS`]: easy, normal, hard, expert; the bots crate's [`Level`]
//! says which bot each is), each with a fixed cost: nobody with a link to
//! a table can ask for a search with 256 threads and ten minutes a move. Every decision runs on tokio's
//! blocking pool holding a permit of one [`Budget`] shared by every table,
//! sized to the machine's cores by default, so many tables of search bots
//! queue for the CPU instead of oversubscribing it; a decision that waits
//! too long for a permit is made by the cheap heuristic bot instead.

use std::sync::Arc;
use std::time::Duration;

pub use dalmuti_bots::Level;
use dalmuti_bots::{Bot, HeuristicBot};
use tokio::sync::Semaphore;

use crate::error::{BadRequest, ServerError};

/// The levels a host may seat, weakest first: [`Level::ALL`] by name.
pub const LEVELS: [&str; 4] = ["easy", "normal", "hard", "expert"];

/// What a host asks for to seat a contest program waiting at the server's
/// UECda port ([`crate::programs`]) instead of a bot, and the seat's bot
/// spec in the log. A table loaded again (after a restart) has lost the
/// program's connection: [`Level::from_stored`] makes it a `normal` bot.
pub use dalmuti_table::state::PROGRAM;

/// The level a host asked for: one of [`LEVELS`], or a bot name from
/// before the levels (`random`, `greedy`, `heuristic`, `search`), which
/// older clients still send ([`Level::from_name_or_alias`]). No options,
/// no external programs.
pub fn parse_level(asked: &str) -> Result<Level, ServerError> {
    Level::from_name_or_alias(asked).map_err(|_| {
        ServerError::BadRequest(BadRequest::BotLevel {
            asked: asked.chars().take(40).collect(),
            offered: &LEVELS,
        })
    })
}

/// Builds a level's bot, its randomness seeded by `seed`. A level tuned to
/// a spec that does not build (a mistake the bots' tests catch) plays as
/// the heuristic bot rather than leave a seat without a player.
pub fn build(level: Level, seed: u64) -> Box<dyn Bot> {
    level.build(seed).unwrap_or_else(|e| {
        tracing::error!(
            level = level.name(),
            error = %e,
            "a bot level's spec does not build: the heuristic bot plays instead"
        );
        Box::new(HeuristicBot::new(seed))
    })
}

/// What kind of failure a bot's fault is, fit for a log: never its text,
/// which may quote the action (cards) the bot answered.
pub fn fault_kind(fault: &dalmuti_bots::BotFault) -> &'static str {
    match fault {
        dalmuti_bots::BotFault::Crashed(_) => "crashed",
        dalmuti_bots::BotFault::TimedOut(_) => "timed out",
        dalmuti_bots::BotFault::Garbage(_) => "unreadable answer",
        dalmuti_bots::BotFault::Illegal(_) => "illegal answer",
    }
}

/// The server's budget for bot thinking: a number of decisions that may
/// run at once, shared by every table.
#[derive(Clone, Debug)]
pub struct Budget {
    permits: Arc<Semaphore>,
    wait: Duration,
}

impl Budget {
    /// At most `at_once` decisions at a time; one that cannot start within
    /// `wait` falls back.
    pub fn new(at_once: usize, wait: Duration) -> Budget {
        Budget {
            permits: Arc::new(Semaphore::new(at_once)),
            wait,
        }
    }

    /// Runs `think` on the blocking pool once a permit is free, holding it
    /// until `think` returns; `think` is told whether it got one (`false`:
    /// it waited `wait` in vain and must only do something cheap). `None`
    /// if `think` panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        think: impl FnOnce(bool) -> T + Send + 'static,
    ) -> Option<T> {
        let permit = tokio::time::timeout(self.wait, self.permits.clone().acquire_owned())
            .await
            .ok()
            .and_then(Result::ok);
        tokio::task::spawn_blocking(move || {
            let granted = permit.is_some();
            let result = think(granted);
            drop(permit);
            result
        })
        .await
        .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn only_the_fixed_levels_are_offered() {
        assert_eq!(LEVELS, Level::ALL.map(Level::name));
        for level in LEVELS {
            assert_eq!(parse_level(level).unwrap().name(), level);
        }
        for (old, level) in [
            ("random", "easy"),
            ("greedy", "easy"),
            ("heuristic", "normal"),
            ("search", "expert"),
        ] {
            assert_eq!(parse_level(old).unwrap().name(), level, "{old}");
        }
        for asked in [
            "search:ms=300",
            "search:threads=256,ms=600000",
            "search:iterations=4294967295",
            "hard:ms=1",
            "cmd:python3 bot.py",
            "oracle",
            "Search",
            "",
        ] {
            let Err(ServerError::BadRequest(reason)) = parse_level(asked) else {
                panic!("{asked:?} was accepted");
            };
            let reason = reason.to_string();
            assert!(
                LEVELS.iter().all(|l| reason.contains(l)),
                "the refusal lists the levels: {reason}"
            );
        }
    }

    #[test]
    fn stored_specs_map_onto_the_levels() {
        assert_eq!(Level::from_stored("search:ms=300"), Level::Expert);
        assert_eq!(
            Level::from_stored("search:threads=256,ms=600000"),
            Level::Expert
        );
        assert_eq!(Level::from_stored("search"), Level::Expert);
        assert_eq!(Level::from_stored("greedy"), Level::Easy);
        assert_eq!(Level::from_stored("heuristic"), Level::Normal);
        assert_eq!(Level::from_stored("hard"), Level::Hard);
        assert_eq!(Level::from_stored("cmd:rm -rf /"), Level::Normal);
        assert_eq!(Level::from_stored("oracle"), Level::Normal);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn decisions_queue_for_the_budget_and_fall_back_after_waiting() {
        let budget = Budget::new(2, Duration::from_secs(60));
        let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let runs: Vec<_> = (0..6)
            .map(|_| {
                let (budget, now, most) = (budget.clone(), now.clone(), most.clone());
                tokio::spawn(async move {
                    budget
                        .run(move |granted| {
                            let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(n, Ordering::SeqCst);
                            std::thread::sleep(Duration::from_millis(50));
                            now.fetch_sub(1, Ordering::SeqCst);
                            granted
                        })
                        .await
                })
            })
            .collect();
        for run in runs {
            assert_eq!(
                run.await.unwrap(),
                Some(true),
                "every decision got a permit"
            );
        }
        assert_eq!(
            most.load(Ordering::SeqCst),
            2,
            "never more than two at once"
        );

        // One permit, held: the next decision waits, then falls back.
        let budget = Budget::new(1, Duration::from_millis(100));
        let (hold, release) = std::sync::mpsc::channel::<()>();
        let holder = {
            let budget = budget.clone();
            tokio::spawn(async move { budget.run(move |g| (release.recv().ok(), g).1).await })
        };
        while budget.permits.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(budget.run(|granted| granted).await, Some(false));
        hold.send(()).unwrap();
        assert_eq!(holder.await.unwrap(), Some(true));
    }
}
