//! The heuristic bot: the rules of thumb of a good player, from the view
//! alone.
//!
//! # How it thinks about a hand
//!
//! A hand is a list of *groups*: all the cards of one rank. Playing a group
//! whole costs one play; breaking it only makes more plays. Some groups are
//! *sure winners*: a set of k cards of rank r that no other player can top,
//! because no player still holding cards can hold k cards of a better rank
//! (counting the unseen cards, the unseen Jesters, each player's card count,
//! and what taxes told it). The other groups are *losers*: each needs a lead
//! of its own, or a lucky chance to follow. Spare Jesters first turn losers
//! into sure winners when they can (a lone Earl Marshal with a Jester is a
//! pair nobody may top); the rest join the last set for free.
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
//!   it leads its worst loser as a whole group, without Jesters: bad cards
//!   go while the good ones stay to win leads back.
//! - **Follow.** Goes out if it can. Tops with a sure winner when it will
//!   then go out for sure. Otherwise it weighs each way to top against
//!   passing by the leads it would still need. Following with a whole
//!   losing group sheds it for free and is taken, unless its cards are
//!   good ones (an Abbess or better) that will top most sets later.
//!   Breaking a group or spending a Jester is taken only when it saves a
//!   lead (a group fewer, or the lead won with a set nobody can top while
//!   the rest stays as good). A sure winner is spent to win the lead only
//!   when going out is near (its sure winners cover the leads it needs,
//!   give or take one) or when it holds few cards. Otherwise it passes and
//!   keeps its groups, its Dalmutis, Archbishops and Jesters.
//! - **Two players left.** The other player's cards are exactly the unseen
//!   ones, so the ending is a game of perfect information: when both hands
//!   are small the bot searches it exactly (win or lose, with a table of
//!   positions already solved and a bound on the work) and plays a winning
//!   line when there is one; otherwise it plays by the rules above.
//! - **Tax.** A Dalmuti gives the cards whose loss hurts least: lone bad
//!   cards first (each removes a whole group, a lead it will not need),
//!   never a Jester and never a card of rank 3 or better while it has
//!   others.
//! - **Revolution.** Always called as Greater Peon (a greater revolution
//!   makes it Greater Dalmuti, with no tax to pay). Declined by a Dalmuti,
//!   who would collect. Called by a Lesser Peon, who would pay, and by a
//!   Merchant whose hand is weak (fewer good cards than its share).
//! - **Merchant exchange.** The highest Merchant offers its worst lone card
//!   when that card is bad (giving it away removes a group and a card
//!   received can hardly be worse); otherwise declines. Asked to answer, it
//!   gives its worst lone card (its worst card if it has no lone one).
//!
//! Everything is computed from the view per decision, in a microsecond or
//! two; only the two-player search does more, within its bound. Against
//! four greedy bots it finishes about 1.2 places ahead of them on average
//! (the strength test in `tests/it/heuristic.rs`).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use dalmuti_core::{
    Action, ActionList, Card, Cards, Decision, JESTERS_ALONE_RANK, Rank, Seat, Set, Title, View,
};

use crate::knowledge::Knowledge;
use crate::{Bot, BotFault};

/// Rules of thumb: sheds whole groups, keeps its sure winners to win leads
/// back, and plays the two-player ending exactly; see the module
/// documentation.
#[derive(Clone, Debug, Default)]
pub struct HeuristicBot {
    ending: Ending,
}

