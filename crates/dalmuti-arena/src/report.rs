//! What a run found, as a table, JSON or CSV.

use std::fmt::Write as _;
use std::time::Duration;

use dalmuti_core::{Seat, Title, Variant};
use serde::{Deserialize, Serialize};
use skillratings::weng_lin::WengLinRating;

use crate::config::{Mode, SimConfig};
use crate::play::Faults;
use crate::stats::Tally;

/// The report of a run. Serialized as the `--json` output; see the crate
/// documentation for its fields.
#[derive(Clone, Debug, Serialize)]
pub struct SimReport {
    /// Players at the table.
    pub players: usize,
    /// `hands` (independent hands) or `games`.
    pub mode: String,
    /// Games played (games mode).
    pub games: Option<u64>,
    /// Hands per game (games mode).
    pub hands_per_game: Option<u32>,
    /// Deals: independent hands, or games × hands per game.
    pub deals: u64,
    /// Whether every deal was replayed in every rotation of the lineup.
    pub duplicate: bool,
    /// Times each deal was played.
    pub rotations: usize,
    /// Hands played in all: deals × rotations.
    pub hands: u64,
    /// The run's seed, as `--seed` takes it.
    pub seed: String,
    /// The optional rules in force.
    pub rules: RulesReport,
    /// One entry per bot of the lineup, in lineup order.
    pub bots: Vec<BotReport>,
    /// Finishing place by title during play: rows are seats of play 0..n
    /// (Greater Dalmuti first), columns places 1..n.
    pub seat_places: Matrix,
    /// Games mode: the title in the next hand by the title in this hand.
    pub mobility: Option<Matrix>,
    /// How long it took: the only part of the report that changes from
    /// run to run.
    pub timing: Timing,
}

/// The game and the optional rules of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesReport {
    /// The game: `dalmuti` or `corporate-shuffle`.
    pub variant: Variant,
    /// The stripped deck for four or five players.
    pub stripped_deck: bool,
    /// No taxes on a game's first hand.
    pub first_deal_revolution: bool,
    /// The merchant exchange.
    pub merchant_exchange: bool,
    /// `none`, `standard` or `philanthropic`.
    pub scoring: String,
}

impl RulesReport {
    /// The report of `rules`.
    pub(crate) fn of(rules: &dalmuti_core::Rules) -> RulesReport {
        RulesReport {
            variant: rules.variant,
            stripped_deck: rules.stripped_deck,
            first_deal_revolution: rules.first_deal_revolution,
            merchant_exchange: rules.merchant_exchange,
            scoring: rules.scoring.word().into(),
        }
    }
}

/// One lineup entry's results.
#[derive(Clone, Debug, Serialize)]
pub struct BotReport {
    /// `heuristic`, or `heuristic#2` for a second copy.
    pub label: String,
    /// The bot as `--bots` names it.
    pub spec: String,
    /// Hands it played (every hand of the run).
    pub hands: u64,
    /// Mean finishing place, 1 = first out.
    pub mean_place: f64,
    /// Lower end of the 95% confidence interval of the mean place
    /// (`null` with a single independent block).
    pub ci95_low: Option<f64>,
    /// Upper end of that interval.
    pub ci95_high: Option<f64>,
    /// Share of hands it finished first.
    pub first_rate: f64,
    /// Share of hands it finished last.
    pub last_rate: f64,
    /// Points under standard scoring (n − place each hand), summed.
    pub points: u64,
    /// Those points per hand.
    pub points_per_hand: f64,
    /// Weng-Lin rating (μ), from 25, updated hand by hand.
    pub rating: f64,
    /// Its uncertainty (σ), from 25/3.
    pub rating_sigma: f64,
    /// How often it finished at each place, 1st to last.
    pub places: Vec<u64>,
    /// Decisions it failed, played for it by the fallback.
    pub faults: Faults,
}

/// A matrix of counts with their shares per row.
#[derive(Clone, Debug, Serialize)]
pub struct Matrix {
    /// Row names: titles, Greater Dalmuti first.
    pub rows: Vec<String>,
    /// Column names: places (`1st`…) or titles.
    pub columns: Vec<String>,
    /// Counts, `counts[row][column]`.
    pub counts: Vec<Vec<u64>>,
    /// Each count over its row's total (rows without data are all 0).
    pub rates: Vec<Vec<f64>>,
}

