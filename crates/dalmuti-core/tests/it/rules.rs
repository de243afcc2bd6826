//! One focused test per rule of the rulebook and its optional rules
//! (docs/RULES.md says where each comes from).

use dalmuti_core::*;

fn cards(s: &str) -> Cards {
    s.parse().unwrap()
}

fn set(s: &str) -> Set {
    s.parse().unwrap()
}

fn play(s: &str) -> Action {
    Action::Play(set(s))
}

fn seat(i: usize) -> Seat {
    Seat::new(i)
}

/// A deal for `players` seats where the seats in `fixed` get exactly those
/// cards and the rest of the hand's deck is spread over the other seats in
/// turn, so no other seat gets both Jesters unless `fixed` leaves them so.
fn deal_with(rules: &Rules, players: usize, fixed: &[(usize, &str)]) -> Vec<Cards> {
    let deck = Deck::for_table(rules, players);
    let mut rest = deck.cards();
    let mut hands = vec![Cards::EMPTY; players];
    for &(s, c) in fixed {
        hands[s] = cards(c);
        assert!(
            rest.remove_all(&hands[s]),
            "fixed cards are not in the deck"
        );
    }
    let open: Vec<usize> = (0..players)
        .filter(|s| fixed.iter().all(|f| f.0 != *s))
        .collect();
    let mut turn = 0;
    for card in rest.iter() {
        // Next open seat still short of its share.
        loop {
            let s = open[turn % open.len()];
            turn += 1;
            if hands[s].len() < deck.share(seat(s), players) {
                hands[s].add(card, 1);
                break;
            }
        }
    }
    hands
}

fn hand_with(rules: Rules, players: usize, first: bool, fixed: &[(usize, &str)]) -> Hand {
    Hand::from_deal(rules, players, first, &deal_with(&rules, players, fixed)).unwrap()
}

/// Every seat whose setup choice is only to say ready says it.
fn all_ready(hand: &mut Hand) {
    for s in hand.to_act().iter() {
        if hand.decision(s) == Some(Decision::Ready) {
            hand.apply(s, Action::Ready).unwrap();
        }
    }
}

/// Answers every pending setup decision with the worst legal action (no
/// revolution, the worst tax cards, no exchange), so play can begin.
fn settle_taxes(hand: &mut Hand) {
    while hand.stage() != Stage::Play {
        let s = hand.next_to_act().unwrap();
        let a = hand.worst_legal(s).unwrap();
        hand.apply(s, a).unwrap();
    }
}

fn position(
    held: &[&str],
    gone_out: &[usize],
    turn: usize,
    top: Option<(usize, &str)>,
    passes: u8,
) -> Hand {
    Hand::from_position(PlayPosition {
        rules: Rules::default(),
        held: held.iter().map(|h| cards(h)).collect(),
        gone_out: gone_out.iter().map(|&s| seat(s)).collect(),
        turn: seat(turn),
        top: top.map(|(s, t)| (seat(s), set(t))),
        passes,
    })
    .unwrap()
}

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("P{i}")).collect()
}

// ----- The deck -----

#[test]
fn deck_has_80_cards_rank_n_n_times_and_two_jesters() {
    let deck = Deck::STANDARD.cards();
    assert_eq!(deck.len(), 80);
    for rank in Rank::all() {
        assert_eq!(deck.count(rank.into()), rank.number(), "{rank:?}");
    }
    assert_eq!(deck.wilds(), 2);
}

#[test]
fn cards_bear_the_rulebook_names() {
    let named: Vec<&str> = dalmuti_core::Variant::Dalmuti
        .kinds()
        .map(|c| c.name(dalmuti_core::Variant::Dalmuti))
        .collect();
    assert_eq!(
        named,
        [
            "Dalmuti",
            "Archbishop",
            "Earl Marshal",
            "Baroness",
            "Abbess",
            "Knight",
            "Seamstress",
            "Mason",
            "Cook",
            "Shepherdess",
            "Stonecutter",
            "Peasant",
            "Jester"
        ]
    );
}

// ----- Sets -----

#[test]
fn jesters_take_the_rank_of_the_cards_they_join() {
    // Rulebook play example: three Knights, one of them a Jester, top three
    // Masons.
    let mut hand = position(&["6 6 J 3", "8 8 8 12", "2"], &[], 0, Some((1, "8 8 8")), 0);
    hand.apply(seat(0), play("6 6 J")).unwrap();
    assert_eq!(hand.top(), Some((seat(0), set("6 6 J"))));
}

#[test]
fn a_jester_alone_ranks_below_a_peasant() {
    // Rulebook: Amity has a Jester but cannot play it on an Archbishop.
    let mut hand = position(&["J 5", "12 4", "3 3"], &[], 0, Some((2, "12")), 0);
    let err = hand.apply(seat(0), play("J")).unwrap_err();
    assert!(matches!(err.reason, Illegal::DoesNotTop { .. }));
    // …but a Peasant tops a lone Jester.
    let mut hand = position(&["J 5", "12 4", "3 3"], &[], 1, Some((0, "J")), 0);
    hand.apply(seat(1), play("12")).unwrap();
    // And two Jesters alone are a pair of rank 13.
    let mut hand = position(&["J J 5", "12 12 4", "3 3"], &[], 0, None, 0);
    hand.apply(seat(0), play("J J")).unwrap();
    hand.apply(seat(1), play("12 12")).unwrap();
}

// ----- Seating -----

