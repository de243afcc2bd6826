//! President and Daifugō on the hand's state machine: the exchange between
//! classes, the table state (order reversed, locks, direction, who has
//! passed), every play's effects, and the finishing order with its falls
//! and fouls. RULES.md § Daifugō says where each rule comes from; the
//! contest's server is `daihu.c` and `external.c` of the UECda developer
//! kit.

use super::*;
use crate::climbing::{Climbing, FirstLead, Lock};
use crate::event::Effect;
use crate::set::SetKind;

mod apply;
mod legal;

/// Places of the cards that do things.
pub(crate) const THREE: u8 = 1;
const FIVE: u8 = 3;
const SEVEN: u8 = 5;
const EIGHT: u8 = 6;
const NINE: u8 = 7;
const TEN: u8 = 8;
const JACK: u8 = 9;
pub(crate) const TWO: u8 = 13;

/// No class this game (the first of a class cycle).
pub(crate) const NO_CLASS: u8 = u8::MAX;

/// What a play of 7s or 10s still owes (7-pass, 10-discard) before the
/// turn moves on, and what the play does then.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Owed {
    /// Cards still to give to `to` (7渡し).
    pub give: u8,
    /// The next player, who receives them.
    pub to: Seat,
    /// Cards still to discard after the giving (10捨て).
    pub discard: u8,
    /// The play clears the table once they are settled (an 8-cut, 2s).
    pub clears: bool,
    /// Players the play skips once they are settled (5-skip, same rank).
    pub skips: u8,
}

impl Owed {
    pub(crate) const NONE: Owed = Owed {
        give: 0,
        to: Seat::GREATER_DALMUTI,
        discard: 0,
        clears: false,
        skips: 0,
    };

    /// Whether anything is still owed.
    #[inline]
    pub(crate) fn pending(&self) -> bool {
        self.give > 0 || self.discard > 0
    }
}

/// The state of the table in President and Daifugō, besides the set on it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Table {
    /// Each seat's class this game, 0 the top (大富豪, President); all
    /// [`NO_CLASS`] in a game without classes.
    pub class: PerSeat<u8>,
    /// A revolution is in force (革命): 3 high, 2 low.
    pub reversed: bool,
    /// A Jack's 11-back is in force until the table clears.
    pub back: bool,
    /// The suits are locked.
    pub lock_suits: bool,
    /// The ranks are locked (each set the next rank).
    pub lock_number: bool,
    /// Play goes to lower seats (after a 9-reverse).
    pub counter: bool,
    /// Who has passed since the table last cleared.
    pub passed: Seats,
    /// Passes in a row since the last play, across clears (the stalemate).
    pub in_row: u8,
    /// Passes since the last play (the table clears when enough).
    pub since: u8,
    /// The last to play, or the leader since the table cleared.
    pub last: Seat,
    /// Seats placed at the bottom (a fall or a foul), the lowest first.
    pub sunk: [u8; 8],
    /// How many of `sunk`.
    pub sunk_len: u8,
    /// The random number behind a stalemate's places, drawn at the deal.
    pub chance: u64,
    /// The seat the deal started at (it got the first card).
    pub dealt_from: Seat,
    /// A stalemate's places given by a record, in place order.
    pub forced: [u8; 8],
    /// How many of `forced`.
    pub forced_len: u8,
    /// What the last play still owes (7-pass, 10-discard).
    pub owed: Owed,
    /// The cards discarded this game (10-discard): out of play.
    pub discarded: Cards,
}

impl Table {
    pub(crate) fn new(players: usize) -> Table {
        let mut class = PerSeat::<u8>::default();
        for seat in Seat::all(players) {
            class[seat] = NO_CLASS;
        }
        Table {
            class,
            reversed: false,
            back: false,
            lock_suits: false,
            lock_number: false,
            counter: false,
            passed: Seats::NONE,
            in_row: 0,
            since: 0,
            last: Seat::GREATER_DALMUTI,
            sunk: [0; 8],
            sunk_len: 0,
            chance: 0,
            dealt_from: Seat::GREATER_DALMUTI,
            forced: [0; 8],
            forced_len: 0,
            owed: Owed::NONE,
            discarded: Cards::EMPTY,
        }
    }

