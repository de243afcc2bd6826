//! What a ladder found: the bots ranked with their ratings and intervals,
//! the pairwise matrix, as a table for people or as JSON.

use std::fmt::Write as _;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::LadderConfig;
use super::fit::{BOOTSTRAP_SAMPLES, PRIOR_WINS, ratings};
use super::pairs::PairResult;
use crate::play::Faults;
use crate::report::{RulesReport, Timing};
use crate::stats::mean_ci;

/// The value of `format` in a ladder's JSON.
pub const LADDER_FORMAT: &str = "dalmuti-ladder/1";

/// A ladder's report. Serialized as the `--json` output; see the `ladder`
/// section of the crate documentation for its fields.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LadderReport {
    /// Always [`LADDER_FORMAT`].
    pub format: String,
    /// The command that repeats the run.
    pub command: String,
    /// The run's seed, as `--seed` takes it.
    pub seed: String,
    /// Players at each table.
    pub players: usize,
    /// Deals each pair played.
    pub deals_per_pair: u64,
    /// The seatings of a pair: `A` the first bot of the pair (in listed
    /// order), `B` the second, seat by seat; each played in every rotation.
    pub patterns: Vec<String>,
    /// Hands each pair played: deals × patterns × players.
    pub hands_per_pair: u64,
    /// Hands in all.
    pub hands: u64,
    /// The game and its optional rules.
    pub rules: RulesReport,
    /// How the ratings and intervals are computed, in words.
    pub method: Method,
    /// The bots, best first.
    pub bots: Vec<LadderBot>,
    /// Pairwise results, rows and columns in the order of `bots`.
    pub matrix: PairMatrix,
    /// How long it took: the only part that changes between runs of the
    /// same command.
    pub timing: Timing,
}

/// How a ladder's numbers are computed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Method {
    /// The rating model.
    pub rating: String,
    /// The rating interval.
    pub rating_interval: String,
    /// Bootstrap samples.
    pub bootstrap_samples: usize,
    /// Wins added each way to every pair before the fit.
    pub prior_wins: f64,
    /// The interval of mean places and advantages.
    pub mean_interval: String,
}

/// One bot's line on the ladder.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LadderBot {
    /// 1 for the best rating.
    pub rank: usize,
    /// The bot as listed (`#2`… for a repeat).
    pub label: String,
    /// The bot as `--ladder` names it.
    pub spec: String,
    /// Bradley–Terry rating, Elo points, the ladder's mean 0.
    pub rating: f64,
    /// Lower end of its 95% bootstrap interval.
    pub rating_ci95_low: f64,
    /// Upper end.
    pub rating_ci95_high: f64,
    /// Mean place (1 = first out) over its hands against every other bot,
    /// each opponent weighing the same.
    pub mean_place: f64,
    /// Lower end of its 95% interval (`null` with a single deal).
    pub mean_place_ci95_low: Option<f64>,
    /// Upper end.
    pub mean_place_ci95_high: Option<f64>,
    /// Share of its comparisons with other bots' copies it won.
    pub win_rate: f64,
    /// Hands it played (in each, one or more copies).
    pub hands: u64,
    /// Decisions it failed, played for it by the fallback.
    pub faults: Faults,
}

/// Pairwise results: `[row][column]`, rows and columns the ranked bots,
/// `null` on the diagonal.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PairMatrix {
    /// Labels of the rows and columns, best first.
    pub bots: Vec<String>,
    /// The column bot's mean place minus the row bot's, where they met:
    /// how many places ahead the row bot finished on average.
    pub advantage: Vec<Vec<Option<f64>>>,
    /// Lower end of its 95% interval.
    pub ci95_low: Vec<Vec<Option<f64>>>,
    /// Upper end.
    pub ci95_high: Vec<Vec<Option<f64>>>,
    /// Share of comparisons between a copy of the row bot and one of the
    /// column bot that the row bot won.
    pub win_rate: Vec<Vec<Option<f64>>>,
}

#[derive(Deserialize)]
struct FaultCounts {
    crashed: u64,
    timed_out: u64,
    garbage: u64,
    illegal: u64,
}

/// Faults read back from a report's JSON.
impl<'de> Deserialize<'de> for Faults {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Faults, D::Error> {
        let f = FaultCounts::deserialize(d)?;
        Ok(Faults {
            crashed: f.crashed,
            timed_out: f.timed_out,
            garbage: f.garbage,
            illegal: f.illegal,
        })
    }
}

