//! Independent work units played on a thread pool of the run's own, their
//! results kept in unit order: what the pool and the ladder runs share.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::ThreadPool;
use rayon::prelude::*;

use crate::error::SimError;

/// A pool of `threads` worker threads named `dalmuti-{name}-N`, or why it
/// could not be started.
pub(crate) fn thread_pool(threads: usize, name: &'static str) -> Result<ThreadPool, SimError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("dalmuti-{name}-{i}"))
        .build()
        .map_err(|e| SimError::Threads {
            threads,
            reason: e.to_string(),
        })
}

/// Plays every unit on `threads` threads, `play(index, unit)` giving a
/// unit's result and the hands it played, and calls `progress` (from any
/// worker thread) with the hands played so far as units finish.
///
/// The results come back in unit order, or the error of the first unit
/// that failed in that order, so a run's report does not depend on the
/// threads.
pub(crate) fn play_units<U: Sync, R: Send>(
    threads: usize,
    name: &'static str,
    units: &[U],
    play: impl Fn(usize, &U) -> Result<(R, u64), SimError> + Sync,
    progress: impl Fn(u64) + Sync,
) -> Result<Vec<R>, SimError> {
    let pool = thread_pool(threads, name)?;
    let done = AtomicU64::new(0);
    let results: Vec<Result<(R, u64), SimError>> = pool.install(|| {
        units
            .par_iter()
            // One unit a job: left to split adaptively, rayon hands each
            // thread a quarter of the units or so to play in order, and
            // units cost very different times (a search bot's against a
            // heuristic's), so one thread was left playing a long tail
            // alone (docs/PERFORMANCE.md, "`expert` against the five pools").
            .with_max_len(1)
            .enumerate()
            .map(|(i, unit)| {
                let result = play(i, unit);
                if let Ok((_, hands)) = &result {
                    progress(done.fetch_add(*hands, Ordering::Relaxed) + hands);
                }
                result
            })
            .collect()
    });
    results
        .into_iter()
        .map(|result| result.map(|(r, _)| r))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;

    #[test]
    fn results_are_in_unit_order_and_progress_counts_every_hand() {
        let units: Vec<u64> = (0..40).collect();
        let last = AtomicU64::new(0);
        let results = play_units(
            2,
            "test",
            &units,
            |i, &u| {
                // Later units finish first, as a slow early unit would make them.
                std::thread::sleep(std::time::Duration::from_micros(40 - u));
                Ok((i as u64 * 10 + u, 3))
            },
            |hands| {
                last.fetch_max(hands, Ordering::Relaxed);
            },
        )
        .unwrap();
        assert_eq!(results, (0..40).map(|u| u * 11).collect::<Vec<_>>());
        assert_eq!(last.load(Ordering::Relaxed), 120);
    }

    #[test]
    fn the_first_failure_in_unit_order_is_the_one_returned() {
        let units: Vec<usize> = (0..20).collect();
        let failed = play_units(
            2,
            "test",
            &units,
            |_, &u| {
                if u == 7 || u == 13 {
                    Err(SimError::Bot {
                        label: format!("bot{u}"),
                        reason: "it failed".into(),
                    })
                } else {
                    Ok(((), 1))
                }
            },
            |_| {},
        );
        let Err(SimError::Bot { label, .. }) = failed else {
            panic!("expected the bot error, got {failed:?}");
        };
        assert_eq!(label, "bot7");
    }
}
