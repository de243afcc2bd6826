//! The bots the server offers, and the server-wide budget they think in.
//!
//! Over HTTP a host picks one of a few fixed levels ([`LEVELS`]), each with
//! a fixed cost: nobody with a link to a table can ask for a search with
//! 256 threads and ten minutes a move. Every decision runs on tokio's
//! blocking pool holding a permit of one [`Budget`] shared by every table,
//! sized to the machine's cores by default, so many tables of search bots
//! queue for the CPU instead of oversubscribing it; a decision that waits
//! too long for a permit is made by the cheap heuristic bot instead.

use std::sync::Arc;
use std::time::Duration;

use dalmuti_bots::{Bot, BotSpec};
use tokio::sync::Semaphore;

use crate::error::ServerError;

/// The levels a host may seat, weakest first.
pub const LEVELS: [&str; 4] = ["random", "greedy", "heuristic", "search"];

/// How long the `search` level thinks per decision, on one thread.
pub const SEARCH_MS: u64 = 300;

/// A bot level the server offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Uniform over legal actions.
    Random,
    /// Plays its worst legal set.
    Greedy,
    /// Rules of thumb.
    Heuristic,
    /// Monte-Carlo tree search, [`SEARCH_MS`] per decision on one thread.
    Search,
}

impl Level {
    /// The level a host asked for, exactly one of [`LEVELS`]: no options,
    /// no external programs.
    pub fn parse(asked: &str) -> Result<Level, ServerError> {
        match asked {
            "random" => Ok(Level::Random),
            "greedy" => Ok(Level::Greedy),
            "heuristic" => Ok(Level::Heuristic),
            "search" => Ok(Level::Search),
            other => Err(ServerError::BadRequest(format!(
                "bot {other:?} is not offered here: choose one of {} (no options: each level has a fixed budget)",
                LEVELS.join(", ")
            ))),
        }
    }

    /// The level of a bot spec read from a stored table, never refused: a
    /// table seated before the levels were fixed (`search:ms=300`, or any
    /// spec at all) still loads, its bot mapped to the nearest level.
    pub fn from_stored(spec: &str) -> Level {
        match spec.split(':').next().unwrap_or(spec).trim() {
            "random" => Level::Random,
            "greedy" => Level::Greedy,
            "search" => Level::Search,
            _ => Level::Heuristic,
        }
    }

    /// Its name, as in [`LEVELS`].
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Heuristic => "heuristic",
            Level::Search => "search",
        }
    }

    /// Builds the bot, its randomness seeded by `seed`.
    pub fn build(self, seed: u64) -> Box<dyn Bot> {
        let spec = match self {
            Level::Search => format!("search:ms={SEARCH_MS},threads=1"),
            other => other.name().to_string(),
        };
        spec.parse::<BotSpec>()
            .and_then(|s| s.build(seed))
            .expect("the server's bot levels build")
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
        for level in LEVELS {
            assert_eq!(Level::parse(level).unwrap().name(), level);
        }
        for asked in [
            "search:ms=300",
            "search:threads=256,ms=600000",
            "search:iterations=4294967295",
            "cmd:python3 bot.py",
            "oracle",
            "Search",
            "",
        ] {
            let Err(ServerError::BadRequest(reason)) = Level::parse(asked) else {
                panic!("{asked:?} was accepted");
            };
            assert!(
                LEVELS.iter().all(|l| reason.contains(l)),
                "the refusal lists the levels: {reason}"
            );
        }
    }

    #[test]
    fn stored_specs_map_onto_the_levels() {
        assert_eq!(Level::from_stored("search:ms=300"), Level::Search);
        assert_eq!(
            Level::from_stored("search:threads=256,ms=600000"),
            Level::Search
        );
        assert_eq!(Level::from_stored("greedy"), Level::Greedy);
        assert_eq!(Level::from_stored("cmd:rm -rf /"), Level::Heuristic);
        assert_eq!(Level::from_stored("oracle"), Level::Heuristic);
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
