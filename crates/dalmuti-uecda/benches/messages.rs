//! What a UECda match costs without its sockets: every message of a game
//! made by the referee (the tables dealt, the exchange, each turn's five
//! hand tables, the answer, the table and the end flag, encoded as the
//! 480-byte tables of protocol 20070), every seat answering with the
//! greedy bot's play; and the same game followed from its tables by all
//! five players' followers (a client's cost per game on top of its bot).
//!
//! `cargo bench -p dalmuti-uecda --bench messages`

#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dalmuti_uecda::{
    Cells, Deal, EndFlag, Follower, MatchConfig, PLAYERS, PlayerNo, RawTable, Referee, StateTable,
};

/// Every table of one game, by player, as the server would send them; the
/// bytes written so the work is not optimised away.
struct Game {
    dealt: [RawTable; PLAYERS],
    turns: Vec<([RawTable; PLAYERS], RawTable)>,
}

fn the_answer(referee: &Referee, player: PlayerNo) -> Cells {
    let hand = referee.game().hand();
    let seat = referee
        .game()
        .seat_of(referee.game().player_named(referee.name(player)).unwrap())
        .unwrap();
    hand.worst_legal(seat)
        .map_or(Cells::EMPTY, |a| Cells::of_action(&a))
}

/// Referees one game (the second of a match, so with the exchange).
fn referee_game(referee: &mut Referee, keep: bool) -> (usize, Option<Game>) {
    let dealt = referee.start_game(Deal::Shuffled).unwrap();
    let mut bytes = dealt
        .iter()
        .map(|t| t.to_bytes()[0] as usize)
        .sum::<usize>();
    for (p, _) in referee.to_exchange() {
        let cells = the_answer(referee, p);
        referee.exchange(p, &cells).unwrap();
    }
    let mut turns = Vec::new();
    loop {
        let tables = referee.turn_tables();
        for t in &tables {
            bytes += t.to_bytes()[480 - 1] as usize;
        }
        let player = referee.turn().unwrap();
        let cells = the_answer(referee, player);
        let outcome = referee.play(player, &cells).unwrap();
        bytes += outcome.table.to_bytes()[0] as usize;
        if keep {
            turns.push((tables, outcome.table));
        }
        if outcome.end != EndFlag::Continue {
            break;
        }
    }
    (bytes, keep.then_some(Game { dealt, turns }))
}

fn config(games: u32) -> MatchConfig {
    MatchConfig {
        games,
        class_cycle: 100,
        seed: 9.into(),
    }
}

fn names() -> [String; PLAYERS] {
    ["a", "b", "c", "d", "e"].map(String::from)
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("uecda");
    group.throughput(Throughput::Elements(1));
    // A long match: the games measured all have classes and the exchange.
    let mut referee = Referee::new(names(), config(1_000_000)).unwrap();
    referee_game(&mut referee, false);
    group.bench_function("referee/game", |b| {
        b.iter(|| black_box(referee_game(&mut referee, false).0))
    });
    // One game's tables, followed by the five players.
    let mut referee = Referee::new(names(), config(2)).unwrap();
    referee_game(&mut referee, false);
    let (_, game) = referee_game(&mut referee, true);
    let game = game.unwrap();
    let states = |t: &RawTable| StateTable::from_table(t).unwrap();
    group.bench_function("follow/game, five players", |b| {
        b.iter(|| {
            let mut shadows = 0usize;
            for p in PlayerNo::ALL {
                let mut f = Follower::new(p);
                f.dealt(&states(&game.dealt[p.index()])).unwrap();
                for (hands, table) in &game.turns {
                    let hand = states(&hands[p.index()]);
                    f.hand(&hand).unwrap();
                    if hand.my_turn {
                        // What a decision costs before the bot: the game
                        // replayed from the deal.
                        shadows += f.shadow().unwrap().events().len();
                    }
                    f.table(&states(table)).unwrap();
                }
            }
            black_box(shadows)
        })
    });
    group.finish();
}

criterion_group!(uecda, benches);
criterion_main!(uecda);
