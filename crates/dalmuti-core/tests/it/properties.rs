//! Property tests over random games.
//!
//! Every game here is random in everything a user can choose: the number of
//! players (3 to 16), every rule switch, the seed of the deal, the action at
//! every decision (uniform among the legal ones) and the players who join
//! and leave between hands. The choices come from a small deterministic
//! generator seeded by the test input, so a failing case replays exactly.

use dalmuti_core::record::{self, Checked, Record};
use dalmuti_core::{
    Action, Card, Cards, Deck, Event, Game, Hand, LogEntry, Rank, Rules, Scoring, Seat, Seed, Set,
    Stage, TableError, View, ViewSnapshot, Viewer, deal_in_order, join_seats,
};
use dalmuti_core::{Seats, Variant};
use proptest::prelude::*;
use serde_json::{Map, Value};

// ----- the random player -----

/// A small deterministic random source (SplitMix64) for the choices of a
/// game, seeded from the test input.
#[derive(Clone, Debug)]
struct Chooser(u64);

impl Chooser {
    fn new(seed: u64) -> Chooser {
        Chooser(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "nothing to choose from");
        (self.next() % n as u64) as usize
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }

    /// Any card of either deck.
    fn card(&mut self) -> Card {
        Card::from_index(self.below(dalmuti_core::CARD_KINDS)).expect("a card")
    }

    fn rank(&mut self) -> Rank {
        Rank::new(1 + self.below(12) as u8).expect("1..=12")
    }
}

/// A table to play: players, rules, the deal's seed and the players' choices.
#[derive(Clone, Debug)]
struct Setup {
    players: usize,
    rules: Rules,
    seed: u64,
    policy: u64,
}

fn scoring() -> impl Strategy<Value = Scoring> {
    prop_oneof![
        Just(Scoring::None),
        Just(Scoring::Standard),
        Just(Scoring::Philanthropic),
    ]
}

/// Every rule switch at random; games of 1 to 4 hands.
fn rules() -> impl Strategy<Value = Rules> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        scoring(),
        1u32..=4,
        prop::bool::weighted(0.8),
    )
        .prop_map(
            |(stripped_deck, first_deal_revolution, merchant_exchange, scoring, hands, open)| {
                Rules {
                    variant: dalmuti_core::Variant::Dalmuti,
                    stripped_deck,
                    first_deal_revolution,
                    merchant_exchange,
                    scoring,
                    hands: Some(hands),
                    join_and_leave: open,
                    climbing: None,
                }
            },
        )
}

/// 3 to 16 players (small tables more often: they are where the stripped
/// decks, the missing Lesser pair and the three-player titles are), any
/// rules, any seed; a third of the games are Corporate Shuffle (3 to 8
/// players, never a stripped deck).
fn setup() -> impl Strategy<Value = Setup> {
    (
        prop_oneof![2 => 3usize..=6, 1 => 7usize..=16],
        rules(),
        any::<u64>(),
        any::<u64>(),
        prop::bool::weighted(0.34),
    )
        .prop_map(|(players, mut rules, seed, policy, corporate)| {
            let mut players = players;
            if corporate {
                rules.variant = Variant::CorporateShuffle;
                rules.stripped_deck = false;
                players = 3 + players % 6;
            }
            Setup {
                players,
                rules,
                seed,
                policy,
            }
        })
}

/// A game in progress with a random player at every seat.
struct Table {
    game: Game,
    rng: Chooser,
    newcomers: usize,
    /// Whether newcomers may join before others leave in the same break.
    any_order: bool,
    /// The current hand's actions, in order, as `(seat, action)`.
    actions: Vec<(Seat, Action)>,
}

/// More steps than any game of four hands can take.
const MAX_STEPS: usize = 100_000;

impl Table {
    fn new(setup: &Setup) -> Table {
        let names = (0..setup.players).map(|i| format!("P{i}")).collect();
        Table::with_names(setup, names)
    }

    fn with_names(setup: &Setup, names: Vec<String>) -> Table {
        let game = Game::new(setup.rules, names, Seed::from(setup.seed))
            .expect("3 to 16 distinct names make a game");
        Table {
            game,
            rng: Chooser::new(setup.policy),
            newcomers: 0,
            any_order: false,
            actions: Vec::new(),
        }
    }

    fn hand(&self) -> &Hand {
        self.game.hand()
    }

    /// One step: a random legal action by a random seat to act, or between
    /// hands the table changes and the next deal. False once the game is
    /// over.
    fn step(&mut self) -> bool {
        if self.hand().stage() == Stage::Over {
            if self.game.is_over() {
                return false;
            }
            self.change_table();
            self.game
                .next_hand()
                .expect("a game not over deals its next hand");
            self.actions.clear();
            return true;
        }
        let (seat, action) = self.choose();
        if let Err(e) = self.game.apply(seat, action) {
            panic!("a legal action was refused: {e}");
        }
        self.actions.push((seat, action));
        true
    }

    /// A seat to act, and one of its legal actions, uniformly.
    fn choose(&mut self) -> (Seat, Action) {
        let hand = self.game.hand();
        let seats: Vec<Seat> = hand.to_act().iter().collect();
        let seat = self.rng.pick(&seats);
        let legal = hand.legal_actions(seat);
        (seat, self.rng.pick(&legal))
    }

    /// Between hands: sometimes players leave, then newcomers join (the
    /// order a record writes them in), when the table allows it.
    fn change_table(&mut self) {
        if !self.game.rules().join_and_leave {
            let someone = self.game.name(self.game.next_seating()[0]).to_string();
            assert_eq!(self.game.leave(&someone), Err(TableError::Closed));
            let n = self.game.next_seating().len();
            assert_eq!(
                self.game.join("Closed", join_seats(n)[0]),
                Err(TableError::Closed)
            );
            return;
        }
        let mut changes = [false, false, true, true];
        if self.any_order {
            for i in (1..changes.len()).rev() {
                changes.swap(i, self.rng.below(i + 1));
            }
        }
        for join in changes {
            let n = self.game.next_seating().len();
            let most = *self.game.rules().variant.players().end();
            if join && self.rng.one_in(3) && n < most {
                self.join_one();
            } else if !join && self.rng.one_in(3) && n > 3 {
                self.leave_one();
            }
        }
    }

    fn leave_one(&mut self) {
        let seating = self.game.next_seating();
        let player = self.rng.pick(seating);
        let name = self.game.name(player).to_string();
        let result = self.game.leave(&name);
        if self.any_order {
            // Leaves come before joins in a break, as a record applies them.
            if let Err(e) = result {
                assert!(matches!(e, TableError::LeaveAfterJoin(_)), "{e}");
            }
            return;
        }
        result.expect("a seated player may leave");
    }

    fn join_one(&mut self) {
        let n = self.game.next_seating().len();
        let seat = self.rng.pick(&join_seats(n));
        let mut name = format!("N{}", self.newcomers);
        while self.game.player_named(&name).is_some() {
            self.newcomers += 1;
            name = format!("N{}", self.newcomers);
        }
        self.newcomers += 1;
        let id = self
            .game
            .join(&name, seat)
            .expect("a newcomer may join halfway down");
        assert_eq!(self.game.next_seating()[seat], id);
    }
}

/// Plays a whole random game, calling `each` on the table at the start and
/// after every step.
fn play_game(
    setup: &Setup,
    mut each: impl FnMut(&mut Table) -> Result<(), TestCaseError>,
) -> Result<Table, TestCaseError> {
    let mut table = Table::new(setup);
    each(&mut table)?;
    let mut steps = 0;
    while table.step() {
        each(&mut table)?;
        steps += 1;
        prop_assert!(steps < MAX_STEPS, "the game does not end");
    }
    Ok(table)
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // Never write regression files into the source tree.
        failure_persistence: None,
        max_shrink_iters: 512,
        ..ProptestConfig::default()
    }
}

fn counts(cards: &Cards) -> [i32; 17] {
    let mut out = [0; 17];
    for card in Card::all() {
        out[card.index()] = i32::from(cards.count(card));
    }
    out
}

fn played_events(hand: &Hand) -> impl Iterator<Item = (Seat, Set)> + '_ {
    hand.events().iter().filter_map(|e| match *e {
        Event::Played { seat, set } => Some((seat, set)),
        _ => None,
    })
}

// ----- 1. conservation of cards (and 3. `worst_legal`) -----