#[test]
fn a_new_game_draws_for_seats_best_card_first() {
    let game = Game::new(Rules::default(), names(6), Seed::from(11)).unwrap();
    let rounds = game.draw().expect("a recorded draw");
    let order = check_draw(6, Deck::STANDARD, rounds).unwrap();
    // Players are numbered in seating order, so the draw's order is 0..6.
    assert_eq!(order, (0..6).collect::<Vec<_>>());
    let best = rounds[0].iter().map(|&(_, c)| c.index()).min().unwrap();
    let winner = game.player_at(Seat::GREATER_DALMUTI).index();
    assert_eq!(
        rounds[0].iter().find(|r| r.0 == winner).unwrap().1.index(),
        best
    );
}

#[test]
fn a_game_can_start_from_a_given_seating() {
    let seating = vec![
        "Sondra".to_string(),
        "Anton".into(),
        "Amity".into(),
        "Cherise".into(),
        "Dana".into(),
    ];
    let game = Game::with_seating(Rules::default(), seating.clone(), Seed::from(1)).unwrap();
    let seated: Vec<&str> = Seat::all(5).map(|s| game.name(game.player_at(s))).collect();
    assert_eq!(seated, seating);
    assert!(game.draw().is_none());
}

#[test]
fn three_to_sixteen_players() {
    assert_eq!(
        Game::new(Rules::default(), names(2), Seed::from(1)).unwrap_err(),
        TableError::Players(2)
    );
    assert_eq!(
        Game::new(Rules::default(), names(17), Seed::from(1)).unwrap_err(),
        TableError::Players(17)
    );
    for n in [3, 16] {
        let mut game = Game::new(Rules::default(), names(n), Seed::from(n as u64)).unwrap();
        while let Some(s) = game.hand().next_to_act() {
            game.apply(s, game.hand().worst_legal(s).unwrap()).unwrap();
        }
        assert_eq!(game.hand().finish_order().len(), n);
    }
}

// ----- The deal -----

#[test]
fn the_deal_goes_one_card_at_a_time_clockwise_from_the_greater_dalmuti() {
    let order: Vec<Card> = Deck::STANDARD.cards().iter().collect();
    let hands = deal_in_order(&order, 3);
    // Seat 0 gets cards 0, 3, 6…; seat 1 cards 1, 4, 7…
    let expected0: Cards = order.iter().step_by(3).copied().collect();
    let expected1: Cards = order.iter().skip(1).step_by(3).copied().collect();
    assert_eq!(hands[seat(0)], expected0);
    assert_eq!(hands[seat(1)], expected1);
    // 80 cards for 3: the first two seats get the extra cards.
    assert_eq!(
        [
            hands[seat(0)].len(),
            hands[seat(1)].len(),
            hands[seat(2)].len()
        ],
        [27, 27, 26]
    );
}

#[test]
fn a_given_deal_must_be_the_whole_deck_in_the_right_shares() {
    let mut dealt = deal_with(&Rules::default(), 6, &[]);
    // Move one card from seat 5 to seat 0: the shares are off.
    let card = dealt[5].iter().next().unwrap();
    dealt[5].remove(card, 1);
    dealt[0].add(card, 1);
    assert!(matches!(
        Hand::from_deal(Rules::default(), 6, false, &dealt),
        Err(BadDeal::Share { .. })
    ));
    let mut short = deal_with(&Rules::default(), 6, &[]);
    let first = short[0].iter().next().unwrap();
    short[0].remove(first, 1);
    assert!(matches!(
        Hand::from_deal(Rules::default(), 6, false, &short),
        Err(BadDeal::NotTheDeck(_))
    ));
}

// ----- Revolution -----

/// A five-player hand with both Jesters (and a Dalmuti).
const BOTH_JESTERS: &str = "J J 1 12 12 12 12 12 12 12 12 12 12 12 11 11";

#[test]
fn both_jesters_offer_a_revolution_but_do_not_force_one() {
    let mut hand = hand_with(Rules::default(), 5, false, &[(2, BOTH_JESTERS)]);
    // The offer comes with the holder's setup choice, in the one setup
    // stage every hand has: everyone else is choosing too.
    assert_eq!(hand.stage(), Stage::Setup);
    assert_eq!(hand.decision(seat(2)), Some(Decision::Ready));
    assert_eq!(
        hand.revolution_offer(seat(2)),
        Some(RevolutionOffer { greater: false })
    );
    assert_eq!(
        hand.legal_actions(seat(2)).as_slice(),
        [Action::Ready, Action::CallRevolution]
    );
    assert_eq!(hand.to_act(), Seats::first(5));
    // Saying ready keeps quiet: taxes as usual, and the offer is gone.
    hand.apply(seat(2), Action::Ready).unwrap();
    assert_eq!(hand.revolution_offer(seat(2)), None);
    assert_eq!(hand.stage(), Stage::Setup);
    let err = hand.apply(seat(2), Action::CallRevolution).unwrap_err();
    assert_eq!(err.reason, Illegal::NotToAct);
    settle_taxes(&mut hand);
    assert_eq!(hand.revolution(), None);
    assert_eq!(hand.taxes().count(), 2, "declined: taxes as usual");
}

