//! What happens in a hand, in order: the log behind replays and records.

use crate::card::Card;
use crate::cards::Cards;
use crate::seat::{Seat, Seats};
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
    /// Something a play of President or Daifugō did to the table (it
    /// follows the [`Event::Played`] that did it).
    Effect(Effect),
    /// 7-pass (7渡し): a card given to the next player after a play of
    /// 7s. Secret but for the two of them: the others see who and to whom
    /// ([`crate::Seen::Given`]).
    Given {
        /// Who gave it.
        from: Seat,
        /// Who received it.
        to: Seat,
        /// The card.
        card: Card,
    },
    /// 10-discard (10捨て): a card discarded out of play after a play of
    /// 10s. Secret but for its player: the others see who
    /// ([`crate::Seen::Discarded`]).
    Discarded {
        /// Who discarded it.
        seat: Seat,
        /// The card.
        card: Card,
    },
}

/// What a play of President or Daifugō does to the table besides topping
/// (RULES.md, Daifugō): every change the table shows as it happens.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Four or more of a rank, or a sequence of five or more: the order
    /// turns over for the rest of the game (革命). `reversed` is the order
    /// now: 3 high when true.
    Revolution {
        /// Who played it.
        seat: Seat,
        /// Whether the order is now reversed.
        reversed: bool,
    },
    /// A play holding an 8 cleared the table (8切り).
    EightCut {
        /// Who played it.
        seat: Seat,
    },
    /// A play of 2s cleared the table (President's option).
    TwoClears {
        /// Who played it.
        seat: Seat,
    },
    /// The 3♠ beat a lone Joker and cleared the table (スペ3返し).
    SpadeThree {
        /// Who played it.
        seat: Seat,
    },
    /// A Jack turned the order over until the table clears (イレブンバック).
    ElevenBack {
        /// Who played it.
        seat: Seat,
        /// Whether the Jack's turn is now in force.
        on: bool,
    },
    /// Two plays in a row locked the table (縛り): the suits, the ranks'
    /// steps, or both.
    Locked {
        /// Every play must now have these suits (bit 0 spades … bit 3
        /// clubs, bit 4 a Joker beyond the four), or 0 when only the ranks
        /// are locked.
        suits: u8,
        /// Every set must now be the next rank.
        number: bool,
    },
    /// 5s skipped these players (5スキップ).
    Skipped {
        /// Who played the 5s.
        seat: Seat,
        /// Who lost their turn.
        skipped: Seats,
    },
    /// 9s turned the direction of play round (9リバース).
    Reversed {
        /// Who played them.
        seat: Seat,
        /// Whether play now goes clockwise (to higher seats).
        clockwise: bool,
    },
    /// The top class did not go out first and fell to last place (都落ち).
    Fell {
        /// The fallen player.
        seat: Seat,
    },
    /// A player went out with a forbidden last card (反則上がり) and is
    /// placed at the bottom.
    Fouled {
        /// Who.
        seat: Seat,
    },
    /// So many passes in a row that the game ended: those still holding
    /// cards take the last places at random (each a [`Event::WentOut`]
    /// that follows).
    Stalemate {
        /// Who was still holding cards.
        left: Seats,
    },
}
