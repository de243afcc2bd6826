//! What contest programs at a table cost the server (`dalmuti serve
//! --uecda-port`): after every change to the table's game the actor clones
//! it and `ContestSeats::follow` sends each program its tables. Here a
//! 100-game match of the contest's Daifugō, played once by the weakest plays and
//! replayed action by action, is followed as a table with two programs
//! follows it (their sockets drained by threads), beside the same replay
//! with no program (the game's own cost, which a table pays anyway).
//!
//! `cargo bench -p dalmuti-uecda --bench programs`

#![allow(missing_docs)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use dalmuti_core::{Action, Game, Seat, Seed, Viewer};
use dalmuti_uecda::{ContestSeats, Hello, MatchConfig, PLAYERS, Program, Protocol};

const GAMES: u32 = 100;
const NAMES: [&str; PLAYERS] = ["a", "b", "c", "d", "e"];

/// One change to the table's game.
#[derive(Clone, Copy)]
enum Step {
    Deal,
    Act(Seat, Action),
}

fn fresh() -> Game {
    let rules = MatchConfig {
        games: GAMES,
        class_cycle: 100,
        seed: Seed::from(0u64),
    }
    .rules();
    Game::drawn(rules, NAMES.map(String::from).to_vec(), Seed::from(5u64)).unwrap()
}

/// The match played by the engine's cheapest choices, as steps.
fn steps() -> Vec<Step> {
    let mut game = fresh();
    let mut steps = Vec::new();
    while !game.is_over() {
        if game.is_between_hands() {
            game.next_hand().unwrap();
            steps.push(Step::Deal);
            continue;
        }
        let seat = Seat::all(PLAYERS)
            .find(|&s| game.view(Viewer::Seat(s)).decision().is_some())
            .unwrap();
        // The weakest play, passing only when none is legal (a lead may
        // pass under the contest's rules: passing always would end every
        // game in twenty passes).
        let legal = game.view(Viewer::Seat(seat)).legal_actions();
        let action = legal
            .iter()
            .copied()
            .find(|a| *a != Action::Pass)
            .unwrap_or(legal[0]);
        game.apply(seat, action).unwrap();
        steps.push(Step::Act(seat, action));
    }
    steps
}

fn replay(game: &mut Game, step: Step) {
    match step {
        Step::Deal => game.next_hand().unwrap(),
        Step::Act(seat, action) => game.apply(seat, action).unwrap(),
    }
}

/// Two programs connected and greeted; their ends read everything until
/// the connection closes.
fn programs() -> Vec<(String, Program)> {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    ["b", "d"]
        .iter()
        .map(|name| {
            std::thread::spawn(move || {
                let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
                s.write_all(&Hello::new(Protocol::Tables, "p").to_table().to_bytes())
                    .unwrap();
                let mut sink = [0u8; 1 << 16];
                while matches!(s.read(&mut sink), Ok(n) if n > 0) {}
            });
            let (stream, addr) = listener.accept().unwrap();
            let program = Program::greet(stream, addr, Duration::from_secs(5)).unwrap();
            (name.to_string(), program)
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let steps = steps();
    let mut group = c.benchmark_group("uecda/programs");
    group.sample_size(10);
    group.bench_function("a 100-game match, no program", |b| {
        b.iter(|| {
            let mut game = fresh();
            for &step in &steps {
                replay(&mut game, step);
            }
            game.total(game.players().next().unwrap())
        });
    });
    group.bench_function(
        "a 100-game match, two programs told after every change",
        |b| {
            b.iter_batched(
                programs,
                |programs| {
                    let mut game = fresh();
                    let mut seats =
                        ContestSeats::new(&game, programs, Duration::from_secs(5)).unwrap();
                    for &step in &steps {
                        replay(&mut game, step);
                        // As the table's actor does: a copy of the game to the
                        // blocking task that tells the programs.
                        let told = game.clone();
                        seats.follow(&told);
                    }
                    assert!(seats.take_lost().is_empty());
                },
                criterion::BatchSize::PerIteration,
            );
        },
    );
    group.finish();
}

criterion_group!(programs_group, benches);
criterion_main!(programs_group);
