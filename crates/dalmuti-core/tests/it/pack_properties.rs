//! Property tests of President and Daifugō over random games: every option
//! of the rule set at random (7-pass, 10-discard, same-rank skip and
//! unbeatable 2s too), random table sizes, random actions. No card is made
//! or lost; an action (a play, a card given or discarded) is accepted
//! exactly when the engine lists it; a view shows no card its seat may not
//! see, a card given on only to its giver and receiver, a discard only to
//! its player.

use dalmuti_core::{
    Action, Card, Cards, Climbing, DealRng, Event, FirstLead, Hand, Lock, Rules, Seat, Seed, Set,
    Suit, View, Viewer,
};
use proptest::prelude::*;

fn climbing() -> impl Strategy<Value = Climbing> {
    (
        (
            0u8..=2,
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        ),
        (
            any::<bool>(),
            any::<bool>(),
            0u8..4,
            any::<bool>(),
            any::<bool>(),
        ),
        (
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        ),
        (
            any::<bool>(),
            any::<bool>(),
            prop_oneof![Just(0u8), Just(20u8), Just(6u8)],
            0u8..3,
        ),
        (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(
                (jokers, sequences, beyond, revolution, seq_rev),
                (eight, spade, lock, eleven, five),
                (nine, two, miyako, forbidden, permanent),
                (last_passes, lead_pass, stalemate, first),
                (seven, ten, same_rank, unbeatable),
            )| Climbing {
                jokers,
                sequences,
                joker_beyond_ends: beyond && sequences,
                revolution,
                sequence_revolution: seq_rev && sequences,
                eight_cut: eight,
                spade_three: spade,
                lock: [Lock::Off, Lock::Suit, Lock::Number, Lock::Strict][usize::from(lock)],
                eleven_back: eleven,
                five_skip: five,
                nine_reverse: nine,
                two_clears: two,
                seven_pass: seven,
                ten_discard: ten,
                same_rank_skip: same_rank,
                unbeatable_twos: unbeatable,
                miyako_ochi: miyako,
                forbidden_finish: forbidden,
                permanent_pass: permanent,
                last_player_passes: last_passes,
                lead_may_pass: lead_pass,
                stalemate_passes: stalemate,
                exchange: true,
                first_lead: [
                    FirstLead::DiamondThree,
                    FirstLead::ClubThree,
                    FirstLead::TopClass,
                ][usize::from(first)],
                class_cycle: 0,
                reseat_every: 0,
            },
        )
}

/// A small deterministic chooser.
struct Chooser(u64);

impl Chooser {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

fn deal(mut climbing: Climbing, players: usize, ranked: bool, seed: u64) -> Hand {
    if players < 4 {
        // Two Jokers need four players (Rules::check).
        climbing.jokers = climbing.jokers.min(1);
    }
    let president = seed % 2 == 0;
    let rules = Rules {
        climbing: Some(climbing),
        ..if president {
            Rules::president()
        } else {
            Rules::daifugo()
        }
    };
    let ranking: Vec<Seat> = (0..players).rev().map(Seat::new).collect();
    Hand::deal_ranked(
        rules,
        players,
        ranked.then_some(&ranking[..]),
        &mut DealRng::new(Seed::from(seed)),
    )
}

/// Every play a seat could try with the cards it holds and more: every
/// set of one rank with its Jokers' every role, every sequence, the lone
/// Joker, and some plays of cards it does not hold.
fn candidates(held: Cards, chooser: &mut Chooser) -> Vec<Action> {
    let mut out = vec![Action::Pass, Action::Play(Set::LONE_JOKER)];
    let jokers = held.jokers();
    for place in 1..=13u8 {
        for naturals in 1u8..16 {
            for joker_suits in 0u8..16 {
                for extra in 0..=2 {
                    if let Some(set) = Set::of_rank(place, naturals, joker_suits, extra) {
                        let fits = held.contains(&set.cards());
                        if fits || chooser.below(200) == 0 {
                            out.push(Action::Play(set));
                        }
                    }
                }
            }
        }
    }
    for suit in Suit::ALL {
        for low in 0..=14u8 {
            for len in 3..=15u8 {
                let mut masks = vec![0u16];
                for a in 0..len {
                    masks.push(1 << a);
                    for b in a + 1..len {
                        masks.push(1 << a | 1 << b);
                    }
                }
                for at in masks {
                    if let Some(set) = Set::sequence(suit, low, len, at) {
                        if at.count_ones() as u8 > jokers.max(1) {
                            continue;
                        }
                        if held.contains(&set.cards()) || chooser.below(500) == 0 {
                            out.push(Action::Play(set));
                        }
                    }
                }
            }
        }
    }
    // Cards given or discarded (7-pass, 10-discard): some held, some not.
    for card in held
        .iter()
        .take(4)
        .chain(Card::pack().skip(chooser.below(40)).take(2))
    {
        out.push(Action::Give(card));
        out.push(Action::Discard(card));
    }
    // The exchange: some groups of the cards held, right and wrong sizes.
    let cards: Vec<Card> = held.iter().collect();
    for _ in 0..6 {
        let mut gift = Cards::EMPTY;
        for _ in 0..1 + chooser.below(3) {
            if cards.is_empty() {
                break;
            }
            let card = cards[chooser.below(cards.len())];
            if gift.count(card) < held.count(card) {
                gift.add(card, 1);
            }
        }
        out.push(Action::GiveTax(gift));
    }
    out
}

fn total(hand: &Hand) -> Cards {
    let mut all = hand.discarded();
    for seat in Seat::all(hand.players()) {
        all.add_all(&hand.held(seat));
    }
    for e in hand.events() {
        if let Event::Played { set, .. } = e {
            all.add_all(&set.cards());
        }
    }
    all
}

/// Every card token a view's snapshot shows, but its own hand, its own
/// exchange and the cards played: none may be another seat's.
fn check_view(hand: &Hand, seat: Seat) -> Result<(), TestCaseError> {
    let view = View::new(hand, Viewer::Seat(seat));
    let snap = view.snapshot();
    // What the seat may know of the pack, as one mask: its own cards, its
    // exchange, every card played and every card a Joker stood for.
    let mut known = view.cards().map_or(0, |c| c.pack_mask());
    if let Some(tax) = view.my_tax() {
        known |= tax.gift.pack_mask() | tax.tribute.pack_mask();
    }
    known |= view.my_discards().pack_mask();
    for entry in view.log() {
        if let dalmuti_core::Seen::Event(Event::Given { card, from, to }) = entry {
            prop_assert!(
                from == seat || to == seat,
                "{seat} sees a card given by {from} to {to}"
            );
            known |= Cards::one(card).pack_mask();
        }
        if let dalmuti_core::Seen::Event(Event::Discarded { card, seat: by }) = entry {
            prop_assert_eq!(by, seat, "a card another seat discarded");
            known |= Cards::one(card).pack_mask();
        }
    }
    for (_, set) in view.plays() {
        known |= set.cards().pack_mask() | set.jokers_stand_for().pack_mask();
    }
    let seen = Cards::from_pack(known, 0);
    let played = Cards::EMPTY;
    let text = serde_json::to_string(&snap).unwrap();
    for token in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let Ok(card) = token.parse::<Card>() else {
            continue;
        };
        if !card.is_suited() || card.is_joker() {
            continue;
        }
        prop_assert!(
            seen.count(card) > 0 || played.count(card) > 0,
            "{seat} sees {token}, which is neither its own nor played: {text}"
        );
    }
    // Another seat's exchange shows only its size.
    for entry in view.log() {
        if let dalmuti_core::Seen::Event(Event::TaxPaid(t)) = entry {
            prop_assert!(t.dalmuti == seat || t.peon == seat);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn no_card_made_or_lost_and_listed_exactly_when_accepted(
        climbing in climbing(),
        players in 3usize..=8,
        ranked in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut hand = deal(climbing, players, ranked, seed);
        let deck = hand.deck().cards();
        let mut chooser = Chooser(seed);
        let mut steps = 0;
        while let Some(seat) = hand.next_to_act() {
            let legal = hand.legal_actions(seat);
            prop_assert!(!legal.is_empty());
            // Every few decisions, every candidate: accepted exactly when
            // listed, and a refusal changes nothing.
            if steps % 7 == 0 {
                for action in candidates(hand.held(seat), &mut chooser) {
                    let mut trial = hand.clone();
                    let accepted = trial.apply(seat, action).is_ok();
                    prop_assert_eq!(accepted, legal.contains(&action), "{} {}", seat, action);
                    if !accepted {
                        prop_assert_eq!(&trial, &hand);
                    }
                }
                // Other seats are not to act.
                for other in Seat::all(players).filter(|&s| hand.decision(s).is_none()) {
                    prop_assert!(hand.clone().apply(other, Action::Pass).is_err());
                }
            }
            let action = legal[chooser.below(legal.len())];
            hand.apply(seat, action).unwrap();
            prop_assert_eq!(total(&hand), deck, "no card made or lost");
            for s in Seat::all(players) {
                check_view(&hand, s)?;
            }
            steps += 1;
            prop_assert!(steps < 20_000);
        }
        prop_assert_eq!(hand.finish_order().len(), players);
        let mut order: Vec<usize> = hand.finish_order().iter().map(|s| s.index()).collect();
        order.sort_unstable();
        prop_assert_eq!(order, (0..players).collect::<Vec<_>>());
    }

    #[test]
    fn a_sampled_position_holds_only_what_its_seat_may_know(
        climbing in climbing(),
        players in 3usize..=6,
        seed in any::<u64>(),
        stop in 0usize..60,
    ) {
        let mut hand = deal(climbing, players, true, seed);
        let mut chooser = Chooser(seed ^ 1);
        for _ in 0..stop {
            let Some(seat) = hand.next_to_act() else { break };
            let legal = hand.legal_actions(seat);
            hand.apply(seat, legal[chooser.below(legal.len())]).unwrap();
        }
        let Some(me) = hand.next_to_act() else { return Ok(()) };
        let view = View::new(&hand, Viewer::Seat(me));
        let mut unseen: Vec<Card> = view.unseen().iter().collect();
        unseen.reverse();
        let mut others = dalmuti_core::PerSeat::<Cards>::default();
        for seat in Seat::all(players).filter(|&s| s != me) {
            for _ in 0..view.card_count(seat) {
                others[seat].add(unseen.pop().unwrap(), 1);
            }
        }
        prop_assert_eq!(unseen.len() as u32, view.hidden_discards(), "the others' discards are left");
        let sample = view.sample(&others).unwrap();
        prop_assert!(sample.events().is_empty(), "no log: it holds the exchange's cards");
        prop_assert_eq!(sample.held(me), hand.held(me));
        for seat in Seat::all(players).filter(|&s| s != me) {
            prop_assert_eq!(sample.held(seat), others[seat]);
            prop_assert_eq!(sample.dealt(seat), others[seat]);
        }
        prop_assert_eq!(sample.legal_actions(me), hand.legal_actions(me));
    }
}