/// Checks that the hand's cards are its deck, seat by seat: what each seat
/// holds is exactly what it was dealt, minus what it gave and plus what it
/// received in tax and merchant exchanges, minus what it played.
fn check_ledger(hand: &Hand) -> Result<(), TestCaseError> {
    let n = hand.players();
    let deck = hand.deck().cards();

    let mut dealt = Cards::EMPTY;
    for s in Seat::all(n) {
        dealt.add_all(&hand.dealt(s));
    }
    prop_assert_eq!(dealt, deck, "the deal is not the deck");

    let mut ledger: Vec<[i32; 17]> = Seat::all(n).map(|s| counts(&hand.dealt(s))).collect();
    let mut played_by = vec![0u32; n];
    let mut on_table = Cards::EMPTY;
    let move_card = |ledger: &mut Vec<[i32; 17]>, from: Seat, to: Seat, cards: &Cards| {
        for (card, k) in cards.kinds() {
            ledger[from.index()][card.index()] -= i32::from(k);
            ledger[to.index()][card.index()] += i32::from(k);
        }
    };
    for event in hand.events() {
        match *event {
            Event::TaxPaid(t) => {
                let count = if t.dalmuti == Seat::GREATER_DALMUTI {
                    2
                } else {
                    1
                };
                prop_assert!(t.dalmuti.index() < 2, "a tax from {}", t.dalmuti);
                prop_assert_eq!(t.peon, t.dalmuti.opposite(n));
                prop_assert_eq!(t.gift.len(), count);
                prop_assert_eq!(t.tribute.len(), count);
                prop_assert!(hand.dealt(t.dalmuti).contains(&t.gift));
                prop_assert_eq!(t.tribute, hand.dealt(t.peon).best(count));
                move_card(&mut ledger, t.dalmuti, t.peon, &t.gift);
                move_card(&mut ledger, t.peon, t.dalmuti, &t.tribute);
            }
            Event::MerchantExchange(t) => {
                prop_assert_eq!(t.offerer, Seat::new(2));
                prop_assert!(hand.dealt(t.offerer).count(t.offered) > 0);
                prop_assert!(hand.dealt(t.partner).count(t.returned) > 0);
                move_card(&mut ledger, t.offerer, t.partner, &Cards::one(t.offered));
                move_card(&mut ledger, t.partner, t.offerer, &Cards::one(t.returned));
            }
            Event::Played { seat, set } => {
                for (card, k) in set.cards().kinds() {
                    ledger[seat.index()][card.index()] -= i32::from(k);
                }
                played_by[seat.index()] += set.cards().len();
                on_table.add_all(&set.cards());
            }
            Event::RatbertTaken { seat } => {
                prop_assert!(
                    on_table.remove(Card::RATBERT, 1),
                    "Ratbert taken but not played"
                );
                ledger[seat.index()][Card::RATBERT.index()] += 1;
                played_by[seat.index()] -= 1;
            }
            _ => {}
        }
    }

    let mut all = on_table;
    for s in Seat::all(n) {
        let held = hand.held(s);
        let expected = ledger[s.index()];
        prop_assert!(
            expected.iter().all(|&k| k >= 0),
            "{s} would hold a negative count: {:?}",
            expected
        );
        prop_assert_eq!(counts(&held), expected, "{} holds {}", s, held);
        prop_assert_eq!(
            held.len() + played_by[s.index()],
            hand.dealt(s).len(),
            "exchanges changed the card count of {}",
            s
        );
        prop_assert_eq!(hand.holding().contains(s), !held.is_empty());
        all.add_all(&held);
    }
    prop_assert_eq!(all, deck, "held and played cards are not the deck");

    let finish = hand.finish_order();
    let out = if hand.stage() == Stage::Over {
        &finish[..finish.len() - 1]
    } else {
        finish
    };
    for &s in out {
        prop_assert!(hand.held(s).is_empty(), "{} went out holding cards", s);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(64))]

    /// The deck is fixed: at every step of every hand, the cards each seat
    /// holds plus every card played (less Ratbert each time it is taken
    /// back) are exactly the hand's deck; no seat's
    /// count of a card goes negative; each seat holds what it was dealt,
    /// less what it gave and plus what it got in tax and merchant exchanges
    /// (which never change a seat's card count), less what it played. Tax
    /// exchanges are card for card: the Peon gives its best dealt cards.
    #[test]
    fn cards_are_conserved(setup in setup()) {
        play_game(&setup, |t| check_ledger(t.hand()))?;
    }

    /// Corporate Shuffle's specials do what the spec says, at every step of
    /// random games: see [`check_specials`].
    #[test]
    fn the_specials_work_as_the_spec_says(setup in corporate_setup()) {
        play_game(&setup, |t| check_specials(t.hand()))?;
    }

    /// In Dalmuti the sets that may top the one on the table are, worst
    /// first, every rank better than it with enough cards (Jesters filling
    /// in), most naturals first, then the pass: the rules counted rank by
    /// rank, against the enumeration the engine takes from its rank masks.
    #[test]
    fn the_sets_that_top_are_every_rank_with_enough_cards(setup in setup()) {
        play_game(&setup, |t| {
            let hand = t.hand();
            let (Stage::Play, Some((_, top))) = (hand.stage(), hand.top()) else {
                return Ok(());
            };
            if hand.rules().variant != Variant::Dalmuti {
                return Ok(());
            }
            let seat = hand.turn();
            let held = hand.held(seat);
            let (size, jesters) = (top.size(), held.count(Card::JESTER));
            let mut expected = Vec::new();
            for r in (1..top.rank_number()).rev() {
                let rank = Rank::new(r).unwrap();
                let naturals = held.count(rank.into());
                for a in (1..=naturals.min(size)).rev() {
                    if a + jesters >= size {
                        expected.push(Action::Play(Set::new(rank, a, size - a).unwrap()));
                    }
                }
            }
            expected.push(Action::Pass);
            let legal = hand.legal_actions(seat);
            prop_assert_eq!(legal.as_slice(), expected.as_slice());
            Ok(())
        })?;
    }

    /// `worst_legal` is a shortcut a simple bot relies on: for every seat at
    /// every step it is the first of `legal_actions` (and `None` exactly
    /// when the seat has nothing to decide).
    #[test]
    fn worst_legal_is_the_first_legal_action(setup in setup()) {
        play_game(&setup, |t| {
            let hand = t.hand();
            for i in 0..16 {
                let seat = Seat::new(i);
                let legal = hand.legal_actions(seat);
                prop_assert_eq!(
                    hand.worst_legal(seat),
                    legal.first().copied(),
                    "{} at {:?}", seat, hand.decision(seat)
                );
            }
            Ok(())
        })?;
    }
}

/// Corporate Shuffle tables only.
fn corporate_setup() -> impl Strategy<Value = Setup> {
    (3usize..=8, rules(), any::<u64>(), any::<u64>()).prop_map(|(players, rules, seed, policy)| {
        Setup {
            players,
            rules: Rules {
                variant: Variant::CorporateShuffle,
                stripped_deck: false,
                ..rules
            },
            seed,
            policy,
        }
    })
}

