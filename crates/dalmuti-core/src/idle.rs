//! Optional rules that a table of a fixed size can never bring into force,
//! found by asking the deck and the exchange themselves (its own module so
//! that the rules need not know the deck, which is built from them).

use crate::deck::Deck;
use crate::rules::Rules;
use crate::variant::Variant;

impl Rules {
    /// The optional rules switched on that can never come into force at a
    /// table that always seats `players` (nobody joins or leaves): the
    /// stripped deck away from 4 and 5 players (D12), the merchant exchange
    /// below 6 or in a one-hand game without taxes (D7). A program that
    /// seats a fixed table refuses them, so that what it announces is what
    /// is played. (A table players join and leave may change size, and
    /// with it the deck: the rules stay valid there.)
    ///
    /// ```
    /// use dalmuti_core::{IdleRule, Rules};
    /// let rules = Rules { stripped_deck: true, merchant_exchange: true, ..Rules::default() };
    /// assert_eq!(rules.idle_at(5), [IdleRule::MerchantExchange { players: 5 }]);
    /// assert_eq!(rules.idle_at(6), [IdleRule::StrippedDeck { players: 6 }]);
    /// assert!(Rules::default().idle_at(7).is_empty());
    /// ```
    pub fn idle_at(&self, players: usize) -> Vec<IdleRule> {
        let mut idle = Vec::new();
        // Whether the deck changes is the deck's own rule, asked here
        // rather than written again.
        let plain = Rules {
            stripped_deck: false,
            ..*self
        };
        if self.stripped_deck
            && self.variant == Variant::Dalmuti
            && Deck::for_table(self, players) == Deck::for_table(&plain, players)
        {
            idle.push(IdleRule::StrippedDeck { players });
        }
        if self.merchant_exchange && players < Self::MERCHANT_EXCHANGE_PLAYERS {
            idle.push(IdleRule::MerchantExchange { players });
        } else if self.merchant_exchange && self.first_deal_revolution && self.hands == Some(1) {
            idle.push(IdleRule::MerchantExchangeWithoutTaxes);
        }
        idle
    }
}

/// An optional rule that cannot come into force at a table of a fixed size
/// ([`Rules::idle_at`]), and why, in words a player reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IdleRule {
    /// The stripped deck is only for 4 or 5 players.
    #[error(
        "the stripped deck is only for 4 or 5 players; at {players} the full 80-card deck is \
         dealt (docs/RULES.md D12)"
    )]
    StrippedDeck {
        /// The table's size.
        players: usize,
    },
    /// The merchant exchange needs two Merchants.
    #[error(
        "the merchant exchange needs two Merchants (Workers), so 6 or more players, not \
         {players} (docs/RULES.md D7)"
    )]
    MerchantExchange {
        /// The table's size.
        players: usize,
    },
    /// The merchant exchange comes with taxes, and a game of one hand under
    /// the first-deal revolution has none.
    #[error(
        "the merchant exchange comes with taxes, and under the first-deal revolution a game \
         of one hand has none (docs/RULES.md D7)"
    )]
    MerchantExchangeWithoutTaxes,
}

impl IdleRule {
    /// The rule's switch, as a record names it: `stripped_deck` or
    /// `merchant_exchange`.
    pub fn switch(self) -> &'static str {
        match self {
            IdleRule::StrippedDeck { .. } => "stripped_deck",
            IdleRule::MerchantExchange { .. } | IdleRule::MerchantExchangeWithoutTaxes => {
                "merchant_exchange"
            }
        }
    }
}
