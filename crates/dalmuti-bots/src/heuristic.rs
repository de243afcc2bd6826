//! The heuristic bot: the rules of thumb of a good player, from the view
//! alone. It plays both games: *The Great Dalmuti* and *Corporate
//! Shuffle* (whose special cards are below).
//!
//! # How it thinks about a hand
//!
//! A hand is a list of *groups*: all the cards of one value. Playing a
//! group whole costs one play; breaking it only makes more plays. Some
//! groups are *sure winners*: a set of k cards of value v that no other
//! player can top, because no player still holding cards can make a set of
//! k cards better than v (counting the unseen cards, the unseen wild cards,
//! each player's card count, and what taxes told it). The other groups are
//! *losers*: each needs a lead of its own, or a lucky chance to follow.
//! Spare wild cards (Jesters, Dogberts) first turn losers into sure winners
//! when they can (a lone Earl Marshal with a Jester is a pair nobody may
//! top); the rest join the last set for free.
//!
//! So the bot counts the leads it still *needs*: a leader sheds one loser
//! and loses the lead; a sure winner played on another player's set wins
//! the lead back. With the lead, a hand of at most one loser goes out for
//! sure: sure winners first (each keeps the lead), the loser last.
//!
//! # What it does
//!
//! - **Lead.** Goes out if its whole hand is one set. If it has at most one
//!   loser, plays a sure winner (it keeps the lead, and goes out). Otherwise
//!   it leads its worst loser as a whole group, without wild cards: bad
//!   cards go while the good ones stay to win leads back.
//! - **Follow.** Goes out if it can. Tops with a sure winner when it will
//!   then go out for sure. Otherwise it weighs each way to top against
//!   passing by the leads it would still need. Following with a whole
//!   losing group sheds it for free and is taken, unless its cards are
//!   good ones (value 5 or better) that will top most sets later.
//!   Breaking a group or spending a wild card is taken only when it saves
//!   a lead (a group fewer, or the lead won with a set nobody can top while
//!   the rest stays as good). A sure winner is spent to win the lead only
//!   when going out is near (its sure winners cover the leads it needs,
//!   give or take one) or when it holds few cards. Otherwise it passes and
//!   keeps its groups, its best cards and its wild cards.
//! - **Waiting too long.** A player who has seen four rounds led by others
//!   since it last led follows as eagerly as one near going out: any play
//!   that needs no more leads than passing, good cards included. Players
//!   who keep the lead by topping single after single, or who keep their
//!   strong cards for the end, would otherwise shed everything while it
//!   waits for a lead that never comes.
//! - **Two players left.** The other player's cards are exactly the unseen
//!   ones, so the ending is a game of perfect information: when both hands
//!   are small the bot searches it exactly (win or lose, with a table of
//!   positions already solved and a bound on the work) and plays a winning
//!   line when there is one; otherwise it plays by the rules above.
//! - **Tax.** A Dalmuti gives the cards whose loss hurts least: lone bad
//!   cards first (each removes a whole group, a lead it will not need),
//!   never a wild card (nor the World Ruler) and never a card of value 3
//!   or better while it has others.
//! - **Revolution.** Always called as Greater Peon (a greater revolution
//!   makes it Greater Dalmuti, with no tax to pay). Declined by a Dalmuti,
//!   who would collect. Called by a Lesser Peon, who would pay, and by a
//!   Merchant whose hand is weak (fewer good cards than its share).
//! - **Merchant exchange.** The highest Merchant offers its worst lone card
//!   when that card is bad (giving it away removes a group and a card
//!   received can hardly be worse); otherwise declines. Asked to answer, it
//!   gives its worst lone card (its worst card if it has no lone one).
//!
//! # Corporate Shuffle
//!
//! The same rules of thumb, with the specials in the count:
//!
//! - **The World Ruler** (0) is a group of its own that nobody can top: a
//!   sure winner. It only tops a single, ends the trick at once and gives
//!   the lead, so it is spent like any sure winner: to go out (with the
//!   lead it is kept for last among the sure winners: it can still win a
//!   lead back on any single), or late to win the lead back; never on a
//!   cheap trick early, nor on a trick whose winner takes Ratbert back.
//! - **Ratbert** (R, 11, only alone) is a loser of its own, the worst: it
//!   can only be led. It is the loser led last, as the hand's last card:
//!   then the lead is free, since the bot goes out with it at once and
//!   whoever wins the trick takes Ratbert back. Whoever wins a trick
//!   that held Ratbert (unless Ratbert was its only card, or the winner
//!   went out in it) takes it back: on such a trick the bot counts Ratbert
//!   in its hand after any play that wins the trick, and half a lead
//!   against any other play, so it rarely tops a Ratbert trick it cannot
//!   go out on.
//! - **The Twirling Wedgie** (T) is a 6 and groups with the 6s. Its victim
//!   must pass for the rest of the trick: the bot names a player who could
//!   top the set (one whose silence makes it a sure winner first), then the
//!   one with the fewest cards (nearest to going out), then the next to
//!   answer. The player the Wedgie silenced is left out of the count of who
//!   can top a set in this trick.
//! - **Dogberts** are wild like Jesters. Alone they are played as a value
//!   the player declares: the bot declares 1 (nobody but the World Ruler
//!   tops a lone 1, nobody at all a pair), except on a trick whose winner
//!   takes Ratbert back, where it declares the worst value that tops, so
//!   that someone else wins the trick.
//! - **Executive bonuses and the corporate takeover** are taxes and the
//!   revolution under other names: Ratbert is the cheapest gift of all.
//!
//! Everything is computed from the view per decision, in a microsecond or
//! two; only the two-player search does more, within its bound. Against
//! four greedy bots it finishes about 1.2 places ahead of them on average
//! in Dalmuti, about 0.9 in Corporate Shuffle (the strength tests in
//! `tests/it/heuristic.rs` and `tests/it/corporate.rs`).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use dalmuti_core::{
    Action, ActionList, Card, Cards, DECLARED_VALUES, Decision, Event, Hand, PerSeat, Rank, Seat,
    Seats, Seen, Set, Title, Variant, View,
};

use crate::knowledge::{Knowledge, tribute_place};
use crate::{Bot, BotFault};

/// Rules of thumb: sheds whole groups, keeps its sure winners to win leads
/// back, and plays the two-player ending exactly; see the module
/// documentation.
#[derive(Clone, Debug)]
pub struct HeuristicBot {
    ending: Ending,
    /// Rounds led by others it waits before it follows eagerly.
    patience: u32,
}

impl Default for HeuristicBot {
    fn default() -> HeuristicBot {
        HeuristicBot {
            ending: Ending::default(),
            patience: WAITED_ROUNDS,
        }
    }
}

impl HeuristicBot {
    /// A heuristic bot. It has no randomness: the seed is accepted for
    /// uniformity with the other bots.
    pub fn new(_seed: u64) -> HeuristicBot {
        HeuristicBot::default()
    }

    /// The heuristic as it was before it stopped waiting for leads (issue
    /// 23): it never follows eagerly for having waited. Kept as the
    /// `patient` style, to measure against (`crate::Style::Patient`).
    pub fn patient() -> HeuristicBot {
        HeuristicBot {
            patience: u32::MAX,
            ..HeuristicBot::default()
        }
    }
}

