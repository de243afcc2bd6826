//! The engine benchmark's loop as a plain program, for profilers that want a
//! fixed amount of work (`valgrind --tool=cachegrind`, `perf record`):
//!
//! ```text
//! cargo build --profile bench -p dalmuti-core --example hand_loop
//! target/release/examples/hand_loop 100000 5        # Dalmuti, 5 players
//! target/release/examples/hand_loop 100000 5 cs     # Corporate Shuffle
//! target/release/examples/hand_loop 100000 5 daifugo  # Daifugō with the exchange
//! target/release/examples/hand_loop 100000 5 president
//! ```

use std::time::Instant;

use dalmuti_core::{DealRng, Hand, Rules, Seat, Seed, Variant};

fn main() {
    let mut args = std::env::args().skip(1);
    let hands: u64 = args.next().map_or(100_000, |a| a.parse().expect("hands"));
    let players: usize = args.next().map_or(5, |a| a.parse().expect("players"));
    let rules = match args.next().as_deref() {
        Some("cs") => Rules {
            variant: Variant::CorporateShuffle,
            ..Rules::default()
        },
        Some("daifugo") => Rules::daifugo(),
        Some("president") => Rules::president(),
        _ => Rules::default(),
    };
    // President and Daifugō: a game after the first, so with the exchange.
    let ranking: Vec<Seat> = Seat::all(players).rev().collect();
    let mut rng = DealRng::new(Seed::from(1));
    let start = Instant::now();
    let mut check = 0usize;
    for _ in 0..hands {
        let mut hand = if rules.variant.is_suited() {
            Hand::deal_ranked(rules, players, Some(&ranking), &mut rng)
        } else {
            Hand::deal(rules, players, false, &mut rng)
        };
        while let Some(seat) = hand.next_to_act() {
            let action = hand.worst_legal(seat).expect("a seat to act can act");
            hand.apply(seat, action).expect("legal");
        }
        check = check.wrapping_mul(31) + hand.finish_order()[players - 1].index();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{hands} hands of {players} in {secs:.3} s: {:.0} hands/s, {:.1} ns/hand (check {check})",
        hands as f64 / secs,
        secs * 1e9 / hands as f64
    );
}
