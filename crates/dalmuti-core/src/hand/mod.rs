//! One hand: the deal, a revolution, taxes, and the play to the last card.

use std::ops::ControlFlow;

use arrayvec::ArrayVec;

use crate::action::{Action, ActionList, Decision, Illegal, IllegalAction, RevolutionOffer};
use crate::card::{CARD_KINDS, Card, Rank};
use crate::cards::{Cards, RankMasks};
use crate::deck::Deck;
use crate::event::{Event, MerchantTrade, TaxPayment};
use crate::rng::DealRng;
use crate::rules::{Rules, Scoring};
use crate::seat::{MAX_PLAYERS, PerSeat, Seat, Seats};
use crate::set::{DECLARED_VALUES, Set};
use crate::variant::Variant;

mod apply;
mod climb;
mod legal;

pub(crate) use climb::Table;

/// The phase of a hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The hand is being set up, every choice at once: the Dalmutis choose
    /// their tax gifts, the highest Merchant may offer an exchange, everyone
    /// else looks at their cards and says they are ready, and a player dealt
    /// both Jesters may call a revolution in place of their choice. No card
    /// moves until every choice is made. Every hand has this stage, whoever
    /// holds the Jesters, so that it never tells anyone that (RULES.md, D25).
    Setup,
    /// Rounds of play.
    Play,
    /// Only one player holds cards: the finishing order is complete.
    Over,
}

/// A revolution called this hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Revolution {
    /// Who called it, at their seat of play (0 after a greater revolution).
    pub by: Seat,
    /// Whether the Greater Peon called it, so the seating was reversed.
    pub greater: bool,
}

/// A Dalmuti's side of the taxes. Choices wait until every setup decision
/// is made, then all exchanges happen at once, in a fixed order: the same
/// hand whatever order the players chose in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Gift {
    NotDue,
    Pending,
    Chosen(Cards),
    Paid(TaxPayment),
    /// President and Daifugō: the poor's tribute is with the rich, who is
    /// still to give back cards of their choice.
    Returning(TaxPayment),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Exchange {
    NotDue,
    AwaitingOffer,
    AwaitingAnswer { partner: Seat, card: Card },
    Declined,
    Answered(MerchantTrade),
    Done(MerchantTrade),
}

/// Where Ratbert stands in the trick being played (Corporate Shuffle).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum RatbertTrick {
    /// Not played in this trick.
    Absent,
    /// Led, and so far the trick's only card: nobody takes it back.
    Alone,
    /// Led and then topped: the trick's winner takes it back, unless they
    /// went out in the trick.
    Topped,
}

/// The seat of the highest-class Merchant, who may start a merchant exchange.
const HIGHEST_MERCHANT: Seat = Seat::new(2);

/// A seat's own choice while the hand is set up.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum SetupTask {
    /// Say ready.
    Ready,
    /// Choose a tax gift of this many cards.
    Tax(u8),
    /// Offer a merchant exchange or let it go.
    ExchangeOffer,
}

/// Why a given deal cannot start a hand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadDeal {
    /// Not 3 to 16 players (3 to 8 in Corporate Shuffle).
    #[error("a hand needs 3 to 16 players (3 to 8 in Corporate Shuffle), not {0}")]
    Players(usize),
    /// The hands together are not the deck.
    #[error("the dealt cards are not the deck of this hand: {0}")]
    NotTheDeck(String),
    /// A seat got the wrong number of cards.
    #[error("{seat} should be dealt {expected} cards, not {got}")]
    Share {
        /// The seat.
        seat: Seat,
        /// Its share of the deck.
        expected: u32,
        /// What it got.
        got: u32,
    },
}

/// A position in the middle of a hand's play, unchecked; see
/// [`Hand::from_position`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayPosition {
    /// The rules in force.
    pub rules: Rules,
    /// Every seat's cards, in seat order (empty for seats gone out).
    pub held: Vec<Cards>,
    /// Seats that have gone out, in order.
    pub gone_out: Vec<Seat>,
    /// Whose turn it is.
    pub turn: Seat,
    /// The set on the table and who played it; `None` if `turn` leads.
    pub top: Option<(Seat, Set)>,
    /// How many players in a row have passed the set on the table.
    pub passes: u8,
}

