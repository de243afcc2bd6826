//! Trains the learned policy's weights (`weights/learned.json`).
//!
//! ```text
//! cargo run --release -p dalmuti-bots --example train_learned -- es learned.json 80 2000 1
//! cargo run --release -p dalmuti-bots --example train_learned -- es learned-3.json 80 2000 3 3
//! ```
//!
//! `es OUT GENERATIONS HANDS SEED [SIZES]`, how the shipped weights were
//! made, evolves them (a cross-entropy method: twenty candidates a
//! generation drawn around the mean, the mean moved to the best five) by
//! the places they win on HANDS hands a generation against a league of the
//! styles, the heuristic and the greedy bot, at tables of SIZES players
//! (comma-separated; by default 3 to 8, five most often). Weights evolved
//! for three players alone were tried and not kept: the search played no
//! better with them (docs/PERFORMANCE.md, "Three players").
//!
//! The other way, which did worse (docs/PERFORMANCE.md, "A learned
//! policy"), is expert iteration's imitation step: choose as the search
//! bot chooses.
//!
//! ```text
//! cargo run --release -p dalmuti-bots --example train_learned -- gen data-1.bin 4000 1
//! cargo run --release -p dalmuti-bots --example train_learned -- fit weights.json data-*.bin
//! ```
//!
//! `gen OUT HANDS SEED [SEARCH]` plays HANDS hands, one seat the search bot
//! (`search:moves=60000`, `hard`, unless SEARCH names other options) and
//! every other seat a bot drawn from the styles, the heuristic, the greedy
//! bot and the learned bot, at tables of 3 to 8; at each of the search's
//! play decisions with a choice it writes every legal action's features
//! and the visits the search gave it. `fit OUT DATA...` fits a softmax of
//! the features to the visit shares (cross-entropy, Adam, full batch),
//! starting from the heuristic's choice, holds one decision in ten out to
//! report how often the policy picks the search's choice, and writes the
//! weights.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};

use dalmuti_bots::learned::{FEATURE_NAMES, LearnedPolicy, features};
use dalmuti_bots::{Bot, BotSpec, HeuristicBot, LearnedBot, SearchBot, SearchConfig, bot_rng};
use dalmuti_core::{DealRng, Decision, Hand, Rules, Seat, Seed, View, Viewer};
use rand::Rng;

const F: usize = FEATURE_NAMES.len();

/// Table sizes, drawn per hand (five most often, as most tables are).
const SIZES: [usize; 7] = [3, 4, 5, 5, 5, 6, 8];

/// Whether `fit` learns the search's most visited action alone (`fit-sharp`)
/// rather than its shares of the visits.
static SHARPEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// One decision: each legal action's features and the search's visits.
struct Decided {
    rows: Vec<([f32; F], u32)>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") if args.len() >= 4 => {
            let search = args.get(4).map_or("moves=60000", String::as_str);
            generate(
                &args[1],
                args[2].parse().expect("HANDS"),
                args[3].parse().expect("SEED"),
                search,
            );
        }
        Some("fit") if args.len() >= 3 => fit(&args[1], &args[2..]),
        Some("fit-sharp") if args.len() >= 3 => {
            SHARPEN.store(true, std::sync::atomic::Ordering::Relaxed);
            fit(&args[1], &args[2..])
        }
        Some("es") if args.len() >= 5 => evolve(
            &args[1],
            args[2].parse().expect("GENERATIONS"),
            args[3].parse().expect("HANDS"),
            args[4].parse().expect("SEED"),
            &args.get(5).map_or(SIZES.to_vec(), |sizes| {
                sizes
                    .split(',')
                    .map(|n| n.parse().expect("SIZES: table sizes, comma-separated"))
                    .collect()
            }),
        ),
        _ => eprintln!(
            "usage: train_learned es OUT GENERATIONS HANDS SEED [SIZES] | gen OUT HANDS SEED [SEARCH] | fit OUT DATA..."
        ),
    }
}

