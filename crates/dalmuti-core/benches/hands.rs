//! Full hands through the checked engine API: shuffle, deal, taxes and every
//! play, each seat choosing its worst legal set; Dalmuti and Corporate
//! Shuffle side by side.
//!
//! `cargo bench -p dalmuti-core --bench hands`

#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dalmuti_core::{DealRng, Hand, Rules, Seed, Variant};
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

criterion_group!(benches, hands);
criterion_main!(benches);