/// Why a [`PlayPosition`] is not a position of play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadPosition {
    /// Not 3 to 16 seats (3 to 8 in Corporate Shuffle).
    #[error("a hand needs 3 to 16 players (3 to 8 in Corporate Shuffle), not {0}")]
    Players(usize),
    /// The hands hold more of a card than the deck has.
    #[error("the hands hold cards that are not in the deck")]
    NotInDeck,
    /// A seat listed as gone out is unknown, repeated or still holds cards.
    #[error("{0} cannot have gone out")]
    GoneOut(Seat),
    /// A seat with no cards is not listed as gone out.
    #[error("every seat with no cards must be listed as gone out")]
    Empty,
    /// Fewer than two players hold cards: the hand would be over.
    #[error("at least two players must still hold cards")]
    TooFewHolding,
    /// The player to act holds no cards.
    #[error("{0} holds no cards, so cannot be the one to play")]
    Turn(Seat),
    /// The set on the table's player is unknown or is the one to act.
    #[error("{0} cannot have played the set on the table")]
    Top(Seat),
    /// More passes than there are players to pass.
    #[error("the number of passes does not fit the table")]
    Passes,
}

/// The state of one hand, from the deal to the finishing order.
///
/// Seats are those of play: 0 is the Greater Dalmuti (after a greater
/// revolution, the former Greater Peon). `Hand` is the omniscient referee;
/// players see it only through [`crate::View`].
///
/// ```
/// use dalmuti_core::{Action, DealRng, Hand, Rules, Seed, Stage};
/// let mut rng = DealRng::new(Seed::from(42));
/// let mut hand = Hand::deal(Rules::default(), 5, false, &mut rng);
/// // Play until the hand ends, always choosing the first legal action.
/// while let Some(seat) = hand.next_to_act() {
///     let action = hand.legal_actions(seat)[0];
///     hand.apply(seat, action).unwrap();
/// }
/// assert_eq!(hand.stage(), Stage::Over);
/// assert_eq!(hand.finish_order().len(), 5);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    rules: Rules,
    players: u8,
    first: bool,
    dealt: PerSeat<Cards>,
    held: PerSeat<Cards>,
    holding: Seats,
    /// `holding.len()`, kept so the play path needs no population count.
    active: u8,
    /// How many cards each seat holds, kept so the play path need not
    /// re-read a hand it has just written (a store-forwarding stall).
    sizes: PerSeat<u8>,
    /// Each seat's ranks by how many it holds, kept from the start of play
    /// (before it, `held` changes wholesale and nobody plays).
    masks: PerSeat<RankMasks>,
    stage: Stage,
    revolution_holder: Option<Seat>,
    revolution: Option<Revolution>,
    greater_tax: Gift,
    lesser_tax: Gift,
    exchange: Exchange,
    /// Seats that have made their own setup choice (said ready, chose the
    /// tax gift, offered or let go the exchange): kept so that who is to
    /// act during setup is a few bit operations.
    chosen: Seats,
    turn: Seat,
    top: Option<(Seat, Set)>,
    passes: u8,
    /// The seats that answer the set on the table in turn (holding cards,
    /// not wedged, not its player), and how many passes in a row end the
    /// trick: fixed when the set is played, so a pass is a count and a
    /// turn to the next of them.
    answering: Seats,
    passes_to_win: u8,
    /// The player the Twirling Wedgie made pass for the rest of this trick
    /// (at most one: the deck has one Wedgie); empty in Dalmuti.
    wedged: Seats,
    ratbert: RatbertTrick,
    finish: ArrayVec<Seat, MAX_PLAYERS>,
    events: Vec<Event>,
    /// The table of President and Daifugō; none in the other games (boxed:
    /// Dalmuti's hands are copied whole at every deal and search step).
    table: Option<Box<Table>>,
}

