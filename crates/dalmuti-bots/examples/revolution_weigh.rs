//! When is calling a revolution worth it? Play-outs of both answers, by
//! title.
//!
//! `cargo run --release -p dalmuti-bots --example revolution_weigh -- DEALS PLAYERS PLAYOUTS`
//!
//! For every seat dealt both Jesters in the first `DEALS` deals (seeds 0,
//! 1, …), [`SetupSearch::weigh`] plays the hand out `PLAYOUTS` times with
//! the call and as many times keeping quiet (saying ready, or a Dalmuti's
//! gift by the heuristic bot's rule), every seat then playing as the heuristic,
//! on the same sampled deals. Printed by title: how many were offered a
//! revolution, in how many calling finished better, and the mean gain of
//! calling in places (positive: calling finishes earlier) with its 95 %
//! interval over the deals.

use std::collections::BTreeMap;

use dalmuti_bots::{Bot, HeuristicBot, SetupSearch};
use dalmuti_core::{Action, DealRng, Decision, Hand, Rules, Seat, Seed, View, Viewer};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut number = |default: u64| args.next().and_then(|a| a.parse().ok()).unwrap_or(default);
    let (deals, players, playouts) = (number(1000), number(5) as usize, number(400) as u32);
    // By seat: the gains of calling.
    let mut gains: BTreeMap<Seat, Vec<f64>> = BTreeMap::new();
    for d in 0..deals {
        let hand = Hand::deal(
            Rules::default(),
            players,
            false,
            &mut DealRng::new(Seed::from(d)),
        );
        let Some(holder) = hand.revolution_holder() else {
            continue;
        };
        let view = View::new(&hand, Viewer::Seat(holder));
        let legal = view.legal_actions();
        // Keeping quiet: saying ready, or a Dalmuti's gift (the heuristic
        // never calls as a Dalmuti).
        let other = match view.decision() {
            Some(Decision::Tax { .. }) => HeuristicBot::new(0)
                .decide(&view, &legal)
                .expect("the heuristic answers"),
            _ => Action::Ready,
        };
        let places = SetupSearch::new(playouts, d)
            .weigh(&view, &[Action::CallRevolution, other])
            .expect("both are legal");
        gains.entry(holder).or_default().push(places[1] - places[0]);
    }
    println!("{deals} deals, {players} players, {playouts} play-outs each way");
    println!("| seat, title | offered | calling better | mean gain of calling (95 % interval) |");
    println!("|---|---:|---:|---|");
    for (seat, gains) in &gains {
        let n = gains.len() as f64;
        let mean = gains.iter().sum::<f64>() / n;
        let var = gains.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        let half = 1.96 * (var / n).sqrt();
        let better = gains.iter().filter(|&&g| g > 0.0).count();
        println!(
            "| {}, {} | {} | {better} | {mean:+.3} ({:+.3} – {:+.3}) |",
            seat.index(),
            seat.title(players),
            gains.len(),
            mean - half,
            mean + half
        );
    }
}
