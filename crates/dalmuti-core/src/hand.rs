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
}

impl Hand {
    /// Shuffles and deals a new hand for `players` seats. `first` marks the
    /// first hand of a game (for the first-deal revolution).
    ///
    /// # Panics
    /// If `players` is not 3 to 16.
    pub fn deal(rules: Rules, players: usize, first: bool, rng: &mut DealRng) -> Hand {
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
        };
        // Taxes are due unless this is the first hand under the first-deal
        // revolution; a revolution called during setup cancels them.
        if !(first && rules.first_deal_revolution) {
            hand.greater_tax = Gift::Pending;
            if players >= 4 {
                hand.lesser_tax = Gift::Pending;
            }
            if rules.merchant_exchange && players >= 6 {
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
            Gift::Paid(p) => Some((seat, p.gift)),
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

    /// The seats with a decision to make now (several while the hand is
    /// set up, when the choices are simultaneous). Omniscient: a view shows
    /// others only [`Hand::ready_count`] during setup.
    pub fn to_act(&self) -> Seats {
        let mut seats = Seats::NONE;
        match self.stage {
            Stage::Setup => {
                seats = Seats::first(self.players()).without(self.chosen);
                if let Exchange::AwaitingAnswer { partner, .. } = self.exchange
                    && self.chosen.contains(partner)
                {
                    seats.insert(partner);
                }
            }
            Stage::Play => seats.insert(self.turn),
            Stage::Over => {}
        }
        seats
    }

    /// A seat's own setup choice.
    fn setup_task(&self, seat: Seat) -> SetupTask {
        if seat == Seat::GREATER_DALMUTI && self.greater_tax != Gift::NotDue {
            SetupTask::Tax(2)
        } else if seat.index() == 1 && self.lesser_tax != Gift::NotDue {
            SetupTask::Tax(1)
        } else if seat == HIGHEST_MERCHANT && self.exchange != Exchange::NotDue {
            SetupTask::ExchangeOffer
        } else {
            SetupTask::Ready
        }
    }

    /// Whether `seat` has made its own setup choice.
    #[inline]
    fn setup_done(&self, seat: Seat) -> bool {
        self.chosen.contains(seat)
    }

    /// The decision `seat` faces while the hand is set up: its own choice
    /// first; then, for a Merchant offered an exchange, the card back.
    fn setup_decision(&self, seat: Seat) -> Option<Decision> {
        if !self.setup_done(seat) {
            return Some(match self.setup_task(seat) {
                SetupTask::Ready => Decision::Ready,
                SetupTask::Tax(count) => Decision::Tax {
                    to: seat.opposite(self.players()),
                    count,
                },
                SetupTask::ExchangeOffer => Decision::ExchangeOffer,
            });
        }
        match self.exchange {
            Exchange::AwaitingAnswer { partner, .. } if partner == seat => {
                Some(Decision::ExchangeAnswer {
                    from: HIGHEST_MERCHANT,
                })
            }
            _ => None,
        }
    }

    /// The lowest seat with a decision to make, or `None` when the hand is
    /// over: a convenient order for programs that act one seat at a time.
    #[inline]
    pub fn next_to_act(&self) -> Option<Seat> {
        match self.stage {
            Stage::Play => Some(self.turn),
            _ => self.to_act().first_seat(),
        }
    }

    /// The decision `seat` faces now, if any.
    pub fn decision(&self, seat: Seat) -> Option<Decision> {
        if seat.index() >= self.players() {
            return None;
        }
        match self.stage {
            Stage::Setup => self.setup_decision(seat),
            Stage::Play if seat == self.turn => Some(match self.top {
                None => Decision::Lead,
                Some((by, top)) => Decision::Follow { top, by },
            }),
            Stage::Play | Stage::Over => None,
        }
    }

    // ----- legal actions -----

    /// Calls `f` with every legal action of `seat`, worst first, until `f`
    /// breaks. For plays, "worst first" means the worst rank first (Jesters
    /// alone, then Peasants…), fewer Jesters before more, larger leads
    /// before smaller, and a pass last; for tax gifts, the worst numbered
    /// cards first and Jesters last; a revolution comes after every other
    /// setup choice. So the first action is what a player who sheds bad
    /// cards would do, found without building the whole list.
    pub fn for_each_legal(&self, seat: Seat, mut f: impl FnMut(Action) -> ControlFlow<()>) {
        let held = self.held[seat];
        // The play phase first: it is the hot path of every simulation.
        if self.stage == Stage::Play && seat == self.turn {
            if self.rules.variant == Variant::CorporateShuffle {
                let _ = self.for_each_corporate_play(seat, &mut f);
                return;
            }
            let _ = match self.top {
                None => for_each_lead(held, &mut f),
                Some((_, top)) => match for_each_topping(held, self.masks[seat], top, &mut f) {
                    ControlFlow::Continue(()) => f(Action::Pass),
                    done => done,
                },
            };
            return;
        }
        let Some(decision) = self.decision(seat) else {
            return;
        };
        let _ = (|| -> ControlFlow<()> {
            match decision {
                Decision::Ready => f(Action::Ready)?,
                Decision::Tax { count, .. } => {
                    for_each_gift(held, count, self.rules.variant, &mut f)?
                }
                Decision::ExchangeOffer => {
                    f(Action::DeclineExchange)?;
                    let n = self.players();
                    for partner in
                        Seat::all(n).filter(|&s| is_merchant(s, n) && s != HIGHEST_MERCHANT)
                    {
                        for (card, _) in held.kinds() {
                            f(Action::OfferExchange { partner, card })?;
                        }
                    }
                }
                Decision::ExchangeAnswer { .. } => {
                    for (card, _) in held.kinds() {
                        f(Action::AnswerExchange(card))?;
                    }
                }
                Decision::Lead | Decision::Follow { .. } => {
                    unreachable!("play decisions are answered above")
                }
            }
            if self.revolution_offer(seat).is_some() {
                f(Action::CallRevolution)?;
            }
            ControlFlow::Continue(())
        })();
    }

    /// Every legal action of `seat` (empty if it has nothing to decide),
    /// worst first as in [`Hand::for_each_legal`].
    pub fn legal_actions(&self, seat: Seat) -> ActionList {
        let mut list = ActionList::new();
        self.for_each_legal(seat, |a| {
            list.push(a);
            ControlFlow::Continue(())
        });
        list
    }

    /// The first legal action of `seat` in [`Hand::for_each_legal`] order:
    /// its worst set (or pass when it cannot play), its worst cards in tax,
    /// no revolution and no merchant exchange.
    #[inline]
    pub fn worst_legal(&self, seat: Seat) -> Option<Action> {
        // In play, compute it directly from rank masks: no loop, few branches
        // (a property test checks it equals the first of `for_each_legal`).
        if self.stage == Stage::Play && seat == self.turn && self.rules.variant == Variant::Dalmuti
        {
            // By reference: a copy on the stack read back at once stalls the
            // processor's store forwarding.
            let held = &self.held[seat];
            let masks = self.masks[seat];
            debug_assert_eq!(masks, RankMasks::of(held), "{seat}'s masks");
            return Some(match self.top {
                None => Action::Play(worst_lead(held, masks)),
                Some((_, top)) => {
                    worst_topping(held, masks, top).map_or(Action::Pass, Action::Play)
                }
            });
        }
        let mut first = None;
        self.for_each_legal(seat, |a| {
            first = Some(a);
            ControlFlow::Break(())
        });
        first
    }

    // ----- applying actions -----

    /// Applies `action` for `seat`, or refuses it with the reason and leaves
    /// the hand unchanged.
    // Inlined with the play path, so that a caller that has just chosen the
    // action (`worst_legal`, a bot) hands it over in registers and the
    // branch on play or pass is taken once. Always: left to itself, the
    // compiler keeps it out of line in builds without link-time
    // optimisation (`dalmuti sim`: a quarter of a greedy hand's time).
    #[inline(always)]
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<(), Box<IllegalAction>> {
        let done = if self.stage == Stage::Play && seat == self.turn {
            match action {
                Action::Play(set) => self.play(seat, set),
                Action::Pass => self.pass(seat),
                _ => Err(self.not_a_play()),
            }
        } else {
            self.apply_outside_play(seat, action)
        };
        // The error is boxed so that the result of a legal action fits in a
        // register: refusals are rare, legal actions are the hot path.
        done.map_err(|reason| refused(seat, action, reason))
    }

    #[cold]
    #[inline(never)]
    fn not_a_play(&self) -> Illegal {
        Illegal::WrongDecision(self.decision(self.turn).expect("to act"))
    }

    // Kept out of line so the play path stays small.
    #[inline(never)]
    fn apply_outside_play(&mut self, seat: Seat, action: Action) -> Result<(), Illegal> {
        if self.stage == Stage::Over {
            return Err(Illegal::HandOver);
        }
        let decision = self.decision(seat).ok_or(Illegal::NotToAct)?;
        if action == Action::CallRevolution {
            let offer = self.revolution_offer(seat).ok_or(Illegal::NoRevolution)?;
            self.call_revolution(seat, offer.greater);
            return Ok(());
        }
        let own_choice = !self.setup_done(seat);
        match (decision, action) {
            (Decision::Ready, Action::Ready) => {}
            (Decision::Tax { count, .. }, Action::GiveTax(gift)) => {
                self.choose_tax(seat, count, gift)?
            }
            (Decision::ExchangeOffer, Action::DeclineExchange) => {
                self.exchange = Exchange::Declined;
                // The log must not depend on the order in which setup
                // choices are made: a record keeps the choices, not their
                // order, and its replay must be the same hand. So a
                // declined exchange goes before a holder's keeping quiet
                // (the only other event of the setup), whoever chose first.
                let at = self
                    .events
                    .iter()
                    .position(|e| matches!(e, Event::RevolutionDeclined { .. }))
                    .unwrap_or(self.events.len());
                self.events.insert(at, Event::ExchangeDeclined { seat });
            }
            (Decision::ExchangeOffer, Action::OfferExchange { partner, card }) => {
                let n = self.players();
                if partner == seat || partner.index() >= n || !is_merchant(partner, n) {
                    return Err(Illegal::NotAMerchant(partner));
                }
                if self.held[seat].count(card) == 0 {
                    return Err(Illegal::NotHeld(Cards::one(card)));
                }
                self.exchange = Exchange::AwaitingAnswer { partner, card };
            }
            (Decision::ExchangeAnswer { from }, Action::AnswerExchange(returned)) => {
                let Exchange::AwaitingAnswer { partner, card } = self.exchange else {
                    unreachable!("an answer is only asked for after an offer")
                };
                if self.held[seat].count(returned) == 0 {
                    return Err(Illegal::NotHeld(Cards::one(returned)));
                }
                self.exchange = Exchange::Answered(MerchantTrade {
                    offerer: from,
                    partner,
                    offered: card,
                    returned,
                });
            }
            (decision, _) => return Err(Illegal::WrongDecision(decision)),
        }
        // Making one's own setup choice keeps quiet about the Jesters: only
        // the omniscient log says so (views show it to the holder alone).
        if own_choice {
            self.chosen.insert(seat);
            if self.revolution_holder == Some(seat) {
                self.events.push(Event::RevolutionDeclined { seat });
            }
        }
        self.setup_maybe_done();
        Ok(())
    }

    fn call_revolution(&mut self, seat: Seat, greater: bool) {
        let n = self.players();
        let by = if greater {
            // Everyone trades seats with their opposite; the cards go too.
            self.dealt.reverse(n);
            self.held.reverse(n);
            self.sizes.reverse(n);
            Seat::GREATER_DALMUTI
        } else {
            seat
        };
        self.revolution_holder = Some(by);
        self.revolution = Some(Revolution { by, greater });
        // No taxes, so no exchange: every setup choice made so far is void
        // (no card has moved yet).
        self.greater_tax = Gift::NotDue;
        self.lesser_tax = Gift::NotDue;
        self.exchange = Exchange::NotDue;
        self.chosen = Seats::NONE;
        // A declined exchange is void too: the log (and so the record) keeps
        // no trace of a choice that never took effect.
        self.events
            .retain(|e| !matches!(e, Event::ExchangeDeclined { .. }));
        self.events
            .push(Event::RevolutionCalled { seat: by, greater });
        self.begin_play();
    }

    fn choose_tax(&mut self, dalmuti: Seat, count: u8, gift: Cards) -> Result<(), Illegal> {
        if gift.len() != u32::from(count) {
            return Err(Illegal::TaxCount {
                needed: count,
                given: gift.len(),
            });
        }
        if !self.held[dalmuti].contains(&gift) {
            return Err(Illegal::NotHeld(gift.missing_from(&self.held[dalmuti])));
        }
        if dalmuti == Seat::GREATER_DALMUTI {
            self.greater_tax = Gift::Chosen(gift);
        } else {
            self.lesser_tax = Gift::Chosen(gift);
        }
        Ok(())
    }

    /// Once every setup choice is made, the taxes and the merchant exchange
    /// happen together, and play begins.
    fn setup_maybe_done(&mut self) {
        if !self.to_act().is_empty() {
            return;
        }
        // Every choice was made from the hands as dealt; now all the cards
        // change hands at once.
        let n = self.players();
        for dalmuti in [Seat::GREATER_DALMUTI, Seat::new(1)] {
            let slot = if dalmuti == Seat::GREATER_DALMUTI {
                &mut self.greater_tax
            } else {
                &mut self.lesser_tax
            };
            let Gift::Chosen(gift) = *slot else {
                continue;
            };
            let peon = dalmuti.opposite(n);
            let tribute = self.held[peon].best(gift.len());
            let payment = TaxPayment {
                dalmuti,
                peon,
                gift,
                tribute,
            };
            *slot = Gift::Paid(payment);
            self.held[dalmuti].remove_all(&gift);
            self.held[peon].remove_all(&tribute);
            self.held[dalmuti].add_all(&tribute);
            self.held[peon].add_all(&gift);
            self.events.push(Event::TaxPaid(payment));
        }
        if let Exchange::Answered(trade) = self.exchange {
            let (from, to) = (trade.offerer, trade.partner);
            self.held[from].remove(trade.offered, 1);
            self.held[to].add(trade.offered, 1);
            self.held[to].remove(trade.returned, 1);
            self.held[from].add(trade.returned, 1);
            self.exchange = Exchange::Done(trade);
            self.events.push(Event::MerchantExchange(trade));
        }
        self.begin_play();
    }

    // Always inlined into `apply`, for the same reason as `apply` itself.
    #[inline(always)]
    fn play(&mut self, seat: Seat, set: Set) -> Result<(), Illegal> {
        if let Some((_, top)) = self.top
            && !set.tops(&top)
        {
            return Err(not_topping(set, top));
        }
        let held = &self.held[seat];
        // Without naturals, the face is the wild card itself: the second
        // test is then the first again, and removing no naturals is free.
        let has = held.count(set.wild()) >= set.wilds()
            && held.count(set.face()) >= set.naturals()
            && (!set.holds_wedgie() || held.count(Card::TWIRLING_WEDGIE) > 0);
        if !has {
            return Err(Illegal::NotHeld(set.cards().missing_from(held)));
        }
        if set.holds_wedgie() {
            self.check_wedgie(seat, set)?;
        }
        let held = &mut self.held[seat];
        self.masks[seat].take(set.face(), held.count(set.face()), set.naturals());
        held.take(set.face(), set.naturals());
        held.take(set.wild(), set.wilds());
        if set.holds_wedgie() {
            held.take(Card::TWIRLING_WEDGIE, 1);
        }
        let left = &mut self.sizes[seat];
        *left -= set.size();
        let out = *left == 0;
        self.events.push(Event::Played { seat, set });
        self.top = Some((seat, set));
        self.passes = 0;
        if set.is_special() || self.ratbert != RatbertTrick::Absent {
            self.special_play(set);
        }
        if out {
            self.go_out(seat);
            if self.stage == Stage::Over {
                // C7: a hand that ends mid-trick ends with it; nobody takes
                // Ratbert back.
                return Ok(());
            }
        }
        // A wedged player is skipped like one who is out, until the trick
        // ends (C6); the trick ends at once after the World Ruler, or when
        // nobody is left to answer.
        let answering = self.holding.without(self.wedged).without(Seats::only(seat));
        if set.is_world_ruler() || answering.is_empty() {
            self.end_trick(seat);
        } else {
            self.answering = answering;
            // `holding` less the player if still in, less the wedged: the
            // size of `answering` without a population count.
            self.passes_to_win = self.active - u8::from(!out) - u8::from(!self.wedged.is_empty());
            self.turn = answering.next_after(seat).expect("not empty");
        }
        Ok(())
    }

    /// The Twirling Wedgie names another player who still holds cards,
    /// unless its play ends the hand (C5).
    fn check_wedgie(&self, seat: Seat, set: Set) -> Result<(), Illegal> {
        let ends_hand = self.sizes[seat] == set.size() && self.active == 2;
        match set.wedgie_target() {
            None if ends_hand => Ok(()),
            None => Err(Illegal::WedgieNeedsTarget),
            Some(_) if ends_hand => Err(Illegal::WedgieEndsHand),
            Some(t) if t == seat || !self.holding.contains(t) => Err(Illegal::WedgieTarget(t)),
            Some(_) => Ok(()),
        }
    }

    /// The bookkeeping of Corporate Shuffle's specials, kept off the path
    /// of ordinary plays.
    #[inline(never)]
    fn special_play(&mut self, set: Set) {
        if set.is_ratbert() {
            self.ratbert = RatbertTrick::Alone;
        } else if self.ratbert == RatbertTrick::Alone {
            self.ratbert = RatbertTrick::Topped;
        }
        if let Some(target) = set.wedgie_target() {
            self.wedged = Seats::only(target);
        }
    }

    /// The trick is won by `by`, who played its last set: they lead the next
    /// one, or if out the next player clockwise who holds cards; and if the
    /// trick held Ratbert and was topped since, they take Ratbert back.
    // Out of line, like `go_out`: once in several decisions, and inlined
    // into every caller of `apply` it would only lengthen the play path.
    #[inline(never)]
    fn end_trick(&mut self, by: Seat) {
        let winner_holds = self.holding.contains(by);
        let leader = if winner_holds {
            by
        } else {
            self.holding.next_after(by).expect("two players hold cards")
        };
        self.events.push(Event::RoundWon { seat: by, leader });
        if self.ratbert == RatbertTrick::Topped && winner_holds {
            // Ratbert is no numbered rank: the masks do not change.
            self.held[by].add(Card::RATBERT, 1);
            self.sizes[by] += 1;
            self.events.push(Event::RatbertTaken { seat: by });
        }
        self.ratbert = RatbertTrick::Absent;
        self.wedged = Seats::NONE;
        self.top = None;
        self.passes = 0;
        self.turn = leader;
    }

    #[inline(never)]
    fn go_out(&mut self, seat: Seat) {
        self.holding.remove(seat);
        self.active -= 1;
        self.finish.push(seat);
        self.events.push(Event::WentOut {
            seat,
            place: self.finish.len() as u8 - 1,
        });
        if self.active == 1 {
            let last = self.holding.first_seat().expect("one player left");
            self.finish.push(last);
            self.stage = Stage::Over;
            self.events.push(Event::HandOver);
        }
    }

    #[inline(always)]
    fn pass(&mut self, seat: Seat) -> Result<(), Illegal> {
        let Some((by, _)) = self.top else {
            return Err(Illegal::MustLead);
        };
        self.events.push(Event::Passed { seat });
        self.passes += 1;
        // Everyone answering the set must pass it in a row; the next to
        // answer is never its player, whom the trick returns to only when
        // it is won.
        if self.passes == self.passes_to_win {
            self.end_trick(by);
        } else {
            self.turn = self.answering.next_after(seat).expect("answering");
        }
        Ok(())
    }

    /// Every play of `seat` in Corporate Shuffle, worst first: Ratbert
    /// (a free lead when nobody tops it), then by value from 10 down, each
    /// value's natural sets before its Wedgie sets (one per target), then
    /// Dogberts alone (each declared value, worst first), the World Ruler,
    /// and a pass last.
    fn for_each_corporate_play(
        &self,
        seat: Seat,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let held = self.held[seat];
        let top = self.top.map(|(_, set)| set);
        let dogberts = held.count(Card::DOGBERT);
        let fits = |size: u8| top.is_none_or(|t| t.size() == size);
        let beats = |rank: u8| top.is_none_or(|t| rank < t.rank_number());
        if held.count(Card::RATBERT) > 0 && fits(1) && beats(11) {
            f(Action::Play(Set::RATBERT))?;
        }
        for r in (1..=10u8).rev().filter(|&r| beats(r)) {
            let rank = Rank::new(r).expect("1..=10");
            let naturals = held.count_at(r as usize);
            let (least, most) = match top {
                None => (1, naturals),
                Some(t) => (
                    t.size().saturating_sub(dogberts).max(1),
                    naturals.min(t.size()),
                ),
            };
            for a in (least..=most).rev() {
                for j in 0..=dogberts {
                    if fits(a + j) {
                        f(Action::Play(Set::with_dogberts(rank, a, j).expect("a > 0")))?;
                    }
                }
            }
            if r == 6 && held.count(Card::TWIRLING_WEDGIE) > 0 {
                for a in (0..=naturals).rev() {
                    for j in 0..=dogberts {
                        let set = Set::wedgie(a, j).expect("few cards");
                        if fits(set.size()) {
                            self.for_each_wedgie_target(seat, set, f)?;
                        }
                    }
                }
            }
        }
        for j in (1..=dogberts).rev().filter(|&j| fits(j)) {
            for v in DECLARED_VALUES.rev().filter(|&v| beats(v)) {
                f(Action::Play(Set::dogberts_as(j, v).expect("1..=10")))?;
            }
        }
        if held.count(Card::WORLD_RULER) > 0 && fits(1) && beats(0) {
            f(Action::Play(Set::WORLD_RULER))?;
        }
        if top.is_some() {
            f(Action::Pass)?;
        }
        ControlFlow::Continue(())
    }

    /// `set` (holding the Wedgie) aimed at each player it may name, in seat
    /// order; or aimed at no one when its play ends the hand.
    fn for_each_wedgie_target(
        &self,
        seat: Seat,
        set: Set,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.sizes[seat] == set.size() && self.active == 2 {
            return f(Action::Play(set));
        }
        for target in self.holding.without(Seats::only(seat)).iter() {
            f(Action::Play(
                set.with_target(Some(target)).expect("a Wedgie"),
            ))?;
        }
        ControlFlow::Continue(())
    }

    // ----- results -----

    /// Points each seat scores for this hand under the rules' scoring, or
    /// `None` while the hand is not over or scoring is off.
    pub fn points(&self) -> Option<PerSeat<u32>> {
        if self.stage != Stage::Over || self.rules.scoring == Scoring::None {
            return None;
        }
        let n = self.players();
        let mut points = PerSeat::<u32>::default();
        for (place, &seat) in self.finish.iter().enumerate() {
            points[seat] = (n - 1 - place) as u32;
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

/// A refused action, boxed: the play path's result stays in a register.
#[cold]
#[inline(never)]
fn refused(seat: Seat, action: Action, reason: Illegal) -> Box<IllegalAction> {
    Box::new(IllegalAction {
        seat,
        action,
        reason,
    })
}

/// Why a set of the right kind does not top the set on the table.
#[cold]
#[inline(never)]
fn not_topping(set: Set, top: Set) -> Illegal {
    if set.size() != top.size() {
        Illegal::WrongSize { top, played: set }
    } else {
        Illegal::DoesNotTop { top, played: set }
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

/// The order tax gifts are listed in, worst first, wild cards last (nobody
/// wants to give one): 12 … 1, J in Dalmuti; R, 10 … 6, T, 5 … 1, 0, D in
/// Corporate Shuffle.
const DALMUTI_GIFTS: [usize; 13] = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 13];
const CORPORATE_GIFTS: [usize; 14] = [15, 10, 9, 8, 7, 6, 14, 5, 4, 3, 2, 1, 0, 16];

/// Gifts of `count` (1 or 2) cards, worst first, wild cards last.
fn for_each_gift(
    held: Cards,
    count: u8,
    variant: Variant,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let order: &[usize] = match variant {
        Variant::Dalmuti => &DALMUTI_GIFTS,
        Variant::CorporateShuffle => &CORPORATE_GIFTS,
    };
    let order = order.iter().copied();
    for (i, a) in order.clone().enumerate() {
        let a = Card::from_index(a).expect("card index");
        if held.count(a) == 0 {
            continue;
        }
        if count == 1 {
            f(Action::GiveTax(Cards::one(a)))?;
            continue;
        }
        for b in order.clone().skip(i) {
            let b = Card::from_index(b).expect("card index");
            let need = if a == b { 2 } else { 1 };
            if held.count(b) >= need {
                let mut gift = Cards::one(a);
                gift.add(b, 1);
                f(Action::GiveTax(gift))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The first set of [`for_each_lead`]: all the Jesters alone if any, else
/// every card of the worst rank held.
#[inline]
fn worst_lead(held: &Cards, masks: RankMasks) -> Set {
    let jesters = held.count(Card::JESTER);
    if jesters > 0 {
        return Set::jesters_alone(jesters).expect("jesters > 0");
    }
    let r = 15 - masks.at_least(1).leading_zeros() as u8;
    let rank = Rank::new(r).expect("a player to act holds cards");
    Set::new(rank, held.count_at(r as usize), 0).expect("held")
}

/// The first set of [`for_each_topping`]: the worst rank that can top
/// `top`, with as few Jesters as possible.
#[inline]
fn worst_topping(held: &Cards, masks: RankMasks, top: Set) -> Option<Set> {
    let size = top.size();
    let ranks = topping_ranks(held, masks, top);
    if ranks == 0 {
        return None;
    }
    let r = 15 - ranks.leading_zeros() as u8;
    let naturals = held.count_at(r as usize).min(size);
    Set::new(Rank::new(r).expect("1..=12"), naturals, size - naturals)
}

/// The ranks (bit r for rank r) strictly better than `top` of which
/// `held` has enough cards to top it, Jesters filling in.
#[inline]
fn topping_ranks(held: &Cards, masks: RankMasks, top: Set) -> u16 {
    let jesters = held.count(Card::JESTER);
    let least = top.size().saturating_sub(jesters).max(1);
    let enough = if least <= RankMasks::LANES {
        masks.at_least(least)
    } else {
        held.ranks_with_at_least(least)
    };
    enough & ((1u16 << top.rank_number()) - 1)
}

/// Every set `held` can lead, worst first.
fn for_each_lead(held: Cards, f: &mut impl FnMut(Action) -> ControlFlow<()>) -> ControlFlow<()> {
    let jesters = held.count(Card::JESTER);
    for j in (1..=jesters).rev() {
        f(Action::Play(Set::jesters_alone(j).expect("j > 0")))?;
    }
    for r in (1..=12u8).rev() {
        let naturals = held.count_at(r as usize);
        let rank = Rank::new(r).expect("1..=12");
        for a in (1..=naturals).rev() {
            for j in 0..=jesters {
                f(Action::Play(Set::new(rank, a, j).expect("a > 0")))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Every set of `held` that tops `top`, worst first. The ranks that can
/// top come from the seat's rank masks (`masks`), as for
/// [`worst_topping`]: testing each rank in turn was the hottest branch of
/// a search's play-outs, and mispredicted.
#[inline]
fn for_each_topping(
    held: Cards,
    masks: RankMasks,
    top: Set,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let size = top.size();
    let jesters = held.count(Card::JESTER);
    let mut ranks = topping_ranks(&held, masks, top);
    // Worst (highest) rank first.
    while ranks != 0 {
        let r = 15 - ranks.leading_zeros() as u8;
        ranks &= !(1 << r);
        let naturals = held.count_at(r as usize);
        let rank = Rank::new(r).expect("1..=12");
        // Most naturals first: Jesters are spent only when needed.
        let most = naturals.min(size);
        let least = size.saturating_sub(jesters).max(1);
        for a in (least..=most).rev() {
            f(Action::Play(Set::new(rank, a, size - a).expect("a > 0")))?;
        }
    }
    ControlFlow::Continue(())
}
