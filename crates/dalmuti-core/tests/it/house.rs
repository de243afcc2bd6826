//! The house rules that add a decision after a play (7-pass, 10-discard)
//! and President's same-rank skip and unbeatable 2s (docs/RULES.md,
//! "Daifugō's house rules" and "President").

use dalmuti_core::record::{Checked, Record, check};
use dalmuti_core::{
    Action, Card, Cards, Climbing, Decision, Effect, Event, Hand, Illegal, LogEntry, PerSeat,
    Rules, Seat, Seed, Seen, Set, View, Viewer,
};

fn card(text: &str) -> Card {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn cards(text: &str) -> Cards {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(text: &str) -> Action {
    Action::Play(
        text.parse::<Set>()
            .unwrap_or_else(|e| panic!("{text}: {e}")),
    )
}

fn rules(president: bool, climbing: Climbing) -> Rules {
    Rules {
        climbing: Some(climbing),
        ..if president {
            Rules::president()
        } else {
            Rules::daifugo()
        }
    }
}

/// A game without classes for five seats: the given cards, the rest of the
/// pack shared out so that each seat gets its share from seat 0.
fn deal(rules: Rules, given: [&str; 5]) -> Hand {
    let deck = dalmuti_core::Deck::for_table(&rules, 5);
    let mut hands: Vec<Cards> = given.iter().map(|t| cards(t)).collect();
    let mut rest = deck.cards();
    for h in &hands {
        assert!(rest.remove_all(h), "{h} twice");
    }
    let mut left = rest.iter().collect::<Vec<_>>().into_iter();
    for (i, h) in hands.iter_mut().enumerate() {
        while h.len() < deck.share(Seat::new(i), 5) {
            h.add(left.next().expect("cards left"), 1);
        }
    }
    Hand::from_deal_ranked(rules, 5, None, &hands, 0).expect("a deal")
}

/// A position in the middle of play: these cards, seat `turn` to lead.
fn position(rules: Rules, held: [&str; 5], turn: usize) -> Hand {
    Hand::from_position(dalmuti_core::PlayPosition {
        rules,
        held: held.iter().map(|t| cards(t)).collect(),
        gone_out: vec![],
        turn: Seat::new(turn),
        top: None,
        passes: 0,
    })
    .expect("a position")
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

fn seven_pass() -> Rules {
    rules(
        false,
        Climbing {
            seven_pass: true,
            ..Climbing::UECDA
        },
    )
}

fn ten_discard() -> Rules {
    rules(
        false,
        Climbing {
            ten_discard: true,
            ..Climbing::UECDA
        },
    )
}

#[test]
fn a_pair_of_sevens_gives_two_cards_of_the_players_choice_to_the_next() {
    let mut hand = deal(seven_pass(), ["3D 7S 7H 4C KD", "", "", "", ""]);
    let before = hand.held(Seat::new(1)).len();
    let mut kept = hand.held(Seat::new(0));
    kept.remove_all(&cards("7S 7H 4C KD"));
    apply(&mut hand, 0, play("7S 7H"));
    // The turn stays with the player, who gives before anyone answers.
    assert_eq!(hand.turn(), Seat::new(0));
    assert_eq!(
        hand.decision(Seat::new(0)),
        Some(Decision::Give {
            to: Seat::new(1),
            left: 2
        })
    );
    // Every card it holds, one action each, the weakest first.
    let legal = hand.legal_actions(Seat::new(0));
    let held = hand.held(Seat::new(0));
    assert_eq!(legal.len(), held.kinds().count());
    assert!(
        matches!(legal[0], Action::Give(c) if c.place() == Some(1)),
        "a 3 first"
    );
    assert!(
        legal
            .iter()
            .all(|a| matches!(a, Action::Give(c) if held.count(*c) > 0))
    );
    // Playing, passing, discarding or giving a card not held is refused.
    assert!(matches!(
        refused(&mut hand, 0, Action::Pass),
        Illegal::WrongDecision(Decision::Give { .. })
    ));
    assert!(matches!(
        refused(&mut hand, 0, Action::Discard(card("4C"))),
        Illegal::WrongDecision(_)
    ));
    assert!(matches!(
        refused(&mut hand, 0, Action::Give(card("2S"))),
        Illegal::NotHeld(_)
    ));
    assert!(matches!(
        refused(&mut hand, 1, Action::Pass),
        Illegal::NotToAct
    ));
    apply(&mut hand, 0, Action::Give(card("KD")));
    assert_eq!(
        hand.decision(Seat::new(0)),
        Some(Decision::Give {
            to: Seat::new(1),
            left: 1
        })
    );
    apply(&mut hand, 0, Action::Give(card("4C")));
    assert_eq!(hand.held(Seat::new(1)).len(), before + 2);
    assert_eq!(hand.held(Seat::new(1)).count(card("KD")), 1);
    assert_eq!(hand.held(Seat::new(0)), kept);
    // Then play goes on: the next player answers the 7s.
    assert_eq!(hand.turn(), Seat::new(1));
    assert!(matches!(
        hand.decision(Seat::new(1)),
        Some(Decision::Follow { .. })
    ));
}

#[test]
fn only_the_giver_and_the_receiver_see_the_card_given() {
    let mut hand = deal(seven_pass(), ["3D 7S QH", "", "", "", ""]);
    apply(&mut hand, 0, play("7S"));
    apply(&mut hand, 0, Action::Give(card("QH")));
    let given = Event::Given {
        from: Seat::new(0),
        to: Seat::new(1),
        card: card("QH"),
    };
    assert!(hand.events().contains(&given));
    for seat in Seat::all(5) {
        let view = View::new(&hand, Viewer::Seat(seat));
        let log: Vec<Seen> = view.log().collect();
        let text = serde_json::to_string(&view.snapshot()).unwrap();
        if seat.index() <= 1 {
            assert!(log.contains(&Seen::Event(given)), "{seat}");
        } else {
            assert!(log.contains(&Seen::Given {
                from: Seat::new(0),
                to: Seat::new(1)
            }));
            assert!(!text.contains("QH"), "{seat} sees the card given: {text}");
        }
    }
    let spectator = View::new(&hand, Viewer::Spectator).snapshot();
    assert!(spectator.log.contains(&LogEntry::Given {
        from: 0,
        to: 1,
        card: None
    }));
    assert!(!serde_json::to_string(&spectator).unwrap().contains("QH"));
}

#[test]
fn giving_away_the_last_cards_goes_out() {
    // 7s with one card left: one card to give, and the player is out.
    let mut hand = position(seven_pass(), ["7S 7H 9C", "4S 5S", "4H", "4D", "4C"], 0);
    apply(&mut hand, 0, play("7S 7H"));
    // Only one card left to give, whatever the 7s.
    assert_eq!(
        hand.decision(Seat::new(0)),
        Some(Decision::Give {
            to: Seat::new(1),
            left: 1
        })
    );
    apply(&mut hand, 0, Action::Give(card("9C")));
    assert_eq!(hand.place(Seat::new(0)), Some(0), "first out");
    assert!(hand.events().contains(&Event::WentOut {
        seat: Seat::new(0),
        place: 0
    }));
    // The 7s still stand: the next player answers them.
    assert_eq!(hand.turn(), Seat::new(1));
}

#[test]
fn ten_discards_out_of_play_and_only_its_player_sees_the_cards() {
    let mut hand = deal(ten_discard(), ["3D 10S 10H 10C 5H 6C 2D", "", "", "", ""]);
    let mut kept = hand.held(Seat::new(0));
    kept.remove_all(&cards("10S 10H 10C 5H 6C 2D"));
    apply(&mut hand, 0, play("10S 10H 10C"));
    assert_eq!(
        hand.decision(Seat::new(0)),
        Some(Decision::Discard { left: 3 })
    );
    for c in ["5H", "6C", "2D"] {
        apply(&mut hand, 0, Action::Discard(card(c)));
    }
    assert_eq!(hand.held(Seat::new(0)), kept);
    assert_eq!(hand.discarded(), cards("5H 6C 2D"));
    assert_eq!(hand.turn(), Seat::new(1));
    // The discarder knows its discards are gone; the others only count them.
    let mine = View::new(&hand, Viewer::Seat(Seat::new(0)));
    assert_eq!(mine.my_discards(), cards("5H 6C 2D"));
    assert_eq!(mine.hidden_discards(), 0);
    assert_eq!(mine.unseen().count(card("2D")), 0);
    let other = View::new(&hand, Viewer::Seat(Seat::new(2)));
    assert_eq!(other.my_discards(), Cards::EMPTY);
    assert_eq!(other.hidden_discards(), 3);
    assert!(
        other
            .log()
            .any(|s| s == Seen::Discarded { seat: Seat::new(0) })
    );
    let text = serde_json::to_string(&other.snapshot()).unwrap();
    for c in ["5H", "6C", "2D"] {
        assert!(!text.contains(c), "seat 2 sees the discarded {c}: {text}");
    }
    // A sample of what seat 2 cannot see leaves three cards to the pile.
    let unseen: Vec<Card> = other.unseen().iter().collect();
    let mut rest = unseen.into_iter();
    let mut others = PerSeat::<Cards>::default();
    for seat in Seat::all(5).filter(|&s| s != Seat::new(2)) {
        for _ in 0..other.card_count(seat) {
            others[seat].add(rest.next().unwrap(), 1);
        }
    }
    assert_eq!(rest.count(), 3);
    let sample = other
        .sample(&others)
        .expect("a sample with the discards out");
    assert_eq!(sample.held(Seat::new(2)), hand.held(Seat::new(2)));
    assert_eq!(sample.discarded().len(), 3);
}

#[test]
fn a_sequence_with_a_seven_an_eight_and_a_ten_gives_discards_then_cuts() {
    let both = rules(
        false,
        Climbing {
            seven_pass: true,
            ten_discard: true,
            ..Climbing::UECDA
        },
    );
    let mut hand = deal(both, ["3D 7H 8H 9H 10H QS KS", "", "", "", ""]);
    apply(&mut hand, 0, play("7H 8H 9H 10H"));
    // The 8-cut is told at once; the table clears once the cards are
    // settled: first the card to give, then the one to discard.
    assert!(
        hand.events()
            .contains(&Event::Effect(Effect::EightCut { seat: Seat::new(0) }))
    );
    assert!(matches!(
        hand.decision(Seat::new(0)),
        Some(Decision::Give { left: 1, .. })
    ));
    apply(&mut hand, 0, Action::Give(card("QS")));
    assert_eq!(
        hand.decision(Seat::new(0)),
        Some(Decision::Discard { left: 1 })
    );
    assert!(hand.top().is_some(), "not cleared before the cards are");
    apply(&mut hand, 0, Action::Discard(card("KS")));
    assert_eq!(hand.top(), None, "cut");
    assert_eq!(hand.turn(), Seat::new(0), "its player leads");
    assert_eq!(
        hand.decision(Seat::new(0)),
        Some(Decision::Lead),
        "nothing more owed"
    );
}

#[test]
fn without_the_options_sevens_and_tens_do_nothing() {
    let mut hand = deal(Rules::daifugo(), ["3D 7S 10H", "", "", "", ""]);
    apply(&mut hand, 0, play("7S"));
    assert_eq!(hand.turn(), Seat::new(1));
    assert!(matches!(
        refused(&mut hand, 1, Action::Give(card("3S"))),
        Illegal::WrongDecision(Decision::Follow { .. })
    ));
}

fn same_rank(unbeatable: bool) -> Rules {
    rules(
        true,
        Climbing {
            same_rank_skip: true,
            unbeatable_twos: unbeatable,
            ..Climbing::PRESIDENT
        },
    )
}

#[test]
fn a_set_of_the_same_rank_may_follow_and_skips_the_next_player() {
    // President: the 3♣'s holder leads the first game.
    let mut hand = deal(same_rank(false), ["3C 7S", "7H 7D", "8S", "9S", ""]);
    apply(&mut hand, 0, play("7S"));
    assert!(hand.legal_actions(Seat::new(1)).contains(&play("7H")));
    apply(&mut hand, 1, play("7H"));
    assert_eq!(hand.turn(), Seat::new(3), "seat 2 is skipped");
    assert!(hand.events().contains(&Event::Effect(Effect::Skipped {
        seat: Seat::new(1),
        skipped: dalmuti_core::Seats::only(Seat::new(2)),
    })));
    // Without the option an equal set does not top.
    let mut plain = deal(Rules::president(), ["3C 7S", "7H 7D", "8S", "9S", ""]);
    apply(&mut plain, 0, play("7S"));
    assert!(!plain.legal_actions(Seat::new(1)).contains(&play("7H")));
    assert!(matches!(
        refused(&mut plain, 1, play("7H")),
        Illegal::DoesNotTop { .. }
    ));
}

#[test]
fn nothing_beats_a_two_under_the_unbeatable_twos_but_another_two() {
    let mut hand = deal(same_rank(true), ["3C 2S", "2H 5D", "2D", "2C", ""]);
    let with_joker = rules(
        true,
        Climbing {
            unbeatable_twos: true,
            jokers: 1,
            ..Climbing::PRESIDENT
        },
    );
    apply(&mut hand, 0, play("2S"));
    // Another 2 only, by the same-rank skip.
    let legal = hand.legal_actions(Seat::new(1));
    assert_eq!(legal.as_slice(), &[play("2H"), Action::Pass]);
    // A lone Joker does not beat a 2 either.
    let mut joker = deal(with_joker, ["3C 2S", "JK 5D", "2H", "2D", "2C"]);
    apply(&mut joker, 0, play("2S"));
    assert_eq!(
        joker.legal_actions(Seat::new(1)).as_slice(),
        &[Action::Pass]
    );
    assert!(matches!(
        refused(&mut joker, 1, Action::Play(Set::LONE_JOKER)),
        Illegal::DoesNotTop { .. }
    ));
    // The others pass and the 2's player leads the next trick.
    for seat in 1..5 {
        apply(&mut joker, seat, Action::Pass);
    }
    assert_eq!(joker.top(), None);
    assert_eq!(joker.turn(), Seat::new(0));
    // Without the option the Joker beats the 2.
    let mut plain = deal(
        rules(
            true,
            Climbing {
                jokers: 1,
                ..Climbing::PRESIDENT
            },
        ),
        ["3C 2S", "JK 5D", "2H", "2D", "2C"],
    );
    apply(&mut plain, 0, play("2S"));
    apply(&mut plain, 1, Action::Play(Set::LONE_JOKER));
}

/// Plays a match with the given options, each decision a pseudo-random
/// legal action.
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
            game.apply(seat, legal[(x >> 8) as usize % legal.len()])
                .expect("a listed action is legal");
        }
        if game.is_over() {
            return game;
        }
        game.next_hand().expect("the next game");
    }
}

