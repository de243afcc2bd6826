//! Corporate Shuffle: one focused test per rule of the spec
//! (`shared/specs/corporate-shuffle.md`; docs/RULES.md, C1–C7).

use dalmuti_core::*;

fn cards(s: &str) -> Cards {
    s.parse().unwrap()
}

fn set(s: &str) -> Set {
    s.parse().unwrap()
}

fn seat(i: usize) -> Seat {
    Seat::new(i)
}

fn rules() -> Rules {
    Rules {
        variant: Variant::CorporateShuffle,
        ..Rules::default()
    }
}

/// A position of play: `held` by seat ("" for a seat gone out, listed in
/// `out`), `turn` to act, `top` played by a seat.
fn position(held: &[&str], out: &[usize], turn: usize, top: Option<(usize, &str)>) -> Hand {
    Hand::from_position(PlayPosition {
        rules: rules(),
        held: held.iter().map(|h| cards(h)).collect(),
        gone_out: out.iter().map(|&s| seat(s)).collect(),
        turn: seat(turn),
        top: top.map(|(s, t)| (seat(s), set(t))),
        passes: 0,
    })
    .unwrap()
}

fn aimed(s: &str, target: usize) -> Action {
    Action::Play(set(s).with_target(Some(seat(target))).unwrap())
}

fn apply(hand: &mut Hand, s: usize, action: Action) {
    if let Err(e) = hand.apply(seat(s), action) {
        panic!("{e}");
    }
}

fn refused(hand: &Hand, s: usize, action: Action) -> Illegal {
    let mut after = hand.clone();
    let err = after.apply(seat(s), action).unwrap_err();
    assert_eq!(&after, hand, "a refused {action} changed the hand");
    err.reason
}

#[test]
fn the_deck_has_sixty_cards_and_is_never_stripped() {
    let deck = Deck::for_table(&rules(), 5);
    assert_eq!(deck.len(), 60);
    assert_eq!(deck.cards().to_string().matches("10").count(), 10);
    for special in [Card::WORLD_RULER, Card::TWIRLING_WEDGIE, Card::RATBERT] {
        assert_eq!(deck.cards().count(special), 1);
    }
    assert_eq!(deck.cards().count(Card::DOGBERT), 2);
    // C1: no stripped deck; C2: 3 to 8 players.
    let stripped = Rules {
        stripped_deck: true,
        ..rules()
    };
    let names = |n: usize| (0..n).map(|i| format!("P{i}")).collect::<Vec<_>>();
    assert!(matches!(
        Game::new(stripped, names(5), Seed::from(1)),
        Err(TableError::Rules(BadRules::StrippedCorporate))
    ));
    assert!(Game::new(rules(), names(3), Seed::from(1)).is_ok());
    assert!(Game::new(rules(), names(8), Seed::from(1)).is_ok());
    let nine = Game::new(rules(), names(9), Seed::from(1)).unwrap_err();
    assert_eq!(
        nine.to_string(),
        "Corporate Shuffle seats 3 to 8 players, not 9"
    );
}

#[test]
fn the_seating_draw_counts_the_wedgie_as_six_and_a_dogbert_worst() {
    // C3: T ties with a 6; D (12) is worse than R (11).
    let deck = Deck::CORPORATE_SHUFFLE;
    let draw = |cards: [&str; 3]| {
        let round: DrawRound = cards
            .iter()
            .enumerate()
            .map(|(p, c)| (p, c.parse().unwrap()))
            .collect();
        check_draw(3, deck, &[round])
    };
    assert_eq!(draw(["D", "R", "0"]), Ok(vec![2, 1, 0]));
    assert_eq!(draw(["T", "5", "7"]), Ok(vec![1, 0, 2]));
    assert_eq!(draw(["T", "6", "7"]), Err(BadDraw::StillTied));
}

#[test]
fn interns_pay_dogberts_first_then_by_value_wedgie_before_sixes() {
    // C4: the Junior Intern's two best are its Dogbert and the World Ruler.
    let mut hand = Hand::from_deal(rules(), 4, false, &{
        let mut deal = vec![Cards::EMPTY; 4];
        let deck = Deck::CORPORATE_SHUFFLE.cards();
        let fixed = [(3, "0 6 6 T 9 9 10 10 10 10 10 10 10 R D")];
        let mut rest = deck;
        for (s, c) in fixed {
            deal[s] = cards(c);
            assert!(rest.remove_all(&deal[s]));
        }
        let mut s = 0;
        for card in rest.iter() {
            while s == 3 || deal[s].len() == 15 {
                s = (s + 1) % 4;
            }
            deal[s].add(card, 1);
            s = (s + 1) % 4;
        }
        deal
    })
    .unwrap();
    let boss_gift = hand.held(seat(0)).worst(2);
    let little_gift = hand.held(seat(1)).worst(1);
    apply(&mut hand, 0, Action::GiveTax(boss_gift));
    apply(&mut hand, 1, Action::GiveTax(little_gift));
    apply(&mut hand, 2, Action::Ready);
    apply(&mut hand, 3, Action::Ready);
    let paid: Vec<TaxPayment> = hand.taxes().collect();
    assert_eq!(paid[0].tribute, cards("0 D"));
    // The Senior Intern's best single follows the same order.
    let senior = hand.dealt(seat(2));
    assert_eq!(paid[1].tribute, senior.best(1));
}