impl Bot for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        if let Some(offer) = view.revolution_offer()
            && calls_revolution(view, offer.greater)
        {
            return Ok(Action::CallRevolution);
        }
        let chosen = match view.decision() {
            Some(Decision::Ready) => Some(Action::Ready),
            Some(Decision::Tax { .. }) => tax_gift(hand_of(view), legal),
            Some(Decision::ExchangeOffer) => exchange_offer(hand_of(view), legal),
            Some(Decision::ExchangeAnswer { .. }) => exchange_answer(hand_of(view), legal),
            Some(Decision::Lead | Decision::Follow { .. }) => self.play(view, legal),
            None => None,
        };
        // Whatever happens, answer with one of the legal actions.
        Ok(chosen.filter(|a| legal.contains(a)).unwrap_or(legal[0]))
    }
}

fn hand_of(view: &View<'_>) -> Cards {
    view.cards().unwrap_or_default()
}

// ----- weights of the plan -----

/// A lead, in the plan's units (half leads, so a spare wild card can count
/// for half a lead).
const LEAD: i32 = 2;
/// What a spare wild card is worth: it can turn a group into a set of any
/// size.
const SPARE_JESTER: i32 = 2;
/// What a play that may win a trick holding Ratbert costs, in half leads:
/// if nobody tops it, Ratbert comes back, a loser more.
const RATBERT_RISK: i32 = 1;
/// A player with at most this many cards plays to shed them rather than to
/// keep its groups and winners.
const FEW_CARDS: u32 = 3;
/// A losing group this good (value 5 or better) is not spent following
/// unless going out is near or it wins the lead: such cards top most sets,
/// so they are worth more later, to win a lead back, than as a group shed
/// now (worth 0.2 places in a game against greedy bots).
const GOOD_RANK: u8 = 5;
/// A player who has waited this many rounds led by others follows as
/// eagerly as one near going out: against players who keep the lead by
/// topping single after single (or who keep their strong cards), waiting
/// for a lead that never comes lost places. Four, measured: against its
/// former self 0.18 places better a hand, against greedy bots 0.03 worse,
/// and no style of the pool exploits it any more (docs/PERFORMANCE.md,
/// "Against every style").
const WAITED_ROUNDS: u32 = 4;
/// The two-player ending is searched only when both hands together make at
/// most this many positions (products of (copies + 1) per kind).
const ENDING_POSITIONS: u64 = 4096;
/// Positions the two-player search may visit for one decision.
const ENDING_BUDGET: u32 = 40_000;
/// The table of solved endings is emptied past this size.
const ENDING_MEMORY: usize = 200_000;

// ----- values and groups -----

/// Set values run from 0 (the World Ruler) to 13 (Jesters alone).
const VALUES: usize = 14;

/// The length of the per-value arrays: the values padded to sixteen, so
/// that comparing two of them is one vector compare. The padding is 0 in a
/// hand's copies and never read elsewhere.
const LANES: usize = 16;

/// How many cards of `cards` play as value `value` in a set of naturals:
/// the numbered cards, with the Wedgie among the 6s; the World Ruler at 0
/// and Ratbert at 11 (each deck holds only its own cards, so the count
/// needs no variant).
fn copies_of_value(cards: Cards, value: u8) -> u8 {
    let card = Card::from_index(usize::from(value)).expect("a value is 0..=12");
    let extra = match value {
        6 => cards.count(Card::TWIRLING_WEDGIE),
        11 => cards.count(Card::RATBERT),
        _ => 0,
    };
    cards.count(card) + extra
}

/// The card whose value is each of 0..=12 (the World Ruler, then the
/// ranks), for [`value_copies`].
const VALUE_CARDS: [Card; 13] = {
    let mut cards = [Card::WORLD_RULER; 13];
    let mut v = 0;
    while v < 13 {
        cards[v] = match Card::from_index(v) {
            Some(card) => card,
            None => panic!("a value is 0..=12"),
        };
        v += 1;
    }
    cards
};

/// [`copies_of_value`] of every value 0..=12 at once, in straight-line
/// code: the plan of a hand is counted for every legal play of every
/// modelled decision of a search.
#[inline]
fn value_copies(cards: Cards) -> [u8; LANES] {
    let mut copies = [0u8; LANES];
    for (copy, card) in copies.iter_mut().zip(VALUE_CARDS) {
        *copy = cards.count(card);
    }
    copies[6] += cards.count(Card::TWIRLING_WEDGIE);
    copies[11] += cards.count(Card::RATBERT);
    copies
}

/// Each value held, best first, with its copies: the hand's groups.
fn groups(cards: Cards) -> impl Iterator<Item = (u8, u8)> {
    (0..=12u8)
        .map(move |v| (v, copies_of_value(cards, v)))
        .filter(|&(_, c)| c > 0)
}

/// Whether wild cards may join a group of `value`: never the World Ruler
/// nor Ratbert, which are played alone.
fn takes_wilds(variant: Variant, value: u8) -> bool {
    match variant {
        Variant::Dalmuti => (1..=12).contains(&value),
        Variant::CorporateShuffle => DECLARED_VALUES.contains(&value),
    }
}

/// The group of `value` in `cards`, whole and without wild cards, as a set
/// (a Wedgie set names its target later, see [`finish`]).
fn group_set(cards: Cards, value: u8) -> Option<Set> {
    match value {
        0 if cards.count(Card::WORLD_RULER) > 0 => Some(Set::WORLD_RULER),
        11 if cards.count(Card::RATBERT) > 0 => Some(Set::RATBERT),
        6 if cards.count(Card::TWIRLING_WEDGIE) > 0 => {
            Set::wedgie(cards.count(Card::from(Rank::KNIGHT)), 0)
        }
        _ => {
            let rank = Rank::new(value)?;
            Set::new(rank, cards.count(rank.into()), 0)
        }
    }
}

/// `n` wild cards played alone, as well as they can be: Jesters alone
/// (value 13), or Dogberts declared as 1.
fn wilds_alone(variant: Variant, n: u8) -> Option<Set> {
    match variant {
        Variant::Dalmuti => Set::jesters_alone(n),
        Variant::CorporateShuffle => Set::dogberts_as(n, *DECLARED_VALUES.start()),
    }
}

// ----- what the others may hold -----

/// What the other players still holding cards could put on the table: for
/// each value, the largest set of a better value each of them may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rivals {
    variant: Variant,
    /// The other players holding cards.
    seats: Seats,
    /// The player the Wedgie silenced for the rest of this trick, if any.
    wedged: Option<Seat>,
    /// `by_seat[s][v]`: the most cards of one value better than v (0..=13)
    /// that seat s may put down in one set, wild cards included.
    by_seat: PerSeat<[u8; LANES]>,
    /// The most over every other seat.
    beat: [u8; LANES],
}