impl HeuristicBot {
    /// A heuristic bot. It has no randomness: the seed is accepted for
    /// uniformity with the other bots.
    pub fn new(_seed: u64) -> HeuristicBot {
        HeuristicBot::default()
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

/// A lead, in the plan's units (half leads, so a spare Jester can count for
/// half a lead).
const LEAD: i32 = 2;
/// What a spare Jester is worth: it can turn a group into a set of any size.
const SPARE_JESTER: i32 = 2;
/// A player with at most this many cards plays to shed them rather than to
/// keep its groups and winners.
const FEW_CARDS: u32 = 3;
/// A losing group this good (an Abbess or better) is not spent following
/// unless going out is near or it wins the lead: such cards top most sets,
/// so they are worth more later, to win a lead back, than as a group shed
/// now (worth 0.2 places in a game against greedy bots).
const GOOD_RANK: u8 = 5;
/// The two-player ending is searched only when both hands together make at
/// most this many positions (products of (copies + 1) per kind).
const ENDING_POSITIONS: u64 = 4096;
/// Positions the two-player search may visit for one decision.
const ENDING_BUDGET: u32 = 40_000;
/// The table of solved endings is emptied past this size.
const ENDING_MEMORY: usize = 200_000;

// ----- what the others may hold -----

/// What the other players still holding cards could put on the table: for
/// each rank, the largest set of a better rank one of them may hold.
#[derive(Clone, Copy, Debug)]
struct Rivals {
    /// `beat[r]`: the most cards of one rank better than r (1..=13, 13 for
    /// Jesters alone) that some other player may hold, Jesters included.
    beat: [u8; 14],
}

impl Rivals {
    fn from_knowledge(k: &Knowledge) -> Rivals {
        let mut known_anywhere = Cards::EMPTY;
        let others = || Seat::all(k.players).filter(move |&s| s != k.me && k.counts[s] > 0);
        for seat in others() {
            known_anywhere.add_all(&k.known[seat]);
        }
        let mut beat = [0u8; 14];
        for seat in others() {
            // Cards this seat may hold: the unseen ones not known elsewhere.
            let mut elsewhere = known_anywhere;
            elsewhere.remove_all(&k.known[seat]);
            let free = |card: Card| k.unseen.count(card).saturating_sub(elsewhere.count(card));
            let jesters = free(Card::JESTER);
            let count = k.counts[seat].min(255) as u8;
            let mut best = 0u8;
            for r in 1..=12u8 {
                // The largest set better than rank r this seat may hold.
                beat[r as usize] = beat[r as usize].max(best);
                let card = card_of(r);
                let copies = if r < k.floor[seat] {
                    k.known[seat].count(card)
                } else {
                    free(card)
                };
                if copies > 0 {
                    best = best.max(count.min(copies.saturating_add(jesters)));
                }
            }
            beat[usize::from(JESTERS_ALONE_RANK)] = beat[usize::from(JESTERS_ALONE_RANK)].max(best);
        }
        Rivals { beat }
    }

    /// Whether nobody else can top `set`.
    fn cannot_top(&self, set: Set) -> bool {
        self.cannot_top_group(set.rank_number(), set.size())
    }

    /// Whether nobody else can top `size` cards of rank `rank`.
    fn cannot_top_group(&self, rank: u8, size: u8) -> bool {
        self.beat[rank as usize] < size
    }

    /// How many Jesters a group of `naturals` cards of `rank` needs to
    /// become a set nobody can top.
    fn jesters_to_secure(&self, rank: u8, naturals: u8) -> u8 {
        (self.beat[rank as usize] + 1).saturating_sub(naturals)
    }
}

fn card_of(rank: u8) -> Card {
    Card::from_index(rank as usize).expect("a rank is 1..=12")
}

/// Each numbered rank held, best first, with its copies.
fn groups(cards: Cards) -> impl Iterator<Item = (u8, u8)> {
    (1..=12u8)
        .map(move |r| (r, cards.count(card_of(r))))
        .filter(|&(_, c)| c > 0)
}

// ----- the plan -----

/// How a hand will be shed: its sure winners, its losers (groups that need
/// a lead each), and its spare Jesters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    losers: i32,
    winners: i32,
    spare_jesters: i32,
    /// Ranks (bits 1..=12) of the losing groups.
    loser_ranks: u16,
}

impl Plan {
    fn of(cards: Cards, rivals: &Rivals) -> Plan {
        let mut plan = Plan {
            losers: 0,
            winners: 0,
            spare_jesters: i32::from(cards.wilds()),
            loser_ranks: 0,
        };
        for (rank, copies) in groups(cards) {
            if rivals.cannot_top_group(rank, copies) {
                plan.winners += 1;
            } else {
                plan.losers += 1;
                plan.loser_ranks |= 1 << rank;
            }
        }
        plan.secure_with_jesters(rivals, cards);
        if !cards.is_empty() && cards.len() == u32::from(cards.wilds()) {
            // Jesters alone: one set, on its own.
            let set = Set::jesters_alone(cards.wilds()).expect("some Jesters");
            plan.spare_jesters = 0;
            if rivals.cannot_top(set) {
                plan.winners = 1;
            } else {
                plan.losers = 1;
            }
        }
        plan
    }