fn generate(out: &str, hands: u64, seed: u64, search: &str) {
    let config: SearchConfig = search.parse().expect("search options");
    let mut search = SearchBot::new(config, seed);
    let mut rng = bot_rng(seed ^ 0x5eed);
    let mut file = BufWriter::new(File::create(out).expect("the output file"));
    let mut decisions = 0u64;
    for h in 0..hands {
        let players = SIZES[rng.random_range(0..SIZES.len())];
        let me = Seat::new(rng.random_range(0..players));
        let mut others: Vec<Box<dyn Bot>> = (0..players)
            .map(|i| {
                // The league and the learned bot itself.
                let pick = rng.random_range(0..=LEAGUE.len());
                let name = LEAGUE.get(pick).copied().unwrap_or("learned");
                let spec: BotSpec = name.parse().unwrap();
                spec.build(seed.wrapping_mul(1000).wrapping_add(i as u64))
                    .unwrap()
            })
            .collect();
        let deal = Seed::from(seed.wrapping_mul(1_000_003).wrapping_add(h));
        let mut hand = Hand::deal(Rules::default(), players, false, &mut DealRng::new(deal));
        while let Some(seat) = hand.next_to_act() {
            let view = View::new(&hand, Viewer::Seat(seat));
            let legal = view.legal_actions();
            let action = if seat == me {
                let action = search.decide(&view, &legal).unwrap();
                let play = matches!(
                    view.decision(),
                    Some(Decision::Lead | Decision::Follow { .. })
                );
                if play && legal.len() > 1 {
                    let visits = &search.last_search().expect("a searched decision").visits;
                    let rows = features(&view, &legal);
                    file.write_all(&(rows.len() as u16).to_le_bytes()).unwrap();
                    for (row, &(_, v)) in rows.iter().zip(visits) {
                        for x in row {
                            file.write_all(&x.to_le_bytes()).unwrap();
                        }
                        file.write_all(&(v as u32).to_le_bytes()).unwrap();
                    }
                    decisions += 1;
                }
                action
            } else {
                others[seat.index()].decide(&view, &legal).unwrap()
            };
            hand.apply(seat, action).unwrap();
        }
        if (h + 1) % 200 == 0 {
            eprintln!("{} hands, {decisions} decisions", h + 1);
        }
    }
    file.flush().unwrap();
    eprintln!("{hands} hands, {decisions} decisions written to {out}");
}

fn read(path: &str, into: &mut Vec<Decided>) {
    let mut bytes = Vec::new();
    BufReader::new(File::open(path).expect("a data file"))
        .read_to_end(&mut bytes)
        .unwrap();
    let mut at = 0;
    let mut take = |n: usize| {
        let slice = &bytes[at..at + n];
        at += n;
        slice.to_vec()
    };
    let total = bytes.len();
    let mut read = 0;
    // A file still being written may end within a decision: that one is
    // left out.
    while read + 2 <= total {
        let n = u16::from_le_bytes(bytes[read..read + 2].try_into().unwrap()) as usize;
        if read + 2 + n * (F * 4 + 4) > total {
            break;
        }
        take(2);
        read += 2 + n * (F * 4 + 4);
        let rows = (0..n)
            .map(|_| {
                let mut row = [0.0; F];
                for x in &mut row {
                    *x = f32::from_le_bytes(take(4).try_into().unwrap());
                }
                (row, u32::from_le_bytes(take(4).try_into().unwrap()))
            })
            .collect::<Vec<_>>();
        let mut rows = rows;
        if SHARPEN.load(std::sync::atomic::Ordering::Relaxed) {
            let best = (0..rows.len()).max_by_key(|&i| rows[i].1).unwrap_or(0);
            for (i, row) in rows.iter_mut().enumerate() {
                row.1 = u32::from(i == best);
            }
        }
        into.push(Decided { rows });
    }
}

fn fit(out: &str, paths: &[String]) {
    let mut data = Vec::new();
    for path in paths {
        read(path, &mut data);
    }
    let favourite = FEATURE_NAMES
        .iter()
        .position(|&n| n == "heuristic_choice")
        .unwrap();
    let (train, held): (Vec<_>, Vec<_>) = data.iter().enumerate().partition(|(i, _)| i % 10 != 0);
    let train: Vec<&Decided> = train.into_iter().map(|(_, d)| d).collect();
    let held: Vec<&Decided> = held.into_iter().map(|(_, d)| d).collect();
    let mut w = [0.0f64; F];
    w[favourite] = 1.0;
    report("the heuristic's choice", &w, &train, &held);
    // Adam, full batch.
    let (mut m, mut v) = ([0.0f64; F], [0.0f64; F]);
    let (rate, b1, b2, l2) = (0.05, 0.9, 0.999, 1e-4);
    for step in 1..=600 {
        let mut grad = [0.0f64; F];
        for d in &train {
            let p = softmax(&w, d);
            let total: f64 = d.rows.iter().map(|r| f64::from(r.1)).sum::<f64>().max(1.0);
            for ((row, visits), p) in d.rows.iter().zip(&p) {
                let err = p - f64::from(*visits) / total;
                for (g, x) in grad.iter_mut().zip(row) {
                    *g += err * f64::from(*x);
                }
            }
        }
        for i in 0..F {
            let g = grad[i] / train.len() as f64 + l2 * w[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step));
            let vh = v[i] / (1.0 - b2.powi(step));
            w[i] -= rate * mh / (vh.sqrt() + 1e-8);
        }
        if step % 100 == 0 {
            report(&format!("step {step}"), &w, &train, &held);
        }
    }
    let weights: [f32; F] = std::array::from_fn(|i| w[i] as f32);
    let note = format!(
        "imitates search:moves=60000's root visits (examples/train_learned.rs), {} decisions",
        data.len()
    );
    std::fs::write(out, LearnedPolicy::new(weights, note).to_json() + "\n").unwrap();
    for (name, w) in FEATURE_NAMES.iter().zip(weights) {
        eprintln!("{name:>32} {w:+.3}");
    }
}

