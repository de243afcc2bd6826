//! Do setup choices weighed by play-outs beat the heuristic's rules of
//! thumb?
//!
//! `cargo run --release -p dalmuti-bots --example setup_ab -- DEALS PLAYERS [exchange] [only=revolution|only=exchange] [from=N]`
//!
//! Every seat is the heuristic bot (which is deterministic), on the same
//! deals: once as it is, then once for each seat that has a setup choice
//! to make (a Dalmuti's tax gift, a revolution to call or not, the
//! merchant exchange to offer or answer), that seat making its setup
//! choices by [`SetupSearch`]. Only that seat's setup choices differ, so
//! the difference of its place between the two games is their doing. The
//! mean and 95 % interval of that difference are printed for each kind of
//! choice (negative is better: an earlier place), with how many hands went
//! differently. `exchange` turns the optional merchant exchange on (it
//! needs six players or more); `only=revolution` tries only the seats
//! dealt both Jesters and `only=exchange` only the two Merchants of an
//! exchange, so that many deals are quick; `from=N` starts at deal N
//! instead of 0. Two threads.

use std::collections::BTreeMap;

use dalmuti_bots::{Bot, HeuristicBot, SetupSearch};
use dalmuti_core::{DealRng, Decision, Hand, Rules, Seat, Seed, Stage, Title, View, Viewer};

/// Play-outs per candidate, as the search bot uses.
const DEALS_PER_CANDIDATE: u32 = 128;

/// Plays `hand` to its end, every seat the heuristic but `searcher`, whose
/// setup choices are searched. Returns the hand and whether the searcher
/// answered a merchant exchange.
fn play(mut hand: Hand, searcher: Option<(Seat, &mut SetupSearch)>) -> (Hand, bool) {
    let mut heuristic = HeuristicBot::new(0);
    let (who, mut search) = match searcher {
        Some((seat, search)) => (Some(seat), Some(search)),
        None => (None, None),
    };
    let mut answered = false;
    while let Some(seat) = hand.next_to_act() {
        let view = View::new(&hand, Viewer::Seat(seat));
        let legal = view.legal_actions();
        let searched = match &mut search {
            Some(search) if who == Some(seat) && hand.stage() == Stage::Setup => {
                answered |= matches!(view.decision(), Some(Decision::ExchangeAnswer { .. }));
                search.choose(&view, &legal)
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
    (hand, answered)
}

/// The kind of setup choice `seat` faces first in `hand`, if it is one
/// worth searching.
fn kind(hand: &Hand, seat: Seat) -> Option<String> {
    let view = View::new(hand, Viewer::Seat(seat));
    let title = match view.title(seat) {
        Title::GreaterDalmuti => "Greater Dalmuti",
        Title::LesserDalmuti => "Lesser Dalmuti",
        Title::Merchant { .. } => "Merchant",
        Title::LesserPeon => "Lesser Peon",
        Title::GreaterPeon => "Greater Peon",
    };
    if view.revolution_offer().is_some() {
        return Some(format!("revolution offered to the {title}"));
    }
    match view.decision()? {
        Decision::Tax { .. } => Some(format!("tax gift of the {title}")),
        Decision::ExchangeOffer => Some("merchant exchange offer".into()),
        _ => None,
    }
}

/// The finishing place of the player dealt the cards of `seat`: after a
/// greater revolution everyone sat in the opposite chair.
fn place(hand: &Hand, seat: Seat) -> f64 {
    let reversed = hand.revolution().is_some_and(|r| r.greater);
    let seat = if reversed {
        seat.opposite(hand.players())
    } else {
        seat
    };
    hand.place(seat).expect("the hand is over") as f64
}

/// Mean and half the 95 % interval.
fn mean_and_half(diffs: &[f64]) -> (f64, f64) {
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// Which seats to try.
#[derive(Clone, Copy, PartialEq)]
enum Only {
    All,
    Revolutions,
    Exchanges,
}

/// Each tried seat's kind of choice, place change, and whether the hand
/// went otherwise, in deal `d`.
fn try_deal(rules: Rules, players: usize, only: Only, d: u64) -> Vec<(String, f64, bool)> {
    let dealt = Hand::deal(rules, players, false, &mut DealRng::new(Seed::from(d)));
    let (base, _) = play(dealt.clone(), None);
    // The Merchant the heuristic chose for an exchange answers it.
    let partner = base.merchant_trade().map(|t| t.partner);
    let mut tried_seats = Vec::new();
    for seat in Seat::all(players) {
        let first = kind(&dealt, seat);
        let wanted = match only {
            Only::All => first.is_some() || Some(seat) == partner,
            Only::Revolutions => dealt.revolution_holder() == Some(seat),
            Only::Exchanges => {
                Some(seat) == partner || first.as_deref() == Some("merchant exchange offer")
            }
        };
        if !wanted {
            continue;
        }
        let mut search = SetupSearch::new(DEALS_PER_CANDIDATE, d);
        let (tried, answered) = play(dealt.clone(), Some((seat, &mut search)));
        let label = match first {
            Some(label) => label,
            None if answered => "merchant exchange answer".into(),
            None => continue,
        };
        let diff = place(&tried, seat) - place(&base, seat);
        tried_seats.push((label, diff, tried.events() != base.events()));
    }
    tried_seats
}

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(500);
    let players: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let words: Vec<String> = args.collect();
    let has = |word: &str| words.iter().any(|w| w == word);
    let rules = Rules {
        merchant_exchange: has("exchange"),
        ..Rules::default()
    };
    let only = if has("only=revolution") {
        Only::Revolutions
    } else if has("only=exchange") {
        Only::Exchanges
    } else {
        Only::All
    };
    // `from=N`: deals N, N + 1, … instead of 0, 1, …, to add to a run.
    let from: u64 = words
        .iter()
        .find_map(|w| w.strip_prefix("from=")?.parse().ok())
        .unwrap_or(0);
    // Two threads, each every other deal; the results are the same as one.
    let threads = 2;
    let tried: Vec<(String, f64, bool)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (from + t..from + deals)
                        .step_by(threads as usize)
                        .flat_map(|d| try_deal(rules, players, only, d))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker panicked"))
            .collect()
    });
    // Per kind: the place differences, and how many hands went otherwise.
    let mut kinds: BTreeMap<String, (Vec<f64>, usize)> = BTreeMap::new();
    for (label, diff, changed) in tried {
        let entry = kinds.entry(label).or_default();
        entry.0.push(diff);
        entry.1 += usize::from(changed);
    }
    let exchange = if rules.merchant_exchange {
        ", merchant exchange"
    } else {
        ""
    };
    let only = match only {
        Only::All => "",
        Only::Revolutions => ", the seats dealt both Jesters only",
        Only::Exchanges => ", the Merchants of an exchange only",
    };
    println!(
        "{deals} deals, {players} players{exchange}{only}, {DEALS_PER_CANDIDATE} play-outs a candidate"
    );
    println!("| setup choice | hands | played otherwise | place change (95 % interval) |");
    println!("|---|---:|---:|---|");
    for (label, (diffs, changed)) in &kinds {
        let (mean, half) = mean_and_half(diffs);
        println!(
            "| {label} | {} | {changed} | {mean:+.4} ({:+.4} – {:+.4}) |",
            diffs.len(),
            mean - half,
            mean + half
        );
    }
}
