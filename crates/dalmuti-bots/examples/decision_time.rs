//! How long a bot takes per decision in real hands: the bot in one seat
//! (a different one each hand) against others, every decision with more
//! than one legal action timed (play and setup alike).
//!
//! ```text
//! cargo run --release -p dalmuti-bots --example decision_time -- expert 40 heuristic 5 dalmuti
//! ```
//!
//! Arguments: the bot (a bot spec, default `expert`), how many hands
//! (default 40), the other seats' bot (default `heuristic`), the players
//! (default 5) and the game (`dalmuti` or `corporate-shuffle`). Prints
//! the mean, median, 90th percentile and longest decision, in
//! milliseconds, on this machine as it is loaded now.

#![allow(missing_docs)]

use std::time::Instant;

use dalmuti_bots::{Bot, BotSpec};
use dalmuti_core::{DealRng, Hand, Rules, Seed, Variant, View, Viewer};

fn main() {
    let mut args = std::env::args().skip(1);
    let spec: BotSpec = args
        .next()
        .unwrap_or_else(|| "expert".into())
        .parse()
        .expect("a bot spec");
    let hands: u64 = args.next().map_or(40, |a| a.parse().expect("a count"));
    let others: BotSpec = args
        .next()
        .unwrap_or_else(|| "heuristic".into())
        .parse()
        .expect("a bot spec");
    let players: usize = args.next().map_or(5, |a| a.parse().expect("a table size"));
    let rules = Rules {
        variant: args
            .next()
            .map_or(Variant::Dalmuti, |a| a.parse().expect("a game")),
        ..Rules::default()
    };
    let mut times = Vec::new();
    for h in 0..hands {
        let mut hand = Hand::deal(rules, players, false, &mut DealRng::new(Seed::from(h)));
        let me = dalmuti_core::Seat::new(h as usize % players);
        let mut bots: Vec<Box<dyn Bot>> = (0..players)
            .map(|i| {
                let s = if i == me.index() { &spec } else { &others };
                s.build(h * 10 + i as u64).expect("a built-in bot")
            })
            .collect();
        while let Some(seat) = hand.next_to_act() {
            let view = View::new(&hand, Viewer::Seat(seat));
            let legal = view.legal_actions();
            let started = Instant::now();
            let action = bots[seat.index()].decide(&view, &legal).expect("an answer");
            if seat == me && legal.len() > 1 {
                times.push(started.elapsed().as_secs_f64() * 1000.0);
            }
            hand.apply(seat, action).expect("a legal action");
        }
    }
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let at = |q: f64| times[((n - 1) as f64 * q).round() as usize];
    println!(
        "{spec}, {players} players: {n} decisions in {hands} hands; ms per decision: mean {:.1}, median {:.1}, 90% {:.1}, longest {:.1}",
        times.iter().sum::<f64>() / n as f64,
        at(0.5),
        at(0.9),
        times[n - 1],
    );
}