impl Rivals {
    fn from_knowledge(k: &Knowledge, variant: Variant, wedged: Option<Seat>) -> Rivals {
        let mut seats = Seats::NONE;
        for s in Seat::all(k.players).filter(|&s| s != k.me && k.counts[s] > 0) {
            seats.insert(s);
        }
        let mut known_anywhere = Cards::EMPTY;
        for seat in seats.iter() {
            known_anywhere.add_all(&k.known[seat]);
        }
        let mut rivals = Rivals {
            variant,
            seats,
            wedged,
            by_seat: PerSeat::default(),
            beat: [0; LANES],
        };
        for seat in seats.iter() {
            // Cards this seat may hold: the unseen ones not known elsewhere,
            // and none its tribute rules out but those known to be there.
            let mut elsewhere = known_anywhere;
            elsewhere.remove_all(&k.known[seat]);
            let copies = |card: Card| {
                if tribute_place(card) < k.floor[seat] {
                    k.known[seat].count(card)
                } else {
                    k.unseen.count(card).saturating_sub(elsewhere.count(card))
                }
            };
            let mut may_hold = Cards::EMPTY;
            for card in Card::all() {
                may_hold.add(card, copies(card));
            }
            // No set bigger than the hand: the most of min(count, l) over
            // better values is min(count, the most of l).
            let count = k.counts[seat].min(255) as u8;
            let row = &mut rivals.by_seat[seat];
            *row = better_than_each(&largest_sets(variant, may_hold)).map(|l| l.min(count));
            for (b, r) in rivals.beat.iter_mut().zip(row.iter()) {
                *b = (*b).max(*r);
            }
        }
        rivals
    }

    /// The rivals of `seat` in a hand seen whole (a search's
    /// determinization), as [`Rivals::from_knowledge`] finds them for a
    /// seat that counts every card the others hold as unseen and knows
    /// nothing more (no known cards, no floors): what
    /// [`playout_play`] assumes.
    ///
    /// Then every rival may hold any of the same unseen cards, so each row
    /// is one shared row capped at that rival's card count
    /// (`max(min(count, l)) = min(count, max(l))`): the largest sets are
    /// counted once per decision instead of once per rival, and nothing
    /// is built but the rows.
    /// `counts` are the hand's card counts.
    fn of_determinization(hand: &Hand, seat: Seat, counts: &PerSeat<u32>) -> Rivals {
        let variant = hand.rules().variant;
        let seats = hand.holding().without(Seats::only(seat));
        let mut unseen = Cards::EMPTY;
        let mut most = 0u8;
        for s in seats.iter() {
            unseen.add_all(&hand.held(s));
            most = most.max(counts[s].min(255) as u8);
        }
        let shared = better_than_each(&largest_sets(variant, unseen));
        let mut by_seat = PerSeat::<[u8; LANES]>::default();
        for s in seats.iter() {
            let count = counts[s].min(255) as u8;
            by_seat[s] = shared.map(|l| l.min(count));
        }
        Rivals {
            variant,
            seats,
            wedged: hand.wedged(),
            by_seat,
            beat: shared.map(|l| l.min(most)),
        }
    }

    /// Whether nobody else can top `size` cards of `value` in a later
    /// trick.
    fn cannot_top_group(&self, value: u8, size: u8) -> bool {
        self.beat[usize::from(value)] < size
    }

    /// Whether `seat` may be able to top `set`.
    fn can_top(&self, seat: Seat, set: Set) -> bool {
        self.by_seat[seat][usize::from(set.rank_number())] >= set.size()
    }

    /// Whether `set`, played now, wins the trick for sure: the World Ruler
    /// does at once; any other set when nobody who may still answer in
    /// this trick (the Wedgie's victims cannot) can top it.
    fn wins_now(&self, set: Set) -> bool {
        set.is_world_ruler()
            || self
                .seats
                .iter()
                .filter(|&s| Some(s) != self.wedged && Some(s) != set.wedgie_target())
                .all(|s| !self.can_top(s, set))
    }

    /// How many wild cards a group of `naturals` cards of `value` needs to
    /// become a set nobody can top.
    fn jesters_to_secure(&self, value: u8, naturals: u8) -> u8 {
        (self.beat[usize::from(value)] + 1).saturating_sub(naturals)
    }
}

/// The largest set of each value (0 if none) a player may make who may
/// hold `may_hold`, wild cards included.
fn largest_sets(variant: Variant, may_hold: Cards) -> [u8; LANES] {
    let wilds = may_hold.count(variant.wild());
    let with_wilds = |n: u8| if n > 0 { n.saturating_add(wilds) } else { 0 };
    let natural = VALUE_CARDS.map(|card| may_hold.count(card));
    let mut sets = [0u8; LANES];
    match variant {
        Variant::Dalmuti => {
            for v in 1..=12 {
                sets[v] = with_wilds(natural[v]);
            }
        }
        Variant::CorporateShuffle => {
            sets[0] = natural[0].min(1);
            for v in 1..=10 {
                sets[v] = with_wilds(natural[v]);
            }
            sets[6] = with_wilds(natural[6] + may_hold.count(Card::TWIRLING_WEDGIE));
            // Dogberts alone are declared as 1 at best.
            sets[1] = sets[1].max(wilds);
        }
    }
    sets
}

/// For each value, the largest of `sets` at a better (lower) value: what
/// may top a set of that value.
fn better_than_each(sets: &[u8; LANES]) -> [u8; LANES] {
    let mut better = [0u8; LANES];
    for v in 1..VALUES {
        better[v] = better[v - 1].max(sets[v - 1]);
    }
    better
}

// ----- the plan -----

/// How a hand will be shed: its sure winners, its losers (groups that need
/// a lead each), and its spare wild cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    losers: i32,
    winners: i32,
    spare_jesters: i32,
    /// Values (bits 0..=12) of the losing groups.
    loser_ranks: u16,
}

/// A hand as its plan sees it: the copies of each value, the wild cards
/// and the size. A play changes one value (and the Wedgie's 6), so the
/// shape after each legal play is a few subtractions from the hand's,
/// where the cards after it took a set's cards, a checked removal and a
/// recount of every value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    /// [`value_copies`].
    copies: [u8; LANES],
    wilds: u8,
    len: u32,
}

impl Shape {
    fn of(cards: Cards) -> Shape {
        Shape {
            copies: value_copies(cards),
            wilds: cards.wilds(),
            len: cards.len(),
        }
    }

    /// The shape once `set`, made of this hand's cards, is played: its
    /// naturals counted at its value (a World Ruler at 0, Ratbert at 11;
    /// wild cards alone have none), the Wedgie among the 6s.
    fn without(self, set: Set) -> Shape {
        let mut rest = self;
        if set.naturals() > 0 {
            rest.copies[usize::from(set.rank_number())] -= set.naturals();
        }
        if set.holds_wedgie() {
            rest.copies[6] -= 1;
        }
        rest.wilds -= set.wilds();
        rest.len -= u32::from(set.size());
        rest
    }

    /// The shape with Ratbert taken back.
    fn with_ratbert(self) -> Shape {
        let mut more = self;
        more.copies[RATBERT_VALUE as usize] += 1;
        more.len += 1;
        more
    }
}