/// Timings of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Worker threads.
    pub threads: usize,
    /// Wall time of the run, seconds.
    pub wall_seconds: f64,
    /// Hands played per second of wall time.
    pub hands_per_second: f64,
}

impl Matrix {
    fn new(rows: Vec<String>, columns: Vec<String>, flat: &[u64]) -> Matrix {
        let n = columns.len();
        let counts: Vec<Vec<u64>> = flat.chunks_exact(n).map(<[u64]>::to_vec).collect();
        let rates = counts
            .iter()
            .map(|row| {
                let total: u64 = row.iter().sum();
                row.iter()
                    .map(|&c| {
                        if total == 0 {
                            0.0
                        } else {
                            c as f64 / total as f64
                        }
                    })
                    .collect()
            })
            .collect();
        Matrix {
            rows,
            columns,
            counts,
            rates,
        }
    }
}

/// The title of seat `i` at a table of `n` in `variant`, numbering
/// Merchants (Workers) when there are several.
///
/// ```
/// use dalmuti_core::Variant;
/// use dalmuti_arena::title_name;
/// assert_eq!(title_name(Variant::Dalmuti, 2, 6), "Merchant 1");
/// assert_eq!(title_name(Variant::Dalmuti, 1, 3), "Merchant");
/// assert_eq!(title_name(Variant::Dalmuti, 4, 5), "Greater Peon");
/// assert_eq!(title_name(Variant::CorporateShuffle, 0, 5), "Big Boss");
/// assert_eq!(title_name(Variant::CorporateShuffle, 3, 6), "Worker 2");
/// ```
pub fn title_name(variant: Variant, i: usize, n: usize) -> String {
    let title = Seat::new(i).title(n);
    let name = variant.title_name(title);
    match title {
        Title::Merchant { class } if n > 5 => format!("{name} {class}"),
        _ => name.to_string(),
    }
}

/// A short title for column heads: GD, LD, M1…, LP, GP in Dalmuti; BB,
/// LB, W1…, SI, JI in Corporate Shuffle.
pub(crate) fn title_short(variant: Variant, i: usize, n: usize) -> String {
    let [greater, lesser, middle, peon, greater_peon] = match variant {
        Variant::Dalmuti => ["GD", "LD", "M", "LP", "GP"],
        Variant::CorporateShuffle => ["BB", "LB", "W", "SI", "JI"],
        Variant::Daifugo => ["DF", "F", "H", "HM", "DH"],
        Variant::President => ["P", "VP", "N", "VS", "S"],
    };
    match Seat::new(i).title(n) {
        Title::GreaterDalmuti => greater.into(),
        Title::LesserDalmuti => lesser.into(),
        Title::Merchant { class } => format!("{middle}{class}"),
        Title::LesserPeon => peon.into(),
        Title::GreaterPeon => greater_peon.into(),
    }
}