#[test]
fn while_the_hand_is_set_up_a_view_shows_its_own_choice_and_a_count_only() {
    let mut hand = hand_with(Rules::default(), 5, false, &[(2, BOTH_JESTERS)]);
    let spectator = View::new(&hand, Viewer::Spectator);
    assert_eq!(spectator.to_act(), Seats::NONE, "nobody is named");
    assert_eq!(spectator.ready_count(), Some(0));
    let bystander = View::new(&hand, Viewer::Seat(seat(3)));
    assert_eq!(bystander.to_act(), Seats::only(seat(3)));
    assert_eq!(bystander.decision(), Some(Decision::Ready));
    assert_eq!(bystander.revolution_offer(), None);
    assert_eq!(
        View::new(&hand, Viewer::Seat(seat(2))).revolution_offer(),
        Some(RevolutionOffer { greater: false })
    );
    hand.apply(seat(3), Action::Ready).unwrap();
    hand.apply(seat(2), Action::Ready).unwrap();
    let bystander = View::new(&hand, Viewer::Seat(seat(3)));
    assert_eq!(bystander.to_act(), Seats::NONE);
    assert_eq!(bystander.ready_count(), Some(2));
    let text = serde_json::to_string(&bystander.snapshot()).unwrap();
    assert!(
        !text.contains("declined"),
        "a bystander learns of the Jesters: {text}"
    );
    assert!(
        View::new(&hand, Viewer::Seat(seat(2)))
            .log()
            .any(|e| e == Seen::Event(Event::RevolutionDeclined { seat: seat(2) })),
        "the holder is told they kept quiet"
    );
    settle_taxes(&mut hand);
    let spectator = View::new(&hand, Viewer::Spectator);
    assert_eq!(spectator.ready_count(), None);
    assert_eq!(
        spectator.to_act(),
        Seats::only(seat(0)),
        "in play, the turn is public"
    );
}

#[test]
fn only_the_holder_of_both_jesters_may_call_a_revolution() {
    let mut hand = hand_with(Rules::default(), 5, false, &[(2, BOTH_JESTERS)]);
    let before = hand.clone();
    for other in [0, 1, 3, 4] {
        assert_eq!(hand.revolution_offer(seat(other)), None);
        assert!(
            !hand
                .legal_actions(seat(other))
                .contains(&Action::CallRevolution)
        );
        let err = hand.apply(seat(other), Action::CallRevolution).unwrap_err();
        assert_eq!(err.reason, Illegal::NoRevolution);
    }
    assert_eq!(hand, before, "a refused call changes nothing");
}

#[test]
fn a_dalmuti_dealt_both_jesters_calls_instead_of_choosing_the_tax() {
    let holder = BOTH_JESTERS;
    let mut hand = hand_with(Rules::default(), 5, false, &[(1, holder)]);
    assert_eq!(
        hand.decision(seat(1)),
        Some(Decision::Tax {
            to: seat(3),
            count: 1
        })
    );
    assert_eq!(
        hand.legal_actions(seat(1)).last(),
        Some(&Action::CallRevolution),
        "calling comes after every gift"
    );
    // Giving the tax keeps quiet.
    let mut quiet = hand.clone();
    quiet.apply(seat(1), Action::GiveTax(cards("12"))).unwrap();
    assert_eq!(quiet.revolution_offer(seat(1)), None);
    let err = quiet.apply(seat(1), Action::CallRevolution).unwrap_err();
    assert_eq!(err.reason, Illegal::NotToAct);
    assert!(
        quiet
            .events()
            .contains(&Event::RevolutionDeclined { seat: seat(1) })
    );
    // Calling instead: no taxes, though the Greater Dalmuti already chose.
    hand.apply(seat(0), Action::GiveTax(hand.held(seat(0)).worst(2)))
        .unwrap();
    let dealt: Vec<Cards> = Seat::all(5).map(|s| hand.held(s)).collect();
    hand.apply(seat(1), Action::CallRevolution).unwrap();
    assert_eq!(hand.stage(), Stage::Play);
    assert!(!hand.taxed());
    assert_eq!(hand.taxes().count(), 0);
    assert_eq!(hand.tax_gifts().count(), 0, "the chosen gift is void");
    for s in Seat::all(5) {
        assert_eq!(hand.held(s), dealt[s.index()], "no card moved");
    }
}

#[test]
fn a_revolution_cancels_taxes_and_the_greater_dalmuti_still_leads() {
    let mut hand = hand_with(Rules::default(), 5, false, &[(2, BOTH_JESTERS)]);
    let before = hand.held(seat(0));
    hand.apply(seat(2), Action::CallRevolution).unwrap();
    assert_eq!(hand.stage(), Stage::Play);
    assert_eq!(hand.taxes().count(), 0);
    assert_eq!(hand.held(seat(0)), before);
    assert_eq!(hand.turn(), seat(0));
    assert_eq!(
        hand.revolution(),
        Some(Revolution {
            by: seat(2),
            greater: false
        })
    );
}

#[test]
fn a_greater_revolution_reverses_the_seats_and_the_old_greater_peon_leads() {
    let rules = Rules::default();
    let dealt = deal_with(&rules, 5, &[(4, BOTH_JESTERS)]);
    let mut game = Game::with_seating(rules, names(5), Seed::from(1)).unwrap();
    play_out(&mut game);
    let order: Vec<String> = game
        .next_seating()
        .iter()
        .map(|&p| game.name(p).to_string())
        .collect();
    game.next_hand_with(&dealt).unwrap();
    let peon = game.player_at(seat(4));
    assert_eq!(game.name(peon), order[4]);
    assert_eq!(
        game.hand().revolution_offer(seat(4)),
        Some(RevolutionOffer { greater: true })
    );
    game.apply(seat(4), Action::CallRevolution).unwrap();
    // Everyone traded seats with their opposite, cards and all.
    assert_eq!(game.player_at(seat(0)), peon);
    let now: Vec<&str> = Seat::all(5).map(|s| game.name(game.player_at(s))).collect();
    let reversed: Vec<&str> = order.iter().rev().map(String::as_str).collect();
    assert_eq!(now, reversed);
    assert_eq!(game.hand().held(seat(0)), dealt[4]);
    assert_eq!(game.hand().stage(), Stage::Play);
    assert_eq!(game.hand().turn(), seat(0));
    assert_eq!(
        game.hand().revolution(),
        Some(Revolution {
            by: seat(0),
            greater: true
        })
    );
}

