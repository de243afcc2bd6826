//! A UECda client that plays badly on purpose: at its turn it sends a
//! random table of one of many kinds (a pass, cards it holds in a column or
//! a row, cards it does not hold, a lone Joker anywhere, stray values,
//! cards beyond the ends), and in the exchange a right or wrong gift. It
//! is how the fixtures of refused plays and replaced gifts were recorded
//! from the reference server (`tests/fixtures/README.md`).
//!
//! With `gifts` it plays well (our `normal` bot, following the game as
//! `dalmuti uecda join` does) and misbehaves only in the exchange, so that
//! it is rich often enough for its gifts to be replaced.
//!
//! ```text
//! cargo run -p dalmuti-uecda --example rogue -- HOST:PORT SEED [plays|gifts]
//! ```

use std::io::{Read, Write};
use std::net::TcpStream;

use dalmuti_uecda::{
    Cells, EndFlag, Follower, Hello, INT_BYTES, PlayerNo, Protocol, RawTable, StateTable,
    TABLE_BYTES,
};

/// xorshift64*: enough randomness for a test client, no dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut s = TcpStream::connect(&args[0]).expect("connect");
    s.set_nodelay(true).expect("nodelay");
    let mut rng = Rng(args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1) | 1);
    s.write_all(&Hello::new(Protocol::Tables, "rogue").to_table().to_bytes())
        .expect("hello");
    let me = PlayerNo::new(read_int(&mut s) as usize).expect("a player number");
    let good_plays = args.get(2).is_some_and(|m| m == "gifts");
    let mut follower = Follower::new(me);
    let mut bot = "normal"
        .parse::<dalmuti_bots::BotSpec>()
        .expect("a bot")
        .build(1)
        .expect("built");
    loop {
        let dealt = read_state(&mut s);
        let _ = follower.dealt(&dealt);
        if dealt.exchange > 0 {
            let gift = if good_plays && rng.below(4) == 0 {
                follower.decide(&mut *bot).expect("a gift").to_table()
            } else {
                gift(&dealt, &mut rng)
            };
            s.write_all(&gift.to_bytes()).expect("write");
        }
        loop {
            let hand = read_state(&mut s);
            let _ = follower.hand(&hand);
            if hand.my_turn {
                let play = if good_plays {
                    follower.decide(&mut *bot).expect("a play").to_table()
                } else {
                    play(&hand, &mut rng)
                };
                s.write_all(&play.to_bytes()).expect("write");
                read_int(&mut s);
            }
            let table = read_state(&mut s);
            let _ = follower.table(&table);
            match EndFlag::from_number(read_int(&mut s)) {
                EndFlag::Continue => {}
                EndFlag::GameOver => break,
                EndFlag::MatchOver => return,
            }
        }
    }
}

/// The cells of a hand table that hold a card, Joker's `[4][1]` included.
fn held(state: &StateTable) -> Vec<(usize, usize)> {
    let mut cells = Vec::new();
    for r in 0..5 {
        for c in 0..15 {
            if state.cards.get(r, c) != 0 {
                cells.push((r, c));
            }
        }
    }
    cells
}

fn gift(dealt: &StateTable, rng: &mut Rng) -> RawTable {
    let held = held(dealt);
    let mut cells = Cells::EMPTY;
    let count = match rng.below(6) {
        0 => 0,
        1 => dealt.exchange as usize + 1,
        _ => dealt.exchange as usize,
    };
    for _ in 0..count {
        let (r, c) = held[rng.below(held.len())];
        cells.set(r, c, dealt.cards.get(r, c));
    }
    match rng.below(8) {
        0 => cells.set(rng.below(4), 1 + rng.below(13), 1), // maybe not held
        1 => cells.set(rng.below(5), rng.below(15), 7),
        _ => {}
    }
    cells.to_table()
}

fn play(hand: &StateTable, rng: &mut Rng) -> RawTable {
    let held = held(hand);
    let joker = hand.cards.get(4, 1) == 2;
    let naturals: Vec<(usize, usize)> = held.iter().copied().filter(|&(r, _)| r < 4).collect();
    let mut cells = Cells::EMPTY;
    let mut put = |r: usize, c: usize, v: i32| cells.set(r, c, v);
    match rng.below(12) {
        0 => {}
        1 | 2 => {
            if let Some(&(r, c)) = naturals.get(rng.below(naturals.len())) {
                put(r, c, 1);
            }
        }
        3 | 4 => {
            // All or some of a column it holds, maybe a Joker with them.
            if let Some(&(_, c)) = naturals.get(rng.below(naturals.len())) {
                for &(r, k) in &naturals {
                    if k == c && rng.below(4) > 0 {
                        put(r, c, 1);
                    }
                }
                if joker && rng.below(2) == 0 {
                    put(rng.below(5), c, 2);
                }
            }
        }
        5 | 6 => {
            // A run along a row from a card it holds, a Joker in a gap.
            if let Some(&(r, c)) = naturals.get(rng.below(naturals.len())) {
                let len = 3 + rng.below(3);
                let mut jokers = usize::from(joker);
                for k in c..(c + len).min(15) {
                    if hand.cards.get(r, k) == 1 {
                        put(r, k, 1);
                    } else if jokers > 0 {
                        put(r, k, 2);
                        jokers -= 1;
                    }
                }
            }
        }
        7 => put(rng.below(4), 1 + rng.below(13), 1), // perhaps not held
        // A lone Joker anywhere (but at the 3♠'s cell, which the reference
        // server may take as the 3♠ itself: RULES.md, DF24).
        8 => put(rng.below(4), 2 + rng.below(13), 2),
        9 => {
            put(rng.below(5), rng.below(15), [3, 7, 100][rng.below(3)]);
            if let Some(&(r, c)) = naturals.first() {
                put(r, c, 1);
            }
        }
        10 => put(rng.below(5), [0, 14][rng.below(2)], 1),
        _ => {
            for _ in 0..2 {
                if let Some(&(r, c)) = naturals.get(rng.below(naturals.len())) {
                    put(r, c, 1);
                }
            }
        }
    }
    cells.to_table()
}

fn read_state(s: &mut TcpStream) -> StateTable {
    let mut buf = [0u8; TABLE_BYTES];
    s.read_exact(&mut buf).expect("read a table");
    StateTable::from_table(&RawTable::from_bytes(&buf)).expect("a state table")
}

fn read_int(s: &mut TcpStream) -> i32 {
    let mut buf = [0u8; INT_BYTES];
    s.read_exact(&mut buf).expect("read an integer");
    i32::from_be_bytes(buf)
}