impl Hand {
    /// Shuffles and deals a new hand for `players` seats. `first` marks the
    /// first hand of a game (for the first-deal revolution).
    ///
    /// # Panics
    /// If `players` is not 3 to 16.
    pub fn deal(rules: Rules, players: usize, first: bool, rng: &mut DealRng) -> Hand {
        if rules.variant.is_suited() {
            return Hand::deal_ranked(rules, players, None, rng);
        }
        assert!(
            rules.variant.players().contains(&players),
            "a hand of {} needs {:?} players",
            rules.variant,
            rules.variant.players()
        );
        let deck = Deck::for_table(&rules, players);
        Hand::start(rules, players, first, deck, deck.deal(players, rng))
    }

    /// Starts a hand from cards already dealt (a record, a test), after
    /// checking that they are this hand's deck dealt as the rules say.
    pub fn from_deal(
        rules: Rules,
        players: usize,
        first: bool,
        dealt: &[Cards],
    ) -> Result<Hand, BadDeal> {
        if rules.variant.is_suited() {
            return Hand::from_deal_ranked(rules, players, None, dealt, 0);
        }
        if !rules.variant.players().contains(&players) || dealt.len() != players {
            return Err(BadDeal::Players(dealt.len()));
        }
        let deck = Deck::for_table(&rules, players);
        let mut all = Cards::EMPTY;
        let mut hands = PerSeat::<Cards>::default();
        for (i, cards) in dealt.iter().enumerate() {
            if all.len() + cards.len() > 255 * CARD_KINDS as u32 || !fits(&all, cards) {
                return Err(BadDeal::NotTheDeck("far too many cards".into()));
            }
            all.add_all(cards);
            hands[Seat::new(i)] = *cards;
        }
        if all != deck.cards() {
            let extra = all.missing_from(&deck.cards());
            let missing = deck.cards().missing_from(&all);
            let mut parts = Vec::new();
            if !extra.is_empty() {
                parts.push(format!("{extra} too many"));
            }
            if !missing.is_empty() {
                parts.push(format!("{missing} missing"));
            }
            return Err(BadDeal::NotTheDeck(parts.join(", ")));
        }
        for seat in Seat::all(players) {
            let (expected, got) = (deck.share(seat, players), hands[seat].len());
            if expected != got {
                return Err(BadDeal::Share {
                    seat,
                    expected,
                    got,
                });
            }
        }
        Ok(Hand::start(rules, players, first, deck, hands))
    }

