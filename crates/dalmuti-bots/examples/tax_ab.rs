//! Does searching the tax gift beat the heuristic's rule of thumb?
//!
//! `cargo run --release -p dalmuti-bots --example tax_ab -- DEALS PLAYOUTS`
//!
//! Every seat is the heuristic bot (which is deterministic), on the same
//! deals twice: once as it is, once with one Dalmuti choosing its tax gift
//! by [`TaxSearch`]. Only the gift differs, so the difference of that
//! seat's place between the two games is the gift's doing: its mean and
//! 95 % interval over every Dalmuti seat of every deal are printed (negative
//! is better: an earlier place).

use dalmuti_bots::{Bot, HeuristicBot, TaxSearch};
use dalmuti_core::{DealRng, Decision, Hand, Rules, Seat, Seed, View, Viewer};

fn play(mut hand: Hand, searcher: Option<(Seat, &mut TaxSearch)>) -> Hand {
    let mut heuristic = HeuristicBot::new(0);
    let (who, mut search) = match searcher {
        Some((seat, search)) => (Some(seat), Some(search)),
        None => (None, None),
    };
    while let Some(seat) = hand.next_to_act() {
        let view = View::new(&hand, Viewer::Seat(seat));
        let legal = view.legal_actions();
        let searched = match (&mut search, view.decision()) {
            (Some(search), Some(Decision::Tax { .. })) if who == Some(seat) => {
                search.tax_gift(&view, &legal)
            }
            _ => None,
        };
        let action = match searched {
            Some(action) => action,
            None => heuristic
                .decide(&view, &legal)
                .expect("the heuristic answers"),
        };
        hand.apply(seat, action).expect("legal");
    }
    hand
}

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(500);
    let playouts: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(48);
    let players = 5;
    let mut diffs = Vec::new();
    let mut changed = 0;
    for d in 0..deals {
        let dealt = Hand::deal(
            Rules::default(),
            players,
            false,
            &mut DealRng::new(Seed::from(d)),
        );
        let base = play(dealt.clone(), None);
        for seat in [Seat::new(0), Seat::new(1)] {
            let mut search = TaxSearch::new(playouts, d);
            let tried = play(dealt.clone(), Some((seat, &mut search)));
            let diff = tried.place(seat).unwrap() as f64 - base.place(seat).unwrap() as f64;
            changed += usize::from(tried.events() != base.events());
            diffs.push(diff);
        }
    }
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    println!(
        "{deals} deals, {players} players, {playouts} play-outs a gift: {} Dalmuti hands, {changed} played differently; \
         place change with the searched gift {mean:+.4} ({:+.4} – {:+.4})",
        diffs.len(),
        mean - half,
        mean + half
    );
}
