//! Full hands through the checked engine API: shuffle, deal, taxes and every
//! play, each seat choosing its worst legal set.
//!
//! `cargo bench -p dalmuti-core --bench hands`

#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dalmuti_core::{DealRng, Hand, Rules, Seed};
use std::hint::black_box;

/// Plays one hand to the end; returns the Greater Peon's seat so the work
/// cannot be optimised away.
fn play_hand(players: usize, rng: &mut DealRng) -> usize {
    let mut hand = Hand::deal(Rules::default(), players, false, rng);
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
    for players in [5, 3, 16] {
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("{players} players, worst legal set"), |b| {
            let mut rng = DealRng::new(Seed::from(1));
            b.iter(|| black_box(play_hand(players, &mut rng)))
        });
    }
    group.finish();
}

criterion_group!(benches, hands);
criterion_main!(benches);
