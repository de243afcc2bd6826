//! What happens in a hand, in order: the log behind replays and records.

use crate::card::Card;
use crate::cards::Cards;
use crate::seat::Seat;
use crate::set::Set;

/// One tax exchange between a Dalmuti and a Peon. Only these two seats may
/// ever learn the cards.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TaxPayment {
    /// The Greater (seat 0) or Lesser (seat 1) Dalmuti.
    pub dalmuti: Seat,
    /// The Peon opposite.
    pub peon: Seat,
    /// The cards the Dalmuti chose to give.
    pub gift: Cards,
    /// The Peon's best cards, given in exchange.
    pub tribute: Cards,
}

/// A blind merchant exchange. Only these two seats may learn the cards.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MerchantTrade {
    /// The highest Merchant, who proposed it.
    pub offerer: Seat,
    /// The Merchant chosen.
    pub partner: Seat,
    /// The offerer's card.
    pub offered: Card,
    /// The partner's card.
    pub returned: Card,
}

/// Something that happened in a hand. Seats are seats of play: a greater
/// revolution's reversal takes effect at its own event.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A revolution: no taxes. If `greater`, the Greater Peon called it and
    /// everyone has traded seats with their opposite; `seat` is then 0.
    RevolutionCalled {
        /// Who called it.
        seat: Seat,
        /// Whether it was a greater revolution.
        greater: bool,
    },
    /// The holder of both Jesters kept quiet.
    RevolutionDeclined {
        /// Who held them.
        seat: Seat,
    },
    /// A tax exchange (secret but for its two seats).
    TaxPaid(TaxPayment),
    /// A merchant exchange (secret but for its two seats).
    MerchantExchange(MerchantTrade),
    /// The highest Merchant let the exchange go.
    ExchangeDeclined {
        /// The highest Merchant.
        seat: Seat,
    },
    /// A set played (a lead when the table was empty, else a topping).
    Played {
        /// Who played.
        seat: Seat,
        /// What.
        set: Set,
    },
    /// A pass.
    Passed {
        /// Who passed.
        seat: Seat,
    },
    /// A player played their last card.
    WentOut {
        /// Who.
        seat: Seat,
        /// 0 for the first out (next Greater Dalmuti), 1 for the second…
        place: u8,
    },
    /// Everyone else passed: the round is over.
    RoundWon {
        /// Who played the last set.
        seat: Seat,
        /// Who leads the next round: `seat`, or if out, the next player to
        /// the left who still holds cards.
        leader: Seat,
    },
    /// The winner of a trick that held Ratbert takes it into their hand
    /// (Corporate Shuffle): it follows [`Event::RoundWon`]. Not when Ratbert
    /// was the trick's only card, nor when the winner went out in it, nor
    /// when the hand ended in the trick (C7).
    RatbertTaken {
        /// Who takes Ratbert back.
        seat: Seat,
    },
    /// Only one player holds cards: the hand is over.
    HandOver,
}