/// Reads the hand's log trick by trick and checks the spec's rules of play
/// for the specials: a wedged player never plays or passes until the trick
/// ends (C6), and is another player who still held cards (C5); the World
/// Ruler ends its trick at once; Ratbert is taken back, by the trick's
/// winner, exactly when the trick held Ratbert and another card after it
/// and the winner still holds cards; never when the hand ends mid-trick
/// (C7); and the next lead is the winner's, or if out the next player
/// holding cards.
fn check_specials(hand: &Hand) -> Result<(), TestCaseError> {
    let events = hand.events();
    let mut wedged: Option<Seat> = None;
    let mut ratbert_plays: Option<usize> = None;
    let mut plays_in_trick = 0usize;
    let mut holding = Seats::first(hand.players());
    let mut expect_round_end = false;
    for (i, event) in events.iter().enumerate() {
        if expect_round_end {
            prop_assert!(
                matches!(
                    event,
                    Event::RoundWon { .. } | Event::WentOut { .. } | Event::HandOver
                ),
                "the World Ruler's trick goes on: {:?}",
                event
            );
        }
        match *event {
            Event::Played { seat, set } => {
                prop_assert_ne!(Some(seat), wedged, "a wedged player plays");
                plays_in_trick += 1;
                if set.is_ratbert() {
                    prop_assert_eq!(plays_in_trick, 1, "Ratbert only leads");
                    ratbert_plays = Some(1);
                } else if let Some(n) = ratbert_plays.as_mut() {
                    *n += 1;
                }
                if let Some(target) = set.wedgie_target() {
                    prop_assert_ne!(target, seat, "a Wedgie names its own player");
                    prop_assert!(holding.contains(target), "{} wedged without cards", target);
                    wedged = Some(target);
                } else if set.holds_wedgie() {
                    // No target only when the play ends the hand.
                    prop_assert!(
                        events[i + 1..].iter().any(|e| matches!(e, Event::HandOver)),
                        "a Wedgie without a target in a hand that goes on"
                    );
                }
                expect_round_end = set.is_world_ruler();
            }
            Event::Passed { seat } => {
                prop_assert_ne!(Some(seat), wedged, "a wedged player is asked to pass");
            }
            Event::WentOut { seat, .. } => {
                holding.remove(seat);
            }
            Event::RoundWon { seat, leader } => {
                let takes = ratbert_plays.is_some_and(|n| n > 1) && holding.contains(seat);
                let took = matches!(events.get(i + 1), Some(Event::RatbertTaken { seat: s }) if *s == seat);
                prop_assert_eq!(takes, took, "Ratbert's take-back at event {}", i);
                let lead = if holding.contains(seat) {
                    seat
                } else {
                    holding.next_after(seat).expect("two hold cards")
                };
                prop_assert_eq!(leader, lead);
                wedged = None;
                ratbert_plays = None;
                plays_in_trick = 0;
                expect_round_end = false;
            }
            Event::RatbertTaken { seat } => {
                let after_win =
                    matches!(events[i - 1], Event::RoundWon { seat: s, .. } if s == seat);
                prop_assert!(after_win, "Ratbert taken but not by the trick's winner");
            }
            Event::HandOver => {
                prop_assert!(
                    !events[i..]
                        .iter()
                        .any(|e| matches!(e, Event::RatbertTaken { .. })),
                    "Ratbert taken after the hand ended (C7)"
                );
            }
            _ => {}
        }
    }
    prop_assert_eq!(
        hand.wedged(),
        wedged.filter(|_| hand.stage() == Stage::Play)
    );
    Ok(())
}

// ----- 2. legal exactly when accepted -----

/// A random set, often close to what `held` could play on `top`.
fn random_set(rng: &mut Chooser, held: Cards, top: Option<Set>) -> Set {
    if rng.one_in(3) {
        return random_corporate_set(rng, held, top);
    }
    let jesters = rng.pick(&[0u8, 0, 0, 1, 1, 2, 3]);
    if rng.one_in(6) {
        return Set::jesters_alone(jesters.max(1)).expect("at least one");
    }
    let held_ranks: Vec<Rank> = held.kinds().filter_map(|(c, _)| c.rank()).collect();
    let rank = match top {
        Some(t) if rng.one_in(3) => {
            let r = i32::from(t.rank_number()) + rng.pick(&[-2, -1, -1, 0, 1]);
            Rank::new(r.clamp(1, 12) as u8).expect("clamped")
        }
        _ if !held_ranks.is_empty() && !rng.one_in(3) => rng.pick(&held_ranks),
        _ => rng.rank(),
    };
    let size = match top {
        Some(t) if !rng.one_in(4) => (i32::from(t.size()) + rng.pick(&[-1, 0, 0, 0, 1])).max(1),
        _ => 1 + rng.below(5) as i32,
    };
    let have = i32::from(held.count(rank.into()));
    let naturals = match rng.below(4) {
        0 => have + 1,
        1 => have,
        2 => size - i32::from(jesters),
        _ => 1,
    };
    Set::new(rank, naturals.clamp(1, 40) as u8, jesters).expect("at least one natural")
}

/// A random set of Corporate Shuffle's, specials and Dogberts included,
/// with a Wedgie aimed at any seat at all (its own, one that is out, one
/// beyond the table) or at no one.
fn random_corporate_set(rng: &mut Chooser, held: Cards, top: Option<Set>) -> Set {
    let dogberts = rng.pick(&[0u8, 0, 1, 1, 2, 3]);
    let size = top.map_or(1 + rng.below(4) as u8, |t| t.size());
    let set = match rng.below(6) {
        0 => Set::WORLD_RULER,
        1 => Set::RATBERT,
        2 => Set::dogberts_as(dogberts.max(1), 1 + rng.below(10) as u8).expect("1..=10"),
        3 => Set::wedgie(size.saturating_sub(1 + dogberts), dogberts).expect("small"),
        _ => {
            let r = if held.count(Card::TWIRLING_WEDGIE) > 0 && rng.one_in(2) {
                6
            } else {
                1 + rng.below(10) as u8
            };
            let naturals = size.saturating_sub(dogberts).max(1);
            Set::with_dogberts(Rank::new(r).expect("1..=10"), naturals, dogberts).expect("ok")
        }
    };
    if set.holds_wedgie() && !rng.one_in(5) {
        set.with_target(Some(Seat::new(rng.below(16))))
            .expect("a Wedgie")
    } else {
        set
    }
}

/// A random group of up to `max` cards, mostly from `held`.
fn random_cards(rng: &mut Chooser, held: Cards, max: usize) -> Cards {
    let mine: Vec<Card> = held.iter().collect();
    let mut cards = Cards::EMPTY;
    for _ in 0..rng.below(max + 1) {
        let card = if !mine.is_empty() && !rng.one_in(3) {
            rng.pick(&mine)
        } else {
            rng.card()
        };
        cards.add(card, 1);
    }
    cards
}

/// Actions to try for `seat`: every kind of action, near misses of its legal
/// actions (a card more or fewer, another rank, another partner) and random
/// ones.
fn candidates(hand: &Hand, seat: Seat, rng: &mut Chooser) -> Vec<Action> {
    let held = hand.held(seat);
    let top = hand.top().map(|(_, set)| set);
    let mut out = vec![
        Action::Pass,
        Action::CallRevolution,
        Action::Ready,
        Action::DeclineExchange,
    ];
    let legal = hand.legal_actions(seat);
    for _ in 0..legal.len().min(6) {
        match rng.pick(&legal) {
            Action::Play(set) if set.holds_wedgie() => {
                // Another target, or none.
                out.push(Action::Play(set.with_target(None).expect("none")));
                for s in [0, 1, rng.below(16)] {
                    out.push(Action::Play(
                        set.with_target(Some(Seat::new(s))).expect("a Wedgie"),
                    ));
                }
            }
            Action::Play(set) if set.declared().is_some() => {
                let v = set.declared().expect("declared");
                for other in [v.wrapping_sub(1), v + 1] {
                    out.extend(Set::dogberts_as(set.wilds(), other).map(Action::Play));
                }
                out.extend(Set::dogberts_as(set.wilds() + 1, v).map(Action::Play));
            }
            Action::Play(set)
                if set.wild() == Card::DOGBERT || set.is_world_ruler() || set.is_ratbert() =>
            {
                out.extend(Set::dogberts_as(1, 1 + rng.below(10) as u8).map(Action::Play));
            }
            Action::Play(set) => {
                let (r, a, j) = (set.rank_number(), set.naturals(), set.wilds());
                if let Some(rank) = set.rank() {
                    out.extend(Set::new(rank, a + 1, j).map(Action::Play));
                    out.extend(Set::new(rank, a - 1, j).map(Action::Play));
                    out.extend(Set::new(rank, a, j + 1).map(Action::Play));
                    out.extend(Set::new(rank, a, j.saturating_sub(1)).map(Action::Play));
                    for other in [r - 1, r + 1] {
                        if let Some(other) = Rank::new(other) {
                            out.extend(Set::new(other, a, j).map(Action::Play));
                        }
                    }
                } else {
                    out.extend(Set::jesters_alone(j + 1).map(Action::Play));
                    out.extend(Set::jesters_alone(j - 1).map(Action::Play));
                    if let Some(rank) = Rank::new(12) {
                        out.extend(Set::new(rank, 1, j - 1).map(Action::Play));
                    }
                }
            }
            Action::GiveTax(gift) => {
                let mut more = gift;
                more.add(rng.card(), 1);
                out.push(Action::GiveTax(more));
                let mut fewer = gift;
                let first = gift.iter().next().expect("a gift has cards");
                fewer.remove(first, 1);
                out.push(Action::GiveTax(fewer));
                let mut other = fewer;
                other.add(rng.card(), 1);
                out.push(Action::GiveTax(other));
            }
            Action::OfferExchange { partner, card } => {
                for p in [
                    partner.index().saturating_sub(1),
                    partner.index() + 1,
                    0,
                    1,
                    2,
                ] {
                    out.push(Action::OfferExchange {
                        partner: Seat::new(p.min(15)),
                        card,
                    });
                }
                out.push(Action::OfferExchange {
                    partner,
                    card: rng.card(),
                });
            }
            Action::AnswerExchange(_) => out.push(Action::AnswerExchange(rng.card())),
            _ => {}
        }
    }
    for _ in 0..10 {
        out.push(Action::Play(random_set(rng, held, top)));
    }
    for _ in 0..4 {
        out.push(Action::GiveTax(random_cards(rng, held, 3)));
    }
    for _ in 0..3 {
        out.push(Action::OfferExchange {
            partner: Seat::new(rng.below(16)),
            card: rng.card(),
        });
        out.push(Action::AnswerExchange(rng.card()));
    }
    out
}