#[test]
fn a_jester_received_in_tax_does_not_make_a_revolution() {
    // The Greater Dalmuti gives a Jester to a Greater Peon dealt the other.
    let mut hand = hand_with(
        Rules::default(),
        5,
        false,
        &[
            (0, "J 1 2 3 4 5 6 7 8 9 10 11 12 12 12 12"),
            (4, "J 2 3 3 4 4 4 5 5 5 5 6 6 6 6 6"),
        ],
    );
    assert_eq!(hand.stage(), Stage::Setup);
    hand.apply(seat(0), Action::GiveTax(cards("12 J"))).unwrap();
    settle_taxes(&mut hand);
    assert_eq!(hand.held(seat(4)).wilds(), 2);
    assert_eq!(hand.revolution(), None);
    assert_eq!(hand.stage(), Stage::Play);
}

// ----- Taxation -----

/// The rulebook's taxation example: Sondra (Greater Dalmuti) gives two
/// Shepherdesses; Dana (Greater Peon) must give her Archbishop and Baroness.
#[test]
fn rulebook_taxation_example() {
    let sondra = "3 6 6 7 9 9 9 10 10 11 11 11 11 12 12 12";
    let dana = "J 2 4 6 7 7 7 8 8 9 9 11 11 12 12 12";
    let mut hand = hand_with(Rules::default(), 5, false, &[(0, sondra), (4, dana)]);
    assert_eq!(
        hand.decision(seat(0)),
        Some(Decision::Tax {
            to: seat(4),
            count: 2
        })
    );
    assert_eq!(
        hand.decision(seat(1)),
        Some(Decision::Tax {
            to: seat(3),
            count: 1
        })
    );
    assert_eq!(
        hand.decision(seat(4)),
        Some(Decision::Ready),
        "the Peon has no choice: it only says ready"
    );
    assert_eq!(hand.decision(seat(4)), Some(Decision::Ready));
    hand.apply(seat(0), Action::GiveTax(cards("10 10")))
        .unwrap();
    // Nothing moves until every setup decision is made: both pairs
    // exchange at the same time.
    assert_eq!(hand.held(seat(0)), cards(sondra));
    assert_eq!(hand.taxes().count(), 0);
    let cherise = hand.held(seat(3));
    let gift = hand.held(seat(1)).worst(1);
    hand.apply(seat(1), Action::GiveTax(gift)).unwrap();
    assert_eq!(hand.taxes().count(), 0, "the others are not ready yet");
    all_ready(&mut hand);
    let paid = hand.taxes().next().unwrap();
    assert_eq!(paid.tribute, cards("2 4"));
    assert_eq!(
        hand.held(seat(0)),
        cards("2 3 4 6 6 7 9 9 9 11 11 11 11 12 12 12")
    );
    assert_eq!(
        hand.held(seat(4)),
        cards("J 6 7 7 7 8 8 9 9 10 10 11 11 12 12 12")
    );
    // The Lesser pair: the Lesser Peon gives her best card.
    assert!(hand.held(seat(1)).contains(&cherise.best(1)));
    assert_eq!(hand.taxes().nth(1).unwrap().tribute, cherise.best(1));
    assert_eq!(hand.stage(), Stage::Play);
}

#[test]
fn a_dalmuti_gives_from_the_hand_as_dealt() {
    let sondra = "3 6 6 7 9 9 9 10 10 11 11 11 11 12 12 12";
    let dana = "J 2 4 6 7 7 7 8 8 9 9 11 11 12 12 12";
    let mut hand = hand_with(Rules::default(), 5, false, &[(0, sondra), (4, dana)]);
    let before = hand.clone();
    // The Archbishop would arrive in the exchange: it cannot go back.
    let err = hand
        .apply(seat(0), Action::GiveTax(cards("2 10")))
        .unwrap_err();
    assert_eq!(err.reason, Illegal::NotHeld(cards("2")));
    let err = hand
        .apply(seat(0), Action::GiveTax(cards("10")))
        .unwrap_err();
    assert_eq!(
        err.reason,
        Illegal::TaxCount {
            needed: 2,
            given: 1
        }
    );
    assert_eq!(hand, before, "a refused action changes nothing");
}

#[test]
fn jesters_count_as_the_worst_cards_in_tax() {
    let mut hand = hand_with(
        Rules::default(),
        5,
        false,
        &[(4, "J 3 12 12 12 12 12 12 12 12 12 12 11 11 11 11")],
    );
    hand.apply(seat(0), Action::GiveTax(hand.held(seat(0)).worst(2)))
        .unwrap();
    settle_taxes(&mut hand);
    assert_eq!(hand.taxes().next().unwrap().tribute, cards("3 11"));
}

#[test]
fn with_three_players_only_the_greater_pair_pays() {
    let mut hand = hand_with(Rules::default(), 3, false, &[]);
    assert_eq!(hand.stage(), Stage::Setup);
    assert!(matches!(
        hand.decision(seat(0)),
        Some(Decision::Tax { count: 2, .. })
    ));
    assert_eq!(hand.decision(seat(1)), Some(Decision::Ready));
    assert_eq!(seat(1).title(3), Title::Merchant { class: 1 });
    hand.apply(seat(0), Action::GiveTax(hand.held(seat(0)).worst(2)))
        .unwrap();
    all_ready(&mut hand);
    assert_eq!(hand.stage(), Stage::Play);
    assert_eq!(hand.taxes().count(), 1);
}

