use super::setup::*;
use super::*;

fn cards(s: &str) -> Cards {
    s.parse().unwrap()
}

/// Rivals who may top any set of up to `beat` cards, with a value
/// better than its (one rival, at seat 1).
fn uniform(variant: Variant, beat: u8) -> Rivals {
    let mut by_seat = PerSeat::<[u8; LANES]>::default();
    by_seat[Seat::new(1)] = [beat; LANES];
    by_seat[Seat::new(1)][0] = 0;
    Rivals {
        variant,
        seats: Seats::only(Seat::new(1)),
        wedged: None,
        by_seat,
        beat: by_seat[Seat::new(1)],
    }
}

/// What a seat of a determinization knows, as [`playout_play`] once
/// built it for [`Rivals::from_knowledge`]: every card the others hold
/// unseen, nothing known, no floors.
fn knowledge_of_determinization(hand: &Hand, seat: Seat) -> Knowledge {
    let players = hand.players();
    let mut unseen = Cards::EMPTY;
    let mut counts = PerSeat::<u32>::default();
    for s in Seat::all(players) {
        counts[s] = hand.held(s).len();
        if s != seat {
            unseen.add_all(&hand.held(s));
        }
    }
    Knowledge {
        me: seat,
        players,
        mine: hand.held(seat),
        played: Cards::EMPTY,
        played_by: PerSeat::default(),
        unseen,
        counts,
        known: PerSeat::default(),
        floor: PerSeat::default(),
    }
}

/// The plan as first written: each group in turn, then each loser
/// secured with wild cards in turn, from the cards themselves.
fn plan_group_by_group(cards: Cards, rivals: &Rivals) -> Plan {
    let mut plan = Plan {
        losers: 0,
        winners: 0,
        spare_jesters: i32::from(cards.wilds()),
        loser_ranks: 0,
    };
    for (value, copies) in groups(cards) {
        if rivals.cannot_top_group(value, copies) {
            plan.winners += 1;
        } else {
            plan.losers += 1;
            plan.loser_ranks |= 1 << value;
        }
    }
    for (value, copies) in groups(cards) {
        if plan.loser_ranks & (1 << value) == 0 || !takes_wilds(rivals.variant, value) {
            continue;
        }
        let need = i32::from(rivals.jesters_to_secure(value, copies));
        if need > plan.spare_jesters {
            continue;
        }
        plan.spare_jesters -= need;
        plan.loser_ranks &= !(1 << value);
        plan.losers -= 1;
        plan.winners += 1;
    }
    if !cards.is_empty() && cards.len() == u32::from(cards.wilds()) {
        let set = wilds_alone(rivals.variant, cards.wilds()).unwrap();
        plan.spare_jesters = 0;
        if rivals.cannot_top_group(set.rank_number(), set.size()) {
            plan.winners = 1;
        } else {
            plan.losers = 1;
        }
    }
    plan
}

proptest::proptest! {
    // Never write regression files into the source tree.
    #![proptest_config(proptest::test_runner::Config {
        cases: 64,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    /// The rivals counted once for a determinization are the ones
    /// counted seat by seat from what the deciding seat knows, a
    /// hand's shape after each legal play is that of the cards left,
    /// and its plan is the one counted group by group, at
    /// every decision of hands of both games, every table size, played
    /// by a mix of worst and random legal actions (so the Wedgie,
    /// Ratbert and wild cards come up).
    #[test]
    fn what_the_model_counts_incrementally_is_what_it_would_recount(
        seed in proptest::prelude::any::<u64>(),
        players in 3usize..=8,
        corporate in proptest::prelude::any::<bool>(),
    ) {
        use dalmuti_core::{DealRng, Rules, Seed, Stage};
        use rand::Rng;
        let rules = Rules {
            variant: if corporate { Variant::CorporateShuffle } else { Variant::Dalmuti },
            ..Rules::default()
        };
        let mut hand = Hand::deal(rules, players, false, &mut DealRng::new(Seed::from(seed)));
        let mut rng = crate::bot_rng(seed);
        let mut checked = 0;
        while let Some(seat) = hand.next_to_act() {
            if hand.stage() == Stage::Play {
                for s in Seat::all(players) {
                    let k = knowledge_of_determinization(&hand, s);
                    let expected = Rivals::from_knowledge(&k, rules.variant, hand.wedged());
                    proptest::prop_assert_eq!(Rivals::of_determinization(&hand, s, &k.counts), expected);
                    checked += 1;
                }
            }
            let legal = hand.legal_actions(seat);
            if hand.stage() == Stage::Play {
                // The shape after each play, worked out from the
                // hand's, is the shape of the cards left.
                let held = hand.held(seat);
                let rivals = Rivals::of_determinization(
                    &hand,
                    seat,
                    &knowledge_of_determinization(&hand, seat).counts,
                );
                for set in plays(&legal) {
                    let mut rest = without(held, set);
                    proptest::prop_assert_eq!(Shape::of(held).without(set), Shape::of(rest));
                    proptest::prop_assert_eq!(
                        Plan::of(Shape::of(rest), &rivals),
                        plan_group_by_group(rest, &rivals)
                    );
                    rest.add(Card::RATBERT, 1);
                    proptest::prop_assert_eq!(
                        Shape::of(held).without(set).with_ratbert(),
                        Shape::of(rest)
                    );
                }
            }
            let action = if rng.random_ratio(1, 3) {
                legal[rng.random_range(0..legal.len())]
            } else {
                hand.worst_legal(seat).unwrap()
            };
            hand.apply(seat, action).unwrap();
        }
        proptest::prop_assert!(checked > 0);
    }
}

#[test]
fn a_lone_bad_card_is_the_cheapest_gift() {
    let hand = cards("1 3 5 5 9 12 12 J");
    let worst = worst_lone_card(hand).unwrap();
    assert_eq!(worst.token(), "9");
    assert!(gift_cost(hand, cards("J")) > gift_cost(hand, cards("5")));
    assert!(gift_cost(hand, cards("3")) > gift_cost(hand, cards("12")));
}

#[test]
fn jesters_alone_need_no_group_and_the_plan_counts_them_once() {
    let rivals = uniform(Variant::Dalmuti, 1);
    let plan = Plan::of(Shape::of(cards("J J")), &rivals);
    assert_eq!((plan.losers, plan.winners), (0, 1));
    let plan = Plan::of(Shape::of(cards("7 J")), &uniform(Variant::Dalmuti, 5));
    assert_eq!((plan.losers, plan.winners, plan.spare_jesters), (1, 0, 1));
}