/// For every seat (and one beyond the table): its legal actions are all
/// accepted, and a candidate is accepted exactly when it is legal; a refusal
/// names the seat and action and leaves the hand as it was.
fn check_legality(hand: &Hand, rng: &mut Chooser) -> Result<(), TestCaseError> {
    let n = hand.players();
    let mut seats: Vec<Seat> = Seat::all(n).collect();
    if n < 16 {
        seats.push(Seat::new(n + rng.below(16 - n)));
    }
    for seat in seats {
        let legal = hand.legal_actions(seat);
        prop_assert_eq!(hand.decision(seat).is_some(), !legal.is_empty(), "{}", seat);
        prop_assert_eq!(hand.to_act().contains(seat), !legal.is_empty(), "{}", seat);
        for (i, a) in legal.iter().enumerate() {
            prop_assert!(!legal[..i].contains(a), "{:?} listed twice", a);
            let mut after = hand.clone();
            let result = after.apply(seat, *a);
            prop_assert!(result.is_ok(), "legal {:?} refused: {:?}", a, result);
            prop_assert!(&after != hand, "legal {:?} accepted but changed nothing", a);
        }
        for c in candidates(hand, seat, rng) {
            let mut after = hand.clone();
            let result = after.apply(seat, c);
            prop_assert_eq!(
                result.is_ok(),
                legal.contains(&c),
                "{} {:?} at {:?}: {:?}",
                seat,
                c,
                hand.decision(seat),
                result
            );
            if let Err(e) = result {
                prop_assert_eq!(&after, hand, "a refused {:?} changed the hand", c);
                prop_assert_eq!(e.seat, seat);
                prop_assert_eq!(e.action, c);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(48))]

    /// The engine is its own referee: at random states of random games, for
    /// the seats to act and the seats not to act, every listed legal action
    /// is accepted, and any other action (wrong decision, wrong size, not
    /// topping, cards not held, wrong tax count, a partner who is not a
    /// Merchant…) is refused without changing the hand.
    #[test]
    fn legal_exactly_when_accepted(setup in setup(), probe in any::<u64>()) {
        let mut rng = Chooser::new(probe);
        play_game(&setup, |t| {
            if rng.one_in(8) {
                check_legality(t.hand(), &mut rng)?;
            }
            Ok(())
        })?;
    }
}

// ----- 4. views hide other seats' cards -----

/// The seats of play in a hand after a greater revolution are the deal's
/// seats reversed.
fn deal_index(hand: &Hand, seat: Seat) -> usize {
    match hand.revolution() {
        Some(r) if r.greater => hand.players() - 1 - seat.index(),
        _ => seat.index(),
    }
}

/// The hand dealt `deal` (in the seating of the deal) with `actions`
/// replayed, or `None` if the deal or an action is refused.
fn replay_hand(like: &Hand, deal: &[Cards], actions: &[(Seat, Action)]) -> Option<Hand> {
    let mut hand = Hand::from_deal(*like.rules(), like.players(), like.is_first(), deal).ok()?;
    for &(seat, action) in actions {
        hand.apply(seat, action).ok()?;
    }
    Some(hand)
}

/// What every viewer's log shows of the secret exchanges: cards only to the
/// two seats in them.
fn check_secret_log(hand: &Hand, viewer: Viewer, snap: &ViewSnapshot) -> Result<(), TestCaseError> {
    let me = |s: usize| viewer == Viewer::Seat(Seat::new(s));
    for entry in &snap.log {
        match entry {
            LogEntry::TaxPaid {
                dalmuti,
                peon,
                gift,
                tribute,
                ..
            } => {
                let paid = hand
                    .taxes()
                    .find(|t| t.dalmuti.index() == *dalmuti)
                    .expect("a logged tax was paid");
                if me(*dalmuti) || me(*peon) {
                    prop_assert_eq!(gift.clone(), Some(paid.gift.to_string()));
                    prop_assert_eq!(tribute.clone(), Some(paid.tribute.to_string()));
                } else {
                    prop_assert!(
                        gift.is_none() && tribute.is_none(),
                        "{:?} sees {:?}",
                        viewer,
                        entry
                    );
                }
            }
            LogEntry::MerchantExchange {
                offerer,
                partner,
                offered,
                returned,
            } => {
                if me(*offerer) || me(*partner) {
                    prop_assert!(offered.is_some() && returned.is_some());
                } else {
                    prop_assert!(
                        offered.is_none() && returned.is_none(),
                        "{:?} sees {:?}",
                        viewer,
                        entry
                    );
                }
            }
            _ => {}
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(64))]

    /// A player sees only their own cards and the exchanges they took part
    /// in. Swapping, in the deal, a card of seat a for a different card of
    /// seat b (neither in a tax or merchant exchange, both cards still in
    /// hand) and replaying the same actions changes nothing any other seat
    /// or a spectator can see, while a and b do see it. A spectator's
    /// snapshot has no hand, and the log shows a secret exchange's cards
    /// only to its two seats.
    #[test]
    fn views_hide_other_seats_cards(setup in setup(), stop in 0usize..400, picks in any::<u64>()) {
        let mut table = Table::new(&setup);
        let mut steps = 0;
        while steps < stop || table.hand().stage() == Stage::Over {
            if !table.step() {
                break;
            }
            steps += 1;
        }
        let h1 = table.hand().clone();
        prop_assume!(h1.stage() != Stage::Over);
        let n = h1.players();
        let mut rng = Chooser::new(picks);

        // Every view's log shows secret cards only to the seats involved.
        for viewer in Seat::all(n).map(Viewer::Seat).chain([Viewer::Spectator]) {
            let snap = View::new(&h1, viewer).snapshot();
            check_secret_log(&h1, viewer, &snap)?;
            if let Viewer::Seat(s) = viewer {
                prop_assert_eq!(snap.hand.clone(), Some(h1.held(s).to_string()));
            }
        }
        let spectator = serde_json::to_value(View::new(&h1, Viewer::Spectator).snapshot())
            .expect("a snapshot serializes");
        prop_assert!(spectator["hand"].is_null(), "a spectator sees {}", spectator["hand"]);
        prop_assert!(spectator["my_tax"].is_null() && spectator["my_trade"].is_null());
        for entry in spectator["log"].as_array().expect("a log") {
            for key in ["gift", "tribute", "offered", "returned"] {
                prop_assert!(
                    entry.get(key).is_none_or(Value::is_null),
                    "a spectator sees {}",
                    entry
                );
            }
        }

        // Pick the swap: a card x of a for a card y of b, x != y.
        let mut traded: Vec<Seat> = h1.taxes().flat_map(|t| [t.dalmuti, t.peon]).collect();
        if let Some(t) = h1.merchant_trade() {
            traded.extend([t.offerer, t.partner]);
        }
        let free: Vec<Seat> = Seat::all(n)
            .filter(|s| !traded.contains(s) && !h1.held(*s).is_empty())
            .collect();
        let mut swaps = Vec::new();
        for &a in &free {
            for &b in &free {
                if a >= b {
                    continue;
                }
                // Cards still held from the deal (Ratbert may be held
                // without having been dealt: taken back from a trick).
                let dealt_held = |s: Seat| -> Vec<Card> {
                    h1.held(s)
                        .kinds()
                        .map(|(c, _)| c)
                        .filter(|&c| h1.dealt(s).count(c) > 0)
                        .collect()
                };
                for x in dealt_held(a) {
                    for y in dealt_held(b) {
                        if x != y {
                            swaps.push((a, x, b, y));
                        }
                    }
                }
            }
        }
        prop_assume!(!swaps.is_empty());
        let (a, x, b, y) = rng.pick(&swaps);

        let mut deal: Vec<Cards> = vec![Cards::EMPTY; n];
        for s in Seat::all(n) {
            deal[deal_index(&h1, s)] = h1.dealt(s);
        }
        // The deal and the actions replay to the very same hand.
        let same = replay_hand(&h1, &deal, &table.actions);
        prop_assert_eq!(same.as_ref(), Some(&h1), "the hand does not replay");

        let (ia, ib) = (deal_index(&h1, a), deal_index(&h1, b));
        prop_assert!(deal[ia].remove(x, 1) && deal[ib].remove(y, 1));
        deal[ia].add(y, 1);
        deal[ib].add(x, 1);
        let h2 = replay_hand(&h1, &deal, &table.actions);
        // Moving a Jester can give someone both: the same actions still
        // replay (keeping quiet is their setup choice, as for anyone), and
        // nobody else can tell. Only a call could not replay.
        prop_assume!(h2.is_some());
        let h2 = h2.expect("assumed");
        let mut held_a = h1.held(a);
        held_a.remove(x, 1);
        held_a.add(y, 1);
        prop_assert_eq!(h2.held(a), held_a);

        for viewer in Seat::all(n)
            .filter(|&s| s != a && s != b)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
        {
            let (v1, v2) = (View::new(&h1, viewer), View::new(&h2, viewer));
            prop_assert_eq!(
                v1.snapshot(),
                v2.snapshot(),
                "{:?} can tell that {} and {} swapped {} for {}",
                viewer, a, b, x, y
            );
            prop_assert_eq!(v1.legal_actions(), v2.legal_actions());
        }
        for s in [a, b] {
            prop_assert_ne!(
                View::new(&h1, Viewer::Seat(s)).snapshot(),
                View::new(&h2, Viewer::Seat(s)).snapshot(),
                "{} does not see its own cards", s
            );
        }
    }
}

/// Moves one card `card` of seat `from` to seat `to` in exchange for the
/// first card of `to` that is not wild, so the shares stay the same.
fn give_card(deal: &mut [Cards], from: usize, to: usize, card: Card) {
    let back = deal[to]
        .iter()
        .find(|c| !c.is_wild())
        .expect("a seat holds at least five cards, at most two Jesters");
    assert!(deal[from].remove(card, 1) && deal[to].remove(back, 1));
    deal[to].add(card, 1);
    deal[from].add(back, 1);
}

proptest! {
    #![proptest_config(config(256))]

    /// The setup stage looks the same to everyone else whether a player was
    /// dealt both Jesters and kept quiet or nobody holds both: the same
    /// deal but for the Jesters' places (seat h holds both, or h and k one
    /// each), the same setup choices in the same order, and every view of a
    /// seat outside the two hands and their tax partners, and the
    /// spectator's, is identical at every step and once play begins.
    #[test]
    fn keeping_quiet_about_both_jesters_shows_nothing(
        setup in setup(),
        first in any::<bool>(),
        picks in any::<u64>(),
    ) {
        let n = setup.players;
        let mut rng = Chooser::new(picks);
        let dealt = Hand::deal(setup.rules, n, first, &mut dalmuti_core::DealRng::new(Seed::from(setup.seed)));
        let mut quiet: Vec<Cards> = Seat::all(n).map(|s| dealt.dealt(s)).collect();
        let h = rng.below(n);
        let k = (h + 1 + rng.below(n - 1)) % n;
        for s in 0..n {
            while s != h && quiet[s].wilds() > 0 {
                give_card(&mut quiet, s, h, setup.rules.variant.wild());
            }
        }
        let mut nobody = quiet.clone();
        give_card(&mut nobody, h, k, setup.rules.variant.wild());
        let a = Hand::from_deal(setup.rules, n, first, &quiet).expect("a deal");
        let b = Hand::from_deal(setup.rules, n, first, &nobody).expect("a deal");
        prop_assert_eq!(a.revolution_holder(), Some(Seat::new(h)));
        prop_assert_eq!(b.revolution_holder(), None);
        prop_assert!(a.revolution_offer(Seat::new(h)).is_some());

        let involved = [h, k, n - 1 - h, n - 1 - k];
        let viewers: Vec<Viewer> = Seat::all(n)
            .filter(|s| !involved.contains(&s.index()))
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
            .collect();
        let same = |a: &Hand, b: &Hand| -> Result<(), TestCaseError> {
            for &viewer in &viewers {
                let (va, vb) = (View::new(a, viewer), View::new(b, viewer));
                prop_assert_eq!(
                    va.snapshot(),
                    vb.snapshot(),
                    "{:?} can tell that seat {} holds both Jesters", viewer, h
                );
                prop_assert_eq!(va.legal_actions(), vb.legal_actions());
            }
            Ok(())
        };
        let (mut a, mut b) = (a, b);
        same(&a, &b)?;
        // Every player makes the same setup choices in one random order:
        // the first legal one (saying ready, the worst tax cards, no
        // exchange), which for the holder keeps quiet.
        while a.stage() == Stage::Setup {
            let to_act: Vec<Seat> = a.to_act().iter().collect();
            prop_assert_eq!(a.to_act(), b.to_act());
            let seat = rng.pick(&to_act);
            prop_assert_eq!(a.decision(seat), b.decision(seat));
            let action = a.worst_legal(seat).expect("to act");
            a.apply(seat, action).expect("legal");
            // The tax cards of the players involved may differ.
            let action = b.worst_legal(seat).expect("to act");
            b.apply(seat, action).expect("legal");
            same(&a, &b)?;
        }
        prop_assert_eq!(a.stage(), Stage::Play);
        prop_assert_eq!(b.stage(), Stage::Play);
        let declined = Event::RevolutionDeclined { seat: Seat::new(h) };
        prop_assert!(a.events().contains(&declined), "the omniscient log keeps it");
        // The holder alone is told that they kept quiet.
        let own = View::new(&a, Viewer::Seat(Seat::new(h))).snapshot();
        prop_assert!(
            own.log.contains(&LogEntry::RevolutionDeclined { seat: h }),
            "the holder is not told"
        );
    }
}

// ----- 5. records of games -----

fn names(game: &Game, players: impl Iterator<Item = dalmuti_core::PlayerId>) -> Vec<String> {
    players.map(|p| game.name(p).to_string()).collect()
}

/// Where an event of the setup stage, whose choices are simultaneous, goes
/// in one canonical order: keeping quiet, letting the exchange go, then
/// the exchanges themselves (which happen together at the end).
fn setup_rank(event: &Event) -> Option<u8> {
    match event {
        Event::RevolutionDeclined { .. } => Some(0),
        Event::ExchangeDeclined { .. } => Some(1),
        Event::TaxPaid(t) => Some(2 + t.dalmuti.index() as u8),
        Event::MerchantExchange(_) => Some(4),
        _ => None,
    }
}

/// The hand's log with the setup stage's simultaneous choices in one
/// order.
fn canonical_events(hand: &Hand) -> Vec<Event> {
    let mut events = hand.events().to_vec();
    if let Some(start) = events.iter().position(|e| setup_rank(e).is_some()) {
        let len = events[start..]
            .iter()
            .take_while(|e| setup_rank(e).is_some())
            .count();
        events[start..start + len].sort_by_key(setup_rank);
    }
    events
}

/// Two hands are the same hand: every state a player or referee can ask
/// about, and the same log but for the order of simultaneous setup
/// choices (which a record does not keep).
fn same_hand(a: &Hand, b: &Hand) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.rules(), b.rules());
    prop_assert_eq!(a.players(), b.players());
    prop_assert_eq!(a.is_first(), b.is_first());
    prop_assert_eq!(a.deck(), b.deck());
    prop_assert_eq!(a.stage(), b.stage());
    prop_assert_eq!(a.holding(), b.holding());
    prop_assert_eq!(a.revolution_holder(), b.revolution_holder());
    prop_assert_eq!(a.revolution(), b.revolution());
    prop_assert_eq!(a.taxed(), b.taxed());
    prop_assert_eq!(a.taxes().collect::<Vec<_>>(), b.taxes().collect::<Vec<_>>());
    prop_assert_eq!(a.merchant_trade(), b.merchant_trade());
    prop_assert_eq!(a.top(), b.top());
    prop_assert_eq!(a.passes(), b.passes());
    prop_assert_eq!(a.finish_order(), b.finish_order());
    prop_assert_eq!(a.to_act(), b.to_act());
    prop_assert_eq!(a.said_ready(), b.said_ready());
    prop_assert_eq!(a.next_to_act(), b.next_to_act());
    prop_assert_eq!(a.points(), b.points());
    if a.stage() == Stage::Play {
        prop_assert_eq!(a.turn(), b.turn());
    }
    for i in 0..16 {
        let s = Seat::new(i);
        prop_assert_eq!(a.dealt(s), b.dealt(s), "{}", s);
        prop_assert_eq!(a.held(s), b.held(s), "{}", s);
        prop_assert_eq!(a.decision(s), b.decision(s), "{}", s);
        prop_assert_eq!(a.legal_actions(s), b.legal_actions(s), "{}", s);
    }
    prop_assert_eq!(canonical_events(a), canonical_events(b));
    Ok(())
}