#[test]
fn tax_cards_are_known_only_to_the_two_sides() {
    let sondra = "3 6 6 7 9 9 9 10 10 11 11 11 11 12 12 12";
    let dana = "J 2 4 6 7 7 7 8 8 9 9 11 11 12 12 12";
    let mut hand = hand_with(Rules::default(), 5, false, &[(0, sondra), (4, dana)]);
    hand.apply(seat(0), Action::GiveTax(cards("10 10")))
        .unwrap();
    settle_taxes(&mut hand);
    let greater = View::new(&hand, Viewer::Seat(seat(0))).my_tax().unwrap();
    assert_eq!(
        (greater.gift, greater.tribute),
        (cards("10 10"), cards("2 4"))
    );
    let peon = View::new(&hand, Viewer::Seat(seat(4)))
        .snapshot()
        .my_tax
        .unwrap();
    assert_eq!(
        (peon.gave.as_str(), peon.received.as_str()),
        ("2 4", "10 10")
    );
    for viewer in [Viewer::Seat(seat(2)), Viewer::Spectator] {
        let view = View::new(&hand, viewer);
        assert_eq!(view.my_tax(), None);
        assert!(view.log().any(|e| e
            == Seen::TaxPaid {
                dalmuti: seat(0),
                peon: seat(4),
                cards: 2
            }));
        let text = serde_json::to_string(&view.snapshot()).unwrap();
        assert!(
            !text.contains("\"10 10\""),
            "a bystander saw the tax cards: {text}"
        );
    }
    // The Lesser Dalmuti sees its own exchange, not the Greater one's cards.
    let lesser = View::new(&hand, Viewer::Seat(seat(1)));
    assert_eq!(lesser.my_tax().unwrap().dalmuti, seat(1));
    assert!(
        lesser
            .log()
            .any(|e| matches!(e, Seen::TaxPaid { dalmuti, .. } if dalmuti == seat(0)))
    );
}

// ----- Play -----

#[test]
fn the_greater_dalmuti_leads_the_first_round_with_any_set() {
    let mut hand = hand_with(Rules::default(), 5, false, &[]);
    settle_taxes(&mut hand);
    assert_eq!(hand.decision(seat(0)), Some(Decision::Lead));
    let err = hand.apply(seat(1), play("12")).unwrap_err();
    assert_eq!(err.reason, Illegal::NotToAct);
    let leads = hand.legal_actions(seat(0));
    assert!(!leads.contains(&Action::Pass), "the leader must play");
    assert_eq!(
        hand.apply(seat(0), Action::Pass).unwrap_err().reason,
        Illegal::MustLead
    );
}

#[test]
fn topping_needs_the_same_number_of_cards_and_a_better_rank() {
    // Rulebook: on four Stonecutters, a player with five Cooks may play four
    // of them, not five.
    let mut hand = position(
        &["11 11 11 11 2", "9 9 9 9 9 3", "5 5 5 5 8"],
        &[],
        1,
        Some((0, "11 11 11 11")),
        0,
    );
    let err = hand.clone().apply(seat(1), play("9 9 9 9 9")).unwrap_err();
    assert!(matches!(err.reason, Illegal::WrongSize { .. }));
    let err = hand
        .clone()
        .apply(seat(1), play("12 12 12 12"))
        .unwrap_err();
    assert!(matches!(
        err.reason,
        Illegal::DoesNotTop { .. } | Illegal::NotHeld(_)
    ));
    hand.apply(seat(1), play("9 9 9 9")).unwrap();
    // Same rank does not top.
    let mut same = position(&["9 9 2", "9 9 3", "5 5 8"], &[], 1, Some((0, "9 9")), 0);
    assert!(matches!(
        same.apply(seat(1), play("9 9")).unwrap_err().reason,
        Illegal::DoesNotTop { .. }
    ));
}

#[test]
fn a_player_who_passed_may_play_later_in_the_same_round() {
    // Rulebook play example, round two: Amity passes, then gets another turn.
    let mut hand = position(
        &[
            "12 12 12 6 6 J",
            "10 10 10 1",
            "2 2 7 7 7",
            "8 8 8 4",
            "3 3 3 9",
        ],
        &[],
        0,
        None,
        0,
    );
    for (s, a) in [
        (0, play("12 12 12")),
        (1, play("10 10 10")),
        (2, Action::Pass),
        (3, play("8 8 8")),
        (4, Action::Pass),
        (0, play("6 6 J")),
        (1, Action::Pass),
    ] {
        hand.apply(seat(s), a).unwrap();
    }
    assert_eq!(hand.turn(), seat(2), "Amity, who passed, may play again");
    hand.apply(seat(2), Action::Pass).unwrap();
    hand.apply(seat(3), Action::Pass).unwrap();
    hand.apply(seat(4), play("3 3 3")).unwrap();
}

#[test]
fn the_round_ends_when_everyone_else_passes_and_its_player_leads() {
    let mut hand = position(&["11 11 11 11 2", "9 9", "5 8", "7 7"], &[], 0, None, 0);
    hand.apply(seat(0), play("11 11 11 11")).unwrap();
    for s in 1..4 {
        hand.apply(seat(s), Action::Pass).unwrap();
    }
    assert_eq!(hand.top(), None);
    assert_eq!(hand.decision(seat(0)), Some(Decision::Lead));
    assert!(hand.events().contains(&Event::RoundWon {
        seat: seat(0),
        leader: seat(0)
    }));
}