    /// A hand in the middle of play, from a [`PlayPosition`]: for tests,
    /// puzzles, and search bots that sample the cards they cannot see.
    /// The position's holdings count as the dealt hands; its log is empty.
    ///
    /// ```
    /// use dalmuti_core::{Action, Hand, PlayPosition, Rules, Seat};
    /// // Three players left with a few cards; seat 1 must answer a lone 4.
    /// let position = PlayPosition {
    ///     rules: Rules::default(),
    ///     held: vec!["".parse().unwrap(), "1 12".parse().unwrap(), "2 12 12".parse().unwrap()],
    ///     gone_out: vec![Seat::new(0)],
    ///     turn: Seat::new(1),
    ///     top: Some((Seat::new(2), "4".parse().unwrap())),
    ///     passes: 0,
    /// };
    /// let mut hand = Hand::from_position(position).unwrap();
    /// hand.apply(Seat::new(1), Action::Play("1".parse().unwrap())).unwrap();
    /// assert_eq!(hand.turn(), Seat::new(2));
    /// ```
    pub fn from_position(position: PlayPosition) -> Result<Hand, BadPosition> {
        let players = position.held.len();
        if !position.rules.variant.players().contains(&players) {
            return Err(BadPosition::Players(players));
        }
        let deck = Deck::for_table(&position.rules, players);
        let mut left = deck.cards();
        for cards in &position.held {
            if !left.remove_all(cards) {
                return Err(BadPosition::NotInDeck);
            }
        }
        let mut held = PerSeat::<Cards>::default();
        let mut holding = Seats::NONE;
        for (i, cards) in position.held.iter().enumerate() {
            held[Seat::new(i)] = *cards;
            if !cards.is_empty() {
                holding.insert(Seat::new(i));
            }
        }
        let mut finish = ArrayVec::new();
        for &seat in &position.gone_out {
            if seat.index() >= players || finish.contains(&seat) || holding.contains(seat) {
                return Err(BadPosition::GoneOut(seat));
            }
            finish.push(seat);
        }
        if finish.len() + holding.len() != players {
            return Err(BadPosition::Empty);
        }
        if holding.len() < 2 {
            return Err(BadPosition::TooFewHolding);
        }
        if !holding.contains(position.turn) {
            return Err(BadPosition::Turn(position.turn));
        }
        match position.top {
            None if position.passes != 0 => return Err(BadPosition::Passes),
            Some((by, _)) if by.index() >= players || by == position.turn => {
                return Err(BadPosition::Top(by));
            }
            Some((by, _)) => {
                let others = holding.len() - usize::from(holding.contains(by));
                if usize::from(position.passes) >= others {
                    return Err(BadPosition::Passes);
                }
            }
            None => {}
        }
        Ok(Hand {
            rules: position.rules,
            players: players as u8,
            first: false,
            dealt: held,
            held,
            holding,
            active: holding.len() as u8,
            sizes: sizes_of(&held, players),
            masks: masks_of(&held, players),
            stage: Stage::Play,
            revolution_holder: None,
            revolution: None,
            greater_tax: Gift::NotDue,
            lesser_tax: Gift::NotDue,
            exchange: Exchange::NotDue,
            chosen: Seats::NONE,
            turn: position.turn,
            top: position.top,
            passes: position.passes,
            answering: position
                .top
                .map_or(Seats::NONE, |(by, _)| holding.without(Seats::only(by))),
            passes_to_win: position.top.map_or(0, |(by, _)| {
                (holding.len() - usize::from(holding.contains(by))) as u8
            }),
            wedged: Seats::NONE,
            ratbert: RatbertTrick::Absent,
            finish,
            events: Vec::with_capacity(128),
            table: position
                .rules
                .variant
                .is_suited()
                .then(|| Box::new(Table::new(players))),
        })
    }

    fn start(rules: Rules, players: usize, first: bool, deck: Deck, dealt: PerSeat<Cards>) -> Hand {
        let all_wilds = deck.cards().wilds();
        let revolution_holder =
            Seat::all(players).find(|&s| all_wilds > 0 && dealt[s].wilds() == all_wilds);
        let mut hand = Hand {
            rules,
            players: players as u8,
            first,
            dealt,
            held: dealt,
            holding: Seats::first(players),
            active: players as u8,
            sizes: sizes_of(&dealt, players),
            masks: PerSeat::default(),
            stage: Stage::Setup,
            revolution_holder,
            revolution: None,
            greater_tax: Gift::NotDue,
            lesser_tax: Gift::NotDue,
            exchange: Exchange::NotDue,
            chosen: Seats::NONE,
            turn: Seat::GREATER_DALMUTI,
            top: None,
            passes: 0,
            answering: Seats::NONE,
            passes_to_win: 0,
            wedged: Seats::NONE,
            ratbert: RatbertTrick::Absent,
            finish: ArrayVec::new(),
            events: Vec::with_capacity(log_capacity(players)),
            table: None,
        };
        // Taxes are due unless this is the first hand under the first-deal
        // revolution; a revolution called during setup cancels them.
        if !(first && rules.first_deal_revolution) {
            hand.greater_tax = Gift::Pending;
            if players >= 4 {
                hand.lesser_tax = Gift::Pending;
            }
            if rules.merchant_exchange && players >= Rules::MERCHANT_EXCHANGE_PLAYERS {
                hand.exchange = Exchange::AwaitingOffer;
            }
        }
        hand
    }

    fn begin_play(&mut self) {
        self.masks = masks_of(&self.held, self.players());
        self.stage = Stage::Play;
        self.turn = Seat::GREATER_DALMUTI;
    }

