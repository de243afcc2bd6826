//! Daifugō as the UECda contest's reference server plays it, and its
//! house rules: the contest manual's worked examples (`rule.html`,
//! `qanda.html`, `protocol.html` of `tndhm_devkit_c-20180826`) and the fine
//! points its server decides (`daihu.c`, `external.c`).

use dalmuti_core::{
    Action, Cards, Climbing, DealRng, Decision, Effect, Event, Hand, Illegal, Lock, Rules, Scoring,
    Seat, Seed, Set, Stage,
};

fn set(text: &str) -> Set {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn cards(text: &str) -> Cards {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(text: &str) -> Action {
    Action::Play(set(text))
}

/// A deal for five seats: the given cards, the rest of the pack and the
/// Joker shared out so that every seat gets its share (11, 11, 11, 10, 10
/// from seat 0), with the given cards first.
fn deal(rules: Rules, given: [&str; 5]) -> Hand {
    deal_ranked(rules, given, None)
}

fn deal_ranked(rules: Rules, given: [&str; 5], ranking: Option<&[Seat]>) -> Hand {
    let mut hands: Vec<Cards> = given.iter().map(|t| cards(t)).collect();
    let deck = dalmuti_core::Deck::for_table(&rules, 5);
    let mut rest = deck.cards();
    for h in &hands {
        assert!(rest.remove_all(h), "{h} twice");
    }
    let shares = [11, 11, 11, 10, 10];
    let mut left = rest.iter().collect::<Vec<_>>().into_iter();
    for (h, &share) in hands.iter_mut().zip(&shares) {
        while h.len() < share {
            h.add(left.next().expect("cards left"), 1);
        }
    }
    Hand::from_deal_ranked(rules, 5, ranking, &hands, 0).expect("a deal")
}

fn apply(hand: &mut Hand, seat: usize, action: Action) {
    hand.apply(Seat::new(seat), action)
        .unwrap_or_else(|e| panic!("{e}"));
}

fn refused(hand: &mut Hand, seat: usize, action: Action) -> Illegal {
    let before = hand.clone();
    let err = hand.apply(Seat::new(seat), action).expect_err("refused");
    assert_eq!(hand, &before, "a refused action changes nothing");
    err.reason
}

#[test]
fn whoever_holds_the_three_of_diamonds_leads_and_need_not_play_it() {
    // rule.html § 4.2.2, qanda.html: the 3♦'s holder leads, any cards.
    let mut hand = deal(Rules::daifugo(), ["4S", "5S", "3D 9H", "6S", "7S"]);
    assert_eq!(hand.stage(), Stage::Play);
    assert_eq!(hand.turn(), Seat::new(2));
    apply(&mut hand, 2, play("9H"));
    assert_eq!(hand.held(Seat::new(2)).count("3D".parse().unwrap()), 1);
}

#[test]
fn a_sequence_is_beaten_only_by_a_higher_one_of_as_many_cards() {
    // rule.html § 4.2.7: on 5-6-7 of spades, 8-9-10 or higher, any suit
    // without a lock; qanda.html: on 4-5-6, 7-8-9 or higher.
    let mut hand = deal(
        Rules::daifugo(),
        ["3D 5S 6S 7S", "7H 8H 9H", "10C JC QC", "4S", ""],
    );
    apply(&mut hand, 0, play("5S 6S 7S"));
    assert!(matches!(
        refused(&mut hand, 1, play("7H 8H 9H")),
        Illegal::DoesNotTop { .. }
    ));
    apply(&mut hand, 1, Action::Pass);
    // 10-J-Q of clubs tops 5-6-7 of spades: all above the 7.
    apply(&mut hand, 2, play("10C JC QC"));
    assert!(matches!(
        refused(&mut hand, 3, play("4S")),
        Illegal::WrongSize { .. }
    ));
}

#[test]
fn the_manuals_nine_ten_jack_with_a_joker_and_the_revolution_of_fives() {
    // protocol.html § 13.4.1: 9♠ 10♠ and a Joker as J♠; 5♠ 5♥ 5♦ and a
    // Joker as 5♣, four of a kind: a revolution.
    let mut hand = deal(Rules::daifugo(), ["3D 9S 10S JK", "5S 5H 5D", "", "", ""]);
    let run = set("9S 10S JK");
    assert_eq!(run.places(), (7, 9));
    assert_eq!(run.jokers_stand_for().to_string(), "JS");
    apply(&mut hand, 0, Action::Play(run));
    // Seat 1 holds the Joker elsewhere: refuse a Joker it does not hold.
    let four = set("5S 5H 5D JK as 5C");
    assert_eq!(four.size(), 4);
    let mut fresh = deal(Rules::daifugo(), ["3D 9S", "5S 5H 5D JK", "", "", ""]);
    apply(&mut fresh, 0, play("3D"));
    // Seat 1 cannot put four on one.
    assert!(matches!(
        refused(&mut fresh, 1, Action::Play(four)),
        Illegal::WrongSize { .. }
    ));
    let mut lead = deal(Rules::daifugo(), ["3D 9S", "5S 5H 5D JK", "", "", ""]);
    apply(&mut lead, 0, Action::Pass); // the leader may pass (daihu.c)
    apply(&mut lead, 1, Action::Play(four));
    assert!(lead.reversed());
    assert!(lead.events().contains(&Event::Effect(Effect::Revolution {
        seat: Seat::new(1),
        reversed: true
    })));
}

#[test]
fn under_a_revolution_lower_is_higher_and_a_lone_joker_is_still_above_all() {
    let mut hand = deal(
        Rules::daifugo(),
        ["3D 6S 6H 6D 6C", "4S", "5H JK", "KS", "2S"],
    );
    apply(&mut hand, 0, play("6S 6H 6D 6C"));
    assert!(hand.reversed());
    // Nobody can top four 6s; everyone passes, the leader too, and the
    // table clears to the 6s' player (rule.html § 4.2.4).
    for seat in [1, 2, 3, 4, 0] {
        apply(&mut hand, seat, Action::Pass);
    }
    assert_eq!(hand.top(), None);
    assert_eq!(hand.turn(), Seat::new(0));
    apply(&mut hand, 0, play("3D"));
    // 3 is the highest natural card now: 4♠ does not top it.
    assert!(matches!(
        refused(&mut hand, 1, play("4S")),
        Illegal::DoesNotTop { .. }
    ));
    apply(&mut hand, 1, Action::Pass);
    apply(&mut hand, 2, Action::Play(Set::LONE_JOKER));
}

#[test]
fn the_turn_comes_back_to_the_last_player_who_may_play_on_their_own_cards() {
    // rule.html § 4.2.4: the table clears only when everyone has passed.
    let mut hand = deal(Rules::daifugo(), ["3D 4H 6H", "", "", "", ""]);
    apply(&mut hand, 0, play("4H"));
    for seat in 1..5 {
        apply(&mut hand, seat, Action::Pass);
    }
    assert_eq!(hand.turn(), Seat::new(0));
    assert_eq!(
        hand.decision(Seat::new(0)),
        Some(Decision::Follow {
            top: set("4H"),
            by: Seat::new(0)
        })
    );
    // 4♥ then 6♥: two hearts in a row lock hearts (rule.html § 4.4.2).
    apply(&mut hand, 0, play("6H"));
    assert_eq!(hand.lock(), (0b0010, false));
    // The others passed, so they are not asked again until it clears.
    assert_eq!(hand.turn(), Seat::new(0));
    apply(&mut hand, 0, Action::Pass);
    assert_eq!(hand.top(), None);
    assert_eq!(hand.lock(), (0, false));
}

#[test]
fn the_lock_binds_the_same_suits_and_a_pair_needs_both() {
    // rule.html § 4.4.2: 7♥ 7♠ then 9♥ 9♠ lock; 9♥ 9♣ would not.
    let mut hand = deal(
        Rules::daifugo(),
        ["3D 7S 7H", "9S 9H", "10H 10D", "JS JH", "QH QC"],
    );
    apply(&mut hand, 0, play("7S 7H"));
    apply(&mut hand, 1, play("9S 9H"));
    assert_eq!(hand.lock(), (0b0011, false));
    assert!(matches!(
        refused(&mut hand, 2, play("10H 10D")),
        Illegal::Locked { suits: true, .. }
    ));
    apply(&mut hand, 2, Action::Pass);
    apply(&mut hand, 3, play("JS JH"));
    let mut free = deal(Rules::daifugo(), ["3D 7S 7H", "9H 9C", "10H 10D", "", ""]);
    apply(&mut free, 0, play("7S 7H"));
    apply(&mut free, 1, play("9H 9C"));
    assert_eq!(free.lock(), (0, false));
    apply(&mut free, 2, play("10H 10D"));
}

#[test]
fn a_joker_counts_as_the_suit_it_stands_for_under_the_lock() {
    let mut hand = deal(Rules::daifugo(), ["3D 7S 7H", "9H JK", "", "", ""]);
    apply(&mut hand, 0, play("7S 7H"));
    // 9♥ and the Joker as 9♠: spades and hearts, as on the table: locked.
    apply(&mut hand, 1, play("9H JK as 9S"));
    assert_eq!(hand.lock(), (0b0011, false));
    let mut other = deal(Rules::daifugo(), ["3D 7S 7H", "9H JK", "", "", ""]);
    apply(&mut other, 0, play("7S 7H"));
    apply(&mut other, 1, play("9H JK as 9D"));
    assert_eq!(other.lock(), (0, false));
}

#[test]
fn an_eight_cuts_a_joker_standing_for_an_eight_in_a_sequence_too() {
    // rule.html § 4.4.1; daihu.c checks the places a sequence covers.
    let mut hand = deal(Rules::daifugo(), ["3D 6S 7S JK", "", "", "", ""]);
    apply(&mut hand, 0, play("6S 7S JK"));
    assert_eq!(hand.top(), None, "cleared");
    assert_eq!(hand.turn(), Seat::new(0), "its player leads");
    assert!(
        hand.events()
            .contains(&Event::Effect(Effect::EightCut { seat: Seat::new(0) }))
    );
    // A lone Joker is no 8, wherever it stands (rule.html § 4.4.1).
    let mut lone = deal(Rules::daifugo(), ["3D JK", "", "", "", ""]);
    apply(&mut lone, 0, Action::Play(Set::LONE_JOKER));
    assert!(lone.top().is_some());
}

#[test]
fn the_three_of_spades_beats_a_lone_joker_under_a_lock_and_clears() {
    // rule.html § 4.3.2, qanda.html.
    let mut hand = deal(Rules::daifugo(), ["3D 4H", "5H", "JK", "3S", "KD"]);
    apply(&mut hand, 0, play("4H"));
    apply(&mut hand, 1, play("5H"));
    assert_eq!(hand.lock(), (0b0010, false));
    // A lone Joker may go on a locked single, and ends the lock.
    apply(&mut hand, 2, Action::Play(Set::LONE_JOKER));
    assert_eq!(hand.lock(), (0, false));
    assert!(matches!(
        refused(&mut hand, 3, play("KD")),
        Illegal::NotHeld(_)
    ));
    apply(&mut hand, 3, play("3S"));
    assert_eq!(hand.top(), None);
    assert_eq!(hand.turn(), Seat::new(3));
    assert!(
        hand.events()
            .contains(&Event::Effect(Effect::SpadeThree { seat: Seat::new(3) }))
    );
}

#[test]
fn a_player_who_passed_cannot_answer_the_joker_with_the_three_of_spades() {
    // qanda.html: the 3♠'s holder must not have passed.
    let mut hand = deal(Rules::daifugo(), ["3D 4H", "3S", "JK", "", ""]);
    apply(&mut hand, 0, play("4H"));
    apply(&mut hand, 1, Action::Pass);
    apply(&mut hand, 2, Action::Play(Set::LONE_JOKER));
    assert_ne!(hand.turn(), Seat::new(1));
    for seat in [3, 4, 0, 2] {
        assert_eq!(hand.turn(), Seat::new(seat));
        apply(&mut hand, seat, Action::Pass);
    }
    assert_eq!(hand.top(), None);
    assert_eq!(hand.turn(), Seat::new(2), "the Joker's player leads");
}

#[test]
fn twenty_passes_in_a_row_end_the_game_at_random_places() {
    // rule.html § 4.5.1, daihu.c `number_renzoku_pass>=20`.
    let mut hand = deal(Rules::daifugo(), ["3D", "", "", "", ""]);
    let mut passes = 0;
    while hand.stage() == Stage::Play {
        let seat = hand.turn();
        apply(&mut hand, seat.index(), Action::Pass);
        passes += 1;
    }
    assert_eq!(passes, 20);
    assert_eq!(hand.finish_order().len(), 5);
    assert!(
        hand.events()
            .iter()
            .any(|e| matches!(e, Event::Effect(Effect::Stalemate { .. })))
    );
}

#[test]
fn the_exchange_takes_the_poors_best_cards_and_the_rich_give_any_back() {
    // rule.html § 4.2.9: the 大貧民 gives the best two, ties by spades,
    // hearts, diamonds, clubs; the 貧民 one; the rich give back any.
    let ranking: Vec<Seat> = [0, 1, 2, 3, 4].map(Seat::new).to_vec();
    let mut hand = deal_ranked(
        Rules::daifugo(),
        [
            "3D",
            "",
            "",
            "2H 4C 5C 6C 7C 8C 9C 10C JC QC",
            "3S 4S 5S 6S 7S 8S 9S 10S AS AH",
        ],
        Some(&ranking),
    );
    assert_eq!(hand.stage(), Stage::Setup);
    let aces = cards("AS AH");
    assert!(hand.held(Seat::new(0)).contains(&aces));
    assert!(!hand.held(Seat::new(4)).contains(&cards("AS")));
    assert!(
        hand.held(Seat::new(1)).contains(&cards("2H")),
        "the 貧民's best"
    );
    assert_eq!(
        hand.decision(Seat::new(4)),
        None,
        "the poor have nothing to decide"
    );
    assert!(matches!(
        refused(&mut hand, 0, Action::GiveTax(cards("AS"))),
        Illegal::TaxCount {
            needed: 2,
            given: 1
        }
    ));
    assert!(matches!(
        refused(&mut hand, 0, Action::GiveTax(cards("KC QC"))),
        Illegal::NotHeld(_)
    ));
    apply(&mut hand, 0, Action::GiveTax(aces));
    assert!(
        hand.held(Seat::new(4)).contains(&aces),
        "any cards back, the same ones too"
    );
    assert_eq!(hand.stage(), Stage::Setup);
    assert_eq!(hand.strongest(Seat::new(1), 1).to_string(), "2H");
    apply(&mut hand, 1, Action::GiveTax(cards("2H")));
    assert_eq!(hand.stage(), Stage::Play);
    assert_eq!(hand.turn(), Seat::new(0), "the 3♦ stayed with seat 0");
    assert!(
        hand.events()
            .iter()
            .any(|e| matches!(e, Event::TaxPaid(p) if p.tribute == aces && p.gift == aces))
    );
}

#[test]
fn random_games_end_with_every_card_accounted_for() {
    for preset in [
        Climbing::UECDA,
        Climbing::LOCAL,
        Climbing::LOCAL_ALL,
        Climbing::PRESIDENT,
    ] {
        for seed in 0..200u64 {
            let players = 3 + (seed as usize % 6);
            let rules = Rules {
                climbing: Some(Climbing {
                    jokers: (seed % 3) as u8,
                    ..preset
                }),
                ..Rules::daifugo()
            };
            let mut rng = DealRng::new(Seed::from(seed));
            let ranking: Vec<Seat> = (0..players).rev().map(Seat::new).collect();
            let mut hand = Hand::deal_ranked(
                rules,
                players,
                (seed % 2 == 0).then_some(&ranking[..]),
                &mut rng,
            );
            let deck = hand.deck();
            let mut steps = 0;
            while let Some(seat) = hand.next_to_act() {
                let legal = hand.legal_actions(seat);
                assert!(!legal.is_empty());
                let action = legal[(seed as usize + steps) % legal.len()];
                hand.apply(seat, action)
                    .unwrap_or_else(|e| panic!("listed yet refused: {e}"));
                steps += 1;
                assert!(steps < 5000, "the game ends");
                let mut all = hand.discarded();
                for s in Seat::all(players) {
                    all.add_all(&hand.held(s));
                }
                let played: Vec<_> = hand
                    .events()
                    .iter()
                    .filter_map(|e| match e {
                        Event::Played { set, .. } => Some(set.cards()),
                        _ => None,
                    })
                    .collect();
                for p in played {
                    all.add_all(&p);
                }
                assert_eq!(all, deck.cards(), "no card made or lost");
            }
            assert_eq!(hand.finish_order().len(), players);
            let points = hand.points().expect("scored by places");
            let total: u32 = Seat::all(players).map(|s| points[s]).sum();
            assert_eq!(total as usize, players * (players + 1) / 2);
            assert_eq!(rules.scoring, Scoring::Places);
        }
    }
}

#[test]
fn the_lock_by_number_wants_the_next_rank() {
    let rules = Rules {
        climbing: Some(Climbing {
            lock: Lock::Number,
            ..Climbing::UECDA
        }),
        ..Rules::daifugo()
    };
    let mut hand = deal(rules, ["3D 5S", "6H", "8C", "7D", ""]);
    apply(&mut hand, 0, play("5S"));
    apply(&mut hand, 1, play("6H"));
    assert_eq!(hand.lock(), (0, true));
    assert!(matches!(
        refused(&mut hand, 2, play("8C")),
        Illegal::Locked { suits: false, .. }
    ));
}

/// Plays a whole match of `games` games, each decision a pseudo-random
/// legal action (passing often, so that stalemates happen).
fn random_match(rules: Rules, players: usize, games: u32, seed: u64) -> dalmuti_core::Game {
    let names = (0..players).map(|i| format!("P{i}")).collect();
    let rules = Rules {
        hands: Some(games),
        ..rules
    };
    let mut game = dalmuti_core::Game::new(rules, names, Seed::from(seed)).expect("a game");
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    loop {
        while let Some(seat) = game.hand().next_to_act() {
            let legal = game.hand().legal_actions(seat);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Some matches pass nearly always: stalemates.
            let rate = if seed % 3 == 0 { 50 } else { 4 };
            let pass_often = x % rate != 0 && legal.contains(&Action::Pass);
            let action = if pass_often {
                Action::Pass
            } else {
                legal[(x >> 8) as usize % legal.len()]
            };
            game.apply(seat, action).expect("a listed action is legal");
        }
        if game.is_over() {
            return game;
        }
        game.next_hand().expect("the next game");
    }
}

#[test]
fn matches_are_recorded_checked_and_replayed_exactly() {
    use dalmuti_core::record::{Checked, Record, check};
    let mut stalemates = 0;
    for (i, climbing) in [Climbing::UECDA, Climbing::LOCAL, Climbing::PRESIDENT]
        .into_iter()
        .enumerate()
    {
        for seed in 0..6u64 {
            let rules = Rules {
                climbing: Some(climbing),
                ..if i == 2 {
                    Rules::president()
                } else {
                    Rules::daifugo()
                }
            };
            let game = random_match(rules, 4 + seed as usize % 3, 7, seed);
            let record = Record::from_game(&game);
            let text = record.to_json_string();
            assert!(text.contains("\"format\": \"dalmuti-record/2\""));
            let Checked::Valid(report) = check(&text) else {
                panic!("{:?}\n{text}", check(&text));
            };
            assert_eq!(report.hands.len(), 7);
            assert_eq!(Record::parse(&text).unwrap(), record);
            stalemates += text.matches("\"stalemate\"").count();
            let replayed = record.replay(Seed::from(0)).expect("replays");
            for (a, b) in game.hands().iter().zip(replayed.hands()) {
                assert_eq!(a.hand.finish_order(), b.hand.finish_order());
                assert_eq!(a.dealt_seating, b.dealt_seating);
            }
            let totals: Vec<u32> = game.players().map(|p| game.total(p)).collect();
            let again: Vec<u32> = replayed.players().map(|p| replayed.total(p)).collect();
            assert_eq!(totals, again);
        }
    }
    assert!(stalemates > 0, "some games end in a stalemate");
}

#[test]
fn a_match_draws_seats_every_three_games_and_resets_classes_every_cycle() {
    let rules = Rules {
        climbing: Some(Climbing {
            class_cycle: 4,
            ..Climbing::UECDA
        }),
        ..Rules::daifugo()
    };
    let game = random_match(rules, 5, 9, 11);
    let hands = game.hands();
    // Games 1 and 5 (of a cycle of 4) have no classes, no exchange.
    for (g, log) in hands.iter().enumerate() {
        let ranked = g % 4 != 0;
        assert_eq!(
            log.hand.class(Seat::new(0)).is_some(),
            ranked,
            "game {}",
            g + 1
        );
        assert_eq!(log.hand.taxed(), ranked, "game {}", g + 1);
    }
    // Seats change only before games 4 and 7.
    let changed: Vec<usize> = (1..hands.len())
        .filter(|&g| hands[g].dealt_seating != hands[g - 1].dealt_seating)
        .collect();
    assert!(changed.iter().all(|g| g % 3 == 0), "{changed:?}");
    // Points 5 to 1 a game: 15 a game in all.
    let total: u32 = game.players().map(|p| game.total(p)).sum();
    assert_eq!(total, 15 * 9);
    // Classes follow the last game's finishing order.
    let last = &hands[5];
    let second: Vec<_> = last.finishers().collect();
    let next = &hands[6];
    let top = next.seat_of(second[0]).unwrap();
    assert_eq!(next.hand.class(top), Some(0));
    assert_eq!(
        next.hand.dealt_from(),
        top,
        "the deal starts at the top class"
    );
}

#[test]
fn every_listed_play_writes_and_reads_back_the_same() {
    for seed in 0..150u64 {
        let ranking: Vec<Seat> = (0..5).map(Seat::new).collect();
        let rules = Rules {
            climbing: Some(Climbing {
                jokers: 1 + (seed % 2) as u8,
                ..Climbing::UECDA
            }),
            ..Rules::daifugo()
        };
        let mut hand = Hand::deal_ranked(
            rules,
            5,
            Some(&ranking),
            &mut DealRng::new(Seed::from(seed)),
        );
        let mut k = seed;
        while let Some(seat) = hand.next_to_act() {
            let legal = hand.legal_actions(seat);
            for a in &legal {
                let wire = dalmuti_core::wire::encode_action(a);
                assert_eq!(
                    dalmuti_core::wire::decode_action(&mut serde_json::Deserializer::from_str(
                        &wire.to_string()
                    ))
                    .as_ref(),
                    Ok(a),
                    "{wire}"
                );
                if let Action::Play(set) = a {
                    let text = set.to_string();
                    assert_eq!(text.parse::<Set>().as_ref(), Ok(set), "{text}");
                }
            }
            k = k.wrapping_mul(6364136223846793005).wrapping_add(1);
            let a = legal[(k >> 33) as usize % legal.len()];
            hand.apply(seat, a).unwrap();
        }
    }
}

#[test]
fn a_revealed_seed_deals_each_game_as_the_verifier_recomputes_it() {
    // The server deals each game from its own seed (Game::next_hand_from);
    // `dalmuti verify` recomputes it with Hand::pack_deal from the seed and
    // the seat the deal starts at (drawn from the seed without classes).
    let names = ["A", "B", "C", "D", "E"].map(String::from).to_vec();
    let rules = Rules {
        hands: Some(4),
        ..Rules::daifugo()
    };
    let mut game = dalmuti_core::Game::drawn(rules, names, Seed::from(1)).unwrap();
    for g in 0..4u64 {
        let seed = Seed::from(100 + g);
        game.next_hand_from(seed).unwrap();
        let hand = game.hand().clone();
        let ranked = hand.class(Seat::new(0)).is_some();
        let start = ranked.then(|| hand.dealt_from());
        let (from, cards) = Hand::pack_deal(&rules, 5, start, &mut DealRng::new(seed));
        assert_eq!(from, hand.dealt_from());
        for seat in Seat::all(5) {
            assert_eq!(cards[seat], hand.dealt(seat), "game {g} {seat}");
        }
        while let Some(seat) = game.hand().next_to_act() {
            let action = game.hand().worst_legal(seat).unwrap();
            game.apply(seat, action).unwrap();
        }
    }
}
