//! Decisions, the actions that answer them, and why an action is refused.

use std::fmt;

use arrayvec::ArrayVec;

use crate::card::Card;
use crate::cards::Cards;
use crate::seat::Seat;
use crate::set::Set;

/// A decision a seat must make.
///
/// While the hand is set up ([`crate::Stage::Setup`]) every player has one
/// setup choice: the Dalmutis choose their tax gifts, the highest Merchant
/// may offer an exchange, everyone else says they are ready. A player dealt
/// both Jesters may call a revolution *instead* of that choice
/// ([`crate::View::revolution_offer`]); making the choice keeps quiet. So
/// the decisions others could learn of are the same whoever holds the
/// Jesters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// The hand is being set up: look at your cards, then say you are ready.
    Ready,
    /// A Dalmuti chooses which `count` cards of the dealt hand to give to
    /// the Peon `to`, whose best cards come back in exchange.
    Tax {
        /// The Peon who receives them.
        to: Seat,
        /// 2 for the Greater Dalmuti, 1 for the Lesser.
        count: u8,
    },
    /// The highest Merchant may offer one card, blind, to another Merchant.
    ExchangeOffer,
    /// A Merchant chosen for a blind exchange gives one card back.
    ExchangeAnswer {
        /// The highest Merchant, who offered.
        from: Seat,
    },
    /// Lead the round: play any set.
    Lead,
    /// Top the set on the table (same size, better rank) or pass.
    Follow {
        /// The set to top.
        top: Set,
        /// Who played it.
        by: Seat,
    },
    /// 7-pass (7渡し): the player who just played 7s gives one card of
    /// their choice to the next player, as many times as they played 7s.
    /// One card at a time, so that the list of choices stays short (four
    /// 7s from fourteen cards would be 1,001 sets to choose among).
    Give {
        /// The next player, who receives it.
        to: Seat,
        /// Cards still to give, this one included.
        left: u8,
    },
    /// 10-discard (10捨て): the player who just played 10s discards one
    /// card of their choice, out of play, as many times as they played
    /// 10s.
    Discard {
        /// Cards still to discard, this one included.
        left: u8,
    },
}

/// A revolution that a player dealt both Jesters may call while the hand
/// is set up, in place of their setup choice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RevolutionOffer {
    /// Whether calling makes it a greater revolution: the caller is the
    /// Greater Peon, and everyone trades seats with their opposite.
    pub greater: bool,
}

/// One move: the answer to a [`Decision`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Ready to play: the answer to [`Decision::Ready`]. For a player dealt
    /// both Jesters it also means keeping quiet about them.
    Ready,
    /// Call a revolution (only a player dealt both Jesters, in place of
    /// their setup choice).
    CallRevolution,
    /// A Dalmuti's tax gift to the Peon.
    GiveTax(Cards),
    /// The highest Merchant offers `card` to Merchant `partner`.
    OfferExchange {
        /// The other Merchant.
        partner: Seat,
        /// The card given, face down.
        card: Card,
    },
    /// The highest Merchant lets the exchange go.
    DeclineExchange,
    /// The chosen Merchant's card in return.
    AnswerExchange(Card),
    /// Play a set.
    Play(Set),
    /// Pass.
    Pass,
    /// Give this card to the next player: the answer to
    /// [`Decision::Give`] (7-pass).
    Give(Card),
    /// Discard this card: the answer to [`Decision::Discard`] (10-discard).
    Discard(Card),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Ready => f.write_str("say ready"),
            Action::CallRevolution => f.write_str("call a revolution"),
            Action::GiveTax(cards) => write!(f, "give {cards} in tax"),
            Action::OfferExchange { partner, card } => {
                write!(f, "offer {card} to {partner}")
            }
            Action::DeclineExchange => f.write_str("decline the merchant exchange"),
            Action::AnswerExchange(card) => write!(f, "give {card} back"),
            Action::Play(set) => match set.wedgie_target() {
                Some(target) => write!(f, "play {set} wedging {target}"),
                None => write!(f, "play {set}"),
            },
            Action::Pass => f.write_str("pass"),
            Action::Give(card) => write!(f, "give {card} to the next player"),
            Action::Discard(card) => write!(f, "discard {card}"),
        }
    }
}