#[test]
fn records_carry_the_cards_given_and_discarded_and_replay_exactly() {
    let mut lines = (0, 0);
    for seed in 0..8u64 {
        let president = seed % 2 == 1;
        let climbing = Climbing {
            same_rank_skip: president,
            unbeatable_twos: president,
            ..Climbing::LOCAL_ALL
        };
        let game = random_match(rules(president, climbing), 4 + seed as usize % 3, 4, seed);
        let record = Record::from_game(&game);
        let text = record.to_json_string();
        lines.0 += text.matches(": give ").count();
        lines.1 += text.matches(": discard ").count();
        let Checked::Valid(report) = check(&text) else {
            panic!("{:?}\n{text}", check(&text));
        };
        assert_eq!(report.hands.len(), 4);
        assert_eq!(Record::parse(&text).unwrap(), record);
        let replayed = record.replay(Seed::from(0)).expect("replays");
        // The same game, but for the order of the cards given in one line
        // (a record writes them as a group) and of the rich's returns.
        let blind = |e: &Event| match *e {
            Event::Given { from, to, .. } => Event::Given {
                from,
                to,
                card: Card::JOKER,
            },
            Event::Discarded { seat, .. } => Event::Discarded {
                seat,
                card: Card::JOKER,
            },
            e => e,
        };
        for (a, b) in game.hands().iter().zip(replayed.hands()) {
            let (x, y): (Vec<Event>, Vec<Event>) = (
                a.hand
                    .events()
                    .iter()
                    .filter(|e| !matches!(e, Event::TaxPaid(_)))
                    .map(blind)
                    .collect(),
                b.hand
                    .events()
                    .iter()
                    .filter(|e| !matches!(e, Event::TaxPaid(_)))
                    .map(blind)
                    .collect(),
            );
            assert_eq!(x, y);
            assert_eq!(a.hand.discarded(), b.hand.discarded());
            for seat in Seat::all(a.hand.players()) {
                assert_eq!(a.hand.held(seat), b.hand.held(seat));
            }
        }
    }
    assert!(lines.0 > 0 && lines.1 > 0, "{lines:?}");
}