impl LadderReport {
    pub(crate) fn new(config: &LadderConfig, pairs: &[PairResult], wall: Duration) -> Self {
        let k = config.bots().len();
        let deals = config.deals() as usize;
        let fits = ratings(k, pairs, deals, config.seed());

        // Per bot and deal: its mean place in that deal against each
        // opponent, averaged over opponents.
        let mut place_by_deal = vec![vec![0.0f64; deals]; k];
        let mut faults = vec![Faults::default(); k];
        let mut won = vec![0u64; k];
        let mut compared = vec![0u64; k];
        let none = vec![vec![None; k]; k];
        let (mut advantage, mut low, mut high, mut win_rate) =
            (none.clone(), none.clone(), none.clone(), none);
        for p in pairs {
            let (a, b) = (p.a, p.b);
            let mut diffs = Vec::with_capacity(deals);
            let mut a_wins = 0u64;
            for (d, r) in p.deals.iter().enumerate() {
                let a_mean = f64::from(r.a_places) / f64::from(p.a_seats);
                let b_mean = f64::from(r.b_places) / f64::from(p.b_seats);
                place_by_deal[a][d] += a_mean / (k - 1) as f64;
                place_by_deal[b][d] += b_mean / (k - 1) as f64;
                diffs.push(b_mean - a_mean);
                a_wins += u64::from(r.a_wins);
            }
            let all = u64::from(p.comparisons) * deals as u64;
            won[a] += a_wins;
            won[b] += all - a_wins;
            compared[a] += all;
            compared[b] += all;
            faults[a].add(&p.a_faults);
            faults[b].add(&p.b_faults);
            let (mean, half) = mean_ci(&diffs);
            advantage[a][b] = Some(mean);
            advantage[b][a] = Some(-mean);
            low[a][b] = half.map(|h| mean - h);
            high[a][b] = half.map(|h| mean + h);
            low[b][a] = half.map(|h| -mean - h);
            high[b][a] = half.map(|h| -mean + h);
            let rate = a_wins as f64 / all as f64;
            win_rate[a][b] = Some(rate);
            win_rate[b][a] = Some(1.0 - rate);
        }

        // Best rating first; ties (rare) in listed order.
        let mut order: Vec<usize> = (0..k).collect();
        order.sort_by(|&x, &y| fits[y].0.total_cmp(&fits[x].0).then(x.cmp(&y)));
        let bots = order
            .iter()
            .enumerate()
            .map(|(rank, &i)| {
                let (place, half) = mean_ci(&place_by_deal[i]);
                let entry = &config.bots()[i];
                LadderBot {
                    rank: rank + 1,
                    label: entry.label.clone(),
                    spec: entry.spec.to_string(),
                    rating: fits[i].0,
                    rating_ci95_low: fits[i].1,
                    rating_ci95_high: fits[i].2,
                    mean_place: place,
                    mean_place_ci95_low: half.map(|h| place - h),
                    mean_place_ci95_high: half.map(|h| place + h),
                    win_rate: won[i] as f64 / compared[i].max(1) as f64,
                    hands: config.hands_per_pair() * (k - 1) as u64,
                    faults: faults[i],
                }
            })
            .collect();
        let permute = |m: &Vec<Vec<Option<f64>>>| -> Vec<Vec<Option<f64>>> {
            order
                .iter()
                .map(|&r| order.iter().map(|&c| m[r][c]).collect())
                .collect()
        };
        let matrix = PairMatrix {
            bots: order
                .iter()
                .map(|&i| config.bots()[i].label.clone())
                .collect(),
            advantage: permute(&advantage),
            ci95_low: permute(&low),
            ci95_high: permute(&high),
            win_rate: permute(&win_rate),
        };
        let rules = config.rules();
        let hands = config.total_hands();
        let wall_seconds = wall.as_secs_f64();
        LadderReport {
            format: LADDER_FORMAT.into(),
            command: config.command(),
            seed: config.seed_text(),
            players: config.players(),
            deals_per_pair: config.deals(),
            patterns: config
                .patterns()
                .iter()
                .map(|p| p.iter().map(|&a| if a { 'A' } else { 'B' }).collect())
                .collect(),
            hands_per_pair: config.hands_per_pair(),
            hands,
            rules: RulesReport::of(&rules),
            method: Method {
                rating: "Bradley-Terry on the Elo scale (400 points: 10 to 1 odds of finishing \
                         ahead), fitted to every comparison of a copy of one bot with a copy of \
                         another in the same hand; the ladder's mean is 0"
                    .into(),
                rating_interval: "95% percentile bootstrap over deals".into(),
                bootstrap_samples: BOOTSTRAP_SAMPLES,
                prior_wins: PRIOR_WINS,
                mean_interval: "95% normal interval over deals (each deal with all its \
                                seatings one sample)"
                    .into(),
            },
            bots,
            matrix,
            timing: Timing {
                threads: config.threads(),
                wall_seconds,
                hands_per_second: if wall_seconds > 0.0 {
                    hands as f64 / wall_seconds
                } else {
                    0.0
                },
            },
        }
    }

