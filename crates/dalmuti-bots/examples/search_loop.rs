//! A fixed amount of search, for instruction counts and CPU time that do
//! not depend on the machine's load, and a checksum of the choices made.
//!
//! ```text
//! cargo build --profile bench -p dalmuti-bots --example search_loop
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/search_loop 10 model
//! perf stat -e task-clock target/release/examples/search_loop 40 tree
//! ```
//!
//! Arguments: how many positions (default 20) and which opponents
//! (`model`, the default search, or `tree`, plain ISMCTS). The positions are
//! the benchmark's kind: five-player hands dealt from seeds 0, 1, … played
//! by every seat's worst legal set, at the first lead (then the first
//! follow) with at least three legal actions after 20 decisions of play.
//! Each position is searched by a bot seeded with its number, 1000
//! iterations on one thread; the chosen actions are printed with a
//! checksum of them all, which must not change when only the speed does.

#![allow(missing_docs)]

use std::hash::{DefaultHasher, Hash, Hasher};

use dalmuti_bots::{Bot, Opponents, SearchBot, SearchConfig};
use dalmuti_core::{Decision, Hand, Rules, Seed, Stage, View, Viewer};

/// Iterations per decision, as in the benchmark.
const ITERATIONS: u32 = 1000;

/// The hand dealt from `seed` at the first decision after `plays` decisions
/// of play that is a lead (or a follow) with at least three legal actions.
fn position(seed: u64, plays: usize, lead: bool) -> Option<Hand> {
    let mut hand = Hand::deal(
        Rules::default(),
        5,
        false,
        &mut dalmuti_core::DealRng::new(Seed::from(seed)),
    );
    let mut done = 0;
    while let Some(seat) = hand.next_to_act() {
        if hand.stage() == Stage::Play {
            let is_lead = hand.decision(seat) == Some(Decision::Lead);
            if done >= plays && is_lead == lead && hand.legal_actions(seat).len() >= 3 {
                return Some(hand);
            }
            done += 1;
        }
        hand.apply(seat, hand.worst_legal(seat)?).ok()?;
    }
    None
}

fn main() {
    let mut args = std::env::args().skip(1);
    let positions: u64 = args.next().map_or(20, |a| a.parse().expect("a count"));
    let opponents = match args.next().as_deref() {
        None | Some("model") => Opponents::Heuristic,
        Some("tree") => Opponents::Tree,
        Some(other) => panic!("opponents: model or tree, not {other}"),
    };
    let mut checksum = DefaultHasher::new();
    let mut iterations = 0;
    let mut decided = 0;
    for i in 0..positions {
        let hand = position(i / 2, 20, i % 2 == 0).or_else(|| position(i / 2, 0, i % 2 == 0));
        let Some(hand) = hand else { continue };
        let config = SearchConfig {
            iterations: ITERATIONS,
            opponents,
            ..SearchConfig::default()
        };
        let mut bot = SearchBot::new(config, i);
        let view = View::new(&hand, Viewer::Seat(hand.turn()));
        let legal = view.legal_actions();
        let action = bot.decide(&view, &legal).expect("the search decides");
        iterations += bot.last_search().map_or(0, |s| s.iterations);
        decided += 1;
        println!("{i}: {action:?}");
        format!("{action:?}").hash(&mut checksum);
    }
    println!(
        "{decided} decisions, {iterations} iterations, checksum {:016x}",
        checksum.finish()
    );
}