/// The rulebook's going-out example: Amity goes out with a Baroness, Anton
/// goes out on the Archbishop with the Dalmuti; nobody can top it and he is
/// out, so the lead passes clockwise to Cherise, the next with cards.
#[test]
fn rulebook_going_out_example() {
    // Seats: Sondra, Anton, Amity, Cherise, Dana.
    let mut hand = position(&["2 12 12", "1", "4", "7 7 9", "8 10"], &[], 2, None, 0);
    hand.apply(seat(2), play("4")).unwrap();
    assert_eq!(hand.finish_order(), [seat(2)]);
    hand.apply(seat(3), Action::Pass).unwrap();
    hand.apply(seat(4), Action::Pass).unwrap();
    hand.apply(seat(0), play("2")).unwrap();
    assert_eq!(hand.turn(), seat(1), "Amity, out, is skipped");
    hand.apply(seat(1), play("1")).unwrap();
    assert_eq!(hand.finish_order(), [seat(2), seat(1)]);
    // Everyone still holding cards passes the Dalmuti.
    for s in [3, 4, 0] {
        hand.apply(seat(s), Action::Pass).unwrap();
    }
    assert_eq!(hand.turn(), seat(3), "the lead goes to Cherise");
    assert_eq!(hand.decision(seat(3)), Some(Decision::Lead));
}

#[test]
fn the_hand_ends_when_one_player_holds_cards_and_finishing_order_reseats() {
    let mut game = Game::with_seating(Rules::default(), names(4), Seed::from(3)).unwrap();
    while let Some(s) = game.hand().next_to_act() {
        game.apply(s, game.hand().worst_legal(s).unwrap()).unwrap();
    }
    let hand = game.hand();
    assert_eq!(hand.stage(), Stage::Over);
    assert_eq!(hand.holding().len(), 1);
    let last = hand.holding().first_seat().unwrap();
    assert_eq!(*hand.finish_order().last().unwrap(), last);
    assert_eq!(
        hand.clone().apply(last, Action::Pass).unwrap_err().reason,
        Illegal::HandOver
    );
    // First out is next hand's Greater Dalmuti, last out its Greater Peon.
    let finishers: Vec<PlayerId> = hand
        .finish_order()
        .iter()
        .map(|&s| game.player_at(s))
        .collect();
    assert_eq!(game.next_seating(), finishers.as_slice());
    game.next_hand().unwrap();
    assert_eq!(game.player_at(seat(0)), finishers[0]);
    assert_eq!(game.player_at(seat(3)), finishers[3]);
}

// ----- Optional rules -----

#[test]
fn first_deal_revolution_skips_taxes_in_the_first_hand_only() {
    let rules = Rules {
        first_deal_revolution: true,
        ..Rules::default()
    };
    let mut first = hand_with(rules, 5, true, &[]);
    // Still a setup stage, as in every hand: everyone only says ready.
    assert_eq!(first.stage(), Stage::Setup);
    assert!(!first.taxed());
    assert!(
        Seat::all(5).all(|s| first.decision(s) == Some(Decision::Ready)),
        "no tax to choose"
    );
    all_ready(&mut first);
    assert_eq!(first.stage(), Stage::Play);
    assert_eq!(first.taxes().count(), 0);
    let later = hand_with(rules, 5, false, &[]);
    assert!(later.taxed());
    assert!(matches!(
        later.decision(seat(0)),
        Some(Decision::Tax { .. })
    ));
}

#[test]
fn first_deal_revolution_still_allows_a_greater_revolution() {
    let rules = Rules {
        first_deal_revolution: true,
        ..Rules::default()
    };
    let mut hand = hand_with(rules, 5, true, &[(4, BOTH_JESTERS)]);
    assert_eq!(
        hand.revolution_offer(seat(4)),
        Some(RevolutionOffer { greater: true })
    );
    hand.apply(seat(4), Action::CallRevolution).unwrap();
    assert!(hand.revolution().unwrap().greater);
    assert_eq!(hand.held(seat(0)), cards(BOTH_JESTERS));
}

#[test]
fn stripped_decks_for_four_and_five_players() {
    let rules = Rules {
        stripped_deck: true,
        ..Rules::default()
    };
    let four = Hand::deal(rules, 4, false, &mut DealRng::new(Seed::from(1)));
    let all4: Cards = Seat::all(4)
        .flat_map(|s| four.held(s).iter().collect::<Vec<_>>())
        .collect();
    assert_eq!(all4.len(), 57);
    assert_eq!(
        all4.count(Rank::STONECUTTER.into()) + all4.count(Rank::PEASANT.into()),
        0
    );
    let five = Hand::deal(rules, 5, false, &mut DealRng::new(Seed::from(1)));
    let all5: Cards = Seat::all(5)
        .flat_map(|s| five.held(s).iter().collect::<Vec<_>>())
        .collect();
    assert_eq!(all5.len(), 68);
    assert_eq!(all5.count(Rank::PEASANT.into()), 0);
    assert_eq!(all5.count(Rank::STONECUTTER.into()), 11);
    assert_eq!(Deck::for_table(&rules, 6).len(), 80);
    assert_eq!(Deck::for_table(&Rules::default(), 4).len(), 80);
}

fn finished(rules: Rules, held: &[&str], finish: &[usize]) -> Hand {
    // Every seat but the last two is out; the next play ends the hand.
    let n = held.len();
    let mut hand = Hand::from_position(PlayPosition {
        rules,
        held: held.iter().map(|h| cards(h)).collect(),
        gone_out: finish[..n - 2].iter().map(|&s| seat(s)).collect(),
        turn: seat(finish[n - 2]),
        top: None,
        passes: 0,
    })
    .unwrap();
    let last = hand.held(seat(finish[n - 2]));
    hand.apply(
        seat(finish[n - 2]),
        Action::Play(Set::from_cards(&last).unwrap()),
    )
    .unwrap();
    assert_eq!(hand.stage(), Stage::Over);
    hand
}