impl Plan {
    fn of(shape: Shape, rivals: &Rivals) -> Plan {
        let copies = shape.copies;
        // The values held and the sure winners as masks, without a branch
        // per value (branching on each was a tenth of a modelled search's
        // time, in mispredictions): a group wins when nobody can top its
        // size, so only a group held can win.
        let (mut held, mut winning) = (0u16, 0u16);
        for (v, (&c, &beat)) in copies.iter().zip(&rivals.beat).enumerate() {
            held |= u16::from(c > 0) << v;
            winning |= u16::from(beat < c) << v;
        }
        let loser_ranks = held & !winning;
        let mut plan = Plan {
            losers: loser_ranks.count_ones() as i32,
            winners: winning.count_ones() as i32,
            spare_jesters: i32::from(shape.wilds),
            loser_ranks,
        };
        // Without wild cards no loser can be secured (each needs one).
        if plan.spare_jesters > 0 {
            plan.secure_with_jesters(rivals, &copies);
        }
        if shape.len > 0 && shape.len == u32::from(shape.wilds) {
            // Wild cards alone: one set, on its own.
            let set = wilds_alone(rivals.variant, shape.wilds).expect("some wild cards");
            plan.spare_jesters = 0;
            if rivals.cannot_top_group(set.rank_number(), set.size()) {
                plan.winners = 1;
            } else {
                plan.losers = 1;
            }
        }
        plan
    }

    /// Spends spare wild cards to turn losers into sure winners, the
    /// cheapest (best value) first; `copies` are the hand's
    /// [`value_copies`].
    fn secure_with_jesters(&mut self, rivals: &Rivals, copies: &[u8; LANES]) {
        let mut losers = self.loser_ranks;
        while losers != 0 {
            let value = losers.trailing_zeros() as u8;
            losers &= losers - 1;
            if !takes_wilds(rivals.variant, value) {
                continue;
            }
            let need = i32::from(rivals.jesters_to_secure(value, copies[usize::from(value)]));
            if need > self.spare_jesters {
                continue;
            }
            self.spare_jesters -= need;
            self.loser_ranks &= !(1 << value);
            self.losers -= 1;
            self.winners += 1;
        }
    }

    /// The leads this hand still needs beyond what its sure winners win
    /// back, in half leads; `leading` if it will lead next.
    fn need(&self, leading: bool) -> i32 {
        LEAD * (self.losers - self.winners - i32::from(leading)) - SPARE_JESTER * self.spare_jesters
    }

    /// Whether, leading, the hand goes out for sure: sure winners first,
    /// its one loser (with any wild cards) last.
    fn goes_out_leading(&self) -> bool {
        self.losers <= 1
    }

    /// The worst losing value, if any.
    fn worst_loser(&self) -> Option<u8> {
        (self.loser_ranks != 0).then(|| 15 - self.loser_ranks.leading_zeros() as u8)
    }
}

fn without(cards: Cards, set: Set) -> Cards {
    let mut rest = cards;
    rest.remove_all(&set.cards());
    rest
}

// ----- play -----

/// What a play decision is made from.
struct Turn<'a> {
    /// The seat to play.
    me: Seat,
    players: usize,
    /// How many cards each seat holds.
    counts: &'a PerSeat<u32>,
    cards: Cards,
    /// The shape of `cards`.
    shape: Shape,
    rivals: Rivals,
    legal: &'a [Action],
    /// Whether the winner of this trick takes Ratbert back (Ratbert leads
    /// it, or was topped in it).
    ratbert_pending: bool,
    /// Rounds led by others since this seat last led one (or since the
    /// hand began).
    waited: u32,
    /// After how many such rounds it follows eagerly.
    patience: u32,
}

impl Turn<'_> {
    /// The hand's shape after playing `set` and what winning the trick
    /// with it brings: Ratbert back into the hand, unless the play goes
    /// out.
    fn after(&self, set: Set, wins: bool) -> Shape {
        let rest = self.shape.without(set);
        if self.ratbert_pending && wins && rest.len > 0 {
            rest.with_ratbert()
        } else {
            rest
        }
    }

    /// What a play that may not win the trick risks: Ratbert, should
    /// nobody top it after all.
    fn risk(&self, set: Set, wins: bool) -> i32 {
        // A legal set is the whole hand when it is as large.
        let out = u32::from(set.size()) == self.shape.len;
        if self.ratbert_pending && !wins && !out {
            RATBERT_RISK
        } else {
            0
        }
    }
}

impl HeuristicBot {
    fn play(&mut self, view: &View<'_>, legal: &[Action]) -> Option<Action> {
        let k = Knowledge::from_view(view);
        let rivals = Rivals::from_knowledge(&k, view.variant(), view.wedged());
        let top = view.top().map(|(_, s)| s);
        let turn = Turn {
            me: k.me,
            players: k.players,
            counts: &k.counts,
            cards: k.mine,
            shape: Shape::of(k.mine),
            rivals,
            legal,
            ratbert_pending: view.ratbert_to_take() || top.is_some_and(|t| t.is_ratbert()),
            patience: self.patience,
            waited: rounds_waited(
                view.log().filter_map(|seen| match seen {
                    Seen::Event(event) => Some(event),
                    _ => None,
                }),
                k.me,
            ),
        };
        let rule_of_thumb = match top {
            None => lead(&turn),
            Some(_) => follow(&turn),
        }
        .and_then(|a| finish(&turn, a));
        match Duel::at(view, &k) {
            Some(duel) => self
                .ending
                .choose(duel, legal, rule_of_thumb, view.variant()),
            None => rule_of_thumb,
        }
    }
}

/// Leads: goes out if it can, plays a sure winner when that leads out,
/// else its worst loser as a whole group.
fn lead(turn: &Turn<'_>) -> Option<Action> {
    let (cards, rivals) = (turn.cards, &turn.rivals);
    if let Some(out) = going_out(turn.shape, turn.legal) {
        return Some(out);
    }
    let plan = Plan::of(turn.shape, rivals);
    if plan.goes_out_leading()
        && let Some(winner) = sure_winner_keeping_the_way_out(turn)
    {
        return Some(winner);
    }
    let value = lead_loser(cards, plan).or_else(|| groups(cards).last().map(|g| g.0))?;
    Some(Action::Play(group_set(cards, value)?))
}

/// The loser to lead: the worst, but Ratbert last. Ratbert only leads, so
/// it is a hand's best last card: led as the last one it goes out at once
/// (and whoever wins the trick takes it back). Led early, it only gives
/// the others a trick of singles to shed on (0.09 places a hand against
/// greedy bots).
fn lead_loser(cards: Cards, plan: Plan) -> Option<u8> {
    let worst = plan.worst_loser()?;
    if worst != RATBERT_VALUE || cards.count(Card::RATBERT) == 0 || plan.losers == 1 {
        return Some(worst);
    }
    let others = Plan {
        loser_ranks: plan.loser_ranks & !(1 << RATBERT_VALUE),
        ..plan
    };
    others.worst_loser().or(Some(worst))
}

/// Ratbert's value.
const RATBERT_VALUE: u8 = 11;