    /// The report as pretty JSON (`--json`).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serializes")
    }

    /// The report as JSON without `timing`: what two runs of the same
    /// command agree on, whatever their threads.
    pub fn results_json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).expect("a report serializes");
        value.as_object_mut().expect("an object").remove("timing");
        value
    }

    /// The report as a table for people: the ranking, then the pairwise
    /// advantages, then the command that repeats the run.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let n = self.players;
        let k = self.bots.len();
        let _ = writeln!(
            out,
            "ladder of {k} bots, {n} players a table: {} deals a pair, each in {} seatings \
             ({} in every rotation): {} hands a pair, {} in all",
            self.deals_per_pair,
            self.hands_per_pair / self.deals_per_pair.max(1),
            self.patterns.join(" and "),
            self.hands_per_pair,
            self.hands,
        );
        let r = &self.rules;
        let mut rules = vec![
            r.variant.word().to_string(),
            format!("scoring {}", r.scoring),
        ];
        for (on, name) in [
            (r.stripped_deck, "stripped deck"),
            (r.first_deal_revolution, "first-deal revolution"),
            (r.merchant_exchange, "merchant exchange"),
        ] {
            if on {
                rules.push(name.into());
            }
        }
        let _ = writeln!(out, "rules: {}; seed {}", rules.join(", "), self.seed);
        out.push('\n');

        let width = self
            .bots
            .iter()
            .map(|b| b.label.chars().count())
            .max()
            .unwrap_or(3)
            .max(3);
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>6}  {:>13}  {:>10}  {:>13}  {:>8}  {:>6}",
            "rank", "bot", "rating", "95% CI", "mean place", "95% CI", "win rate", "faults"
        );
        for b in &self.bots {
            let place_ci = match (b.mean_place_ci95_low, b.mean_place_ci95_high) {
                (Some(lo), Some(hi)) => format!("{lo:.3} – {hi:.3}"),
                _ => "–".into(),
            };
            let _ = writeln!(
                out,
                "{:>4}  {:<width$}  {:>+6.0}  {:>13}  {:>10.3}  {:>13}  {:>7.1}%  {:>6}",
                b.rank,
                b.label,
                b.rating,
                format!("{:+.0} – {:+.0}", b.rating_ci95_low, b.rating_ci95_high),
                b.mean_place,
                place_ci,
                100.0 * b.win_rate,
                b.faults.total(),
            );
        }
        let _ = writeln!(
            out,
            "rating: Bradley–Terry, Elo points (+400: 10 to 1 odds of finishing ahead), \
             the ladder's mean 0; its CI by bootstrap over deals"
        );
        out.push('\n');
        let _ = writeln!(
            out,
            "places ahead of the column bot, row by row (mean place advantage ± 95% CI):"
        );
        let _ = write!(out, "{:>4}  {:<width$}", "", "");
        for c in 1..=k {
            let _ = write!(out, "  {:>13}", format!("vs {c}"));
        }
        out.push('\n');
        let m = &self.matrix;
        for (row, b) in self.bots.iter().enumerate() {
            let _ = write!(out, "{:>4}  {:<width$}", b.rank, b.label);
            for col in 0..k {
                let cell = match (m.advantage[row][col], m.ci95_low[row][col]) {
                    (Some(a), Some(lo)) => format!("{a:+.3} ±{:.3}", a - lo),
                    (Some(a), None) => format!("{a:+.3}"),
                    _ => "–".into(),
                };
                let _ = write!(out, "  {cell:>13}");
            }
            out.push('\n');
        }
        out.push('\n');
        let _ = writeln!(out, "repeat: {}", self.command);
        out
    }
}