/// Each hand after the first is seated by the finishing order of the one
/// before, less the players who left, with each newcomer inserted halfway
/// down; each player's total is the sum of the points of their seats.
fn check_seating_and_totals(game: &Game) -> Result<(), TestCaseError> {
    let mut totals = vec![0u32; game.players().count()];
    for (i, log) in game.hands().iter().enumerate() {
        if i > 0 {
            let mut seating: Vec<_> = game.hands()[i - 1].finishers().collect();
            seating.retain(|p| !log.left.contains(p));
            for &(p, seat) in &log.joined {
                prop_assert!(join_seats(seating.len()).contains(&seat), "hand {}", i);
                seating.insert(seat, p);
            }
            prop_assert_eq!(&seating, &log.dealt_seating, "hand {} is seated wrongly", i);
        }
        if let Some(points) = log.hand.points() {
            for s in Seat::all(log.hand.players()) {
                totals[log.player_at(s).index()] += points[s];
            }
        }
    }
    for p in game.players() {
        prop_assert_eq!(game.total(p), totals[p.index()], "{}", game.name(p));
    }
    Ok(())
}

/// The record of `game` checks valid with the game's own results, reads
/// back equal, and replays to the same hands (`exact`: equal as values,
/// else as [`same_hand`]).
fn check_record(game: &Game, replay_seed: u64, exact: bool) -> Result<(), TestCaseError> {
    let record = Record::from_game(game);
    let text = record.to_json_string();
    let report = match record::check(&text) {
        Checked::Valid(report) => report,
        other => {
            return Err(TestCaseError::fail(format!(
                "the engine's record does not check: {other:?}\n{text}"
            )));
        }
    };
    prop_assert_eq!(report.hands.len(), game.hands().len());
    for (i, (log, hr)) in game.hands().iter().zip(&report.hands).enumerate() {
        let hand = &log.hand;
        prop_assert_eq!(
            &hr.finish_order,
            &names(game, log.finishers()),
            "hand {}",
            i
        );
        prop_assert_eq!(hr.finished, hand.stage() == Stage::Over, "hand {}", i);
        let revolution = match hand.revolution() {
            None => "none",
            Some(r) if r.greater => "greater",
            Some(_) => "revolution",
        };
        prop_assert_eq!(hr.revolution, revolution, "hand {}", i);
        let scores = hand.points().map(|points| {
            Seat::all(hand.players())
                .map(|s| (game.name(log.player_at(s)).to_string(), points[s]))
                .collect::<Vec<_>>()
        });
        prop_assert_eq!(&hr.scores, &scores, "hand {}", i);
    }
    let totals = game.scored().then(|| {
        game.players()
            .map(|p| (game.name(p).to_string(), game.total(p)))
            .collect()
    });
    prop_assert_eq!(&report.totals, &totals);
    let seating = game
        .is_between_hands()
        .then(|| names(game, game.next_seating().iter().copied()));
    prop_assert_eq!(&report.seating, &seating);

    check_seating_and_totals(game)?;
    prop_assert_eq!(Record::parse(&text), Ok(record.clone()));

    let replayed = record
        .replay(Seed::from(replay_seed))
        .map_err(|f| TestCaseError::fail(format!("the record does not replay: {f}")))?;
    prop_assert_eq!(replayed.hands().len(), game.hands().len());
    for (i, (mine, theirs)) in game.hands().iter().zip(replayed.hands()).enumerate() {
        if exact {
            prop_assert_eq!(&mine.hand, &theirs.hand, "hand {} replays differently", i);
        } else {
            same_hand(&mine.hand, &theirs.hand)
                .map_err(|e| TestCaseError::fail(format!("hand {i} replays differently: {e}")))?;
        }
        prop_assert_eq!(
            names(game, mine.dealt_seating.iter().copied()),
            names(&replayed, theirs.dealt_seating.iter().copied()),
            "hand {} is seated differently",
            i
        );
    }
    for p in game.players() {
        prop_assert_eq!(
            replayed
                .player_named(game.name(p))
                .map(|q| replayed.total(q)),
            Some(game.total(p))
        );
    }
    prop_assert_eq!(Record::from_game(&replayed), record);
    Ok(())
}