/// The play that empties the hand, if one is legal.
fn going_out(shape: Shape, legal: &[Action]) -> Option<Action> {
    // A legal set is made of the hand's cards: it is the whole hand when
    // it is as large, which is cheaper to check than the cards.
    let size = shape.len;
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Play(s) if u32::from(s.size()) == size))
}

/// A set nobody can top after which the hand still goes out for sure,
/// preferring the fewest wild cards, then any set to the World Ruler
/// (which stays able to win a lead back on any single), then the best
/// value.
fn sure_winner_keeping_the_way_out(turn: &Turn<'_>) -> Option<Action> {
    plays(turn.legal)
        .filter(|&s| turn.rivals.wins_now(s))
        .filter(|&s| Plan::of(turn.shape.without(s), &turn.rivals).goes_out_leading())
        .min_by_key(|&s| (s.wilds(), s.is_world_ruler(), s.rank_number()))
        .map(Action::Play)
}

fn plays(legal: &[Action]) -> impl Iterator<Item = Set> + '_ {
    legal.iter().filter_map(|a| match a {
        Action::Play(s) => Some(*s),
        _ => None,
    })
}

/// Follows: goes out, or tops with a sure winner that leads out, or weighs
/// every way to top against passing by the leads the hand would need.
fn follow(turn: &Turn<'_>) -> Option<Action> {
    let rivals = &turn.rivals;
    if let Some(out) = going_out(turn.shape, turn.legal) {
        return Some(out);
    }
    let now = Plan::of(turn.shape, rivals);
    let few = turn.shape.len <= FEW_CARDS;
    // Passing keeps the plan as it is; a play must need fewer leads (and
    // not spend a good card that may win a lead later), or as few when
    // going out is near or the hand is small.
    let pass_need = now.need(false);
    let eager = pass_need <= LEAD || few || turn.waited >= turn.patience;
    // One pass over the plays, each one's plan after it counted once: a
    // way out (a sure winner after which the hand goes out for sure) is
    // taken first, fewest wild cards, then not the World Ruler, then the
    // worst value; else the plays are weighed against passing.
    let mut way_out: Option<(WayOutKey, Set)> = None;
    let mut best: Option<(i32, Set)> = None;
    for s in plays(turn.legal) {
        let wins_the_lead = rivals.wins_now(s);
        let after = Plan::of(turn.after(s, wins_the_lead), rivals);
        if wins_the_lead && after.goes_out_leading() {
            let key = (
                s.wilds(),
                s.is_world_ruler(),
                std::cmp::Reverse(s.rank_number()),
            );
            if way_out.is_none_or(|(k, _)| key < k) {
                way_out = Some((key, s));
            }
        }
        if way_out.is_some() {
            // The weighing is moot.
            continue;
        }
        let need = after.need(wins_the_lead) + turn.risk(s, wins_the_lead);
        let worth_it = if eager {
            need <= pass_need
        } else {
            need < pass_need && (wins_the_lead || s.rank_number() > GOOD_RANK)
        };
        if !worth_it {
            continue;
        }
        // Fewest leads needed, then fewest wild cards, then the worst value.
        let key = need * 64 + 16 * i32::from(s.wilds()) - i32::from(s.rank_number());
        if best.is_none_or(|(k, _)| key < k) {
            best = Some((key, s));
        }
    }
    if let Some((_, s)) = way_out {
        return Some(Action::Play(s));
    }
    Some(best.map_or(Action::Pass, |(_, s)| Action::Play(s)))
}

/// Rounds led by others since `me` last led one (or since the hand
/// began), from the hand's events in order.
fn rounds_waited(events: impl Iterator<Item = Event>, me: Seat) -> u32 {
    events.fold(0, |waited, event| match event {
        Event::RoundWon { leader, .. } if leader == me => 0,
        Event::RoundWon { .. } => waited + 1,
        _ => waited,
    })
}

/// How a way out is chosen among several (lower first): fewest wild cards,
/// then anything before the World Ruler, then the worst value.
type WayOutKey = (u8, bool, std::cmp::Reverse<u8>);

/// The chosen action as it is played: a Wedgie set with its victim, and
/// Dogberts alone with their declared value, chosen among the legal ways
/// to play the same cards.
fn finish(turn: &Turn<'_>, action: Action) -> Option<Action> {
    let Action::Play(set) = action else {
        return Some(action);
    };
    let same_cards = || plays(turn.legal).filter(move |s| s.cards() == set.cards());
    if set.holds_wedgie() {
        return same_cards()
            .min_by_key(|&s| wedgie_key(turn, s))
            .map(Action::Play);
    }
    if set.declared().is_some() {
        let out = set.cards() == turn.cards;
        let chosen = if turn.ratbert_pending && !out {
            // Let someone else win this trick and take Ratbert back.
            same_cards().max_by_key(Set::rank_number)
        } else {
            same_cards().min_by_key(Set::rank_number)
        };
        return chosen.map(Action::Play);
    }
    Some(action)
}

/// How good a Wedgie's victim is (lower is better): one whose silence
/// makes the set a sure winner, then one who could top it, then the one
/// with the fewest cards, then the next to answer.
fn wedgie_key(turn: &Turn<'_>, set: Set) -> (bool, bool, u32, usize) {
    let Some(victim) = set.wedgie_target() else {
        // No victim: the play ends the hand.
        return (false, false, 0, 0);
    };
    let n = turn.players;
    (
        !turn.rivals.wins_now(set),
        !turn.rivals.can_top(victim, set),
        turn.counts[victim],
        (victim.index() + n - turn.me.index()) % n,
    )
}

// ----- taxes, revolution, merchant exchange -----

/// Groups a hand holds (wild cards not counted).
fn group_count(cards: Cards) -> i32 {
    groups(cards).count() as i32
}

/// How much a gift of `gift` from `cards` hurts (lower is better): each
/// card's strength, less a bonus for every group it removes whole; a wild
/// card, the World Ruler or a card of value 3 or better is never given
/// while something else can be.
fn gift_cost(cards: Cards, gift: Cards) -> i32 {
    const GROUP: i32 = 6;
    const PRECIOUS: i32 = 1000;
    let mut rest = cards;
    rest.remove_all(&gift);
    let removed = group_count(cards) - group_count(rest);
    let strength: i32 = gift
        .iter()
        .map(|c| match c.value() {
            None | Some(0) => PRECIOUS,
            Some(v) if v <= 3 => PRECIOUS / 2 + 13 - i32::from(v),
            // The Wedgie is a 6 with a power: a little more than a 6.
            Some(v) => 13 - i32::from(v) + i32::from(c == Card::TWIRLING_WEDGIE),
        })
        .sum();
    strength - GROUP * removed
}

/// The tax gift that hurts least: lone bad cards first.
fn tax_gift(cards: Cards, legal: &[Action]) -> Option<Action> {
    legal
        .iter()
        .copied()
        .filter_map(|a| match a {
            Action::GiveTax(gift) => Some((gift_cost(cards, gift), a)),
            _ => None,
        })
        .min_by_key(|&(cost, _)| cost)
        .map(|(_, a)| a)
}

