//! Nonsense from either side: random tables from players never stop a
//! match, and random or contradictory tables from a server are refused
//! with a reason by the follower, never a panic.

use dalmuti_core::Cards;
use dalmuti_uecda::{
    Cells, Deal, EndFlag, FollowError, Follower, MatchConfig, PlayerNo, Referee, StateTable,
    Submitted,
};

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        (self.next() >> 33) % n
    }
}

/// A table of a few random cells, mostly card-like values.
fn random_cells(rng: &mut Rng) -> Cells {
    let mut cells = Cells::EMPTY;
    for _ in 0..rng.below(6) {
        let value = match rng.below(10) {
            0 => rng.next() as i32,
            1..=3 => 2,
            _ => 1,
        };
        cells.set(rng.below(5) as usize, rng.below(15) as usize, value);
    }
    cells
}

#[test]
fn random_tables_from_players_never_stop_a_match() {
    let names = ["a", "b", "c", "d", "e"].map(String::from);
    let config = MatchConfig {
        games: 30,
        class_cycle: 10,
        seed: 5.into(),
    };
    let mut referee = Referee::new(names, config).expect("a match");
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let (mut refused, mut taken) = (0, 0);
    loop {
        referee.start_game(Deal::Shuffled).expect("dealt");
        for (p, owed) in referee.to_exchange() {
            let outcome = referee.exchange(p, &random_cells(&mut rng)).expect("taken");
            // Whatever the table, the rich player gives back what it owes.
            assert_eq!(outcome.given.len(), u32::from(owed));
        }
        let end = loop {
            let player = referee.turn().expect("a turn");
            // Now and then a play the player could make, so games end.
            let cells = if rng.below(3) == 0 {
                let view = referee.view(player);
                let legal = view.legal_actions();
                Cells::of_action(&legal[rng.below(legal.len() as u64) as usize])
            } else {
                random_cells(&mut rng)
            };
            let outcome = referee.play(player, &cells).expect("a turn");
            match (cells.read(), &outcome.refused) {
                (Submitted::Unreadable(_), None) => panic!("unreadable cells taken: {cells:?}"),
                (_, Some(_)) => refused += 1,
                _ => taken += 1,
            }
            if outcome.end != EndFlag::Continue {
                break outcome.end;
            }
        };
        if end == EndFlag::MatchOver {
            break;
        }
    }
    assert!(
        refused > 100 && taken > 100,
        "{refused} refused, {taken} taken"
    );
    let points: u32 = PlayerNo::ALL.iter().map(|&p| referee.points(p)).sum();
    assert_eq!(points, 30 * 15);
    assert_eq!(referee.record().hands.len(), 30);
}

#[test]
fn a_follower_refuses_nonsense_with_a_reason() {
    let me = PlayerNo::new(1).expect("a player");
    let mut follower = Follower::new(me);
    let hand = StateTable::default();
    assert_eq!(follower.hand(&hand), Err(FollowError::NoGame));
    // A table dealt whose cards are no hand.
    let mut dealt = StateTable::default();
    dealt.cards.set(0, 0, 1);
    assert!(matches!(
        follower.dealt(&dealt),
        Err(FollowError::BadTable(_))
    ));
    // A player whose count fell by two, with one card on the table.
    let mut dealt = StateTable {
        counts: [11, 11, 11, 10, 10],
        ..StateTable::default()
    };
    dealt.cards = Cells::of_hand(&"3S 4S 5S 6S 7S 8S 9S 10S JS QS KS".parse().unwrap());
    follower.dealt(&dealt).expect("dealt");
    let mut table = StateTable {
        counts: [9, 11, 11, 10, 10],
        turn: dalmuti_uecda::Turn::Player(PlayerNo::ALL[0]),
        ..StateTable::default()
    };
    table.cards.set(1, 3, 1);
    let err = follower.table(&table).expect_err("a contradiction");
    assert!(err.to_string().contains("put down 2 cards"), "{err}");
}

#[test]
fn random_server_tables_never_panic_the_follower() {
    let mut rng = Rng(0xfeed_beef_1234_5678);
    let bot_spec: dalmuti_bots::BotSpec = "greedy".parse().unwrap();
    let mut bot = bot_spec.build(1).unwrap();
    for _ in 0..2_000 {
        let mut follower = Follower::new(PlayerNo::ALL[rng.below(5) as usize]);
        for step in 0..8 {
            // In range cell by cell (what `StateTable::from_table` lets
            // through), but of no game.
            let mut seats = PlayerNo::ALL;
            for i in (1..5).rev() {
                seats.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let mut state = StateTable {
                cards: random_cells(&mut rng),
                exchange: rng.below(5) as i8 - 2,
                my_turn: rng.below(2) == 0,
                turn: dalmuti_uecda::Turn::Player(PlayerNo::ALL[rng.below(5) as usize]),
                table_clear: rng.below(2) == 0,
                seats,
                ..StateTable::default()
            };
            for p in 0..5 {
                state.counts[p] = rng.below(14) as u8;
                state.classes[p] = rng.below(5) as u8;
            }
            if rng.below(4) == 0 {
                state.cards = Cells::of_hand(&Cards::from_pack(rng.next() & ((1 << 52) - 1), 0));
            }
            assert_eq!(StateTable::from_table(&state.to_table()), Ok(state));
            let _ = match step {
                0 => follower.dealt(&state),
                s if s % 2 == 1 => follower.hand(&state),
                _ => follower.table(&state),
            };
            let _ = follower.decide(&mut *bot);
        }
    }
}
