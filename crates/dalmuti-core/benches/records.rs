//! Reading records and wire actions: `dalmuti check`'s whole work on long
//! games (the document read, then every hand replayed through the engine)
//! and the document read alone, for Dalmuti and Daifugō; one action read
//! from a client's text, as the server reads each `act`.
//!
//! `cargo bench -p dalmuti-core --bench records`

#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dalmuti_core::record::{Checked, Record, check};
use dalmuti_core::wire::Wire;
use dalmuti_core::{Action, Game, Rules, Scoring, Seed};
use std::hint::black_box;

/// The record of `hands` hands at `players`, every seat playing its worst
/// legal action.
fn played(rules: Rules, players: usize, hands: usize) -> String {
    let names = (0..players).map(|i| format!("Player {i}")).collect();
    let mut game = Game::new(rules, names, Seed::from(7)).expect("a table");
    for h in 0..hands {
        if h > 0 {
            game.next_hand().expect("another hand");
        }
        while let Some(seat) = game.hand().next_to_act() {
            let action = game.hand().worst_legal(seat).expect("a legal action");
            game.apply(seat, action).expect("legal");
        }
    }
    Record::from_game(&game).to_json_string()
}

fn records(c: &mut Criterion) {
    let dalmuti = Rules {
        merchant_exchange: true,
        scoring: Scoring::Philanthropic,
        ..Rules::default()
    };
    let mut group = c.benchmark_group("record");
    for (name, text) in [
        ("dalmuti, 7 players, 10 hands", played(dalmuti, 7, 10)),
        (
            "daifugo, 5 players, 10 games",
            played(Rules::daifugo(), 5, 10),
        ),
    ] {
        assert!(matches!(check(&text), Checked::Valid(_)), "{name}");
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(format!("check {name}"), |b| {
            b.iter(|| black_box(check(black_box(&text))))
        });
    }
    group.finish();
}

fn actions(c: &mut Criterion) {
    let mut group = c.benchmark_group("wire");
    for (name, text) in [
        ("play", r#"{"play":"9 9 J"}"#),
        ("pass", r#""pass""#),
        ("offer", r#"{"offer_exchange":{"partner":3,"card":"7"}}"#),
        ("junk", r#"{"play":"6 6","target":[1,2,{"x":null}]}"#),
    ] {
        group.bench_function(format!("read {name}"), |b| {
            b.iter(|| black_box(serde_json::from_str::<Wire<Action>>(black_box(text)).is_ok()))
        });
    }
    group.finish();
}

criterion_group!(benches, records, actions);
criterion_main!(benches);
