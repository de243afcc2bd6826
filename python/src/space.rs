//! The fixed action space of the environments: every action a player may
//! ever take at a table of given rules and size, numbered once, so that a
//! learning agent's output `i` always means the same action.

use std::collections::HashMap;

use dalmuti_core::{
    ABOVE_TWO, Action, Card, Cards, DECLARED_VALUES, Deck, Rank, Rules, Seat, Set, Suit, TOP_PLACE,
};

/// The numbering (documented in python/README.md): 0 pass, 1 ready, 2 call
/// a revolution, 3 decline the exchange; then the tax gifts (for each card
/// kind of the deck from the best, that card alone, then with each kind from
/// it on); the exchange offers (by partner seat, then card kind); the cards
/// given back; then the sets: the World Ruler, each rank from the best (by
/// natural cards, then with 0, 1, 2 Jesters or 1, 2 Dogberts), the Twirling
/// Wedgie (by 6s and Dogberts, aimed at no one then at each seat), Ratbert,
/// Dogberts alone (by count, then declared value) and Jesters alone.
#[derive(Clone, Debug)]
pub struct ActionSpace {
    actions: Vec<Action>,
    numbers: HashMap<Action, u32>,
}

impl ActionSpace {
    pub fn new(rules: &Rules, players: usize) -> ActionSpace {
        if rules.variant.is_suited() {
            return ActionSpace::numbered(pack_actions(rules, players));
        }
        let deck = Deck::for_table(rules, players).cards();
        let kinds: Vec<Card> = deck.kinds().map(|(card, _)| card).collect();
        let held = |card: Card| deck.count(card);
        let mut actions = vec![
            Action::Pass,
            Action::Ready,
            Action::CallRevolution,
            Action::DeclineExchange,
        ];
        // Tax gifts: one card, or two (the same kind twice when the deck
        // has two of it).
        for (i, &a) in kinds.iter().enumerate() {
            actions.push(Action::GiveTax(Cards::one(a)));
            for &b in &kinds[i..] {
                let mut two = Cards::one(a);
                two.add(b, 1);
                if a != b || held(a) >= 2 {
                    actions.push(Action::GiveTax(two));
                }
            }
        }
        for partner in 0..players {
            for &card in &kinds {
                let partner = Seat::new(partner);
                actions.push(Action::OfferExchange { partner, card });
            }
        }
        actions.extend(kinds.iter().map(|&card| Action::AnswerExchange(card)));
        push_sets(&mut actions, &deck, players);
        ActionSpace::numbered(actions)
    }

    fn numbered(actions: Vec<Action>) -> ActionSpace {
        let numbers = actions
            .iter()
            .enumerate()
            .map(|(i, &a)| (a, i as u32))
            .collect();
        ActionSpace { actions, numbers }
    }

    pub fn len(&self) -> usize {
        self.actions.len()
    }

    pub fn action(&self, number: usize) -> Option<Action> {
        self.actions.get(number).copied()
    }

    pub fn number(&self, action: &Action) -> Option<usize> {
        self.numbers.get(action).map(|&n| n as usize)
    }

    /// Writes the mask of `legal` into `out` (1 for each legal action's
    /// number), or returns the legal action that has no number: a gap in
    /// the space, said plainly rather than hidden.
    pub fn mask(&self, legal: &[Action], out: &mut [i8]) -> Result<(), Action> {
        out.fill(0);
        for action in legal {
            out[self.number(action).ok_or(*action)?] = 1;
        }
        Ok(())
    }
}