/// The most legal actions any decision can have (a Dalmuti choosing two of
/// up to 13 kinds of card has 91, 92 with a revolution to call; the richest
/// lead, 27 cards with two Jesters, has under 90; a Corporate Shuffle lead
/// of seven 6s, the Wedgie and both Dogberts at eight players, aimed at any
/// of seven players, stays under 180). The pack's games list more: every
/// role of every Joker is its own play, so a Daifugō lead of 18 cards and a
/// Joker at three players reached 188 over 3,000 deals, and 14 cards with
/// two Jokers at four players 254 (`examples/legal_max.rs`); two Jokers at
/// three players (615) are refused by [`crate::Rules::check`]. A list that
/// would still overflow keeps its first, worst, actions.
pub const MAX_ACTIONS: usize = 512;

/// The legal actions of one decision, on the stack.
pub type ActionList = ArrayVec<Action, MAX_ACTIONS>;

/// Why an action was refused. The game is unchanged.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// The hand is over: nothing more can happen in it.
    #[error("the hand is over")]
    HandOver,
    /// This seat has nothing to decide now.
    #[error("it is not this player's turn")]
    NotToAct,
    /// The action does not answer the decision this seat faces.
    #[error("{}", wrong_decision(.0))]
    WrongDecision(Decision),
    /// The seat does not hold these cards.
    #[error("does not hold {0}")]
    NotHeld(Cards),
    /// The leader must play; passing is for followers.
    #[error("cannot pass: the leader of a round must play a set")]
    MustLead,
    /// A follower's set is not the size of the set on the table.
    #[error("must play {} cards to top {}, not {}", .top.size(), .top, .played)]
    WrongSize {
        /// The set on the table.
        top: Set,
        /// The set that was tried.
        played: Set,
    },
    /// Same size but not a strictly better rank.
    #[error("{played} does not top {top}")]
    DoesNotTop {
        /// The set on the table.
        top: Set,
        /// The set that was tried.
        played: Set,
    },
    /// A tax gift of the wrong number of cards.
    #[error("must give exactly {needed} card(s) in tax, not {given}")]
    TaxCount {
        /// 2 for the Greater Dalmuti, 1 for the Lesser.
        needed: u8,
        /// How many were offered.
        given: u32,
    },
    /// The merchant exchange partner is not another Merchant.
    #[error("{0} is not another Merchant")]
    NotAMerchant(Seat),
    /// A Wedgie played without naming its target.
    #[error("the Twirling Wedgie must name another player who still holds cards")]
    WedgieNeedsTarget,
    /// A Wedgie aimed at its own player or at a player with no cards.
    #[error("the Twirling Wedgie cannot name {0}: it names another player who still holds cards")]
    WedgieTarget(Seat),
    /// A Wedgie naming someone in the play that ends the hand.
    #[error("this play ends the hand, so the Twirling Wedgie names no one")]
    WedgieEndsHand,
    /// A play under a lock without the locked suits or rank.
    #[error("{} is locked: {played} does not {}", .top, if *.suits { "have its suits" } else { "follow its rank" })]
    Locked {
        /// The set on the table.
        top: Set,
        /// The set that was tried.
        played: Set,
        /// Whether the suits (else the rank) were wrong.
        suits: bool,
    },
    /// A play this game's rules do not have (a sequence where there are
    /// none, more Jokers than the pack holds, a set of another game).
    #[error("{0} is not a play of this game")]
    NotOfThisGame(Set),
    /// A revolution called by someone not dealt both Jesters, or after
    /// their setup choice.
    #[error(
        "only a player dealt both Jesters may call a revolution, while the hand is set up and \
         in place of their setup choice"
    )]
    NoRevolution,
}

fn wrong_decision(d: &Decision) -> String {
    let wanted = match d {
        Decision::Ready => "to say they are ready",
        Decision::Tax { .. } => "to choose the tax gift",
        Decision::ExchangeOffer => "to offer a merchant exchange or decline it",
        Decision::ExchangeAnswer { .. } => "to give a card back in the merchant exchange",
        Decision::Lead => "to lead a set",
        Decision::Follow { .. } => "to top the set on the table or pass",
        Decision::Give { .. } => "to give a card to the next player (7-pass)",
        Decision::Discard { .. } => "to discard a card (10-discard)",
    };
    format!("that is not the decision at hand: the player has {wanted}")
}

/// An action the engine refused, with the seat, the action and the reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{seat} cannot {action}: {reason}")]
pub struct IllegalAction {
    /// Who tried.
    pub seat: Seat,
    /// What they tried.
    pub action: Action,
    /// Why it is illegal.
    pub reason: Illegal,
}