    /// Spends spare Jesters to turn losers into sure winners, the cheapest
    /// (best rank) first.
    fn secure_with_jesters(&mut self, rivals: &Rivals, cards: Cards) {
        for (rank, copies) in groups(cards) {
            if self.loser_ranks & (1 << rank) == 0 {
                continue;
            }
            let need = i32::from(rivals.jesters_to_secure(rank, copies));
            if need > self.spare_jesters {
                continue;
            }
            self.spare_jesters -= need;
            self.loser_ranks &= !(1 << rank);
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
    /// its one loser (with any Jesters) last.
    fn goes_out_leading(&self) -> bool {
        self.losers <= 1
    }

    /// The worst losing rank, if any.
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

impl HeuristicBot {
    fn play(&mut self, view: &View<'_>, legal: &[Action]) -> Option<Action> {
        let k = Knowledge::from_view(view);
        let rivals = Rivals::from_knowledge(&k);
        let cards = k.mine;
        let rule_of_thumb = match view.top() {
            None => lead(cards, &rivals, legal),
            Some(_) => follow(cards, &rivals, legal),
        };
        match Duel::at(view, &k) {
            Some(duel) => self.ending.choose(duel, legal, rule_of_thumb),
            None => rule_of_thumb,
        }
    }
}

/// Leads: goes out if it can, plays a sure winner when that leads out,
/// else its worst loser as a whole group.
fn lead(cards: Cards, rivals: &Rivals, legal: &[Action]) -> Option<Action> {
    if let Some(out) = going_out(cards, legal) {
        return Some(out);
    }
    let plan = Plan::of(cards, rivals);
    if plan.goes_out_leading() {
        if let Some(winner) = sure_winner_keeping_the_way_out(cards, rivals, legal) {
            return Some(winner);
        }
    }
    let rank = plan
        .worst_loser()
        .or_else(|| groups(cards).last().map(|g| g.0))?;
    let whole = Set::new(
        Rank::new(rank).expect("1..=12"),
        cards.count(card_of(rank)),
        0,
    )?;
    Some(Action::Play(whole))
}

/// The play that empties the hand, if one is legal.
fn going_out(cards: Cards, legal: &[Action]) -> Option<Action> {
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Play(s) if s.cards() == cards))
}

/// A set nobody can top after which the hand still goes out for sure,
/// preferring the fewest Jesters and then the best rank.
fn sure_winner_keeping_the_way_out(
    cards: Cards,
    rivals: &Rivals,
    legal: &[Action],
) -> Option<Action> {
    plays(legal)
        .filter(|&s| rivals.cannot_top(s))
        .filter(|&s| Plan::of(without(cards, s), rivals).goes_out_leading())
        .min_by_key(|&s| (s.wilds(), s.rank_number()))
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
fn follow(cards: Cards, rivals: &Rivals, legal: &[Action]) -> Option<Action> {
    if let Some(out) = going_out(cards, legal) {
        return Some(out);
    }
    let after_top = |s: Set| Plan::of(without(cards, s), rivals);
    let way_out = plays(legal)
        .filter(|&s| rivals.cannot_top(s) && after_top(s).goes_out_leading())
        .min_by_key(|&s| (s.wilds(), std::cmp::Reverse(s.rank_number())));
    if let Some(s) = way_out {
        return Some(Action::Play(s));
    }
    let now = Plan::of(cards, rivals);
    let few = cards.len() <= FEW_CARDS;
    // Passing keeps the plan as it is; a play must need fewer leads (and
    // not spend a good card that may win a lead later), or as few when
    // going out is near or the hand is small.
    let pass_need = now.need(false);
    let eager = pass_need <= LEAD || few;
    let mut best: Option<(i32, Set)> = None;
    for s in plays(legal) {
        let wins_the_lead = rivals.cannot_top(s);
        let need = after_top(s).need(wins_the_lead);
        let worth_it = if eager {
            need <= pass_need
        } else {
            need < pass_need && (wins_the_lead || s.rank_number() > GOOD_RANK)
        };
        if !worth_it {
            continue;
        }
        // Fewest leads needed, then fewest Jesters, then the worst rank.
        let key = need * 64 + 16 * i32::from(s.wilds()) - i32::from(s.rank_number());
        if best.is_none_or(|(k, _)| key < k) {
            best = Some((key, s));
        }
    }
    Some(best.map_or(Action::Pass, |(_, s)| Action::Play(s)))
}

// ----- taxes, revolution, merchant exchange -----

/// Groups a hand holds (Jesters not counted).
fn group_count(cards: Cards) -> i32 {
    groups(cards).count() as i32
}

/// How much a gift of `gift` from `cards` hurts (lower is better): each
/// card's strength, less a bonus for every group it removes whole; a Jester
/// or a card of rank 3 or better is never given while something else can
/// be.
fn gift_cost(cards: Cards, gift: Cards) -> i32 {
    const GROUP: i32 = 6;
    const PRECIOUS: i32 = 1000;
    let mut rest = cards;
    rest.remove_all(&gift);
    let removed = group_count(cards) - group_count(rest);
    let strength: i32 = gift
        .iter()
        .map(|c| match c.rank() {
            None => PRECIOUS,
            Some(r) if r.number() <= 3 => PRECIOUS / 2 + 13 - i32::from(r.number()),
            Some(r) => 13 - i32::from(r.number()),
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

/// The single card that hurts least to give away.
fn worst_lone_card(cards: Cards) -> Option<Card> {
    cards
        .kinds()
        .map(|(card, _)| card)
        .min_by_key(|&card| gift_cost(cards, Cards::one(card)))
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

/// A hand is weak when it holds a smaller share of good cards (rank 4 or
/// better) than the deck does.
fn is_weak(cards: Cards, deck: Cards) -> bool {
    let good = |c: &Cards| {
        groups(*c)
            .filter(|&(r, _)| r <= 4)
            .map(|g| u32::from(g.1))
            .sum()
    };
    let numbered = |c: &Cards| c.len() - u32::from(c.wilds());
    let (mine, all): (u32, u32) = (good(&cards), good(&deck));
    mine * numbered(&deck) < all * numbered(&cards)
}

// ----- the two-player ending -----

/// A two-player ending seen from the player to move: both hands (the
/// other's being exactly the unseen cards), the set on the table, and what
/// a pass leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Duel {
    mover: Cards,
    other: Cards,
    top: Option<Set>,
    on_pass: OnPass,
}

/// What happens when the player to move passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum OnPass {
    /// The round ends and the other player leads.
    OtherLeads,
    /// The round ends and the mover leads (the set's player went out).
    MoverLeads,
    /// The other player may still top the set (its player went out); if
    /// they pass too, the mover leads (`true`) or they do (`false`).
    OtherFollows(bool),
}

impl Duel {
    /// The ending at `view`, if exactly two players hold cards and both
    /// hands are small enough to search.
    fn at(view: &View<'_>, k: &Knowledge) -> Option<Duel> {
        let holding = view.holding();
        if holding.len() != 2 {
            return None;
        }
        let other = holding.iter().find(|&s| s != k.me)?;
        if k.unseen.len() != k.counts[other]
            || positions(k.mine) * positions(k.unseen) > ENDING_POSITIONS
        {
            return None;
        }
        let on_pass = match view.top() {
            None => OnPass::OtherLeads,
            Some((by, _)) if by == other => OnPass::OtherLeads,
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
        Some(Duel {
            mover: k.mine,
            other: k.unseen,
            top: view.top().map(|(_, s)| s),
            on_pass,
        })
    }

    /// The position after the mover plays `set` (`None`: the mover went
    /// out and won).
    fn after_play(self, set: Set) -> Option<Duel> {
        let rest = without(self.mover, set);
        (!rest.is_empty()).then_some(Duel {
            mover: self.other,
            other: rest,
            top: Some(set),
            on_pass: OnPass::OtherLeads,
        })
    }

    /// The position after the mover passes, and whether the same player
    /// moves in it.
    fn after_pass(self) -> (Duel, bool) {
        let lead = |mover, other| Duel {
            mover,
            other,
            top: None,
            on_pass: OnPass::OtherLeads,
        };
        match self.on_pass {
            OnPass::OtherLeads => (lead(self.other, self.mover), false),
            OnPass::MoverLeads => (lead(self.mover, self.other), true),
            OnPass::OtherFollows(mover_leads) => (
                Duel {
                    mover: self.other,
                    other: self.mover,
                    top: self.top,
                    on_pass: if mover_leads {
                        OnPass::OtherLeads
                    } else {
                        OnPass::MoverLeads
                    },
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

/// Every set `cards` can lead, or can top `top` with.
fn sets_to_play(cards: Cards, top: Option<Set>) -> ActionList {
    let mut list = ActionList::new();
    let jesters = cards.wilds();
    let mut push = |s: Option<Set>| {
        if let Some(s) = s.filter(|s| top.is_none_or(|t| s.tops(&t))) {
            let _ = list.try_push(Action::Play(s));
        }
    };
    for (rank, copies) in groups(cards) {
        let rank = Rank::new(rank).expect("1..=12");
        for naturals in 1..=copies {
            for j in 0..=jesters {
                push(Set::new(rank, naturals, j));
            }
        }
    }
    for j in 1..=jesters {
        push(Set::jesters_alone(j));
    }
    list
}

/// The exact search of two-player endings, with the positions it has
/// solved (a position's outcome never depends on how it was reached).
#[derive(Clone, Debug, Default)]
struct Ending {
    solved: HashMap<Duel, bool, BuildHasherDefault<QuickHasher>>,
    /// Both hands together at the last decision searched: a later decision
    /// of the same ending holds some of these cards, never others.
    cards: Cards,
    visits: u32,
}

impl Ending {
    /// A winning action among `legal` if the search finds one, trying
    /// `preferred` first; else `preferred`.
    fn choose(
        &mut self,
        duel: Duel,
        legal: &[Action],
        preferred: Option<Action>,
    ) -> Option<Action> {
        let mut cards = duel.mover;
        cards.add_all(&duel.other);
        if !self.cards.contains(&cards) || self.solved.len() > ENDING_MEMORY {
            // Another ending: its positions will not come back.
            self.solved.clear();
        }
        self.cards = cards;
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
        match action {
            Action::Play(set) => match duel.after_play(set) {
                None => Some(true),
                Some(next) => self.wins(next).map(|w| !w),
            },
            Action::Pass if duel.top.is_some() => {
                let (next, same) = duel.after_pass();
                self.wins(next).map(|w| w == same)
            }
            _ => Some(false),
        }
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
        let moves = sets_to_play(duel.mover, duel.top);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Cards {
        s.parse().unwrap()
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
        let rivals = Rivals { beat: [1; 14] };
        let plan = Plan::of(cards("J J"), &rivals);
        assert_eq!((plan.losers, plan.winners), (0, 1));
        let plan = Plan::of(cards("7 J"), &Rivals { beat: [5; 14] });
        assert_eq!((plan.losers, plan.winners, plan.spare_jesters), (1, 0, 1));
    }
}