#[test]
fn the_world_ruler_tops_a_single_and_wins_the_trick_at_once() {
    let mut hand = position(&["0 5", "9 9", "3 4"], &[], 0, Some((2, "3")));
    assert!(matches!("0 0".parse::<Set>(), Err(NotASet::AloneOnly(_))));
    apply(&mut hand, 0, Action::Play(Set::WORLD_RULER));
    // Nobody answers it: seat 0 leads again at once.
    assert_eq!(hand.top(), None);
    assert_eq!(hand.decision(seat(0)), Some(Decision::Lead));
    assert!(matches!(
        hand.events().last(),
        Some(Event::RoundWon { seat: s, leader }) if *s == seat(0) && *leader == seat(0)
    ));
    // Only a set of one: it cannot answer a pair.
    let pair = position(&["0 5", "9 9", "3 4"], &[], 0, Some((1, "9 9")));
    assert!(
        !pair
            .legal_actions(seat(0))
            .contains(&Action::Play(Set::WORLD_RULER))
    );
    assert!(matches!(
        refused(&pair, 0, Action::Play(Set::WORLD_RULER)),
        Illegal::WrongSize { .. }
    ));
    // Played as the last card, the next player holding cards leads.
    let mut last = position(&["0", "9 9", "3 4", "7"], &[], 0, Some((3, "7")));
    apply(&mut last, 0, Action::Play(Set::WORLD_RULER));
    assert_eq!(last.decision(seat(1)), Some(Decision::Lead));
}

#[test]
fn the_wedgie_names_another_player_who_must_pass_for_the_rest_of_the_trick() {
    let mut hand = position(&["T 9", "5 8", "4 7", "3 2"], &[], 0, None);
    let legal = hand.legal_actions(seat(0));
    // One action per target: every other player holding cards.
    for target in 1..4 {
        assert!(legal.contains(&aimed("T", target)), "T wedgie {target}");
    }
    assert_eq!(
        refused(&hand, 0, Action::Play(set("T"))),
        Illegal::WedgieNeedsTarget
    );
    assert_eq!(
        refused(&hand, 0, aimed("T", 0)),
        Illegal::WedgieTarget(seat(0))
    );
    apply(&mut hand, 0, aimed("T", 1));
    assert_eq!(hand.wedged(), Some(seat(1)));
    // Seat 1 is skipped: no pass of theirs in the log (C6).
    assert_eq!(hand.turn(), seat(2));
    apply(&mut hand, 2, Action::Pass);
    apply(&mut hand, 3, Action::Play(set("3")));
    assert_eq!(hand.turn(), seat(0));
    apply(&mut hand, 0, Action::Pass);
    assert_eq!(hand.turn(), seat(2), "the wedged seat 1 is skipped again");
    apply(&mut hand, 2, Action::Pass);
    // Everyone not wedged passed: seat 3 wins and the wedge ends.
    assert_eq!(hand.wedged(), None);
    assert_eq!(hand.decision(seat(3)), Some(Decision::Lead));
    assert!(
        !hand
            .events()
            .iter()
            .any(|e| matches!(e, Event::Passed { seat: s } if *s == seat(1)))
    );
    // Another player who still holds cards (C5).
    let out = position(&["T 9", "", "4 7", "3 2"], &[1], 0, None);
    assert_eq!(
        refused(&out, 0, aimed("T", 1)),
        Illegal::WedgieTarget(seat(1))
    );
    // Only a set holding T names anyone.
    assert!(matches!(
        set("6").with_target(Some(seat(1))),
        Err(NotASet::TargetWithoutWedgie)
    ));
}

#[test]
fn a_wedgie_that_ends_the_hand_names_no_one_and_one_that_leaves_no_one_ends_the_trick() {
    let last = position(&["T", "5 8", "", ""], &[2, 3], 0, None);
    assert_eq!(
        last.legal_actions(seat(0)).as_slice(),
        [Action::Play(set("T"))]
    );
    assert_eq!(refused(&last, 0, aimed("T", 1)), Illegal::WedgieEndsHand);
    // Two players left: wedging the other leaves no one to answer, so the
    // trick is won at once and its player leads again.
    let mut two = position(&["T 9", "5 8", "", ""], &[2, 3], 0, None);
    apply(&mut two, 0, aimed("T", 1));
    assert_eq!(two.decision(seat(0)), Some(Decision::Lead));
    assert_eq!(two.wedged(), None);
}