fn has_plays(hand: &Hand) -> bool {
    played_events(hand).next().is_some()
}

proptest! {
    #![proptest_config(config(64))]

    /// A record is the whole truth of a game: every game the engine plays,
    /// finished or saved in the middle of a hand's play, is written as a
    /// record that `dalmuti check` finds valid with the game's own finishing
    /// orders, scores and totals, that reads back equal, and that replays
    /// to the very same hands.
    #[test]
    fn records_of_games_check_and_replay(
        setup in setup(),
        stop in prop::option::of(0usize..1500),
        replay_seed in any::<u64>(),
    ) {
        let table = run_until(Table::new(&setup), stop, false);
        check_record(&table.game, replay_seed, false)?;
    }
}

/// A random game, stopped when `stop` says (any step, or only in the
/// middle of a hand's play).
fn run_until(mut table: Table, stop: Option<usize>, anywhere: bool) -> Table {
    let mut steps = 0;
    loop {
        let hand = table.hand();
        let here = anywhere || (hand.stage() == Stage::Play && has_plays(hand));
        if stop.is_some_and(|s| steps >= s) && here {
            break;
        }
        if !table.step() {
            break;
        }
        steps += 1;
    }
    table
}

/// Player names as a user may type them: letters, digits, spaces,
/// punctuation, quotes and other scripts.
fn player_names() -> impl Strategy<Value = Vec<String>> {
    prop::collection::hash_set("[A-Za-z0-9 :\\-_.'\"\\\\/~é漢]{1,6}", 3..=16)
        .prop_map(|names| names.into_iter().collect())
}

/// Names without `": "`, the separator of a play (see
/// `records_keep_any_player_names`).
fn plain_player_names() -> impl Strategy<Value = Vec<String>> {
    player_names().prop_filter("no play separator", |names| {
        names.iter().all(|n| !n.contains(": "))
    })
}