    // ----- what anyone may ask the referee -----

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// How many players.
    #[inline]
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// Whether this is the first hand of its game.
    pub fn is_first(&self) -> bool {
        self.first
    }

    /// The deck of this hand.
    pub fn deck(&self) -> Deck {
        // Not kept: a hand is moved and copied whole, and the deck's layout
        // (80 bytes) is needed only to deal.
        Deck::for_table(&self.rules, self.players())
    }

    /// The phase of the hand.
    #[inline]
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The cards a seat was dealt (moved with its player by a greater
    /// revolution).
    pub fn dealt(&self, seat: Seat) -> Cards {
        self.dealt[seat]
    }

    /// The cards a seat holds now.
    #[inline]
    pub fn held(&self, seat: Seat) -> Cards {
        self.held[seat]
    }

    /// Seats still holding cards.
    pub fn holding(&self) -> Seats {
        self.holding
    }

    /// The player dealt both Jesters, if any (at seat 0 after a greater
    /// revolution). Secret: views never tell it.
    pub fn revolution_holder(&self) -> Option<Seat> {
        self.revolution_holder
    }

    /// The revolution `seat` may call now: only the player dealt both
    /// Jesters, while the hand is set up and before their setup choice.
    pub fn revolution_offer(&self, seat: Seat) -> Option<RevolutionOffer> {
        (self.stage == Stage::Setup
            && self.revolution_holder == Some(seat)
            && !self.setup_done(seat))
        .then(|| RevolutionOffer {
            greater: seat.index() + 1 == self.players(),
        })
    }

    /// The seats that have said ready while the hand is set up (their only
    /// setup choice). Omniscient, like [`Hand::to_act`].
    pub fn said_ready(&self) -> Seats {
        let mut ready = Seats::NONE;
        for seat in self.chosen.iter() {
            if self.setup_task(seat) == SetupTask::Ready {
                ready.insert(seat);
            }
        }
        ready
    }

    /// How many players have nothing left to choose while the hand is set
    /// up (`None` once play has begun). The same whoever holds the Jesters.
    pub fn ready_count(&self) -> Option<usize> {
        (self.stage == Stage::Setup).then(|| self.players() - self.to_act().len())
    }

    /// The revolution called this hand, if any.
    pub fn revolution(&self) -> Option<Revolution> {
        self.revolution
    }

    /// Whether taxes are (or were) collected this hand.
    pub fn taxed(&self) -> bool {
        self.greater_tax != Gift::NotDue
    }

    /// The tax exchanges made so far: the Greater pair's, then the Lesser.
    pub fn taxes(&self) -> impl Iterator<Item = TaxPayment> + '_ {
        [self.greater_tax, self.lesser_tax]
            .into_iter()
            .filter_map(|g| match g {
                Gift::Paid(p) => Some(p),
                _ => None,
            })
    }

    /// The merchant exchange, if one was made.
    pub fn merchant_trade(&self) -> Option<MerchantTrade> {
        match self.exchange {
            Exchange::Done(t) => Some(t),
            _ => None,
        }
    }

