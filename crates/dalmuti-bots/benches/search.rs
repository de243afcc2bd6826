//! The search bot's speed: iterations per second on one thread at typical
//! five-player positions in the middle of a hand, how many iterations a
//! 50 ms time limit allows, and how long the `expert` level's budget of
//! moves takes (and `hard`'s and `expert`'s in Daifugō, at plays and at the exchange).
//!
//! `cargo bench -p dalmuti-bots --bench search`

#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group};
use dalmuti_bots::{Bot, Level, Opponents, Playout, SearchBot, SearchConfig};
use dalmuti_core::{Action, DealRng, Decision, Hand, Rules, Seat, Seed, Stage, View, Viewer};

/// Iterations per measured decision.
const ITERATIONS: u32 = 1000;

/// A five-player hand dealt from `seed`, past the taxes and at least
/// `plays` decisions of play (every seat playing its worst legal set), at
/// the first decision after that which is `lead` (or a follow, if not) and
/// has at least three legal actions.
fn position(seed: u64, plays: usize, lead: bool) -> Hand {
    let mut hand = Hand::deal(
        Rules::default(),
        5,
        false,
        &mut DealRng::new(Seed::from(seed)),
    );
    let mut done = 0;
    while let Some(seat) = hand.next_to_act() {
        if hand.stage() == Stage::Play {
            let is_lead = hand.decision(seat) == Some(Decision::Lead);
            if done >= plays && is_lead == lead && hand.legal_actions(seat).len() >= 3 {
                return hand;
            }
            done += 1;
        }
        hand.apply(seat, hand.worst_legal(seat).unwrap()).unwrap();
    }
    panic!("no such decision in hand {seed}");
}

fn decide(bot: &mut SearchBot, hand: &Hand) -> Action {
    let view = View::new(hand, Viewer::Seat(hand.turn()));
    let legal = view.legal_actions();
    bot.decide(&view, &legal).unwrap()
}

fn iterations(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    group.measurement_time(Duration::from_secs(10));
    // The default (each other seat's kind inferred, play-outs as modelled,
    // the seat's own by the learned policy), the same with the seat's own
    // by the heuristic, the others all modelled as the heuristic with
    // greedy play-outs (the default before issue 23), and plain ISMCTS
    // (everyone in the tree), whose iterations are cheaper.
    for (model, opponents, playout) in [
        ("infer", Opponents::Infer, Playout::Learned),
        (
            "infer, heuristic play-outs",
            Opponents::Infer,
            Playout::Model,
        ),
        ("model", Opponents::Heuristic, Playout::Greedy),
        ("tree", Opponents::Tree, Playout::Greedy),
    ] {
        for (name, lead) in [("lead", true), ("follow", false)] {
            let hand = position(1, 20, lead);
            let config = SearchConfig {
                iterations: ITERATIONS,
                opponents,
                playout,
                ..SearchConfig::default()
            };
            let mut bot = SearchBot::new(config, 1);
            group.bench_function(
                format!("5 players mid-hand {name}, {ITERATIONS} iterations, 1 thread, {model}"),
                |b| b.iter(|| black_box(decide(&mut bot, &hand))),
            );
        }
    }
    group.finish();
}

/// How many iterations a 50 ms limit allows, on one thread and on two,
/// over twenty mid-hand decisions.
fn iterations_in_50_ms() {
    for threads in [1, 2] {
        let config = SearchConfig {
            time: Some(Duration::from_millis(50)),
            threads,
            ..SearchConfig::default()
        };
        let mut bot = SearchBot::new(config, 1);
        let mut counts = Vec::new();
        for seed in 0..10 {
            for lead in [true, false] {
                decide(&mut bot, &position(seed, 20, lead));
                counts.push(bot.last_search().unwrap().iterations);
            }
        }
        counts.sort_unstable();
        let mean = counts.iter().sum::<u64>() / counts.len() as u64;
        println!(
            "search/50 ms, {threads} thread(s): {mean} iterations on average \
             (least {}, most {}) over {} decisions",
            counts[0],
            counts[counts.len() - 1],
            counts.len()
        );
    }
}