fn softmax(w: &[f64; F], d: &Decided) -> Vec<f64> {
    let scores: Vec<f64> = d
        .rows
        .iter()
        .map(|(row, _)| row.iter().zip(w).map(|(x, w)| f64::from(*x) * w).sum())
        .collect();
    let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let exp: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
    let sum: f64 = exp.iter().sum();
    exp.into_iter().map(|e| e / sum).collect()
}

/// How often the weights' best action is the search's most visited, and
/// the cross-entropy to the visit shares, on the training and held-out
/// decisions.
fn report(label: &str, w: &[f64; F], train: &[&Decided], held: &[&Decided]) {
    let measure = |set: &[&Decided]| {
        let (mut agree, mut loss) = (0usize, 0.0);
        for d in set {
            let p = softmax(w, d);
            let best = (0..p.len()).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap();
            let searched = (0..p.len()).max_by_key(|&i| d.rows[i].1).unwrap();
            agree += usize::from(best == searched);
            let total: f64 = d.rows.iter().map(|r| f64::from(r.1)).sum::<f64>().max(1.0);
            loss -= d
                .rows
                .iter()
                .zip(&p)
                .map(|(r, p)| f64::from(r.1) / total * p.max(1e-12).ln())
                .sum::<f64>();
        }
        (agree as f64 / set.len() as f64, loss / set.len() as f64)
    };
    let (ta, tl) = measure(train);
    let (ha, hl) = measure(held);
    eprintln!(
        "{label}: agrees with the search {:.1} % (held out {:.1} %), cross-entropy {tl:.3} ({hl:.3})",
        100.0 * ta,
        100.0 * ha
    );
}

// ----- evolution -----

/// The opponents the policy is evolved against (and, with the learned bot
/// itself, those the search plays in `gen`): the styles, the heuristic as
/// it is and as it was, and the greedy bot.
const LEAGUE: [&str; 8] = [
    "heuristic",
    "shedder",
    "hoarder",
    "spender",
    "breaker",
    "noisy",
    "greedy",
    "patient",
];

/// Candidates per generation, and how many of the best make the next.
const POPULATION: usize = 20;
const ELITE: usize = 5;

/// One hand to play a candidate on: the deal, the table size, the
/// candidate's seat and the others' bots.
struct Trial {
    deal: u64,
    players: usize,
    me: usize,
    others: Vec<&'static str>,
}

fn trials(n: usize, seed: u64, sizes: &[usize], rng: &mut impl Rng) -> Vec<Trial> {
    (0..n)
        .map(|i| {
            let players = sizes[rng.random_range(0..sizes.len())];
            Trial {
                deal: seed.wrapping_mul(7_919).wrapping_add(i as u64),
                players,
                me: rng.random_range(0..players),
                others: (0..players)
                    .map(|_| LEAGUE[rng.random_range(0..LEAGUE.len())])
                    .collect(),
            }
        })
        .collect()
}

