//! How many actions a hand of the engine benchmark takes, on average: the
//! work the benchmark's time is spread over.
//!
//! `cargo run --release -p dalmuti-core --example hand_actions -- [HANDS] [PLAYERS]`

use dalmuti_core::{Action, DealRng, Hand, Rules, Seed};

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let hands = args.next().and_then(Result::ok).unwrap_or(100_000);
    let players = args.next().and_then(Result::ok).unwrap_or(5);
    let mut rng = DealRng::new(Seed::from(1));
    let (mut leads, mut follows, mut passes, mut setup) = (0u64, 0u64, 0u64, 0u64);
    for _ in 0..hands {
        // The benchmark's hand: every seat plays its worst legal set.
        let mut hand = Hand::deal(Rules::default(), players, false, &mut rng);
        while let Some(seat) = hand.next_to_act() {
            let action = hand.worst_legal(seat).expect("a seat to act can act");
            match action {
                Action::Play(_) if hand.top().is_none() => leads += 1,
                Action::Play(_) => follows += 1,
                Action::Pass => passes += 1,
                _ => setup += 1,
            }
            hand.apply(seat, action)
                .expect("the worst legal action is legal");
        }
    }
    let per_hand = |n: u64| n as f64 / hands.max(1) as f64;
    println!(
        "{players} players, {hands} hands: per hand {:.1} leads, {:.1} follows, {:.1} passes, {:.1} setup actions, {:.1} in all",
        per_hand(leads),
        per_hand(follows),
        per_hand(passes),
        per_hand(setup),
        per_hand(leads + follows + passes + setup),
    );
}
