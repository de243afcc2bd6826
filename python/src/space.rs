//! The fixed action space of the environments: every action a player may
//! ever take at a table of given rules and size, numbered once, so that a
//! learning agent's output `i` always means the same action.

use std::collections::HashMap;

use dalmuti_core::{Action, Card, Cards, DECLARED_VALUES, Deck, Rank, Rules, Seat, Set};

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