/// How long the `expert` level takes over the same twenty decisions (its
/// budget is of simulated moves, so the time is this machine's).
fn expert_time() {
    let mut bot = Level::Expert.build(1).unwrap();
    let hands = (0..10).flat_map(|seed| [true, false].map(|lead| position(seed, 20, lead)));
    println!(
        "search/expert ({}): {}",
        Level::Expert.spec_text(),
        decision_times(bot.as_mut(), hands)
    );
}

/// How long `bot` takes to decide at each of `hands` (the seat to act's
/// view): "M ms a decision on average (least L, most H) over N decisions".
fn decision_times(bot: &mut dyn Bot, hands: impl Iterator<Item = Hand>) -> String {
    let mut times = Vec::new();
    for hand in hands {
        let view = View::new(&hand, Viewer::Seat(hand.next_to_act().unwrap()));
        let legal = view.legal_actions();
        let started = std::time::Instant::now();
        black_box(bot.decide(&view, &legal).unwrap());
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    format!(
        "{:.1} ms a decision on average (least {:.1}, most {:.1}) over {} decisions",
        times.iter().sum::<f64>() / times.len() as f64,
        times[0],
        times[times.len() - 1],
        times.len()
    )
}

/// A five-player Daifugō hand with the contest's rules dealt from `seed`,
/// with classes from a ranking, so that the rich and poor trade cards.
fn dealt_ranked(seed: u64) -> Hand {
    let ranking: Vec<Seat> = [3, 0, 4, 1, 2].map(Seat::new).to_vec();
    Hand::deal_ranked(
        Rules::daifugo(),
        5,
        Some(&ranking),
        &mut DealRng::new(Seed::from(seed)),
    )
}

/// A five-player Daifugō hand with the contest's rules, past its exchange
/// (classes from a ranking, so the rich and poor trade cards) and at
/// least `plays` decisions of play, every seat playing its weakest, at
/// the first decision after that with at least three legal actions.
fn daifugo_position(seed: u64, plays: usize) -> Hand {
    let mut hand = dealt_ranked(seed);
    let mut done = 0;
    while let Some(seat) = hand.next_to_act() {
        if hand.stage() == Stage::Play {
            if done >= plays && hand.legal_actions(seat).len() >= 3 {
                return hand;
            }
            done += 1;
        }
        hand.apply(seat, hand.worst_legal(seat).unwrap()).unwrap();
    }
    panic!("no such decision in Daifugō hand {seed}");
}

/// How long `hard` and `expert` take a decision in Daifugō, early in the
/// hand and late (the search then weighs its samples by a longer hand so
/// far, see climb/belief.rs), over twenty decisions each.
fn daifugo_time() {
    for level in [Level::Hard, Level::Expert] {
        for plays in [4, 16] {
            let mut bot = level.build(1).unwrap();
            let hands = (0..20).map(|seed| daifugo_position(seed, plays));
            println!(
                "search/Daifugō {} ({}), after {plays} plays: {}",
                level.name(),
                level.spec_text(),
                decision_times(bot.as_mut(), hands)
            );
        }
    }
}

/// A five-player Daifugō hand with the contest's rules at the richest
/// player's exchange: the poor player's best cards paid, the cards to give
/// back to choose (dealt as `daifugo_position` deals).
fn daifugo_exchange(seed: u64) -> Hand {
    let mut hand = dealt_ranked(seed);
    while let Some(seat) = hand.next_to_act() {
        if seat == Seat::new(3) {
            return hand;
        }
        hand.apply(seat, hand.worst_legal(seat).unwrap()).unwrap();
    }
    panic!("no exchange in Daifugō hand {seed}");
}

/// How long `hard` and `expert` take to choose the two cards the richest
/// player gives back (each of up to 24 gifts played out to the hand's end),
/// over twenty deals.
fn daifugo_exchange_time() {
    for level in [Level::Hard, Level::Expert] {
        let mut bot = level.build(1).unwrap();
        let hands = (0..20).map(daifugo_exchange);
        println!(
            "search/Daifugō {} ({}), the richest player's exchange: {}",
            level.name(),
            level.spec_text(),
            decision_times(bot.as_mut(), hands)
        );
    }
}

criterion_group!(benches, iterations);

fn main() {
    expert_time();
    daifugo_time();
    daifugo_exchange_time();
    iterations_in_50_ms();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
