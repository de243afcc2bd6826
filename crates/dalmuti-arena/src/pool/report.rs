//! A pool run's report: one row a pool (and the mixed table), as a table
//! for people and as JSON.

use std::fmt::Write as _;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::PoolConfig;
use super::play::{LineupResult, Measured, Others};
use crate::play::Faults;
use crate::report::{RulesReport, Timing};
use crate::stats::mean_ci;

/// The format name of a pool report's JSON.
pub const POOL_FORMAT: &str = "dalmuti-pool/1";

/// A mean place (1 = first out) and its 95% interval over deals.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Place {
    /// The mean place.
    pub mean: f64,
    /// Lower end of the 95% interval (`null` with a single deal).
    pub ci95_low: Option<f64>,
    /// Upper end.
    pub ci95_high: Option<f64>,
}

impl Place {
    fn of(values: &[f64]) -> Place {
        let (mean, half) = mean_ci(values);
        Place {
            mean,
            ci95_low: half.map(|h| mean - h),
            ci95_high: half.map(|h| mean + h),
        }
    }

    /// `2.345 (2.301 – 2.389)`, or the mean alone.
    fn text(&self) -> String {
        match (self.ci95_low, self.ci95_high) {
            (Some(lo), Some(hi)) => format!("{:.3} ({lo:.3} – {hi:.3})", self.mean),
            _ => format!("{:.3}", self.mean),
        }
    }
}

/// One row: the measured bot and the baseline in the same seat against
/// the same opponents on the same deals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolRow {
    /// The opponents: a pool bot's name, or `mixed` (one of each pool in
    /// turn).
    pub pool: String,
    /// The measured bot's mean place.
    pub candidate: Place,
    /// The baseline's, in the same seat.
    pub baseline: Place,
    /// How many places earlier the measured bot finished than the
    /// baseline, per deal (the baseline's place minus its own), with the
    /// interval of that paired difference.
    pub lead: Place,
    /// The pool bot's mean place among copies of the baseline (`null` for
    /// the mixed table): the baseline is not exploited by the pool's
    /// style when its own place against the pool is no worse than this.
    pub pool_among_baseline: Option<Place>,
    /// The measured bot's failed decisions in this row.
    pub candidate_faults: Faults,
}

/// What `dalmuti sim --pool` found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolReport {
    /// [`POOL_FORMAT`].
    pub format: String,
    /// The command that repeats the run.
    pub command: String,
    /// The bot measured.
    pub candidate: String,
    /// The bot in its seat for comparison.
    pub baseline: String,
    /// Players at a table.
    pub players: usize,
    /// Deals each row played, each in every rotation of the seats.
    pub deals: u64,
    /// Hands played in all.
    pub hands: u64,
    /// The run's seed.
    pub seed: String,
    /// The rules in force.
    pub rules: RulesReport,
    /// One row a pool, then `mixed`.
    pub rows: Vec<PoolRow>,
    /// Threads and time: the only part that differs between two runs.
    pub timing: Timing,
}

impl PoolReport {
    pub(crate) fn new(config: &PoolConfig, results: &[LineupResult], wall: Duration) -> Self {
        let n = config.players() as f64;
        let per_deal =
            |r: &LineupResult| -> Vec<f64> { r.places.iter().map(|&p| f64::from(p) / n).collect() };
        let find = |measured: Measured, others: Others| {
            results
                .iter()
                .find(|r| r.lineup.measured == measured && r.lineup.others == others)
        };
        let mut tables: Vec<(String, Others)> = config
            .pools()
            .iter()
            .enumerate()
            .map(|(p, spec)| (spec.to_string(), Others::Pool(p)))
            .collect();
        if config.mixed() {
            tables.push(("mixed".into(), Others::Mixed));
        }
        let rows = tables
            .into_iter()
            .map(|(pool, others)| {
                let cand = find(Measured::Candidate, others).expect("every row is played");
                let base = find(Measured::Baseline, others).expect("every row is played");
                let (c, b) = (per_deal(cand), per_deal(base));
                let lead: Vec<f64> = b.iter().zip(&c).map(|(b, c)| b - c).collect();
                let among = match others {
                    Others::Pool(p) => find(Measured::Pool(p), Others::Baseline(p))
                        .map(|r| Place::of(&per_deal(r))),
                    _ => None,
                };
                PoolRow {
                    pool,
                    candidate: Place::of(&c),
                    baseline: Place::of(&b),
                    lead: Place::of(&lead),
                    pool_among_baseline: among,
                    candidate_faults: cand.faults,
                }
            })
            .collect();
        let rules = config.rules();
        let hands = config.total_hands();
        let wall_seconds = wall.as_secs_f64();
        PoolReport {
            format: POOL_FORMAT.into(),
            command: config.command(),
            candidate: config.candidate().to_string(),
            baseline: config.baseline().to_string(),
            players: config.players(),
            deals: config.deals(),
            hands,
            seed: config.seed_text(),
            rules: RulesReport::of(&rules),
            rows,
            timing: Timing {
                threads: config.threads(),
                wall_seconds,
                hands_per_second: hands as f64 / wall_seconds.max(1e-9),
            },
        }
    }

    /// The report as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serializes")
    }

    /// The report as a table for people, then the command that repeats it.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let n = self.players;
        let _ = writeln!(
            out,
            "{} against {} pools{}, {n} players a table: {} deals a row, each in all {n} \
             rotations of the seats; {} in the same seat on the same deals for comparison",
            self.candidate,
            self.rows.iter().filter(|r| r.pool != "mixed").count(),
            if self.rows.iter().any(|r| r.pool == "mixed") {
                " and at a mixed table"
            } else {
                ""
            },
            self.deals,
            self.baseline,
        );
        let _ = writeln!(
            out,
            "rules: {}, scoring {}; seed {}",
            self.rules.variant.word(),
            self.rules.scoring,
            self.seed
        );
        out.push('\n');
        let width = self
            .rows
            .iter()
            .map(|r| r.pool.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        let col = |name: &str| format!("{:.24}", name);
        let _ = writeln!(
            out,
            "{:<width$}  {:>24}  {:>24}  {:>22}  {:>24}  {:>6}",
            "pool",
            col(&self.candidate),
            col(&self.baseline),
            "lead (95% CI)",
            format!("pool bot among {}", col(&self.baseline)),
            "faults",
        );
        for r in &self.rows {
            let lead = match (r.lead.ci95_low, r.lead.ci95_high) {
                (Some(lo), Some(hi)) => format!("{:+.3} ({lo:+.3} – {hi:+.3})", r.lead.mean),
                _ => format!("{:+.3}", r.lead.mean),
            };
            let among = r.pool_among_baseline.map_or("–".into(), |p| p.text());
            let _ = writeln!(
                out,
                "{:<width$}  {:>24}  {:>24}  {:>22}  {:>24}  {:>6}",
                r.pool,
                r.candidate.text(),
                r.baseline.text(),
                lead,
                among,
                r.candidate_faults.total(),
            );
        }
        let _ = writeln!(
            out,
            "mean place, 1 = first out, {n} = last; lead: places the measured bot finished \
             ahead of {} in its seat (paired by deal)",
            self.baseline
        );
        out.push('\n');
        let _ = writeln!(out, "repeat: {}", self.command);
        out
    }
}
