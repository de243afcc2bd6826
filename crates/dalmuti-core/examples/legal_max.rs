//! The most legal actions a lead of President or Daifugō has over many
//! deals (MAX_ACTIONS must hold them): `cargo run --release -p
//! dalmuti-core --example legal_max -- DEALS`.
use std::ops::ControlFlow;

use dalmuti_core::{Climbing, DealRng, Hand, Rules, Seat, Seed};

fn main() {
    let deals: u64 = std::env::args()
        .nth(1)
        .map_or(2000, |a| a.parse().expect("deals"));
    for (jokers, players) in [(1u8, 3usize), (1, 4), (2, 3), (2, 4), (2, 5)] {
        let rules = Rules {
            climbing: Some(Climbing {
                jokers,
                joker_beyond_ends: true,
                ..Climbing::UECDA
            }),
            ..Rules::daifugo()
        };
        let mut most = 0;
        for seed in 0..deals {
            let hand = Hand::deal(rules, players, true, &mut DealRng::new(Seed::from(seed)));
            for seat in Seat::all(players) {
                // Every play the first leader could lead with its cards.
                let mut n = 0;
                if hand.next_to_act() == Some(seat) {
                    hand.for_each_legal(seat, |_| {
                        n += 1;
                        ControlFlow::Continue(())
                    });
                }
                most = most.max(n);
            }
        }
        println!("jokers {jokers}, players {players}: at most {most} leads");
    }
}
