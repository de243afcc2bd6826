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
    pub(super) fn climb_setup_decision(&self, seat: Seat) -> Option<Decision> {
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
    pub(super) fn climb_owed_decision(&self) -> Option<Decision> {
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

    /// Every legal action of a seat in President or Daifugō, worst first.
    // Out of line: inlined into `for_each_legal` it would keep Dalmuti's
    // `worst_legal` from being inlined into the play loop.
    #[inline(never)]
    pub(super) fn climb_for_each_legal(
        &self,
        seat: Seat,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self.stage {
            Stage::Setup => {
                if let Some((count, _)) = self.return_count(seat) {
                    for_each_return(self.held[seat], count, f)?;
                }
                ControlFlow::Continue(())
            }
            Stage::Play if seat == self.turn => {
                if let Some(owed) = self.climb_owed_decision() {
                    return self.for_each_settling(seat, owed, f);
                }
                let c = self.rules.climbing();
                match self.top {
                    None => {
                        self.for_each_lead(seat, &c, f)?;
                        if c.lead_may_pass {
                            f(Action::Pass)?;
                        }
                    }
                    Some((_, top)) => {
                        self.for_each_follow(seat, top, &c, f)?;
                        f(Action::Pass)?;
                    }
                }
                ControlFlow::Continue(())
            }
            _ => ControlFlow::Continue(()),
        }
    }

    /// Every card `seat` may give or discard, the weakest in the order now
    /// first, a Joker last.
    fn for_each_settling(
        &self,
        seat: Seat,
        owed: Decision,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let held = self.held[seat];
        let flipped = self.tb().flipped();
        let act = |card| match owed {
            Decision::Give { .. } => Action::Give(card),
            _ => Action::Discard(card),
        };
        for i in THREE..=TWO {
            let p = if flipped { TWO + THREE - i } else { i };
            for suit in crate::Suit::ALL.iter().rev() {
                let card = Card::suited(p, *suit).expect("a place of the pack");
                if held.count(card) > 0 {
                    f(act(card))?;
                }
            }
        }
        if held.jokers() > 0 {
            f(act(Card::JOKER))?;
        }
        ControlFlow::Continue(())
    }

    fn for_each_lead(
        &self,
        seat: Seat,
        c: &Climbing,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let held = &self.held[seat];
        let pack = held.pack_mask();
        let jokers = held.jokers().min(c.jokers);
        let flipped = self.tb().flipped();
        let places = (THREE..=TWO).map(|i| if flipped { TWO + THREE - i } else { i });
        // Without Jokers first, weakest rank first: its sequences (the
        // most cards), then its sets, largest first. Then the same with
        // Jokers, which nobody sheds first.
        let rows = crate::Suit::ALL.map(|suit| row_of(pack, suit));
        for p in places.clone() {
            if c.sequences {
                for suit in crate::Suit::ALL {
                    self.for_each_run_from(rows[suit.index()], suit, p, 0, 0, c, None, f)?;
                }
            }
            let have = ((pack >> (4 * u32::from(p - 1))) & 0xF).count_ones() as u8;
            for size in (1..=have).rev() {
                for_each_set(pack, p, size, 0, 0, 0, f)?;
            }
        }
        if jokers == 0 {
            return ControlFlow::Continue(());
        }
        for p in places {
            if c.sequences {
                for suit in crate::Suit::ALL {
                    self.for_each_run_from(rows[suit.index()], suit, p, jokers, 1, c, None, f)?;
                }
            }
            for size in (2..=4 + jokers).rev() {
                for_each_set(pack, p, size, jokers, 1, 0, f)?;
            }
        }
        if c.sequences && c.joker_beyond_ends {
            // Runs whose lowest place is the Joker below the 3.
            for suit in crate::Suit::ALL {
                self.for_each_run_from(rows[suit.index()], suit, 0, jokers, 1, c, None, f)?;
            }
        }
        if jokers > 0 {
            f(Action::Play(Set::LONE_JOKER))?;
        }
        ControlFlow::Continue(())
    }

    /// Runs of `suit` (its places held: `row`) from place `low`, longest
    /// first, each with every placing of up to `jokers` Jokers that uses at
    /// least `min_used`; only those that top `top` when given.
    #[allow(clippy::too_many_arguments)]
    fn for_each_run_from(
        &self,
        row: u16,
        suit: crate::Suit,
        low: u8,
        jokers: u8,
        min_used: u8,
        c: &Climbing,
        top: Option<Set>,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let highest = if c.joker_beyond_ends { ABOVE } else { TWO };
        if !c.joker_beyond_ends && low == 0 {
            return ControlFlow::Continue(());
        }
        let max_len = (highest + 1).saturating_sub(low);
        if jokers == 0 {
            // Without Jokers a run is the held places in a row from `low`.
            let run = (u32::from(row) >> low).trailing_ones() as u8;
            let (most, least) = match top {
                Some(t) => (t.size(), t.size()),
                None => (run, 3),
            };
            if run < most.max(3) {
                return ControlFlow::Continue(());
            }
            for len in (least..=most).rev() {
                let set = Set::sequence(suit, low, len, 0).expect("a run held");
                if top.is_none_or(|t| self.tops_now(set, t, c).is_ok()) {
                    f(Action::Play(set))?;
                }
            }
            return ControlFlow::Continue(());
        }
        let (longest, shortest) = match top {
            Some(t) => (t.size().min(max_len), t.size()),
            None => (max_len, 3),
        };
        for len in (shortest..=longest).rev() {
            let window = ((1u32 << len) - 1) << low;
            let missing = window & !u32::from(row);
            let need = missing.count_ones() as u8;
            if need > jokers || need >= len {
                continue;
            }
            let missing_rel = (missing >> low) as u16;
            // Every placing of Jokers: the missing places, and as many more
            // as the Jokers left allow (a Joker may stand for a card held).
            let spare = jokers - need;
            let free = ((1u16 << len) - 1) & !missing_rel;
            let mut emit = |at: u16| -> ControlFlow<()> {
                if at.count_ones() as u8 >= min_used
                    && let Some(set) = Set::sequence(suit, low, len, at)
                    && top.is_none_or(|t| self.tops_now(set, t, c).is_ok())
                {
                    f(Action::Play(set))?;
                }
                ControlFlow::Continue(())
            };
            emit(missing_rel)?;
            if spare >= 1 {
                let mut a = free;
                while a != 0 {
                    let bit_a = a & a.wrapping_neg();
                    emit(missing_rel | bit_a)?;
                    if spare >= 2 {
                        let mut b = a & !bit_a;
                        while b != 0 {
                            let bit_b = b & b.wrapping_neg();
                            emit(missing_rel | bit_a | bit_b)?;
                            b &= !bit_b;
                        }
                    }
                    a &= !bit_a;
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn for_each_follow(
        &self,
        seat: Seat,
        top: Set,
        c: &Climbing,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let held = &self.held[seat];
        let pack = held.pack_mask();
        let jokers = held.jokers().min(c.jokers);
        let flipped = self.tb().flipped();
        match top.kind() {
            SetKind::OfRank => {
                let size = top.size();
                let t = top.rank_number();
                // Nothing beats 2s under the unbeatable 2s, but 2s of the
                // same size under the same-rank skip.
                let unbeatable = c.unbeatable_twos && t == TWO;
                let mut p = if c.same_rank_skip {
                    t
                } else {
                    step_up(t, flipped)
                };
                while (THREE..=TWO).contains(&p) && !(unbeatable && p != t) {
                    let suits = self.required_suits(top);
                    let number_ok = !self.tb().lock_number || p == step_up(t, flipped);
                    if number_ok {
                        for_each_set(pack, p, size, jokers, 0, suits, f)?;
                    }
                    p = step_up(p, flipped);
                }
                if size == 1 && jokers > 0 && !unbeatable {
                    f(Action::Play(Set::LONE_JOKER))?;
                }
            }
            SetKind::Sequence => {
                let suits = self.required_suits(top);
                for suit in crate::Suit::ALL {
                    if suits != 0 && suits != 1 << suit.index() {
                        continue;
                    }
                    let lows: ArrayVec<u8, 16> = if flipped {
                        (0..top.rank_number()).rev().collect()
                    } else {
                        (top.places().1 + 1..=ABOVE).collect()
                    };
                    let row = row_of(pack, suit);
                    for low in lows {
                        self.for_each_run_from(row, suit, low, jokers, 0, c, Some(top), f)?;
                    }
                }
            }
            SetKind::LoneJoker => {
                let spade = Card::suited(THREE, crate::Suit::Spades).expect("3♠");
                if c.spade_three && held.count(spade) > 0 {
                    f(Action::Play(Set::of_rank(THREE, 1, 0, 0).expect("3♠")))?;
                }
            }
            SetKind::Dalmuti => {}
        }
        ControlFlow::Continue(())
    }

    /// The suits a play must have now: the top's under a suit lock, else
    /// 0 (any).
    fn required_suits(&self, top: Set) -> u8 {
        if self.tb().lock_suits {
            top.suit_mask()
        } else {
            0
        }
    }

    // ----- checking and applying -----

    /// Whether `set` may be played on `top` now: the same kind and size and
    /// strictly higher (a lone Joker on any single card, the 3♠ on a lone
    /// Joker), and the lock (`external.c`, `compare_card_status`; `daihu.c`
    /// for the lock and the 3♠).
    fn tops_now(&self, set: Set, top: Set, c: &Climbing) -> Result<(), Illegal> {
        let flipped = self.tb().flipped();
        let not = || Err(crate::hand::apply::not_topping(set, top));
        if set.size() != top.size() {
            return not();
        }
        match (top.kind(), set.kind()) {
            (SetKind::LoneJoker, SetKind::OfRank) => {
                let spade = Set::of_rank(THREE, 1, 0, 0).expect("3♠");
                if c.spade_three && set == spade {
                    Ok(())
                } else {
                    not()
                }
            }
            (SetKind::OfRank, SetKind::LoneJoker) => {
                if c.unbeatable_twos && top.rank_number() == TWO {
                    not()
                } else {
                    Ok(())
                }
            }
            (SetKind::OfRank, SetKind::OfRank) => {
                let (p, t) = (set.rank_number(), top.rank_number());
                let equal = c.same_rank_skip && p == t;
                let beats = if c.unbeatable_twos && t == TWO {
                    false
                } else {
                    higher(p, t, flipped)
                };
                if !(beats || equal) {
                    return not();
                }
                self.lock_ok(set, top)
            }
            (SetKind::Sequence, SetKind::Sequence) => {
                let (low, high) = set.places();
                let (t_low, t_high) = top.places();
                let above = if flipped { high < t_low } else { low > t_high };
                if !above {
                    return not();
                }
                self.lock_ok(set, top)
            }
            _ => not(),
        }
    }

    fn lock_ok(&self, set: Set, top: Set) -> Result<(), Illegal> {
        if self.tb().lock_suits && set.suit_mask() != top.suit_mask() {
            return Err(Illegal::Locked {
                top,
                played: set,
                suits: true,
            });
        }
        if self.tb().lock_number
            && set.rank_number() != step_up(top.rank_number(), self.tb().flipped())
        {
            return Err(Illegal::Locked {
                top,
                played: set,
                suits: false,
            });
        }
        Ok(())
    }

    /// Whether the rule set has this kind of play at all.
    fn shape_ok(set: Set, c: &Climbing) -> Result<(), Illegal> {
        match set.kind() {
            SetKind::Dalmuti => Err(Illegal::NotOfThisGame(set)),
            SetKind::Sequence if !c.sequences => Err(Illegal::NotOfThisGame(set)),
            SetKind::Sequence
                if !c.joker_beyond_ends && {
                    let (low, high) = set.places();
                    low == 0 || high > TWO
                } =>
            {
                Err(Illegal::NotOfThisGame(set))
            }
            _ if set.wilds() > c.jokers => Err(Illegal::NotOfThisGame(set)),
            _ => Ok(()),
        }
    }

    /// Applies an action in President or Daifugō.
    pub(super) fn climb_apply(&mut self, seat: Seat, action: Action) -> Result<(), Illegal> {
        match self.stage {
            Stage::Over => Err(Illegal::HandOver),
            Stage::Setup => {
                let decision = self.climb_setup_decision(seat).ok_or(Illegal::NotToAct)?;
                let Action::GiveTax(gift) = action else {
                    return Err(Illegal::WrongDecision(decision));
                };
                let (count, slot) = self.return_count(seat).expect("a rich seat to give");
                if gift.len() != u32::from(count) {
                    return Err(Illegal::TaxCount {
                        needed: count,
                        given: gift.len(),
                    });
                }
                if !self.held[seat].contains(&gift) {
                    return Err(Illegal::NotHeld(gift.missing_from(&self.held[seat])));
                }
                let gift_slot = if slot == 0 {
                    &mut self.greater_tax
                } else {
                    &mut self.lesser_tax
                };
                let Gift::Returning(mut payment) = *gift_slot else {
                    unreachable!("a seat to give back has a payment waiting")
                };
                payment.gift = gift;
                *gift_slot = Gift::Paid(payment);
                self.held[seat].remove_all(&gift);
                self.held[payment.peon].add_all(&gift);
                self.sizes = sizes_of(&self.held, self.players());
                self.events.push(Event::TaxPaid(payment));
                self.climb_maybe_play();
                Ok(())
            }
            Stage::Play if seat != self.turn => Err(Illegal::NotToAct),
            Stage::Play if self.tb().owed.pending() => self.climb_settle(seat, action),
            Stage::Play => match action {
                Action::Play(set) => self.climb_play(seat, set),
                Action::Pass => self.climb_pass(seat),
                _ => Err(self.not_a_play()),
            },
        }
    }

    fn climb_play(&mut self, seat: Seat, set: Set) -> Result<(), Illegal> {
        let c = self.rules.climbing();
        Hand::shape_ok(set, &c)?;
        let cards = set.cards();
        if !self.held[seat].contains(&cards) {
            return Err(Illegal::NotHeld(cards.missing_from(&self.held[seat])));
        }
        let before = self.top.map(|(_, t)| t);
        if let Some(top) = before {
            self.tops_now(set, top, &c)?;
        }
        // Accepted: the cards go, the table changes.
        self.held[seat].remove_all(&cards);
        self.sizes[seat] -= set.size();
        self.events.push(Event::Played { seat, set });
        self.top = Some((seat, set));
        let t = self.tbm();
        t.in_row = 0;
        t.since = 0;
        t.last = seat;
        let spade_cut = before.is_some_and(|b| b.kind() == SetKind::LoneJoker);
        let mut clear = None;
        if set.kind() == SetKind::LoneJoker {
            // A lone Joker ends any lock (`daihu.c`: `now_shibari=0`) and
            // does nothing else: no 8, no Jack, whatever it stands for.
            t.lock_suits = false;
            t.lock_number = false;
        } else if spade_cut {
            clear = Some(Effect::SpadeThree { seat });
        } else {
            self.climb_lock(set, before, &c);
            self.climb_effects(seat, set, &c, &mut clear);
        }
        if self.sizes[seat] == 0 {
            let forbidden = self.forbidden_last(set, spade_cut, &c);
            self.climb_out(seat, forbidden, &c);
            if self.stage == Stage::Over {
                return Ok(());
            }
        }
        // A set of the rank on the table skips the next player, as a 5
        // does under the 5-skip.
        let equal = c.same_rank_skip
            && before.is_some_and(|b| {
                b.kind() == SetKind::OfRank
                    && set.kind() == SetKind::OfRank
                    && b.rank_number() == set.rank_number()
            });
        let skips = if c.five_skip { set.count_at(FIVE) } else { 0 } + u8::from(equal);
        // 7-pass and 10-discard: the player settles them before the turn
        // moves on; the table shows what the play did at once.
        let left = self.sizes[seat];
        let give = if c.seven_pass {
            set.count_at(SEVEN).min(left)
        } else {
            0
        };
        let discard = if c.ten_discard {
            set.count_at(TEN).min(left - give)
        } else {
            0
        };
        if give > 0 || discard > 0 {
            if let Some(effect) = clear {
                self.events.push(Event::Effect(effect));
            }
            let to = self
                .climb_next_in(self.holding, seat)
                .expect("another player holds cards");
            self.tbm().owed = Owed {
                give,
                to,
                discard,
                clears: clear.is_some(),
                skips,
            };
            return Ok(());
        }
        if let Some(effect) = clear {
            self.events.push(Event::Effect(effect));
            self.climb_clear();
            return Ok(());
        }
        self.climb_move_on(seat, skips, &c);
        Ok(())
    }

    /// After a play that does not clear the table: it clears if everyone
    /// who had to has passed, else the turn moves on.
    fn climb_move_on(&mut self, seat: Seat, skips: u8, c: &Climbing) {
        if self.climb_all_passed(c) {
            self.climb_clear();
            return;
        }
        self.climb_next_turn(seat, skips, c);
    }

    /// A card given (7-pass) or discarded (10-discard) after a play; once
    /// all are, the play's turn moves on as it would have.
    fn climb_settle(&mut self, seat: Seat, action: Action) -> Result<(), Illegal> {
        let c = self.rules.climbing();
        let mut owed = self.tb().owed;
        let decision = self.climb_owed_decision().expect("something owed");
        let card = match (action, decision) {
            (Action::Give(card), Decision::Give { .. })
            | (Action::Discard(card), Decision::Discard { .. }) => card,
            _ => return Err(Illegal::WrongDecision(decision)),
        };
        if self.held[seat].count(card) == 0 {
            return Err(Illegal::NotHeld(Cards::one(card)));
        }
        self.held[seat].remove(card, 1);
        self.sizes[seat] -= 1;
        if owed.give > 0 {
            self.held[owed.to].add(card, 1);
            self.sizes[owed.to] += 1;
            self.events.push(Event::Given {
                from: seat,
                to: owed.to,
                card,
            });
            owed.give -= 1;
        } else {
            self.tbm().discarded.add(card, 1);
            self.events.push(Event::Discarded { seat, card });
            owed.discard -= 1;
        }
        self.tbm().owed = if owed.pending() { owed } else { Owed::NONE };
        if owed.pending() {
            return Ok(());
        }
        // Settled: a player left with no card went out (never a forbidden
        // finish: their last card was not played).
        if self.sizes[seat] == 0 {
            self.climb_out(seat, false, &c);
            if self.stage == Stage::Over {
                return Ok(());
            }
        }
        if owed.clears {
            self.climb_clear();
        } else {
            self.climb_move_on(seat, owed.skips, &c);
        }
        Ok(())
    }

    /// Whether going out with `set` is a forbidden finish (反則上がり): a
    /// Joker, a 2 (a 3 under a revolution), an 8 under the 8-cut, or the
    /// 3♠ that beat a Joker.
    fn forbidden_last(&self, set: Set, spade_cut: bool, c: &Climbing) -> bool {
        let flipped = self.tb().reversed;
        c.forbidden_finish
            && (set.wilds() > 0
                || set.count_at(if flipped { THREE } else { TWO }) > 0
                || (c.eight_cut && set.count_at(EIGHT) > 0)
                || spade_cut)
    }

    /// The lock after an accepted play (`daihu.c`: the suits of two plays in
    /// a row equal; the number lock alike for neighbouring ranks).
    fn climb_lock(&mut self, set: Set, before: Option<Set>, c: &Climbing) {
        let Some(before) = before else {
            return;
        };
        let t = self.tbm();
        let same_suits = set.suit_mask() == before.suit_mask();
        let neighbours = set.kind() == SetKind::OfRank
            && before.kind() == SetKind::OfRank
            && set.rank_number() == step_up(before.rank_number(), t.flipped());
        let (suits, number) = match c.lock {
            Lock::Off => (false, false),
            Lock::Suit => (same_suits, false),
            Lock::Number => (false, neighbours),
            Lock::Strict => (same_suits && neighbours, same_suits && neighbours),
        };
        let newly = (suits && !t.lock_suits) || (number && !t.lock_number);
        t.lock_suits |= suits;
        t.lock_number |= number;
        if newly {
            let suits = if t.lock_suits { set.suit_mask() } else { 0 };
            let number = t.lock_number;
            self.events
                .push(Event::Effect(Effect::Locked { suits, number }));
        }
    }

    /// Revolution, 11-back, 9-reverse, and what clears the table (8-cut,
    /// 2s), in the order the contest's server checks them (`daihu.c`).
    fn climb_effects(&mut self, seat: Seat, set: Set, c: &Climbing, clear: &mut Option<Effect>) {
        let revolution = match set.kind() {
            SetKind::OfRank => c.revolution && set.size() >= 4,
            SetKind::Sequence => c.sequence_revolution && set.size() >= 5,
            _ => false,
        };
        if revolution {
            let t = self.tbm();
            t.reversed = !t.reversed;
            let reversed = self.tb().reversed;
            self.events
                .push(Event::Effect(Effect::Revolution { seat, reversed }));
        }
        if c.eight_cut && set.count_at(EIGHT) > 0 {
            *clear = Some(Effect::EightCut { seat });
        }
        if c.two_clears && set.kind() == SetKind::OfRank && set.rank_number() == TWO {
            clear.get_or_insert(Effect::TwoClears { seat });
        }
        if c.nine_reverse && set.count_at(NINE) % 2 == 1 {
            let t = self.tbm();
            t.counter = !t.counter;
            let clockwise = !self.tb().counter;
            self.events
                .push(Event::Effect(Effect::Reversed { seat, clockwise }));
        }
        if c.eleven_back && set.count_at(JACK) > 0 {
            let t = self.tbm();
            t.back = !t.back;
            let on = self.tb().back;
            self.events
                .push(Event::Effect(Effect::ElevenBack { seat, on }));
        }
    }

    /// Whether every player who must pass for the table to clear has
    /// passed.
    fn climb_all_passed(&self, c: &Climbing) -> bool {
        let t = self.tb();
        let mut must = self.holding;
        if !c.last_player_passes {
            must.remove(t.last);
        }
        if must.is_empty() {
            return self.top.is_some();
        }
        if c.permanent_pass {
            must.without(t.passed).is_empty()
        } else {
            usize::from(t.since) >= must.len()
        }
    }

    /// The next seat in the direction of play from `from` among `seats`.
    fn climb_next_in(&self, seats: Seats, from: Seat) -> Option<Seat> {
        if self.tb().counter {
            seats.next_before(from)
        } else {
            seats.next_after(from)
        }
    }

    /// The turn passes on from `from`, skipping `skips` players (5-skip).
    fn climb_next_turn(&mut self, from: Seat, skips: u8, c: &Climbing) {
        let mut eligible = self.holding;
        if c.permanent_pass {
            eligible = eligible.without(self.tb().passed);
        }
        let mut next = self.climb_next_in(eligible, from).expect("someone to play");
        if skips > 0 {
            // Someone must be left to play: all the others at most when the
            // turn may come back to the player, all but one when not.
            let others = eligible.without(Seats::only(from)).len();
            let most = if eligible.contains(from) {
                others
            } else {
                others.saturating_sub(1)
            };
            let mut skipped = Seats::NONE;
            for _ in 0..usize::from(skips).min(most) {
                skipped.insert(next);
                next = self.climb_next_in(eligible, next).expect("someone to play");
            }
            if !skipped.is_empty() {
                self.events.push(Event::Effect(Effect::Skipped {
                    seat: from,
                    skipped,
                }));
            }
            if next == from && !c.last_player_passes {
                // Everyone else lost their turn: the trick is the player's.
                self.climb_clear();
                return;
            }
        }
        self.turn = next;
    }

    /// The table clears: the last to play leads, or if out the next player
    /// holding cards (`daihu.c`, the `flash` branch).
    fn climb_clear(&mut self) {
        let last = self.tb().last;
        let leader = if self.holding.contains(last) {
            last
        } else {
            self.climb_next_in(self.holding, last)
                .expect("two players hold cards")
        };
        self.events.push(Event::RoundWon { seat: last, leader });
        let t = self.tbm();
        t.back = false;
        t.lock_suits = false;
        t.lock_number = false;
        t.passed = Seats::NONE;
        t.since = 0;
        t.last = leader;
        self.top = None;
        self.passes = 0;
        self.turn = leader;
    }

    fn climb_pass(&mut self, seat: Seat) -> Result<(), Illegal> {
        let c = self.rules.climbing();
        if self.top.is_none() && !c.lead_may_pass {
            return Err(Illegal::MustLead);
        }
        self.events.push(Event::Passed { seat });
        let t = self.tbm();
        t.passed.insert(seat);
        t.in_row = t.in_row.saturating_add(1);
        t.since = t.since.saturating_add(1);
        self.passes = self.passes.saturating_add(1);
        if c.stalemate_passes > 0 && self.tb().in_row >= c.stalemate_passes {
            self.climb_stalemate();
            return Ok(());
        }
        if self.climb_all_passed(&c)
            || (self.top.is_none() && self.holding.without(self.tb().passed).is_empty())
        {
            self.climb_clear();
            return Ok(());
        }
        self.climb_next_turn(seat, 0, &c);
        Ok(())
    }

    /// A player has no card left: a place at the top, or at the bottom
    /// for a forbidden last card; the capital may fall.
    fn climb_out(&mut self, seat: Seat, forbidden: bool, c: &Climbing) {
        self.holding.remove(seat);
        self.active -= 1;
        if forbidden {
            self.events.push(Event::Effect(Effect::Fouled { seat }));
            self.climb_sink(seat);
        } else {
            let first = self.finish.is_empty();
            self.finish.push(seat);
            self.events.push(Event::WentOut {
                seat,
                place: self.finish.len() as u8 - 1,
            });
            if first && c.miyako_ochi {
                let top = Seat::all(self.players()).find(|&s| self.tb().class[s] == 0);
                if let Some(fallen) = top.filter(|&s| s != seat && self.holding.contains(s)) {
                    self.holding.remove(fallen);
                    self.active -= 1;
                    self.events
                        .push(Event::Effect(Effect::Fell { seat: fallen }));
                    self.climb_sink(fallen);
                }
            }
        }
        self.climb_maybe_over();
    }

    /// Places `seat` at the bottom, below those already there.
    fn climb_sink(&mut self, seat: Seat) {
        let players = self.players() as u8;
        let t = self.tbm();
        t.sunk[usize::from(t.sunk_len)] = seat.index() as u8;
        t.sunk_len += 1;
        let place = players - t.sunk_len;
        self.events.push(Event::WentOut { seat, place });
    }

    /// When one player or none holds cards, the game is over: the one left
    /// takes the last place above the bottom.
    fn climb_maybe_over(&mut self) {
        if self.active > 1 {
            return;
        }
        if let Some(last) = self.holding.first_seat() {
            self.holding.remove(last);
            self.active = 0;
            self.finish.push(last);
            self.events.push(Event::WentOut {
                seat: last,
                place: self.finish.len() as u8 - 1,
            });
        }
        self.climb_finish();
    }

    fn climb_finish(&mut self) {
        let t = *self.tb();
        for i in (0..usize::from(t.sunk_len)).rev() {
            self.finish.push(Seat::new(usize::from(t.sunk[i])));
        }
        self.stage = Stage::Over;
        self.top = None;
        self.events.push(Event::HandOver);
    }

    /// Too many passes in a row: the players still holding cards take the
    /// places left in an order drawn at random (`daihu.c`,
    /// `number_renzoku_pass>=20`).
    fn climb_stalemate(&mut self) {
        let left = self.holding;
        self.events.push(Event::Effect(Effect::Stalemate { left }));
        let mut order: ArrayVec<Seat, MAX_PLAYERS> = left.iter().collect();
        let t = *self.tb();
        let forced: ArrayVec<Seat, MAX_PLAYERS> = (0..usize::from(t.forced_len))
            .map(|i| Seat::new(usize::from(t.forced[i])))
            .collect();
        let mut forced_set = Seats::NONE;
        for &s in &forced {
            forced_set.insert(s);
        }
        if forced.len() == order.len() && forced_set == left {
            order = forced;
        } else {
            let mut rng = DealRng::new(crate::Seed::from(self.tb().chance));
            rng.shuffle(&mut order);
        }
        for seat in order {
            self.holding.remove(seat);
            self.finish.push(seat);
            self.events.push(Event::WentOut {
                seat,
                place: self.finish.len() as u8 - 1,
            });
        }
        self.active = 0;
        self.climb_finish();
    }
}

/// The place beyond the 2 where only a Joker stands.
const ABOVE: u8 = crate::suit::ABOVE_TWO;

/// The places of `suit` held, as bits (bit p for place p, 1..=13).
fn row_of(pack: u64, suit: crate::Suit) -> u16 {
    let mut mask = (pack >> suit.index()) & 0x1_1111_1111_1111;
    let mut row = 0u16;
    while mask != 0 {
        let bit = mask.trailing_zeros();
        row |= 1 << (bit / 4 + 1);
        mask &= mask - 1;
    }
    row
}

/// Every set of `size` cards of place `p` that `held` can make with
/// `min_used` to `jokers` Jokers, fewest Jokers first, each Joker standing
/// for every suit it may; only those of suits `suits` when not 0.
fn for_each_set(
    pack: u64,
    p: u8,
    size: u8,
    jokers: u8,
    min_used: u8,
    suits: u8,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let row = ((pack >> (4 * u32::from(p - 1))) & 0xF) as u8;
    let have = row.count_ones() as u8;
    if have == 0 || have + jokers < size {
        return ControlFlow::Continue(());
    }
    for used in min_used..=jokers.min(size - 1) {
        let naturals = size - used;
        if naturals > have {
            continue;
        }
        // Natural subsets of `row` of the right size, in a fixed order.
        let mut sub = 0u8;
        loop {
            // The next subset of `row` (counting up through its bits).
            sub = sub.wrapping_sub(row) & row;
            if sub == 0 {
                break;
            }
            if sub.count_ones() as u8 != naturals {
                continue;
            }
            if used == 0 {
                let set = Set::of_rank(p, sub, 0, 0).expect("held naturals");
                if suits == 0 || set.suit_mask() == suits {
                    f(Action::Play(set))?;
                }
                continue;
            }
            // Jokers: each set of missing suits for them, the rest beyond
            // the four suits (only once all four are there).
            let open = 0xF & !sub;
            let mut js = 0u8;
            loop {
                if js.count_ones() as u8 <= used {
                    let extra = used - js.count_ones() as u8;
                    if let Some(set) = Set::of_rank(p, sub, js, extra)
                        && (suits == 0 || set.suit_mask() == suits)
                    {
                        f(Action::Play(set))?;
                    }
                }
                js = js.wrapping_sub(open) & open;
                if js == 0 {
                    break;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Every way to give back `count` cards of `held`, the weakest first.
fn for_each_return(
    held: Cards,
    count: u8,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    // Weakest first: 3♣ 3♦ 3♥ 3♠ 4♣ … 2♠, then the Jokers.
    let mut cards: ArrayVec<Card, 64> = ArrayVec::new();
    for p in THREE..=TWO {
        for suit in crate::Suit::ALL.iter().rev() {
            let card = Card::suited(p, *suit).expect("a place of the pack");
            if held.count(card) > 0 {
                cards.push(card);
            }
        }
    }
    for _ in 0..held.jokers() {
        cards.push(Card::JOKER);
    }
    match count {
        1 => {
            let mut last = None;
            for &a in &cards {
                if last != Some(a) {
                    f(Action::GiveTax(Cards::one(a)))?;
                }
                last = Some(a);
            }
        }
        2 => {
            for i in 0..cards.len() {
                if i > 0 && cards[i] == cards[i - 1] {
                    continue;
                }
                for j in i + 1..cards.len() {
                    if j > i + 1 && cards[j] == cards[j - 1] {
                        continue;
                    }
                    let mut gift = Cards::one(cards[i]);
                    gift.add(cards[j], 1);
                    f(Action::GiveTax(gift))?;
                }
            }
        }
        _ => {}
    }
    ControlFlow::Continue(())
}