/// The mean reward (1 first out, 0 last) of the bot `make` builds, over
/// `trials`.
fn fitness(trials: &[Trial], make: &(dyn Fn(u64) -> Box<dyn Bot> + Sync)) -> f64 {
    let mut total = 0.0;
    for t in trials {
        let mut bots: Vec<Box<dyn Bot>> = t
            .others
            .iter()
            .enumerate()
            .map(|(i, name)| {
                if i == t.me {
                    make(t.deal)
                } else {
                    name.parse::<BotSpec>()
                        .unwrap()
                        .build(t.deal + i as u64)
                        .unwrap()
                }
            })
            .collect();
        let mut hand = Hand::deal(
            Rules::default(),
            t.players,
            false,
            &mut DealRng::new(Seed::from(t.deal)),
        );
        while let Some(seat) = hand.next_to_act() {
            let view = View::new(&hand, Viewer::Seat(seat));
            let legal = view.legal_actions();
            let action = bots[seat.index()].decide(&view, &legal).unwrap();
            hand.apply(seat, action).unwrap();
        }
        let place = hand
            .finish_order()
            .iter()
            .position(|s| s.index() == t.me)
            .unwrap();
        total += (t.players - 1 - place) as f64 / (t.players - 1) as f64;
    }
    total / trials.len() as f64
}

fn policy_of(w: &[f64; F]) -> LearnedPolicy {
    LearnedPolicy::new(std::array::from_fn(|i| w[i] as f32), "")
}

/// Each candidate's fitness, on two threads.
fn fitnesses(candidates: &[[f64; F]], trials: &[Trial]) -> Vec<f64> {
    let half = candidates.len().div_ceil(2);
    std::thread::scope(|scope| {
        let handles: Vec<_> = candidates
            .chunks(half)
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|w| {
                            let policy = policy_of(w);
                            fitness(trials, &|seed| {
                                Box::new(LearnedBot::with_policy(policy.clone(), seed))
                            })
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

/// The cross-entropy method (a simple evolution strategy) over the
/// weights, from the heuristic's choice: each generation plays every
/// candidate on the same new hands against the league, and the best
/// fifth's mean and spread make the next generation's.
fn evolve(out: &str, generations: usize, hands: usize, seed: u64, sizes: &[usize]) {
    let favourite = FEATURE_NAMES
        .iter()
        .position(|&n| n == "heuristic_choice")
        .unwrap();
    let mut rng = bot_rng(seed);
    let mut mean = [0.0f64; F];
    mean[favourite] = 2.0;
    let mut spread = [0.5f64; F];
    for generation in 1..=generations {
        let trials = trials(hands, seed * 1_000 + generation as u64, sizes, &mut rng);
        let candidates: Vec<[f64; F]> = (0..POPULATION)
            .map(|_| {
                std::array::from_fn(|i| {
                    let normal: f64 = (0..12).map(|_| rng.random::<f64>()).sum::<f64>() - 6.0;
                    mean[i] + spread[i] * normal
                })
            })
            .collect();
        let scores = fitnesses(&candidates, &trials);
        let mut order: Vec<usize> = (0..POPULATION).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let elite: Vec<&[f64; F]> = order[..ELITE].iter().map(|&i| &candidates[i]).collect();
        for i in 0..F {
            let m = elite.iter().map(|w| w[i]).sum::<f64>() / ELITE as f64;
            let var = elite.iter().map(|w| (w[i] - m).powi(2)).sum::<f64>() / ELITE as f64;
            mean[i] = m;
            spread[i] = (0.7 * var.sqrt() + 0.3 * spread[i]).max(0.05);
        }
        let heuristic = fitness(&trials, &|seed| Box::new(HeuristicBot::new(seed)));
        eprintln!(
            "generation {generation}: best {:.4}, median {:.4}, the heuristic on the same hands {heuristic:.4}",
            scores[order[0]],
            scores[order[POPULATION / 2]]
        );
    }
    let check = trials(4 * hands, seed * 1_000 + 999, sizes, &mut rng);
    let policy = policy_of(&mean);
    let learned = fitness(&check, &|seed| {
        Box::new(LearnedBot::with_policy(policy.clone(), seed))
    });
    let heuristic = fitness(&check, &|seed| Box::new(HeuristicBot::new(seed)));
    eprintln!(
        "on {} new hands: the evolved mean {learned:.4}, the heuristic {heuristic:.4}",
        check.len()
    );
    let sizes: Vec<String> = sizes.iter().map(usize::to_string).collect();
    let sizes = sizes.join(",");
    let note = format!(
        "evolved against the styles, the heuristic and the greedy bot at tables of {sizes} players (examples/train_learned.rs es {out} {generations} {hands} {seed} {sizes})"
    );
    let weights = std::array::from_fn(|i| mean[i] as f32);
    std::fs::write(out, LearnedPolicy::new(weights, note).to_json() + "\n").unwrap();
    for (name, w) in FEATURE_NAMES.iter().zip(weights) {
        eprintln!("{name:>32} {w:+.3}");
    }
}