#[test]
fn ratbert_goes_back_to_the_winner_of_its_trick_unless_alone_or_the_winner_went_out() {
    // Led and topped: the winner takes it.
    let mut topped = position(&["R 9", "5 8", "4 7"], &[], 0, None);
    apply(&mut topped, 0, Action::Play(Set::RATBERT));
    apply(&mut topped, 1, Action::Play(set("5")));
    apply(&mut topped, 2, Action::Pass);
    apply(&mut topped, 0, Action::Pass);
    assert_eq!(topped.held(seat(1)), cards("8 R"));
    assert!(matches!(
        topped.events().last(),
        Some(Event::RatbertTaken { seat: s }) if *s == seat(1)
    ));
    // The only card of its trick: gone for good.
    let mut alone = position(&["R 9", "5 8", "4 7"], &[], 0, None);
    apply(&mut alone, 0, Action::Play(Set::RATBERT));
    apply(&mut alone, 1, Action::Pass);
    apply(&mut alone, 2, Action::Pass);
    assert_eq!(alone.held(seat(0)), cards("9"));
    assert!(
        !alone
            .events()
            .iter()
            .any(|e| matches!(e, Event::RatbertTaken { .. }))
    );
    // The winner went out in the trick: nobody takes it.
    let mut out = position(&["R 9", "5", "4 7"], &[], 0, None);
    apply(&mut out, 0, Action::Play(Set::RATBERT));
    apply(&mut out, 1, Action::Play(set("5")));
    apply(&mut out, 2, Action::Pass);
    apply(&mut out, 0, Action::Pass);
    assert_eq!(out.held(seat(1)), Cards::EMPTY);
    assert_eq!(out.decision(seat(2)), Some(Decision::Lead));
    // C7: the hand ends mid-trick, and Ratbert stays on the table.
    let mut ends = position(&["R 9", "5", "", ""], &[2, 3], 0, None);
    apply(&mut ends, 0, Action::Play(Set::RATBERT));
    apply(&mut ends, 1, Action::Play(set("5")));
    assert_eq!(ends.stage(), Stage::Over);
    assert_eq!(ends.held(seat(0)), cards("9"));
    // Ratbert, worth 11, can only lead.
    let follow = position(&["R 9", "5 8", "4 7"], &[], 0, Some((2, "7")));
    assert!(
        !follow
            .legal_actions(seat(0))
            .contains(&Action::Play(Set::RATBERT))
    );
}

#[test]
fn dogberts_alone_play_as_a_declared_value_and_take_the_value_of_a_set() {
    let hand = position(&["D D 9", "5 8", "4 7"], &[], 0, Some((1, "5")));
    let legal = hand.legal_actions(seat(0));
    // A lone Dogbert may play as 1 to 4 to top a 5, never 0 or 5 and up.
    for v in 1..=4 {
        assert!(legal.contains(&Action::Play(Set::dogberts_as(1, v).unwrap())));
    }
    assert!(!legal.contains(&Action::Play(Set::dogberts_as(1, 5).unwrap())));
    assert!(matches!(
        refused(&hand, 0, Action::Play(Set::dogberts_as(1, 7).unwrap())),
        Illegal::DoesNotTop { .. }
    ));
    assert_eq!("D as 0".parse::<Set>(), Err(NotASet::DeclaredValue(0)));
    // With numbered cards they take those cards' value.
    let pair = position(&["D 4 9", "5 8", "7 7"], &[], 0, Some((2, "7 7")));
    assert!(
        pair.legal_actions(seat(0))
            .contains(&Action::Play(set("4 D")))
    );
}

#[test]
fn a_takeover_by_the_junior_intern_reverses_the_seats() {
    // Both Dogberts dealt to the Junior Intern (seat 4 of 5).
    let mut deal = vec![Cards::EMPTY; 5];
    let mut rest = Deck::CORPORATE_SHUFFLE.cards();
    deal[4] = cards("D D 10 10 10 10 10 10 10 10 9 9");
    assert!(rest.remove_all(&deal[4]));
    let mut s = 0;
    for card in rest.iter() {
        while s == 4 || deal[s].len() == 12 {
            s = (s + 1) % 5;
        }
        deal[s].add(card, 1);
        s = (s + 1) % 5;
    }
    let mut hand = Hand::from_deal(rules(), 5, false, &deal).unwrap();
    assert_eq!(
        hand.revolution_offer(seat(4)),
        Some(RevolutionOffer { greater: true })
    );
    apply(&mut hand, 4, Action::CallRevolution);
    assert_eq!(
        hand.revolution(),
        Some(Revolution {
            by: seat(0),
            greater: true
        })
    );
    assert_eq!(hand.held(seat(0)), deal[4]);
    assert!(!hand.taxed());
}

#[test]
fn views_show_who_is_wedged_and_never_another_hand() {
    let mut hand = position(&["T 9", "5 8", "4 7", "3 2"], &[], 0, None);
    apply(&mut hand, 0, aimed("T", 2));
    for viewer in [Viewer::Seat(seat(1)), Viewer::Spectator] {
        let snap = View::new(&hand, viewer).snapshot();
        assert_eq!(snap.wedged, Some(2));
        assert_eq!(snap.variant, Variant::CorporateShuffle);
        let text = serde_json::to_string(&snap).unwrap();
        // Seat 2's "4 7" appears nowhere in another's view.
        assert!(!text.contains("4 7"), "{text}");
        assert!(text.contains(r#""wedgie":2"#), "{text}");
    }
}