/// The `n` legal tax gifts that hurt least by [`gift_cost`], least first.
pub(crate) fn cheapest_gifts(cards: Cards, legal: &[Action], n: usize) -> Vec<Action> {
    let mut gifts: Vec<(i32, Action)> = legal
        .iter()
        .filter_map(|&a| match a {
            Action::GiveTax(gift) => Some((gift_cost(cards, gift), a)),
            _ => None,
        })
        .collect();
    // Stable: equal costs keep the engine's order, as `tax_gift` does.
    gifts.sort_by_key(|&(cost, _)| cost);
    gifts.into_iter().take(n).map(|(_, a)| a).collect()
}

/// The single card that hurts least to give away.
pub(crate) fn worst_lone_card(cards: Cards) -> Option<Card> {
    cards
        .kinds()
        .map(|(card, _)| card)
        .min_by_key(|&card| gift_cost(cards, Cards::one(card)))
}

/// The `n` kinds of card that hurt least to give away one of, least
/// first (the first is [`worst_lone_card`]'s).
pub(crate) fn cheapest_cards(cards: Cards, n: usize) -> Vec<Card> {
    let mut kinds: Vec<(i32, Card)> = cards
        .kinds()
        .map(|(card, _)| (gift_cost(cards, Cards::one(card)), card))
        .collect();
    // Stable: equal costs keep the order of kinds, as `min_by_key` does.
    kinds.sort_by_key(|&(cost, _)| cost);
    kinds.into_iter().take(n).map(|(_, card)| card).collect()
}

/// Offers the worst lone card to another Merchant when it is bad enough
/// that anything received is as good; otherwise declines.
fn exchange_offer(cards: Cards, legal: &[Action]) -> Option<Action> {
    const BAD_ENOUGH: i32 = 0;
    let card = worst_lone_card(cards)?;
    if gift_cost(cards, Cards::one(card)) > BAD_ENOUGH {
        return Some(Action::DeclineExchange);
    }
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::OfferExchange { card: c, .. } if *c == card))
}

/// Answers an exchange with the worst lone card.
fn exchange_answer(cards: Cards, _legal: &[Action]) -> Option<Action> {
    worst_lone_card(cards).map(Action::AnswerExchange)
}

/// Whether to call the revolution offered: always as Greater Peon; as a
/// Peon who would pay; as a Merchant with a weak hand. A Dalmuti keeps
/// quiet (and chooses its tax gift).
fn calls_revolution(view: &View<'_>, greater: bool) -> bool {
    greater
        || match view.seat().map(|s| view.title(s)) {
            Some(Title::GreaterDalmuti | Title::LesserDalmuti) | None => false,
            Some(Title::LesserPeon | Title::GreaterPeon) => true,
            Some(Title::Merchant { .. }) => is_weak(hand_of(view), view.deck().cards()),
        }
}

/// A hand is weak when it holds a smaller share of good cards (value 4 or
/// better) than the deck does.
fn is_weak(cards: Cards, deck: Cards) -> bool {
    let good = |c: &Cards| {
        groups(*c)
            .filter(|&(v, _)| v <= 4)
            .map(|g| u32::from(g.1))
            .sum()
    };
    let numbered = |c: &Cards| c.len() - u32::from(c.wilds());
    let (mine, all): (u32, u32) = (good(&cards), good(&deck));
    mine * numbered(&deck) < all * numbered(&cards)
}

// ----- the two-player ending -----

/// A two-player ending seen from the player to move: both hands (the
/// other's being exactly the unseen cards), the set on the table, what a
/// pass leads to, and where Ratbert stands in the trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Duel {
    mover: Cards,
    other: Cards,
    top: Option<Set>,
    on_pass: OnPass,
    ratbert: InTrick,
}

/// What happens when the player to move passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum OnPass {
    /// The round ends, won by the other player (who played the set on the
    /// table): they take Ratbert back if it is due, and lead.
    OtherWins,
    /// The round ends, its winner gone out: the mover leads.
    MoverLeads,
    /// The round ends, its winner gone out: the other player leads.
    OtherLeads,
    /// The other player may still top the set (its player went out); if
    /// they pass too, the mover leads (`true`) or they do (`false`).
    OtherFollows(bool),
}

/// Where Ratbert stands in the trick (Corporate Shuffle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum InTrick {
    /// Not in this trick.
    Absent,
    /// Led, and so far the trick's only card.
    Alone,
    /// Led and topped: the trick's winner takes it back, unless out.
    Topped,
}

impl Duel {
    /// The ending at `view`, if exactly two players hold cards and both
    /// hands are small enough to search. Not while the Wedgie silences
    /// someone: who answers then is not a duel's.
    fn at(view: &View<'_>, k: &Knowledge) -> Option<Duel> {
        let holding = view.holding();
        if holding.len() != 2 || view.wedged().is_some() {
            return None;
        }
        let other = holding.iter().find(|&s| s != k.me)?;
        if k.unseen.len() != k.counts[other]
            || positions(k.mine) * positions(k.unseen) > ENDING_POSITIONS
        {
            return None;
        }
        let on_pass = match view.top() {
            None => OnPass::OtherWins,
            Some((by, _)) if by == other => OnPass::OtherWins,
            Some((by, _)) => {
                // The set's player went out: both must pass, then the next
                // player after them leads.
                let mover_leads = holding.next_after(by) == Some(k.me);
                match view.passes() {
                    0 => OnPass::OtherFollows(mover_leads),
                    _ if mover_leads => OnPass::MoverLeads,
                    _ => OnPass::OtherLeads,
                }
            }
        };
        let ratbert = match view.top() {
            Some((_, top)) if top.is_ratbert() => InTrick::Alone,
            Some(_) if view.ratbert_to_take() => InTrick::Topped,
            _ => InTrick::Absent,
        };
        Some(Duel {
            mover: k.mine,
            other: k.unseen,
            top: view.top().map(|(_, s)| s),
            on_pass,
            ratbert,
        })
    }

    /// The position after the mover plays `set`, and whether the same
    /// player moves in it (`None`: the mover went out and won).
    fn after_play(self, set: Set) -> Option<(Duel, bool)> {
        let mut rest = without(self.mover, set);
        if rest.is_empty() {
            return None;
        }
        let ratbert = match self.ratbert {
            _ if set.is_ratbert() => InTrick::Alone,
            InTrick::Alone => InTrick::Topped,
            r => r,
        };
        if set.is_world_ruler() || set.holds_wedgie() {
            // The trick ends at once (the Wedgie's victim can only be the
            // other player): the mover wins it, and leads.
            if ratbert == InTrick::Topped {
                rest.add(Card::RATBERT, 1);
            }
            return Some((
                Duel {
                    mover: rest,
                    other: self.other,
                    top: None,
                    on_pass: OnPass::OtherWins,
                    ratbert: InTrick::Absent,
                },
                true,
            ));
        }
        Some((
            Duel {
                mover: self.other,
                other: rest,
                top: Some(set),
                on_pass: OnPass::OtherWins,
                ratbert,
            },
            false,
        ))
    }

