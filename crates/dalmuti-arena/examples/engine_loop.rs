//! The engine benchmark's loop (`cargo bench -p dalmuti-core --bench hands`)
//! as a plain program in the release profile, for comparing `dalmuti sim`
//! with the engine on the same machine at the same moment:
//!
//! ```text
//! cargo run --release -p dalmuti-arena --example engine_loop -- 1000000
//! ```
//!
//! One thread; every seat plays its worst legal set through `Hand`.

use std::time::Instant;

use dalmuti_core::{DealRng, Hand, Rules, Seed};

fn main() {
    let hands: u64 = std::env::args()
        .nth(1)
        .map_or(1_000_000, |a| a.parse().expect("a number of hands"));
    let mut rng = DealRng::new(Seed::from(1));
    let start = Instant::now();
    let mut check = 0usize;
    for _ in 0..hands {
        let mut hand = Hand::deal(Rules::default(), 5, true, &mut rng);
        while let Some(seat) = hand.next_to_act() {
            let action = hand.worst_legal(seat).expect("a seat to act can act");
            hand.apply(seat, action).expect("legal");
        }
        check += hand.finish_order()[4].index();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{hands} hands in {secs:.2} s on 1 thread: {:.0} hands/s (check {check})",
        hands as f64 / secs
    );
}