#[test]
fn scoring_gives_a_point_for_every_player_beaten() {
    let rules = Rules {
        scoring: Scoring::Standard,
        ..Rules::default()
    };
    // Finishing order: seat 2, 0, 4, 1, 3.
    let hand = finished(rules, &["", "5 5", "", "7", ""], &[2, 0, 4, 1, 3]);
    let points = hand.points().unwrap();
    assert_eq!(
        Seat::all(5).map(|s| points[s]).collect::<Vec<_>>(),
        [3, 1, 4, 0, 2]
    );
    let none = finished(
        Rules::default(),
        &["", "5 5", "", "7", ""],
        &[2, 0, 4, 1, 3],
    );
    assert_eq!(none.points(), None);
}

#[test]
fn philanthropic_scoring_rewards_dalmutis_whose_peons_rise() {
    let rules = Rules {
        scoring: Scoring::Philanthropic,
        ..Rules::default()
    };
    // Greater Peon (seat 4) finishes third, Lesser Peon (seat 3) first.
    let hand = finished(rules, &["7", "5 5", "", "", ""], &[3, 2, 4, 1, 0]);
    let points = hand.points().unwrap();
    // Standard: seat3 4, seat2 3, seat4 2, seat1 1, seat0 0; plus 1 for the
    // Greater Dalmuti (seat 0) and 1 for the Lesser Dalmuti (seat 1).
    assert_eq!(
        Seat::all(5).map(|s| points[s]).collect::<Vec<_>>(),
        [1, 2, 3, 4, 2]
    );
    // No bonus when the Peons finish in their places.
    let flat = finished(rules, &["", "", "", "5 5", "7"], &[0, 1, 2, 3, 4]);
    let points = flat.points().unwrap();
    assert_eq!(
        Seat::all(5).map(|s| points[s]).collect::<Vec<_>>(),
        [4, 3, 2, 1, 0]
    );
}

#[test]
fn merchant_exchange_is_blind_and_between_two_merchants() {
    let rules = Rules {
        merchant_exchange: true,
        ..Rules::default()
    };
    let mut hand = hand_with(rules, 7, false, &[]);
    assert_eq!(hand.decision(seat(2)), Some(Decision::ExchangeOffer));
    let card2 = hand.held(seat(2)).iter().next().unwrap();
    let before = hand.clone();
    // Seat 1 is the Lesser Dalmuti and seat 5 the Lesser Peon: not Merchants.
    for other in [1, 5, 2] {
        let err = hand
            .apply(
                seat(2),
                Action::OfferExchange {
                    partner: seat(other),
                    card: card2,
                },
            )
            .unwrap_err();
        assert_eq!(err.reason, Illegal::NotAMerchant(seat(other)));
    }
    assert_eq!(hand, before);
    hand.apply(
        seat(2),
        Action::OfferExchange {
            partner: seat(4),
            card: card2,
        },
    )
    .unwrap();
    // The partner first says ready, like every Merchant, then answers.
    assert_eq!(hand.decision(seat(4)), Some(Decision::Ready));
    hand.apply(seat(4), Action::Ready).unwrap();
    assert_eq!(
        hand.decision(seat(4)),
        Some(Decision::ExchangeAnswer { from: seat(2) })
    );
    // The partner chooses without seeing what is offered.
    assert_eq!(View::new(&hand, Viewer::Seat(seat(4))).my_trade(), None);
    let card4 = hand.held(seat(4)).iter().last().unwrap();
    let (h2, h4) = (hand.held(seat(2)), hand.held(seat(4)));
    hand.apply(seat(4), Action::AnswerExchange(card4)).unwrap();
    // The cards move with the taxes, all at once.
    assert_eq!(hand.held(seat(2)), h2);
    settle_taxes(&mut hand);
    let mut expect2 = h2;
    expect2.remove(card2, 1);
    expect2.add(card4, 1);
    assert_eq!(hand.held(seat(2)), expect2);
    assert_eq!(hand.held(seat(4)).len(), h4.len());
    assert!(View::new(&hand, Viewer::Seat(seat(4))).my_trade().is_some());
    assert_eq!(View::new(&hand, Viewer::Seat(seat(3))).my_trade(), None);
    assert!(
        View::new(&hand, Viewer::Seat(seat(3)))
            .log()
            .any(|e| matches!(e, Seen::MerchantExchanged { .. }))
    );
}

#[test]
fn the_setup_log_is_the_same_whoever_chooses_first() {
    // A record keeps the setup choices, not their order; its replay must
    // give the same hand, log included. A Merchant below the highest holds
    // both Jesters and keeps quiet; seat 2 declines the exchange.
    let rules = Rules {
        merchant_exchange: true,
        ..Rules::default()
    };
    let (dealt, holder) = (0..)
        .map(|s| Hand::deal(rules, 7, false, &mut DealRng::new(Seed::from(s))))
        .find_map(|h| match h.revolution_holder() {
            Some(holder) if [3, 4].contains(&holder.index()) => Some((h, holder)),
            _ => None,
        })
        .unwrap();
    let mut quiet_first = dealt.clone();
    let mut decline_first = dealt;
    quiet_first.apply(holder, Action::Ready).unwrap();
    quiet_first.apply(seat(2), Action::DeclineExchange).unwrap();
    decline_first
        .apply(seat(2), Action::DeclineExchange)
        .unwrap();
    decline_first.apply(holder, Action::Ready).unwrap();
    assert_eq!(quiet_first.events(), decline_first.events());
    assert_eq!(quiet_first, decline_first);
}

