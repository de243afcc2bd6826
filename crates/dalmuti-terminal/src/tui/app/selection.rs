//! The selection: which cards of your hand are chosen, kept sane as the
//! hand and the decision change.

use super::*;

impl App<'_> {
    // ----- the selection -----

    /// The kinds of card in your hand, best first, wild cards last.
    pub(in crate::tui) fn kinds(&self) -> Vec<(Card, u8)> {
        self.session.my_cards().kinds().collect()
    }

    pub(in crate::tui) fn held(&self, card: Card) -> u8 {
        self.session.my_cards().count(card)
    }

    pub(in crate::tui) fn variant(&self) -> Variant {
        self.session.variant()
    }

    /// The 6 that the Twirling Wedgie joins.
    pub(in crate::tui) fn six() -> Card {
        Card::from_index(6).expect("a numbered card")
    }

    /// A selection that suits a new decision: for a follow, the worst rank
    /// that could top, already the right size, without a wild card (or the
    /// Twirling Wedgie) when any set without one tops, so that Enter never
    /// spends one unasked; for a lead, all of your worst numbered rank.
    pub(in crate::tui) fn fresh_selection(&mut self) {
        // President and Daifugō: the first legal action that is not a pass.
        self.pick = self
            .session
            .legal()
            .iter()
            .position(|&a| a != Action::Pass)
            .unwrap_or(0);
        self.picked = Cards::EMPTY;
        self.wilds = 0;
        self.wedgie = false;
        self.choice = None;
        self.hinted_target = None;
        self.hinted_value = None;
        self.partner = None;
        match self.decision {
            Some(Decision::Follow { .. }) => {
                let legal = self.session.legal();
                let plays: Vec<Set> = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Play(set) => Some(*set),
                        _ => None,
                    })
                    .collect();
                let plain = |set: &&Set| set.wilds() == 0 && !set.holds_wedgie();
                let first = plays.iter().find(plain).or(plays.first()).copied();
                match first {
                    Some(set) => self.select_set(&set),
                    None => {
                        self.cursor = self.worst_numbered();
                        self.fit_count();
                    }
                }
            }
            Some(Decision::Lead) => {
                self.cursor = self.worst_numbered();
                self.fit_count();
            }
            Some(Decision::ExchangeOffer) => {
                self.partner = self.merchants().first().copied();
                self.cursor = self.worst_numbered();
            }
            _ => {
                if self.cursor.is_none() {
                    self.cursor = self.worst_numbered();
                }
            }
        }
    }

    pub(in crate::tui) fn worst_numbered(&self) -> Option<Card> {
        let kinds = self.kinds();
        kinds
            .iter()
            .rev()
            .find(|(c, _)| !c.is_wild())
            .or(kinds.last())
            .map(|&(c, _)| c)
    }

    /// Keeps the cursor on a card you hold and the counts within your hand.
    pub(in crate::tui) fn fit_cursor(&mut self) {
        let held = self.session.my_cards();
        if self.cursor.is_none_or(|c| held.count(c) == 0) {
            self.cursor = self.worst_numbered();
            self.fit_count();
        }
        if let Some(c) = self.cursor {
            self.count = self.count.clamp(1, held.count(c).max(1));
        }
        self.wilds = self.wilds.min(held.wilds());
        self.wedgie &= held.count(Card::TWIRLING_WEDGIE) > 0;
        if !held.contains(&self.picked) {
            self.picked = Cards::EMPTY;
        }
    }

    /// After the cursor moves: for a follow, the size of the set on the
    /// table, topped up with wild cards; for a lead, all the copies.
    pub(in crate::tui) fn fit_count(&mut self) {
        let Some(card) = self.cursor else { return };
        let held = self.held(card);
        let jokers = self.held(self.variant().wild());
        self.wedgie = false;
        match self.decision {
            Some(Decision::Follow { top, .. }) => {
                let size = top.size();
                self.count = size.min(held).max(1);
                self.wilds = if card.is_wild() || goes_alone(card) {
                    0
                } else {
                    size.saturating_sub(self.count).min(jokers)
                };
            }
            _ => {
                self.count = held.max(1);
                self.wilds = 0;
            }
        }
    }

    pub(in crate::tui) fn select_set(&mut self, set: &Set) {
        self.hinted_target = set.wedgie_target();
        self.hinted_value = set.declared();
        self.wedgie = false;
        if set.holds_wedgie() && set.naturals() > 0 {
            self.cursor = Some(Self::six());
            self.count = set.naturals();
            self.wedgie = true;
            self.wilds = set.wilds();
        } else if set.holds_wedgie() {
            self.cursor = Some(Card::TWIRLING_WEDGIE);
            self.count = 1;
            self.wilds = set.wilds();
        } else if set.naturals() > 0 {
            self.cursor = Some(set.face());
            self.count = set.naturals();
            self.wilds = set.wilds();
        } else {
            self.cursor = Some(set.wild());
            self.count = set.wilds();
            self.wilds = 0;
        }
    }

    /// The cards chosen to play.
    pub(in crate::tui) fn selected_cards(&self) -> Cards {
        let Some(card) = self.cursor else {
            return Cards::EMPTY;
        };
        let mut cards = Cards::EMPTY;
        cards.add(card, self.count);
        if !card.is_wild() {
            cards.add(self.variant().wild(), self.wilds);
        }
        if self.wedgie && card == Self::six() {
            cards.add(Card::TWIRLING_WEDGIE, 1);
        }
        cards
    }

    /// Whether the cards chosen are wild cards of Corporate Shuffle alone,
    /// whose value is asked before they are played.
    pub(in crate::tui) fn dogberts_alone(&self) -> Option<u8> {
        let cards = self.selected_cards();
        let n = cards.count(Card::DOGBERT);
        (n > 0 && u32::from(n) == cards.len()).then_some(n)
    }

    /// The other Merchants, who may be offered an exchange.
    pub(in crate::tui) fn merchants(&self) -> Vec<Seat> {
        let n = self.session.players();
        Seat::all(n)
            .filter(|&s| matches!(s.title(n), Title::Merchant { class } if class > 1))
            .collect()
    }
}