    /// Whether the order is turned over now (a revolution or an 11-back,
    /// not both).
    #[inline]
    pub(crate) fn flipped(&self) -> bool {
        self.reversed != self.back
    }
}

/// Whether `a` is higher than `b` in the order now.
#[inline]
fn higher(a: u8, b: u8, flipped: bool) -> bool {
    if flipped { a < b } else { a > b }
}

/// The rank one step up from `place` in the order now.
#[inline]
fn step_up(place: u8, flipped: bool) -> u8 {
    if flipped {
        place.wrapping_sub(1)
    } else {
        place + 1
    }
}

impl Hand {
    /// The table of a game of the pack (Dalmuti's hands have none: it is
    /// boxed so that they stay small).
    #[inline]
    fn tb(&self) -> &Table {
        self.table
            .as_deref()
            .expect("a game of the pack has its table")
    }

    #[inline]
    fn tbm(&mut self) -> &mut Table {
        self.table
            .as_deref_mut()
            .expect("a game of the pack has its table")
    }

    /// Deals a game of President or Daifugō. `ranking` is the last game's
    /// finishing order as seats of this table, best first; `None` for a
    /// game without classes (the first, or the first of a class cycle):
    /// then the deal starts at a seat drawn at random and nobody exchanges.
    /// With classes the deal starts at the top class's seat, which gets the
    /// first card (the contest's `shuffle_card` from `mibun[0]`).
    ///
    /// ```
    /// use dalmuti_core::{DealRng, Decision, Hand, Rules, Seat, Seed, Stage};
    /// let ranking: Vec<Seat> = [3, 0, 4, 1, 2].map(Seat::new).to_vec();
    /// let hand = Hand::deal_ranked(Rules::daifugo(), 5, Some(&ranking), &mut DealRng::new(Seed::from(1)));
    /// assert_eq!(hand.stage(), Stage::Setup);
    /// // The top class gets the first card, so one of the three of 11.
    /// assert_eq!(hand.dealt(Seat::new(3)).len(), 11);
    /// // The richest gives back two cards, the second richest one.
    /// assert_eq!(hand.decision(Seat::new(3)), Some(Decision::Tax { to: Seat::new(2), count: 2 }));
    /// assert_eq!(hand.decision(Seat::new(0)), Some(Decision::Tax { to: Seat::new(1), count: 1 }));
    /// assert_eq!(hand.decision(Seat::new(4)), None);
    /// ```
    ///
    /// # Panics
    /// If the rules are not President's or Daifugō's, `players` is not
    /// theirs, or `ranking` is not every seat once.
    #[inline(never)]
    pub fn deal_ranked(
        rules: Rules,
        players: usize,
        ranking: Option<&[Seat]>,
        rng: &mut DealRng,
    ) -> Hand {
        assert!(rules.variant.is_suited() && rules.variant.players().contains(&players));
        let (start, dealt) = Hand::pack_deal(&rules, players, ranking.map(|r| r[0]), rng);
        let chance = if rules.climbing().stalemate_passes > 0 {
            u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32())
        } else {
            0
        };
        Hand::start_climb(rules, players, ranking, start, dealt, chance)
    }

    /// The deal of a game of President or Daifugō from `rng`: from seat
    /// `start` (the top class's), or without classes from a seat drawn from
    /// `rng` first; the seat it started at, and each seat's cards. What a
    /// revealed seed deals, for `dalmuti verify`.
    ///
    /// ```
    /// use dalmuti_core::{DealRng, Hand, Rules, Seat, Seed};
    /// let rules = Rules::daifugo();
    /// let (start, cards) = Hand::pack_deal(&rules, 5, Some(Seat::new(3)), &mut DealRng::new(Seed::from(4)));
    /// assert_eq!((start, cards[Seat::new(3)].len(), cards[Seat::new(2)].len()), (Seat::new(3), 11, 10));
    /// let ranking = [3, 0, 1, 2, 4].map(Seat::new);
    /// let hand = Hand::deal_ranked(rules, 5, Some(&ranking), &mut DealRng::new(Seed::from(4)));
    /// assert_eq!(hand.dealt(Seat::new(0)), cards[Seat::new(0)]);
    /// ```
    pub fn pack_deal(
        rules: &Rules,
        players: usize,
        start: Option<Seat>,
        rng: &mut DealRng,
    ) -> (Seat, PerSeat<Cards>) {
        let deck = Deck::for_table(rules, players);
        let start = start.unwrap_or_else(|| Seat::new(rng.below(players as u32) as usize));
        let hands = deck.deal(players, rng);
        let mut dealt = PerSeat::<Cards>::default();
        for seat in Seat::all(players) {
            dealt[Seat::new((seat.index() + start.index()) % players)] = hands[seat];
        }
        (start, dealt)
    }

    /// A game of President or Daifugō from cards already dealt (a record,
    /// a test): they must be the pack dealt one at a time from the top
    /// class's seat, or from any seat in a game without classes. A
    /// stalemate's places are then drawn from `chance`.
    pub fn from_deal_ranked(
        rules: Rules,
        players: usize,
        ranking: Option<&[Seat]>,
        dealt: &[Cards],
        chance: u64,
    ) -> Result<Hand, BadDeal> {
        if !rules.variant.is_suited()
            || !rules.variant.players().contains(&players)
            || dealt.len() != players
        {
            return Err(BadDeal::Players(dealt.len()));
        }
        if let Some(r) = ranking {
            let mut seen = Seats::NONE;
            for &s in r {
                seen.insert(s);
            }
            if r.len() != players || seen != Seats::first(players) {
                return Err(BadDeal::NotTheDeck(
                    "the ranking is not every seat once".into(),
                ));
            }
        }
        let deck = Deck::for_table(&rules, players);
        let mut all = Cards::EMPTY;
        for cards in dealt {
            if !cards.is_empty() && !cards.is_suited() {
                return Err(BadDeal::NotTheDeck(format!(
                    "{cards} are not cards of the pack"
                )));
            }
            if all.pack_mask() & cards.pack_mask() != 0 || all.jokers() + cards.jokers() > 2 {
                return Err(BadDeal::NotTheDeck("a card dealt twice".into()));
            }
            all.add_all(cards);
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
        let share = |seat: Seat, start: Seat| {
            let from = (seat.index() + players - start.index()) % players;
            deck.share(Seat::new(from), players)
        };
        let fits =
            |start: Seat| Seat::all(players).all(|s| dealt[s.index()].len() == share(s, start));
        let start = match ranking {
            Some(r) => r[0],
            None => Seat::all(players)
                .find(|&s| fits(s))
                .unwrap_or(Seat::GREATER_DALMUTI),
        };
        for seat in Seat::all(players) {
            let (expected, got) = (share(seat, start), dealt[seat.index()].len());
            if expected != got {
                return Err(BadDeal::Share {
                    seat,
                    expected,
                    got,
                });
            }
        }
        let mut hands = PerSeat::<Cards>::default();
        for (i, cards) in dealt.iter().enumerate() {
            hands[Seat::new(i)] = *cards;
        }
        Ok(Hand::start_climb(
            rules, players, ranking, start, hands, chance,
        ))
    }

    fn start_climb(
        rules: Rules,
        players: usize,
        ranking: Option<&[Seat]>,
        start: Seat,
        dealt: PerSeat<Cards>,
        chance: u64,
    ) -> Hand {
        let mut table = Table::new(players);
        table.chance = chance;
        table.dealt_from = start;
        if let Some(r) = ranking {
            for (class, &seat) in r.iter().enumerate() {
                table.class[seat] = class as u8;
            }
        }
        let mut hand = Hand {
            rules,
            players: players as u8,
            first: ranking.is_none(),
            dealt,
            held: dealt,
            holding: Seats::first(players),
            active: players as u8,
            sizes: sizes_of(&dealt, players),
            masks: PerSeat::default(),
            stage: Stage::Setup,
            revolution_holder: None,
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
            table: Some(Box::new(table)),
        };
        // The poor's best cards go to the rich at once; the rich then give
        // back cards of their choice (`daihu.c`: `trans_strong_card` for the
        // 大貧民 and 貧民, then the 大富豪's and 富豪's tables read).
        if let (Some(r), true) = (ranking, rules.climbing().exchange) {
            let n = players;
            let pairs: &[(usize, u8)] = if n >= 4 { &[(0, 2), (1, 1)] } else { &[(0, 2)] };
            for &(k, count) in pairs {
                let (rich, poor) = (r[k], r[n - 1 - k]);
                let tribute = hand.held[poor].best(u32::from(count));
                hand.held[poor].remove_all(&tribute);
                hand.held[rich].add_all(&tribute);
                let payment = TaxPayment {
                    dalmuti: rich,
                    peon: poor,
                    gift: Cards::EMPTY,
                    tribute,
                };
                let slot = if k == 0 {
                    &mut hand.greater_tax
                } else {
                    &mut hand.lesser_tax
                };
                *slot = Gift::Returning(payment);
            }
            hand.sizes = sizes_of(&hand.held, players);
        }
        hand.climb_maybe_play();
        hand
    }

    /// Once no rich player is still to give back, play begins.
    fn climb_maybe_play(&mut self) {
        let pending = [self.greater_tax, self.lesser_tax]
            .iter()
            .any(|g| matches!(g, Gift::Returning(_)));
        if pending {
            return;
        }
        self.stage = Stage::Play;
        let leader = self.first_leader();
        self.turn = leader;
        self.tbm().last = leader;
    }

    /// Who leads the game's first trick.
    fn first_leader(&self) -> Seat {
        let c = self.rules.climbing();
        let holder = |card: Card| {
            Seat::all(self.players())
                .find(|&s| self.held[s].count(card) > 0)
                .unwrap_or(Seat::GREATER_DALMUTI)
        };
        let three = |suit| Card::suited(THREE, suit).expect("the 3");
        match c.first_lead {
            FirstLead::DiamondThree => holder(three(crate::Suit::Diamonds)),
            FirstLead::ClubThree => holder(three(crate::Suit::Clubs)),
            FirstLead::TopClass => Seat::all(self.players())
                .find(|&s| self.tb().class[s] == 0)
                .unwrap_or_else(|| holder(three(crate::Suit::Clubs))),
        }
    }

    // ----- what the table shows -----

    /// The table of a game of the pack, or a fresh one for the other games
    /// (whose public accessors below then say: no class, no revolution…).
    fn table_or_fresh(&self) -> Table {
        self.table
            .as_deref()
            .copied()
            .unwrap_or_else(|| Table::new(self.players()))
    }

    /// A seat's class this game in President or Daifugō, 0 the top; `None`
    /// in a game without classes (and in Dalmuti, where the seat is the
    /// class).
    pub fn class(&self, seat: Seat) -> Option<usize> {
        let class = self.table.as_deref()?.class[seat];
        (class != NO_CLASS).then_some(usize::from(class))
    }

    /// Whether a revolution is in force (President, Daifugō): 3 high.
    pub fn reversed(&self) -> bool {
        self.table_or_fresh().reversed
    }

    /// Whether a Jack's 11-back is in force until the table clears.
    pub fn eleven_back(&self) -> bool {
        self.table_or_fresh().back
    }

    /// The lock on the table: the suits every play must have (bit 0 spades
    /// … bit 3 clubs; 0 when the suits are free) and whether each set must
    /// be the next rank.
    pub fn lock(&self) -> (u8, bool) {
        let t = self.table_or_fresh();
        let suits = match (t.lock_suits, self.top) {
            (true, Some((_, top))) => top.suit_mask(),
            _ => 0,
        };
        (suits, t.lock_number)
    }

    /// Whether play goes to higher seats (false after an odd number of
    /// 9-reverses).
    pub fn clockwise(&self) -> bool {
        !self.table_or_fresh().counter
    }

    /// Who has passed since the table last cleared (in rule sets where a
    /// pass stands until then, they are not asked again).
    pub fn passed(&self) -> Seats {
        self.table_or_fresh().passed
    }

    /// Passes in a row since the last play (the stalemate counts them).
    pub fn passes_in_a_row(&self) -> usize {
        usize::from(self.table_or_fresh().in_row)
    }

    /// The last to play (or the leader since the table last cleared): who
    /// leads when the table clears.
    pub fn last_to_play(&self) -> Seat {
        self.table_or_fresh().last
    }

    /// The random number a stalemate's places are drawn from (drawn at the
    /// deal; a record keeps the places themselves).
    pub fn chance(&self) -> u64 {
        self.table_or_fresh().chance
    }

    /// Gives the places a stalemate will deal out, in place order, instead
    /// of drawing them (a replay of a record, which keeps them): used only
    /// if the seats given are exactly those still holding cards then. Does
    /// nothing in the other games.
    pub fn set_stalemate_places(&mut self, order: &[Seat]) {
        let Some(t) = self.table.as_deref_mut() else {
            return;
        };
        t.forced_len = order.len().min(8) as u8;
        for (i, s) in order.iter().take(8).enumerate() {
            t.forced[i] = s.index() as u8;
        }
    }

    /// The cards discarded so far this game (10-discard), out of play.
    /// Omniscient: a view shows each player only their own
    /// ([`crate::View::my_discards`]).
    pub fn discarded(&self) -> Cards {
        self.table_or_fresh().discarded
    }

    /// The seat the deal started at.
    pub fn dealt_from(&self) -> Seat {
        self.table_or_fresh().dealt_from
    }

    /// The cards a rich player would give back if they gave none of their
    /// choice: their strongest (the contest's server gives those for a
    /// return it cannot take, `daihu.c` with `trans_strong_card`).
    pub fn strongest(&self, seat: Seat, count: u32) -> Cards {
        self.held[seat].best(count)
    }

    /// The same game with other cards in the hands of `others` (President,
    /// Daifugō): for search bots, which sample what they cannot see. The
    /// copy keeps only what every seat knows besides the cards: its log is
    /// empty, the dealt hands are the holdings and the exchange is
    /// forgotten.
    pub(crate) fn with_holdings(&self, holdings: &PerSeat<Cards>) -> Hand {
        let mut hand = self.clone();
        let mut pile = self.deck().cards();
        for seat in Seat::all(self.players()) {
            pile.remove_all(&holdings[seat]);
        }
        for event in &self.events {
            if let Event::Played { set, .. } = event {
                pile.remove_all(&set.cards());
            }
        }
        if let Some(t) = hand.table.as_deref_mut() {
            t.discarded = pile;
        }
        hand.events.clear();
        hand.held = *holdings;
        hand.dealt = *holdings;
        hand.sizes = sizes_of(holdings, self.players());
        if self.stage == Stage::Play {
            hand.greater_tax = Gift::NotDue;
            hand.lesser_tax = Gift::NotDue;
        }
        hand
    }

    // ----- decisions and legal actions -----

    /// The decision of a seat while a game of President or Daifugō is set
    /// up: the rich give back cards.
    pub(in crate::hand) fn climb_setup_decision(&self, seat: Seat) -> Option<Decision> {
        [self.greater_tax, self.lesser_tax]
            .into_iter()
            .find_map(|g| match g {
                Gift::Returning(p) if p.dalmuti == seat => Some(Decision::Tax {
                    to: p.peon,
                    count: p.tribute.len().max(1) as u8,
                }),
                _ => None,
            })
    }

    /// What the player to act owes after a play of 7s or 10s, as its
    /// decision: first the cards to give, then those to discard.
    #[inline]
    pub(in crate::hand) fn climb_owed_decision(&self) -> Option<Decision> {
        let owed = self.table.as_deref()?.owed;
        if owed.give > 0 {
            Some(Decision::Give {
                to: owed.to,
                left: owed.give,
            })
        } else if owed.discard > 0 {
            Some(Decision::Discard { left: owed.discard })
        } else {
            None
        }
    }

    /// The count a rich seat must give back (its tribute's size).
    fn return_count(&self, seat: Seat) -> Option<(u8, usize)> {
        [self.greater_tax, self.lesser_tax]
            .into_iter()
            .enumerate()
            .find_map(|(i, g)| match g {
                Gift::Returning(p) if p.dalmuti == seat => Some((p.tribute.len() as u8, i)),
                _ => None,
            })
    }
}
