//! Full hands through the checked engine API: shuffle, deal, taxes and every
//! play, each seat choosing its worst legal set; Dalmuti and Corporate
//! Shuffle side by side, and Daifugō (the UECda contest's rules, with the
//! exchange) and President at five players.
//!
//! `cargo bench -p dalmuti-core --bench hands`

#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dalmuti_core::{DealRng, Hand, Rules, Seat, Seed, Variant};
use std::hint::black_box;

/// Plays one hand to the end; returns the Greater Peon's seat so the work
/// cannot be optimised away.
fn play_hand(rules: Rules, players: usize, rng: &mut DealRng) -> usize {
    let mut hand = Hand::deal(rules, players, false, rng);
    while let Some(seat) = hand.next_to_act() {
        let action = hand
            .worst_legal(seat)
            .expect("a seat to act has a legal action");
        hand.apply(seat, action).expect("legal");
    }
    hand.finish_order()[players - 1].index()
}

/// A game of Daifugō or President after the first: the last finishing order
/// gives the classes, so the exchange is played too. Each decision answered
/// by the worst legal action (the greedy shedder).
fn play_ranked(rules: Rules, ranking: &[Seat], rng: &mut DealRng) -> usize {
    let players = ranking.len();
    let mut hand = Hand::deal_ranked(rules, players, Some(ranking), rng);
    while let Some(seat) = hand.next_to_act() {
        let action = hand.worst_legal(seat).expect("a legal action");
        hand.apply(seat, action).expect("legal");
    }
    hand.finish_order()[players - 1].index()
}

/// The same game, every decision listing all its legal actions first:
/// returns how many lists were made, to count generations per second.
fn play_listing(rules: Rules, ranking: &[Seat], rng: &mut DealRng) -> usize {
    let mut hand = Hand::deal_ranked(rules, ranking.len(), Some(ranking), rng);
    let mut lists = 0;
    while let Some(seat) = hand.next_to_act() {
        let legal = hand.legal_actions(seat);
        lists += 1;
        hand.apply(seat, legal[0]).expect("legal");
    }
    lists
}

fn suited(c: &mut Criterion) {
    let mut group = c.benchmark_group("suited");
    let ranking: Vec<Seat> = [2, 0, 4, 1, 3].map(Seat::new).to_vec();
    for (rules, game) in [
        (Rules::daifugo(), "Daifugō"),
        (Rules::president(), "President"),
    ] {
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("{game}, 5 players, worst legal set"), |b| {
            let mut rng = DealRng::new(Seed::from(1));
            b.iter(|| black_box(play_ranked(rules, &ranking, &mut rng)))
        });
    }
    // Legal-move generation: the lists made in one hand, counted.
    let mut rng = DealRng::new(Seed::from(2));
    let lists: usize = (0..1000)
        .map(|_| play_listing(Rules::daifugo(), &ranking, &mut rng))
        .sum();
    let per_hand = lists as u64 / 1000;
    group.throughput(Throughput::Elements(per_hand));
    group.bench_function(
        format!("Daifugō, 5 players, every legal list ({per_hand} per hand)"),
        |b| {
            let mut rng = DealRng::new(Seed::from(1));
            b.iter(|| black_box(play_listing(Rules::daifugo(), &ranking, &mut rng)))
        },
    );
    group.finish();
}

fn hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("hands");
    let corporate = Rules {
        variant: Variant::CorporateShuffle,
        ..Rules::default()
    };
    let tables = [5, 3, 16]
        .map(|n| (Rules::default(), n, ""))
        .into_iter()
        .chain([5, 3, 8].map(|n| (corporate, n, "Corporate Shuffle, ")));
    for (rules, players, game) in tables {
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("{game}{players} players, worst legal set"), |b| {
            let mut rng = DealRng::new(Seed::from(1));
            b.iter(|| black_box(play_hand(rules, players, &mut rng)))
        });
    }
    group.finish();
}

criterion_group!(benches, hands, suited);
criterion_main!(benches);