fn ordinal(p: usize) -> String {
    let suffix = match (p % 10, p % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{p}{suffix}")
}

impl SimReport {
    pub(crate) fn new(
        config: &SimConfig,
        tally: &Tally,
        ratings: &[WengLinRating],
        wall: Duration,
    ) -> SimReport {
        let n = config.players();
        let hands = tally.hands;
        let bots = config
            .lineup()
            .iter()
            .enumerate()
            .map(|(e, entry)| {
                let places = tally.places[e * n..(e + 1) * n].to_vec();
                let points: u64 = places
                    .iter()
                    .enumerate()
                    .map(|(p, &c)| (n - 1 - p) as u64 * c)
                    .sum();
                let (mean, half) = tally.mean_place(e);
                let rate = |c: u64| c as f64 / hands as f64;
                BotReport {
                    label: entry.label.clone(),
                    spec: entry.spec.to_string(),
                    hands,
                    mean_place: mean,
                    ci95_low: half.map(|h| mean - h),
                    ci95_high: half.map(|h| mean + h),
                    first_rate: rate(places[0]),
                    last_rate: rate(places[n - 1]),
                    points,
                    points_per_hand: points as f64 / hands as f64,
                    rating: ratings[e].rating,
                    rating_sigma: ratings[e].uncertainty,
                    places,
                    faults: tally.faults[e],
                }
            })
            .collect();
        let variant = config.rules().variant;
        let titles: Vec<String> = (0..n).map(|i| title_name(variant, i, n)).collect();
        let place_names: Vec<String> = (1..=n).map(ordinal).collect();
        let (games, hands_per_game) = match config.mode() {
            Mode::Hands { .. } => (None, None),
            Mode::Games {
                games,
                hands_per_game,
            } => (Some(games), Some(hands_per_game)),
        };
        let rules = config.rules();
        let wall_seconds = wall.as_secs_f64();
        SimReport {
            players: n,
            mode: if games.is_some() { "games" } else { "hands" }.into(),
            games,
            hands_per_game,
            deals: config.deals(),
            duplicate: config.duplicate(),
            rotations: config.rotations(),
            hands,
            seed: config.seed_text(),
            rules: RulesReport::of(&rules),
            bots,
            seat_places: Matrix::new(titles.clone(), place_names, &tally.seat_places),
            mobility: games.map(|_| Matrix::new(titles.clone(), titles.clone(), &tally.mobility)),
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

    /// The report as pretty JSON (the `--json` output).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serializes")
    }

    /// The report as JSON without `timing`: what two runs with the same
    /// configuration and seed agree on, whatever their threads.
    pub fn results_json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).expect("a report serializes");
        value.as_object_mut().expect("an object").remove("timing");
        value
    }

    /// The `--csv` output: a header, then one row per bot. Columns:
    /// `label, spec, hands, mean_place, ci95_low, ci95_high, first_rate,
    /// last_rate, points, points_per_hand, rating, rating_sigma,
    /// faults_crashed, faults_timed_out, faults_garbage, faults_illegal,
    /// faults_total`, then `place_1` … `place_n` (counts).
    ///
    /// ```
    /// use dalmuti_arena::{SimArgs, SimConfig, run};
    /// let args = SimArgs { bots: "greedy".into(), players: Some(3), hands: Some(10), ..SimArgs::default() };
    /// let report = run(&SimConfig::new(args).unwrap(), |_| {}).unwrap();
    /// let csv = report.to_csv();
    /// assert_eq!(csv.lines().count(), 4);
    /// assert!(csv.starts_with("label,spec,hands,mean_place,"));
    /// ```
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header: Vec<String> = [
            "label",
            "spec",
            "hands",
            "mean_place",
            "ci95_low",
            "ci95_high",
            "first_rate",
            "last_rate",
            "points",
            "points_per_hand",
            "rating",
            "rating_sigma",
            "faults_crashed",
            "faults_timed_out",
            "faults_garbage",
            "faults_illegal",
            "faults_total",
        ]
        .map(String::from)
        .to_vec();
        header.extend((1..=self.players).map(|p| format!("place_{p}")));
        w.write_record(&header).expect("writes to memory");
        let opt = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
        for b in &self.bots {
            let mut row = vec![
                b.label.clone(),
                b.spec.clone(),
                b.hands.to_string(),
                b.mean_place.to_string(),
                opt(b.ci95_low),
                opt(b.ci95_high),
                b.first_rate.to_string(),
                b.last_rate.to_string(),
                b.points.to_string(),
                b.points_per_hand.to_string(),
                b.rating.to_string(),
                b.rating_sigma.to_string(),
                b.faults.crashed.to_string(),
                b.faults.timed_out.to_string(),
                b.faults.garbage.to_string(),
                b.faults.illegal.to_string(),
                b.faults.total().to_string(),
            ];
            row.extend(b.places.iter().map(u64::to_string));
            w.write_record(&row).expect("writes to memory");
        }
        String::from_utf8(w.into_inner().expect("flushes to memory")).expect("UTF-8")
    }

    /// The report as a table for people.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let n = self.players;
        let what = match (self.games, self.hands_per_game) {
            (Some(g), Some(h)) => format!("{g} games of {h} hands"),
            _ => format!("{} independent hands", self.deals),
        };
        let duplicate = if self.duplicate {
            format!(
                ", duplicate ({} rotations: {} hands)",
                self.rotations, self.hands
            )
        } else {
            String::new()
        };
        let _ = writeln!(out, "{n} players, {what}{duplicate}, seed {}", self.seed);
        let r = &self.rules;
        let mut rules = Vec::new();
        if r.variant != Variant::Dalmuti {
            rules.push(r.variant.words().game.to_string());
        }
        rules.push(format!("scoring {}", r.scoring));
        for (on, name) in [
            (r.stripped_deck, "stripped deck"),
            (r.first_deal_revolution, "first-deal revolution"),
            (r.merchant_exchange, "merchant exchange"),
        ] {
            if on {
                rules.push(name.into());
            }
        }
        let _ = writeln!(out, "rules: {}", rules.join(", "));
        out.push('\n');

        let width = self
            .bots
            .iter()
            .map(|b| b.label.len())
            .max()
            .unwrap_or(3)
            .max(3);
        let _ = writeln!(
            out,
            "{:<width$}  {:>9}  {:>10}  {:>17}  {:>6}  {:>6}  {:>11}  {:>13}  {:>6}",
            "bot",
            "hands",
            "mean place",
            "95% CI",
            "first",
            "last",
            "points/hand",
            "rating (σ)",
            "faults"
        );
        for b in &self.bots {
            let ci = match (b.ci95_low, b.ci95_high) {
                (Some(lo), Some(hi)) => format!("{lo:.3} – {hi:.3}"),
                _ => "–".into(),
            };
            let _ = writeln!(
                out,
                "{:<width$}  {:>9}  {:>10.3}  {:>17}  {:>5.1}%  {:>5.1}%  {:>11.3}  {:>6.2} ({:>4.2})  {:>6}",
                b.label,
                b.hands,
                b.mean_place,
                ci,
                100.0 * b.first_rate,
                100.0 * b.last_rate,
                b.points_per_hand,
                b.rating,
                b.rating_sigma,
                b.faults.total(),
            );
        }
        let faulty: Vec<String> = self
            .bots
            .iter()
            .filter(|b| b.faults.total() > 0)
            .map(|b| {
                let f = b.faults;
                format!(
                    "{}: {} crashed, {} timed out, {} garbage, {} illegal",
                    b.label, f.crashed, f.timed_out, f.garbage, f.illegal
                )
            })
            .collect();
        if !faulty.is_empty() {
            let _ = writeln!(
                out,
                "faults (each decision played by the fallback): {}",
                faulty.join("; ")
            );
        }

        out.push('\n');
        if r.variant.is_suited() && self.games.is_none() {
            // Titles are classes there, and a fresh hand has none.
            let _ = writeln!(
                out,
                "finishing place by title: none (independent hands of the pack's games have no classes; play --games)"
            );
        } else {
            let _ = writeln!(
                out,
                "finishing place by title during play{}:",
                if self.games.is_some() {
                    ""
                } else {
                    " (titles are the random seats)"
                }
            );
            write_matrix(&mut out, &self.seat_places);
        }
        if let Some(m) = &self.mobility {
            out.push('\n');
            let legend: Vec<String> = (0..n)
                .map(|i| {
                    format!(
                        "{} {}",
                        title_short(r.variant, i, n),
                        title_name(r.variant, i, n)
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "class mobility: title next hand (columns) by title this hand (rows)"
            );
            let _ = writeln!(out, "({})", legend.join(", "));
            let short = Matrix {
                columns: (0..n).map(|i| title_short(r.variant, i, n)).collect(),
                ..m.clone()
            };
            write_matrix(&mut out, &short);
        }
        out.push('\n');
        let t = &self.timing;
        let _ = writeln!(
            out,
            "{} hands in {:.2} s on {} thread{}: {:.0} hands/s",
            self.hands,
            t.wall_seconds,
            t.threads,
            if t.threads == 1 { "" } else { "s" },
            t.hands_per_second
        );
        out
    }
}

fn write_matrix(out: &mut String, m: &Matrix) {
    let width = m.rows.iter().map(String::len).max().unwrap_or(0);
    let _ = write!(out, "{:<width$}", "");
    for c in &m.columns {
        let _ = write!(out, " {c:>6}");
    }
    out.push('\n');
    for (name, row) in m.rows.iter().zip(&m.rates) {
        let _ = write!(out, "{name:<width$}");
        for r in row {
            let _ = write!(out, " {:>5.1}%", 100.0 * r);
        }
        out.push('\n');
    }
}