    /// The position after the mover passes, and whether the same player
    /// moves in it.
    fn after_pass(self) -> (Duel, bool) {
        let lead = |mover, other| Duel {
            mover,
            other,
            top: None,
            on_pass: OnPass::OtherWins,
            ratbert: InTrick::Absent,
        };
        match self.on_pass {
            OnPass::OtherWins => {
                let mut winner = self.other;
                if self.ratbert == InTrick::Topped {
                    winner.add(Card::RATBERT, 1);
                }
                (lead(winner, self.mover), false)
            }
            OnPass::MoverLeads => (lead(self.mover, self.other), true),
            OnPass::OtherLeads => (lead(self.other, self.mover), false),
            OnPass::OtherFollows(mover_leads) => (
                Duel {
                    mover: self.other,
                    other: self.mover,
                    on_pass: if mover_leads {
                        OnPass::OtherLeads
                    } else {
                        OnPass::MoverLeads
                    },
                    ..self
                },
                false,
            ),
        }
    }
}

/// How many sub-hands a hand has: the product of (copies + 1) per kind.
fn positions(cards: Cards) -> u64 {
    cards.kinds().map(|(_, n)| u64::from(n) + 1).product()
}

/// Every set `cards` can lead, or can top `top` with. A Wedgie set names
/// no victim: in a duel it can only be the other player.
fn sets_to_play(cards: Cards, top: Option<Set>, variant: Variant) -> ActionList {
    let mut list = ActionList::new();
    let wilds = cards.wilds();
    let mut push = |s: Option<Set>| {
        if let Some(s) = s.filter(|s| top.is_none_or(|t| s.tops(&t))) {
            let _ = list.try_push(Action::Play(s));
        }
    };
    match variant {
        Variant::Dalmuti => {
            for (rank, copies) in groups(cards) {
                let rank = Rank::new(rank).expect("1..=12");
                for naturals in 1..=copies {
                    for j in 0..=wilds {
                        push(Set::new(rank, naturals, j));
                    }
                }
            }
            for j in 1..=wilds {
                push(Set::jesters_alone(j));
            }
        }
        Variant::CorporateShuffle => {
            if cards.count(Card::RATBERT) > 0 {
                push(Some(Set::RATBERT));
            }
            for v in DECLARED_VALUES {
                let rank = Rank::new(v).expect("1..=10");
                let copies = cards.count(rank.into());
                for naturals in 1..=copies {
                    for j in 0..=wilds {
                        push(Set::with_dogberts(rank, naturals, j));
                    }
                }
                if v == 6 && cards.count(Card::TWIRLING_WEDGIE) > 0 {
                    for naturals in 0..=copies {
                        for j in 0..=wilds {
                            push(Set::wedgie(naturals, j));
                        }
                    }
                }
            }
            for j in 1..=wilds {
                for v in DECLARED_VALUES {
                    push(Set::dogberts_as(j, v));
                }
            }
            if cards.count(Card::WORLD_RULER) > 0 {
                push(Some(Set::WORLD_RULER));
            }
        }
    }
    list
}

/// The exact search of two-player endings, with the positions it has
/// solved (a position's outcome never depends on how it was reached).
#[derive(Clone, Debug, Default)]
struct Ending {
    solved: HashMap<Duel, bool, BuildHasherDefault<QuickHasher>>,
    /// Both hands together at the last decision searched: a later decision
    /// of the same ending holds some of these cards, never others (but for
    /// Ratbert coming back, which starts a new table).
    cards: Cards,
    visits: u32,
    variant: Variant,
}

impl Ending {
    /// A winning action among `legal` if the search finds one, trying
    /// `preferred` first; else `preferred`.
    fn choose(
        &mut self,
        duel: Duel,
        legal: &[Action],
        preferred: Option<Action>,
        variant: Variant,
    ) -> Option<Action> {
        let mut cards = duel.mover;
        cards.add_all(&duel.other);
        if !self.cards.contains(&cards)
            || self.solved.len() > ENDING_MEMORY
            || variant != self.variant
        {
            // Another ending: its positions will not come back.
            self.solved.clear();
        }
        self.cards = cards;
        self.variant = variant;
        self.visits = 0;
        let candidates = preferred
            .iter()
            .chain(legal.iter().filter(|&&a| Some(a) != preferred));
        for &action in candidates {
            if self.wins_with(duel, action) == Some(true) {
                return Some(action);
            }
        }
        preferred
    }

    /// Whether the mover wins by playing `action` (`None`: out of budget).
    fn wins_with(&mut self, duel: Duel, action: Action) -> Option<bool> {
        let (next, same) = match action {
            Action::Play(set) => match duel.after_play(set) {
                None => return Some(true),
                Some(next) => next,
            },
            Action::Pass if duel.top.is_some() => duel.after_pass(),
            _ => return Some(false),
        };
        self.wins(next).map(|w| w == same)
    }

    /// Whether the player to move in `duel` wins against best play.
    fn wins(&mut self, duel: Duel) -> Option<bool> {
        if let Some(&known) = self.solved.get(&duel) {
            return Some(known);
        }
        self.visits += 1;
        if self.visits > ENDING_BUDGET {
            return None;
        }
        let moves = sets_to_play(duel.mover, duel.top, self.variant);
        // Going out at once wins: look for it before anything deeper.
        let mut win = moves
            .iter()
            .any(|a| matches!(a, Action::Play(s) if s.cards() == duel.mover));
        if !win {
            for &action in moves.iter().chain(duel.top.map(|_| Action::Pass).iter()) {
                if self.wins_with(duel, action)? {
                    win = true;
                    break;
                }
            }
        }
        self.solved.insert(duel, win);
        Some(win)
    }
}

/// A fast hasher for the table of solved endings (multiply and rotate, as
/// in rustc's FxHash): the keys are small and never chosen by an attacker.
#[derive(Clone, Copy, Debug, Default)]
struct QuickHasher(u64);

impl QuickHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for QuickHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

// ----- the heuristic as a search's playout policy -----

/// The heuristic's play for `seat` in a hand the caller sees whole (a
/// search's determinization), without a view: the seat counts as unseen
/// every card the others hold, as it would at the table, but knows no more
/// (no tax gifts, no floors) and does not search the two-player ending.
/// `legal` is a buffer for the legal actions.
pub(crate) fn playout_play(hand: &Hand, seat: Seat, legal: &mut Vec<Action>) -> Action {
    playout_play_with(hand, seat, legal, WAITED_ROUNDS)
}