proptest! {
    #![proptest_config(config(64))]

    /// The same with the names users type: quotes, backslashes, slashes,
    /// colons, spaces and other scripts survive the record.
    #[test]
    fn records_keep_player_names(
        setup in setup(),
        names in plain_player_names(),
        stop in prop::option::of(0usize..1500),
    ) {
        let names: Vec<String> = names.into_iter().take(*setup.rules.variant.players().end()).collect();
        let setup = Setup { players: names.len(), ..setup };
        let table = run_until(Table::with_names(&setup, names), stop, false);
        check_record(&table.game, 0, false)?;
    }

    /// A replayed game is the same value as the original: `Hand: PartialEq`
    /// holds between a hand and its replay.
    #[test]

    fn replayed_hands_equal_the_originals(
        setup in setup(),
        stop in prop::option::of(0usize..1500),
        replay_seed in any::<u64>(),
    ) {
        let table = run_until(Table::new(&setup), stop, false);
        check_record(&table.game, replay_seed, true)?;
    }

    /// A game saved at any point, even in the middle of the revolution
    /// offer or the taxation, replays to the same state: decisions already
    /// made are not asked again.
    #[test]

    fn records_of_games_saved_anywhere(
        setup in setup(),
        hand in 0usize..4,
        stop in 0usize..8,
        replay_seed in any::<u64>(),
    ) {
        let mut table = Table::new(&setup);
        while table.game.hands().len() <= hand || table.actions.len() < stop {
            if !table.step() {
                break;
            }
        }
        check_record(&table.game, replay_seed, false)?;
    }

    /// Any non-empty distinct names make a game, so any must make a record
    /// that checks.
    #[test]

    fn records_keep_any_player_names(
        setup in setup(),
        names in player_names(),
        stop in prop::option::of(0usize..1500),
    ) {
        let names: Vec<String> = names.into_iter().take(*setup.rules.variant.players().end()).collect();
        let setup = Setup { players: names.len(), ..setup };
        let table = run_until(Table::with_names(&setup, names), stop, false);
        check_record(&table.game, 0, false)?;
    }

    /// `Game` accepts joins and leaves between hands in any order, so its
    /// record must seat the next hand the same way.
    #[test]

    fn records_keep_table_changes_in_any_order(
        setup in setup(),
        stop in prop::option::of(0usize..1500),
    ) {
        let mut table = Table::new(&setup);
        table.any_order = true;
        let table = run_until(table, stop, false);
        check_record(&table.game, 0, false)?;
    }
}

// ----- 6. `record::check` on any input -----

/// Checks a text, which must not panic, and the consistency of the verdict:
/// exit codes, fault positions inside the document, and a valid record
/// reading back into one with the same verdict.
fn verdict(text: &str) -> Result<Checked, TestCaseError> {
    let verdict = record::check(text);
    let _ = verdict.to_json();
    prop_assert!((0..=2).contains(&verdict.exit_code()));
    let doc: Option<Value> = serde_json::from_str(text).ok();
    let readable = doc
        .as_ref()
        .is_some_and(|d| d.get("format").and_then(Value::as_str) == Some(record::FORMAT));
    prop_assert_eq!(verdict.exit_code() == 2, !readable, "{:?}", verdict);
    match &verdict {
        Checked::Invalid(fault) => {
            prop_assert!(!fault.message.is_empty());
            let hands = doc
                .as_ref()
                .and_then(|d| d.get("hands"))
                .and_then(Value::as_array);
            match (fault.hand, fault.play) {
                (None, play) => prop_assert!(play.is_none(), "{:?}", fault),
                (Some(h), play) => {
                    let hands = hands
                        .ok_or_else(|| TestCaseError::fail("a fault in a hand but no hands"))?;
                    prop_assert!(h < hands.len(), "{:?} but {} hands", fault, hands.len());
                    if let Some(p) = play {
                        let plays = hands[h]
                            .get("plays")
                            .and_then(Value::as_array)
                            .map_or(0, Vec::len);
                        prop_assert!(p < plays, "{:?} but {} plays", fault, plays);
                    }
                }
            }
        }
        Checked::Valid(_) => {
            let record = Record::parse(text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&record::check(&record.to_json_string()), &verdict);
        }
        Checked::Unreadable(_) => {}
    }
    Ok(verdict)
}

/// Words a record is made of, so random documents reach deep into it.
const WORDS: &[&str] = &[
    "dalmuti-record/1",
    "dalmuti",
    "format",
    "rules",
    "seating",
    "draw",
    "hands",
    "deal",
    "plays",
    "tax",
    "revolution",
    "merchant_exchange",
    "leave",
    "join",
    "name",
    "seat",
    "variant",
    "stripped_deck",
    "first_deal_revolution",
    "scoring",
    "standard",
    "philanthropic",
    "none",
    "P0",
    "P1",
    "P2",
    "P3",
    "N0",
    "J",
    "1",
    "5 5",
    "12 J",
    "J J",
    "P0: 5",
    "P1: pass",
    "P2: 12 J",
    "pass",
    "",
    " ",
    "5 6",
    "0",
    "13",
];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(WORDS).prop_map(String::from),
        1 => any::<String>(),
    ]
}

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..20).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        word().prop_map(Value::String),
    ]
}

/// Any JSON value, at most 4 levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((word(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

const SHAPED_NAMES: &[&str] = &["P0", "P1", "P2", "P3", "P4", "P5", "Zed"];

/// A set as a record writes it, or something close: `"5 5 J"`, `"J"`,
/// `"pass"`, `"5 6"`.
fn play_text() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just("pass".to_string()),
        4 => (1u8..=12, 1u8..=3, 0u8..=1).prop_map(|(r, k, j)| {
            let rank = Rank::new(r).expect("1..=12");
            Set::new(rank, k, j).expect("k > 0").to_string()
        }),
        1 => prop::sample::select(&["J", "J J", "5 6", "x", "", "13"][..]).prop_map(String::from),
    ]
}

/// The cards of `seating` dealt from a shuffled deck of `rules`, as a
/// record's `deal`.
fn valid_deal(rules: &Value, seating: &[String]) -> BoxedStrategy<Value> {
    let n = seating.len();
    if !(3..=16).contains(&n) {
        return Just(Value::Object(Map::new())).boxed();
    }
    let rules: Rules = serde_json::from_value(rules.clone()).unwrap_or_default();
    let cards: Vec<Card> = Deck::for_table(&rules, n).cards().iter().collect();
    let seating = seating.to_vec();
    Just(cards)
        .prop_shuffle()
        .prop_map(move |cards| {
            let hands = deal_in_order(&cards, n);
            Value::Object(
                seating
                    .iter()
                    .zip(hands.as_slice(n))
                    .map(|(name, c)| (name.clone(), Value::from(c.to_string())))
                    .collect(),
            )
        })
        .boxed()
}

/// A hand of a record for `seating`: a real deal or any values, plays by
/// its players, and any other fields.
fn shaped_hand(rules: &Value, seating: &[String]) -> impl Strategy<Value = Value> + use<> {
    let mut names: Vec<String> = seating.to_vec();
    names.push("Zed".into());
    let name = prop::sample::select(names);
    let deal = prop_oneof![
        3 => valid_deal(rules, seating),
        1 => prop::collection::vec((name.clone(), json_value()), 0..5)
            .prop_map(|kv| Value::Object(kv.into_iter().collect())),
    ];
    let tax = prop::option::of(
        prop::collection::vec((name.clone(), play_text()), 1..3).prop_map(|kv| {
            Value::Object(kv.into_iter().map(|(n, c)| (n, Value::from(c))).collect())
        }),
    );
    (
        deal,
        tax,
        prop::collection::vec(
            (name, play_text()).prop_map(|(n, s)| format!("{n}: {s}")),
            0..8,
        ),
        prop::collection::vec((word(), json_value()), 0..2),
    )
        .prop_map(|(deal, tax, plays, extra)| {
            let mut h: Map<String, Value> = extra.into_iter().collect();
            h.insert("deal".into(), deal);
            if let Some(t) = tax {
                h.insert("tax".into(), t);
            }
            h.insert("plays".into(), Value::from(plays));
            Value::Object(h)
        })
}

/// A document of this format with plausible or any values in its fields:
/// rules, seating, draw, and hands with deals, taxes and plays.
fn record_shaped() -> impl Strategy<Value = Value> {
    let rules = prop_oneof![
        3 => rules().prop_map(|r| serde_json::to_value(r).expect("rules serialize")),
        1 => json_value(),
    ];
    let seating = prop_oneof![
        3 => prop::sample::subsequence(SHAPED_NAMES, 3..=6).prop_shuffle(),
        1 => prop::collection::vec(prop::sample::select(SHAPED_NAMES), 0..6),
    ]
    .prop_map(|names| names.into_iter().map(String::from).collect::<Vec<_>>());
    (rules, seating)
        .prop_flat_map(|(rules, seating)| {
            let hands = prop::collection::vec(shaped_hand(&rules, &seating), 0..3);
            (
                Just(rules),
                Just(seating),
                hands,
                prop::option::weighted(0.2, json_value()),
            )
        })
        .prop_map(|(rules, seating, hands, draw)| {
            let mut doc = Map::new();
            doc.insert("format".into(), Value::from(record::FORMAT));
            doc.insert("rules".into(), rules);
            doc.insert("seating".into(), Value::from(seating));
            doc.insert("hands".into(), Value::Array(hands));
            if let Some(d) = draw {
                doc.insert("draw".into(), d);
            }
            Value::Object(doc)
        })
}

