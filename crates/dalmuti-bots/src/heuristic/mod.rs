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

mod ending;
pub(crate) mod features;
mod setup;

use ending::{Duel, Ending};
use setup::{calls_revolution, exchange_answer, exchange_offer, tax_gift};
pub(crate) use setup::{cheapest_cards, cheapest_gifts, worst_lone_card};

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
        // President and Daifugō: the rules of thumb of the pack's games
        // (a bot built by name plays them through `climb`; this keeps a
        // bot made directly from playing them with Dalmuti's reckoning).
        if view.variant().is_suited() {
            return Ok(crate::climb::pack_choice(view, legal));
        }
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
            // Decisions of the pack's games, answered above.
            Some(Decision::Give { .. } | Decision::Discard { .. }) | None => None,
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
        Variant::Dalmuti | Variant::Daifugo | Variant::President => (1..=12).contains(&value),
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
        Variant::Dalmuti | Variant::Daifugo | Variant::President => Set::jesters_alone(n),
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
        // President and Daifugō never come here: their plays are
        // chosen in climb.rs.
        Variant::Dalmuti | Variant::Daifugo | Variant::President => {
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
pub(super) struct Turn<'a> {
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
    /// Whether the seat leads (no set on the table).
    leading: bool,
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
        let rule_of_thumb = with_view_turn(view, &k, legal, self.patience, rule_of_thumb);
        match Duel::at(view, &k) {
            Some(duel) => self
                .ending
                .choose(duel, legal, rule_of_thumb, view.variant()),
            None => rule_of_thumb,
        }
    }
}

/// Calls `f` with the turn of the seat to play in `view`, which knows `k`.
pub(super) fn with_view_turn<R>(
    view: &View<'_>,
    k: &Knowledge,
    legal: &[Action],
    patience: u32,
    f: impl FnOnce(&Turn<'_>) -> R,
) -> R {
    let rivals = Rivals::from_knowledge(k, view.variant(), view.wedged());
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
        leading: top.is_none(),
        patience,
        waited: rounds_waited(
            view.log().filter_map(|seen| match seen {
                Seen::Event(event) => Some(event),
                _ => None,
            }),
            k.me,
        ),
    };
    f(&turn)
}

/// The rules of thumb's play in `turn` (without the two-player ending).
fn rule_of_thumb(turn: &Turn<'_>) -> Option<Action> {
    if turn.leading {
        lead(turn)
    } else {
        follow(turn)
    }
    .and_then(|a| finish(turn, a))
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
    with_hand_turn(hand, seat, legal, patience, |turn| {
        rule_of_thumb(turn)
            .filter(|a| turn.legal.contains(a))
            .unwrap_or(turn.legal[0])
    })
}

/// Calls `f` with the turn of `seat` in a hand the caller sees whole (a
/// search's determinization), as [`playout_play`] sees it; `legal` is
/// filled with the seat's legal actions.
pub(super) fn with_hand_turn<R>(
    hand: &Hand,
    seat: Seat,
    legal: &mut Vec<Action>,
    patience: u32,
    f: impl FnOnce(&Turn<'_>) -> R,
) -> R {
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
        leading: top.is_none(),
        waited: rounds_waited(hand.events().iter().copied(), seat),
        patience,
    };
    f(&turn)
}

#[cfg(test)]
mod tests;