    /// The Dalmutis' tax gifts chosen so far (paid, or waiting for the
    /// other taxation decisions), Greater first.
    pub fn tax_gifts(&self) -> impl Iterator<Item = (Seat, Cards)> + '_ {
        [
            (Seat::GREATER_DALMUTI, self.greater_tax),
            (Seat::new(1), self.lesser_tax),
        ]
        .into_iter()
        .filter_map(|(seat, g)| match g {
            Gift::Chosen(gift) => Some((seat, gift)),
            Gift::Paid(p) => Some((p.dalmuti, p.gift)),
            _ => None,
        })
    }

    /// The merchant exchange once both cards are chosen (made, or waiting
    /// for the taxes to be chosen).
    pub fn merchant_choices(&self) -> Option<MerchantTrade> {
        match self.exchange {
            Exchange::Answered(t) | Exchange::Done(t) => Some(t),
            _ => None,
        }
    }

    /// A merchant exchange offered but not yet answered: (offerer, partner,
    /// the card offered).
    pub fn merchant_offer(&self) -> Option<(Seat, Seat, Card)> {
        match self.exchange {
            Exchange::AwaitingAnswer { partner, card } => Some((HIGHEST_MERCHANT, partner, card)),
            _ => None,
        }
    }

    /// The set on the table and who played it (`None` when a round is about
    /// to be led).
    pub fn top(&self) -> Option<(Seat, Set)> {
        self.top
    }

    /// Whose turn it is to play (meaningful in [`Stage::Play`]).
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// How many players in a row have passed the set on the table.
    pub fn passes(&self) -> usize {
        self.passes as usize
    }

    /// Who the Twirling Wedgie makes pass for the rest of this trick.
    pub fn wedged(&self) -> Option<Seat> {
        self.wedged.first_seat()
    }

    /// Whether Ratbert was played in this trick and topped since, so that
    /// the trick's winner will take it back (unless they go out in it).
    pub fn ratbert_to_take(&self) -> bool {
        self.ratbert == RatbertTrick::Topped
    }

    /// The seats that have gone out, in order (the full finishing order once
    /// the hand is over).
    pub fn finish_order(&self) -> &[Seat] {
        &self.finish
    }

    /// The 0-based finishing place of a seat, if it has gone out (or the
    /// hand is over).
    pub fn place(&self, seat: Seat) -> Option<usize> {
        self.finish.iter().position(|&s| s == seat)
    }

    /// Everything that happened, in order. Omniscient: it holds the tax
    /// cards, so show players only what [`crate::View`] gives them.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    // ----- legal actions -----

    // ----- applying actions -----

    // ----- results -----

    /// Points each seat scores for this hand under the rules' scoring, or
    /// `None` while the hand is not over or scoring is off.
    pub fn points(&self) -> Option<PerSeat<u32>> {
        if self.stage != Stage::Over || self.rules.scoring == Scoring::None {
            return None;
        }
        let n = self.players();
        let mut points = PerSeat::<u32>::default();
        let bonus = u32::from(self.rules.scoring == Scoring::Places);
        for (place, &seat) in self.finish.iter().enumerate() {
            points[seat] = (n - 1 - place) as u32 + bonus;
        }
        if self.rules.scoring == Scoring::Philanthropic {
            let place = |s: Seat| self.place(s).expect("hand over");
            // The Greater Dalmuti gains when the Greater Peon rises at all.
            if place(Seat::new(n - 1)) != n - 1 {
                points[Seat::GREATER_DALMUTI] += 1;
            }
            // The Lesser Dalmuti gains when the Lesser Peon rises.
            if n >= 4 && place(Seat::new(n - 2)) < n - 2 {
                points[Seat::new(1)] += 1;
            }
        }
        Some(points)
    }
}

fn masks_of(hands: &PerSeat<Cards>, players: usize) -> PerSeat<RankMasks> {
    let mut masks = PerSeat::<RankMasks>::default();
    for seat in Seat::all(players) {
        masks[seat] = RankMasks::of(&hands[seat]);
    }
    masks
}

fn sizes_of(hands: &PerSeat<Cards>, players: usize) -> PerSeat<u8> {
    let mut sizes = PerSeat::<u8>::default();
    for seat in Seat::all(players) {
        sizes[seat] = hands[seat].len() as u8;
    }
    sizes
}

/// Room for the log of a hand, so that play does not allocate: a hand
/// sees at most one play per card, and in practice a few passes per play
/// (the no-allocation test plays thousands of hands within it).
fn log_capacity(players: usize) -> usize {
    96 + 48 * players
}

fn fits(all: &Cards, more: &Cards) -> bool {
    Card::all().all(|c| u32::from(all.count(c)) + u32::from(more.count(c)) <= 255)
}

/// Whether seat `s` is a Merchant at a table of `n` (the seats between the
/// Lesser Dalmuti and the Lesser Peon).
fn is_merchant(s: Seat, n: usize) -> bool {
    n >= 4 && s.index() >= 2 && s.index() + 2 < n
}