/// A JSON pointer step.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Every node of `v` as a JSON pointer.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointers(item, format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                pointers(item, format!("{at}/{}", escape(k)), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// A small random JSON value, often one that looks like part of a record.
fn random_value(rng: &mut Chooser, names: &[String], depth: usize) -> Value {
    match rng.below(if depth == 0 { 6 } else { 8 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.one_in(2)),
        2 => {
            let numbers: [f64; 12] = [
                -1.0, 0.0, 1.0, 2.0, 3.0, 5.0, 15.0, 16.0, 17.0, 255.0, 1e20, 2.5,
            ];
            let x = rng.pick(&numbers);
            if x.fract() == 0.0 && (0.0..1e19).contains(&x) {
                Value::from(x as u64)
            } else {
                Value::from(x)
            }
        }
        3 => Value::from(rng.pick(WORDS)),
        4 => Value::from(random_cards(rng, Cards::EMPTY, 4).to_string()),
        5 if !names.is_empty() => Value::from(rng.pick(names).as_str()),
        5 => Value::from("Zed"),
        6 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, names, depth - 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.below(4))
                .map(|_| {
                    let key = if names.is_empty() || rng.one_in(2) {
                        rng.pick(WORDS).to_string()
                    } else {
                        rng.pick(names)
                    };
                    (key, random_value(rng, names, depth - 1))
                })
                .collect(),
        ),
    }
}

/// The hands of a record document, if it has them.
fn hands_mut(doc: &mut Value) -> Option<&mut Vec<Value>> {
    doc.get_mut("hands").and_then(Value::as_array_mut)
}

/// The plays of a random hand that has some.
fn some_plays<'a>(doc: &'a mut Value, rng: &mut Chooser) -> Option<&'a mut Vec<Value>> {
    let hands = hands_mut(doc)?;
    let with_plays: Vec<usize> = (0..hands.len())
        .filter(|&i| {
            hands[i]
                .get("plays")
                .and_then(Value::as_array)
                .is_some_and(|p| !p.is_empty())
        })
        .collect();
    if with_plays.is_empty() {
        return None;
    }
    let i = rng.pick(&with_plays);
    hands[i].get_mut("plays").and_then(Value::as_array_mut)
}

/// One random change to a record document.
fn mutate(doc: &mut Value, rng: &mut Chooser, names: &[String]) {
    match rng.below(7) {
        0 => {
            // Delete a key.
            let mut all = Vec::new();
            pointers(doc, String::new(), &mut all);
            let objects: Vec<String> = all
                .into_iter()
                .filter(|p| {
                    doc.pointer(p)
                        .and_then(Value::as_object)
                        .is_some_and(|o| !o.is_empty())
                })
                .collect();
            if objects.is_empty() {
                return;
            }
            let at = rng.pick(&objects);
            if let Some(obj) = doc.pointer_mut(&at).and_then(Value::as_object_mut) {
                let keys: Vec<String> = obj.keys().cloned().collect();
                let key = rng.pick(&keys);
                obj.shift_remove(&key);
            }
        }
        1 => {
            // Replace any value.
            let mut all = Vec::new();
            pointers(doc, String::new(), &mut all);
            let at = rng.pick(&all);
            let new = random_value(rng, names, 2);
            if let Some(v) = doc.pointer_mut(&at) {
                *v = new;
            }
        }
        2 => {
            // Rewrite a play.
            let who = if names.is_empty() || rng.one_in(8) {
                "Zed".to_string()
            } else {
                rng.pick(names)
            };
            let what = match rng.below(4) {
                0 => "pass".to_string(),
                1 => random_set(rng, Cards::EMPTY, None).to_string(),
                2 => random_cards(rng, Cards::EMPTY, 3).to_string(),
                _ => rng
                    .pick(&["", "5 6", "J J J", "0", "pass pass", ":"])
                    .to_string(),
            };
            let sep = rng.pick(&[": ", ": ", ": ", ":", " "]);
            let new = Value::from(format!("{who}{sep}{what}"));
            if let Some(plays) = some_plays(doc, rng) {
                let j = rng.below(plays.len());
                plays[j] = new;
            }
        }
        3 => {
            // Swap two plays.
            if let Some(plays) = some_plays(doc, rng) {
                let (i, j) = (rng.below(plays.len()), rng.below(plays.len()));
                plays.swap(i, j);
            }
        }
        4 => {
            // Cut the plays short.
            if let Some(plays) = some_plays(doc, rng) {
                let keep = rng.below(plays.len());
                plays.truncate(keep);
            }
        }
        5 => {
            // Play a hand twice.
            if let Some(hands) = hands_mut(doc).filter(|h| !h.is_empty()) {
                let i = rng.below(hands.len());
                let copy = hands[i].clone();
                let at = if rng.one_in(2) { i + 1 } else { hands.len() };
                hands.insert(at, copy);
            }
        }
        _ => {
            // Change a word of a string: a card, a name, a separator.
            let mut all = Vec::new();
            pointers(doc, String::new(), &mut all);
            let strings: Vec<String> = all
                .into_iter()
                .filter(|p| doc.pointer(p).is_some_and(Value::is_string))
                .collect();
            if strings.is_empty() {
                return;
            }
            let at = rng.pick(&strings);
            let replacement = rng.card().token().to_string();
            if let Some(Value::String(s)) = doc.pointer_mut(&at) {
                let mut words: Vec<String> = s.split(' ').map(String::from).collect();
                let k = rng.below(words.len());
                match rng.below(3) {
                    0 => words[k] = replacement,
                    1 => {
                        words.remove(k);
                    }
                    _ => words.insert(k, replacement),
                }
                *s = words.join(" ");
            }
        }
    }
}

/// A finished game, or one saved in the middle of a hand's play.
fn played_game(setup: &Setup, stop: Option<usize>) -> Game {
    run_until(Table::new(setup), stop, false).game
}

proptest! {
    #![proptest_config(config(256))]

    /// `dalmuti check` reads untrusted files: whatever the text, it gives a
    /// verdict (exit code 2 exactly when the text is not JSON of this
    /// format) and never panics.
    #[test]
    fn check_survives_any_text(text in any::<String>()) {
        verdict(&text)?;
    }

    /// The same for text made of JSON's own characters.
    #[test]
    fn check_survives_json_like_text(text in "[\\[\\]{}\":,0-9a-zJP .\\-]{0,200}") {
        verdict(&text)?;
    }

    /// The same for any JSON value.
    #[test]
    fn check_survives_any_json(value in json_value()) {
        verdict(&value.to_string())?;
    }

    /// The same for documents of this format with random fields: they are
    /// never unreadable, and a fault points inside the document.
    #[test]
    fn check_survives_record_shaped_json(value in record_shaped()) {
        let v = verdict(&value.to_string())?;
        prop_assert_ne!(v.exit_code(), 2);
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// A record cut short anywhere is not JSON: exit code 2, no panic.
    #[test]
    fn truncated_records_are_unreadable(setup in setup(), cut in any::<prop::sample::Index>()) {
        let text = Record::from_game(&played_game(&setup, None)).to_json_string();
        let mut end = cut.index(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let v = verdict(&text[..end])?;
        prop_assert_eq!(v.exit_code(), 2);
    }

    /// A record damaged in 1 to 3 places (a key deleted, a value replaced, a
    /// play rewritten, two plays swapped, the plays cut short, a hand played
    /// twice, a card changed) still gets a verdict, and when it is invalid
    /// the fault's hand and play are inside the document.
    #[test]
    fn check_survives_damaged_records(
        setup in setup(),
        stop in prop::option::of(0usize..1500),
        changes in 1usize..=3,
        damage in any::<u64>(),
    ) {
        let game = played_game(&setup, stop);
        let mut doc = serde_json::to_value(Record::from_game(&game)).expect("serializes");
        let names: Vec<String> = game.players().map(|p| game.name(p).to_string()).collect();
        let mut rng = Chooser::new(damage);
        for _ in 0..changes {
            mutate(&mut doc, &mut rng, &names);
        }
        let text = if rng.one_in(2) {
            serde_json::to_string_pretty(&doc).expect("prints")
        } else {
            doc.to_string()
        };
        verdict(&text)?;
    }
}