#[test]
fn merchant_exchange_needs_two_merchants_and_taxes() {
    let rules = Rules {
        merchant_exchange: true,
        ..Rules::default()
    };
    let five = hand_with(rules, 5, false, &[]);
    assert_eq!(five.decision(seat(2)), Some(Decision::Ready));
    let mut revolution = hand_with(rules, 7, false, &[(3, "J J 1 2 12 12 12 12 12 12 12")]);
    revolution.apply(seat(3), Action::CallRevolution).unwrap();
    assert_eq!(revolution.stage(), Stage::Play);
    let mut declined = hand_with(rules, 6, false, &[]);
    declined.apply(seat(2), Action::DeclineExchange).unwrap();
    assert!(declined.merchant_trade().is_none());
}

fn play_out(game: &mut Game) {
    while let Some(s) = game.hand().next_to_act() {
        game.apply(s, game.hand().worst_legal(s).unwrap()).unwrap();
    }
}

#[test]
fn newcomers_join_halfway_and_players_leave_between_hands() {
    let mut game = Game::with_seating(Rules::default(), names(5), Seed::from(8)).unwrap();
    assert_eq!(game.join("Eve", 2).unwrap_err(), TableError::HandInProgress);
    play_out(&mut game);
    // Five players: seat 2 or 3, the Greater Dalmuti's choice.
    assert_eq!(join_seats(5), [2, 3]);
    assert!(matches!(game.join("Eve", 1), Err(TableError::JoinSeat(_))));
    let leaver = game.next_seating()[0];
    let name = game.name(leaver).to_string();
    let mut rest = game.next_seating().to_vec();
    rest.retain(|&p| p != leaver);
    game.leave(&name).unwrap();
    assert_eq!(
        game.next_seating(),
        rest.as_slice(),
        "the others keep their order"
    );
    // Four players now: the newcomer sits at seat 2.
    assert!(matches!(game.join("Eve", 3), Err(TableError::JoinSeat(_))));
    let eve = game.join("Eve", 2).unwrap();
    assert_eq!(game.next_seating()[2], eve);
    assert_eq!(
        game.join("Eve", 3).unwrap_err(),
        TableError::DuplicateName("Eve".into())
    );
    // Leaves come before joins, the order a record applies them in.
    let other = game.name(game.next_seating()[0]).to_string();
    assert!(matches!(
        game.leave(&other),
        Err(TableError::LeaveAfterJoin(_))
    ));
    game.next_hand().unwrap();
    assert_eq!(game.hand().players(), 5);
    assert_eq!(game.seat_of(eve), Some(seat(2)));
    assert_eq!(game.seat_of(leaver), None);
}

#[test]
fn a_table_keeps_three_to_sixteen_seats_and_can_be_closed() {
    let mut small = Game::with_seating(Rules::default(), names(3), Seed::from(1)).unwrap();
    play_out(&mut small);
    assert_eq!(small.leave("P0").unwrap_err(), TableError::TooFew);
    let mut full = Game::with_seating(Rules::default(), names(16), Seed::from(1)).unwrap();
    play_out(&mut full);
    assert_eq!(full.join("Eve", 8).unwrap_err(), TableError::TooMany);
    let closed = Rules {
        join_and_leave: false,
        ..Rules::default()
    };
    let mut game = Game::with_seating(closed, names(4), Seed::from(1)).unwrap();
    play_out(&mut game);
    assert_eq!(game.join("Eve", 2).unwrap_err(), TableError::Closed);
}

#[test]
fn a_game_lasts_the_set_number_of_hands() {
    let rules = Rules {
        scoring: Scoring::Standard,
        hands: Some(3),
        ..Rules::default()
    };
    let mut game = Game::new(rules, names(4), Seed::from(2)).unwrap();
    let mut dealt = 1;
    loop {
        play_out(&mut game);
        if game.is_over() {
            break;
        }
        game.next_hand().unwrap();
        dealt += 1;
    }
    assert_eq!(dealt, 3);
    assert_eq!(game.next_hand().unwrap_err(), TableError::GameOver(3));
    // 3 hands of 3+2+1+0 points.
    assert_eq!(game.players().map(|p| game.total(p)).sum::<u32>(), 18);
}

#[test]
fn the_same_seed_deals_the_same_game() {
    let play = |seed| {
        let mut game = Game::new(Rules::default(), names(5), Seed::from(seed)).unwrap();
        play_out(&mut game);
        game.hands()[0].hand.clone()
    };
    assert_eq!(play(99), play(99));
    assert_ne!(play(99), play(100));
}

#[test]
fn a_scored_game_shows_every_seat_its_totals() {
    let rules = Rules {
        scoring: Scoring::Standard,
        ..Rules::default()
    };
    let mut game = Game::with_seating(rules, names(4), Seed::from(4)).unwrap();
    play_out(&mut game);
    game.next_hand().unwrap();
    let view = game.view(Viewer::Seat(seat(2)));
    let expected: Vec<u32> = Seat::all(4)
        .map(|s| game.total(game.player_at(s)))
        .collect();
    assert_eq!(view.scores(), Some(expected.as_slice()));
    assert_eq!(expected.iter().sum::<u32>(), 6);
    let unscored = Game::with_seating(Rules::default(), names(4), Seed::from(4)).unwrap();
    assert_eq!(unscored.view(Viewer::Spectator).scores(), None);
}