#[test]
fn a_record_that_gives_a_card_not_held_or_too_many_is_refused_with_the_reason() {
    // The first seed whose first game gives cards.
    let (text, at) = (0..50u64)
        .find_map(|seed| {
            let game = random_match(rules(false, Climbing::LOCAL_ALL), 5, 1, seed);
            let text = Record::from_game(&game).to_json_string();
            let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
            let at = doc["hands"][0]["plays"]
                .as_array()
                .unwrap()
                .iter()
                .position(|p| p.as_str().unwrap().contains(": give "))?;
            Some((text, at))
        })
        .expect("some game gives cards");
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let plays = doc["hands"][0]["plays"].as_array_mut().unwrap();
    let line = plays[at].as_str().unwrap().to_string();
    let (who, _) = line.split_once(": give ").unwrap();
    // A card the giver no longer holds: the first of the 7s it just played.
    let played = plays[at - 1].as_str().unwrap().to_string();
    let foreign = played
        .split_once(": ")
        .unwrap()
        .1
        .split(' ')
        .find_map(|t| t.parse::<Card>().ok().filter(|c| !c.is_joker()))
        .unwrap();
    plays[at] = serde_json::json!(format!("{who}: give {foreign}"));
    let Checked::Invalid(fault) = check(&doc.to_string()) else {
        panic!("accepted a card not held");
    };
    let message = format!("{fault:?}");
    assert!(message.contains("does not hold"), "{message}");
    // Giving where nothing is owed.
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let plays = doc["hands"][0]["plays"].as_array_mut().unwrap();
    let first = plays[0].as_str().unwrap().to_string();
    let (who, _) = first.split_once(": ").unwrap();
    plays.insert(0, serde_json::json!(format!("{who}: give 3C")));
    let Checked::Invalid(fault) = check(&doc.to_string()) else {
        panic!("accepted a give before any play");
    };
    let message = format!("{fault:?}");
    assert!(message.contains("no card to give"), "{message}");
}