/// [`playout_play`] by a player who waits `patience` rounds led by others
/// before it follows eagerly ([`HeuristicBot::patient`]: forever).
pub(crate) fn playout_play_with(
    hand: &Hand,
    seat: Seat,
    legal: &mut Vec<Action>,
    patience: u32,
) -> Action {
    legal.clear();
    hand.for_each_legal(seat, |a| {
        legal.push(a);
        std::ops::ControlFlow::Continue(())
    });
    let players = hand.players();
    let mut counts = PerSeat::<u32>::default();
    for s in Seat::all(players) {
        counts[s] = hand.held(s).len();
    }
    let top = hand.top().map(|(_, s)| s);
    let turn = Turn {
        me: seat,
        players,
        counts: &counts,
        cards: hand.held(seat),
        shape: Shape::of(hand.held(seat)),
        rivals: Rivals::of_determinization(hand, seat, &counts),
        legal,
        ratbert_pending: hand.ratbert_to_take() || top.is_some_and(|t| t.is_ratbert()),
        waited: rounds_waited(hand.events().iter().copied(), seat),
        patience,
    };
    match top {
        None => lead(&turn),
        Some(_) => follow(&turn),
    }
    .and_then(|a| finish(&turn, a))
    .filter(|a| legal.contains(a))
    .unwrap_or(legal[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Cards {
        s.parse().unwrap()
    }

    /// Rivals who may top any set of up to `beat` cards, with a value
    /// better than its (one rival, at seat 1).
    fn uniform(variant: Variant, beat: u8) -> Rivals {
        let mut by_seat = PerSeat::<[u8; LANES]>::default();
        by_seat[Seat::new(1)] = [beat; LANES];
        by_seat[Seat::new(1)][0] = 0;
        Rivals {
            variant,
            seats: Seats::only(Seat::new(1)),
            wedged: None,
            by_seat,
            beat: by_seat[Seat::new(1)],
        }
    }

    /// What a seat of a determinization knows, as [`playout_play`] once
    /// built it for [`Rivals::from_knowledge`]: every card the others hold
    /// unseen, nothing known, no floors.
    fn knowledge_of_determinization(hand: &Hand, seat: Seat) -> Knowledge {
        let players = hand.players();
        let mut unseen = Cards::EMPTY;
        let mut counts = PerSeat::<u32>::default();
        for s in Seat::all(players) {
            counts[s] = hand.held(s).len();
            if s != seat {
                unseen.add_all(&hand.held(s));
            }
        }
        Knowledge {
            me: seat,
            players,
            mine: hand.held(seat),
            played: Cards::EMPTY,
            played_by: PerSeat::default(),
            unseen,
            counts,
            known: PerSeat::default(),
            floor: PerSeat::default(),
        }
    }

    /// The plan as first written: each group in turn, then each loser
    /// secured with wild cards in turn, from the cards themselves.
    fn plan_group_by_group(cards: Cards, rivals: &Rivals) -> Plan {
        let mut plan = Plan {
            losers: 0,
            winners: 0,
            spare_jesters: i32::from(cards.wilds()),
            loser_ranks: 0,
        };
        for (value, copies) in groups(cards) {
            if rivals.cannot_top_group(value, copies) {
                plan.winners += 1;
            } else {
                plan.losers += 1;
                plan.loser_ranks |= 1 << value;
            }
        }
        for (value, copies) in groups(cards) {
            if plan.loser_ranks & (1 << value) == 0 || !takes_wilds(rivals.variant, value) {
                continue;
            }
            let need = i32::from(rivals.jesters_to_secure(value, copies));
            if need > plan.spare_jesters {
                continue;
            }
            plan.spare_jesters -= need;
            plan.loser_ranks &= !(1 << value);
            plan.losers -= 1;
            plan.winners += 1;
        }
        if !cards.is_empty() && cards.len() == u32::from(cards.wilds()) {
            let set = wilds_alone(rivals.variant, cards.wilds()).unwrap();
            plan.spare_jesters = 0;
            if rivals.cannot_top_group(set.rank_number(), set.size()) {
                plan.winners = 1;
            } else {
                plan.losers = 1;
            }
        }
        plan
    }

    proptest::proptest! {
        // Never write regression files into the source tree.
        #![proptest_config(proptest::test_runner::Config {
            cases: 64,
            failure_persistence: None,
            ..proptest::test_runner::Config::default()
        })]

        /// The rivals counted once for a determinization are the ones
        /// counted seat by seat from what the deciding seat knows, a
        /// hand's shape after each legal play is that of the cards left,
        /// and its plan is the one counted group by group, at
        /// every decision of hands of both games, every table size, played
        /// by a mix of worst and random legal actions (so the Wedgie,
        /// Ratbert and wild cards come up).
        #[test]
        fn what_the_model_counts_incrementally_is_what_it_would_recount(
            seed in proptest::prelude::any::<u64>(),
            players in 3usize..=8,
            corporate in proptest::prelude::any::<bool>(),
        ) {
            use dalmuti_core::{DealRng, Rules, Seed, Stage};
            use rand::Rng;
            let rules = Rules {
                variant: if corporate { Variant::CorporateShuffle } else { Variant::Dalmuti },
                ..Rules::default()
            };
            let mut hand = Hand::deal(rules, players, false, &mut DealRng::new(Seed::from(seed)));
            let mut rng = crate::bot_rng(seed);
            let mut checked = 0;
            while let Some(seat) = hand.next_to_act() {
                if hand.stage() == Stage::Play {
                    for s in Seat::all(players) {
                        let k = knowledge_of_determinization(&hand, s);
                        let expected = Rivals::from_knowledge(&k, rules.variant, hand.wedged());
                        proptest::prop_assert_eq!(Rivals::of_determinization(&hand, s, &k.counts), expected);
                        checked += 1;
                    }
                }
                let legal = hand.legal_actions(seat);
                if hand.stage() == Stage::Play {
                    // The shape after each play, worked out from the
                    // hand's, is the shape of the cards left.
                    let held = hand.held(seat);
                    let rivals = Rivals::of_determinization(
                        &hand,
                        seat,
                        &knowledge_of_determinization(&hand, seat).counts,
                    );
                    for set in plays(&legal) {
                        let mut rest = without(held, set);
                        proptest::prop_assert_eq!(Shape::of(held).without(set), Shape::of(rest));
                        proptest::prop_assert_eq!(
                            Plan::of(Shape::of(rest), &rivals),
                            plan_group_by_group(rest, &rivals)
                        );
                        rest.add(Card::RATBERT, 1);
                        proptest::prop_assert_eq!(
                            Shape::of(held).without(set).with_ratbert(),
                            Shape::of(rest)
                        );
                    }
                }
                let action = if rng.random_ratio(1, 3) {
                    legal[rng.random_range(0..legal.len())]
                } else {
                    hand.worst_legal(seat).unwrap()
                };
                hand.apply(seat, action).unwrap();
            }
            proptest::prop_assert!(checked > 0);
        }
    }

    #[test]
    fn a_lone_bad_card_is_the_cheapest_gift() {
        let hand = cards("1 3 5 5 9 12 12 J");
        let worst = worst_lone_card(hand).unwrap();
        assert_eq!(worst.token(), "9");
        assert!(gift_cost(hand, cards("J")) > gift_cost(hand, cards("5")));
        assert!(gift_cost(hand, cards("3")) > gift_cost(hand, cards("12")));
    }

    #[test]
    fn jesters_alone_need_no_group_and_the_plan_counts_them_once() {
        let rivals = uniform(Variant::Dalmuti, 1);
        let plan = Plan::of(Shape::of(cards("J J")), &rivals);
        assert_eq!((plan.losers, plan.winners), (0, 1));
        let plan = Plan::of(Shape::of(cards("7 J")), &uniform(Variant::Dalmuti, 5));
        assert_eq!((plan.losers, plan.winners, plan.spare_jesters), (1, 0, 1));
    }
}