/// Every set the deck can make, in both games.
fn push_sets(actions: &mut Vec<Action>, deck: &Cards, players: usize) {
    let jesters = deck.count(Card::JESTER);
    let dogberts = deck.count(Card::DOGBERT);
    let mut push = |set: Option<Set>| {
        if let Some(set) = set {
            actions.push(Action::Play(set));
        }
    };
    if deck.count(Card::WORLD_RULER) > 0 {
        push(Some(Set::WORLD_RULER));
    }
    for number in 1..=12u8 {
        let rank = Rank::new(number).expect("1 to 12");
        let Some(face) = Card::from_index(number as usize) else {
            continue;
        };
        for naturals in 1..=deck.count(face) {
            for wilds in 0..=jesters {
                push(Set::new(rank, naturals, wilds));
            }
            for wilds in 1..=dogberts {
                push(Set::with_dogberts(rank, naturals, wilds));
            }
        }
    }
    if deck.count(Card::TWIRLING_WEDGIE) > 0 {
        let sixes = deck.count(Card::from_index(6).expect("a rank"));
        for sixes in 0..=sixes {
            for wilds in 0..=dogberts {
                let Some(wedgie) = Set::wedgie(sixes, wilds) else {
                    continue;
                };
                // Aimed at each other seat, or at no one (only when it ends
                // the hand).
                push(Some(wedgie));
                for target in 0..players {
                    push(wedgie.with_target(Some(Seat::new(target))).ok());
                }
            }
        }
    }
    if deck.count(Card::RATBERT) > 0 {
        push(Some(Set::RATBERT));
    }
    for wilds in 1..=dogberts {
        for value in DECLARED_VALUES {
            push(Set::dogberts_as(wilds, value));
        }
    }
    for wilds in 1..=jesters {
        push(Set::jesters_alone(wilds));
    }
}

/// Every action of President and Daifugō under `rules` (documented in
/// python/README.md, "The actions of President and Daifugō"): 0 pass; the
/// cards a rich player gives back (one card, then two, by the slots of the
/// observation: the 52 cards from `3S` up, then the Joker); a card given
/// on (7-pass), a card discarded (10-discard), each by slot; then the
/// plays: sets of one rank (by place from the 3, by the suits of their
/// natural cards as a 4-bit number, by the suits their Jokers stand for,
/// then Jokers beyond the four suits), sequences (by suit, lowest place,
/// length, then where their Jokers stand, as a number of bits from the
/// lowest place) and the lone Joker. Only what the rules allow is
/// numbered: no sequence without `sequences`, no place beyond the 3 or
/// the 2 without `joker_beyond_ends`, no more Jokers than the pack holds.
fn pack_actions(rules: &Rules, players: usize) -> Vec<Action> {
    let climbing = rules.climbing();
    let jokers = climbing.jokers;
    let deck = Deck::for_table(rules, players).cards();
    // The pack's cards in slot order, the Joker last.
    let mut cards: Vec<Card> = (0..52u8)
        .filter_map(|i| {
            let suit = Suit::from_index(usize::from(i % 4))?;
            Card::suited(i / 4 + 1, suit)
        })
        .collect();
    if deck.jokers() > 0 {
        cards.push(Card::JOKER);
    }
    let mut actions = vec![Action::Pass];
    // The exchange: one card or two (two Jokers when the pack has them).
    if climbing.exchange {
        actions.extend(cards.iter().map(|&c| Action::GiveTax(Cards::one(c))));
        for (i, &a) in cards.iter().enumerate() {
            for &b in &cards[i..] {
                if a == b && deck.count(a) < 2 {
                    continue;
                }
                let mut two = Cards::one(a);
                two.add(b, 1);
                actions.push(Action::GiveTax(two));
            }
        }
    }
    if climbing.seven_pass {
        actions.extend(cards.iter().map(|&c| Action::Give(c)));
    }
    if climbing.ten_discard {
        actions.extend(cards.iter().map(|&c| Action::Discard(c)));
    }
    for place in 1..=TOP_PLACE {
        for naturals in 1u8..16 {
            for joker_suits in 0u8..16 {
                for extra in 0..=2u8 {
                    if let Some(set) = Set::of_rank(place, naturals, joker_suits, extra)
                        && set.wilds() <= jokers
                    {
                        actions.push(Action::Play(set));
                    }
                }
            }
        }
    }
    if climbing.sequences {
        let (lowest, highest) = if climbing.joker_beyond_ends {
            (0, ABOVE_TWO)
        } else {
            (1, TOP_PLACE)
        };
        for suit in Suit::ALL {
            for low in lowest..=highest {
                for len in 3..=highest + 1 - low {
                    for at in 0u16..(1 << len) {
                        if at.count_ones() as u8 > jokers {
                            continue;
                        }
                        if let Some(set) = Set::sequence(suit, low, len, at) {
                            actions.push(Action::Play(set));
                        }
                    }
                }
            }
        }
    }
    if jokers > 0 {
        actions.push(Action::Play(Set::LONE_JOKER));
    }
    actions
}
