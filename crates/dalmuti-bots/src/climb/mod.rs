//! Bots for President and Daifugō: rules of thumb over the pack's plays,
//! and a search that plays each choice out over samples of the cards it
//! cannot see. Every bot of the crate plays these games through them (the
//! view says which game: [`View::variant`]).

use std::time::Duration;

use crate::clock::Instant;

use dalmuti_core::{
    Action, Card, Cards, Decision, Event, PerSeat, Seat, Seen, Set, SetKind, Stage, TOP_PLACE,
    TaxPayment, View,
};
use rand::Rng;
use rand::seq::SliceRandom;

use crate::weighing::{cumulative, draw_kind};
use crate::{Bot, BotFault, BotRng, bot_rng};

mod belief;
mod kind;
mod kit;
mod table;

use belief::FAMILY;
use kind::Kind;
use table::TableKinds;

/// How a climbing bot leans: the heuristic's weights, or a style to
/// measure against. Each style plays the games of the pack the way its
/// name says and leads whenever it must (none passes a lead it could
/// make, even where the rules let a leader pass), so that each is an
/// opponent to measure against, not a player who gives up.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lean {
    /// Sheds weak groups, keeps Jokers and 2s for the end, breaks no group.
    Balanced,
    /// Races: plays whenever it can, the most cards first.
    Shedder,
    /// Follows only with weak cards and keeps its strong ones (A, 2,
    /// Jokers, the top of the order under a revolution) for its last
    /// few cards.
    Hoarder,
    /// The heuristic, but spends its Jokers and strongest cards as soon as
    /// it can.
    Spender,
    /// Leads single cards and tops with the cheapest cards, breaking
    /// groups.
    Breaker,
    /// Balanced, with one decision in five at random.
    Noisy,
}

/// Rules of thumb for President and Daifugō.
#[derive(Clone, Debug)]
pub struct ClimbHeuristic {
    lean: Lean,
    rng: BotRng,
}

impl ClimbHeuristic {
    pub(crate) fn new(lean: Lean, seed: u64) -> ClimbHeuristic {
        ClimbHeuristic {
            lean,
            rng: bot_rng(seed),
        }
    }

    pub(crate) fn reseed(&mut self, seed: u64) {
        self.rng = bot_rng(seed);
    }

    /// The action the rules of thumb choose.
    pub(crate) fn choose(&mut self, view: &View<'_>, legal: &[Action]) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        if self.lean == Lean::Noisy && self.rng.random_range(0..5) == 0 {
            return legal[self.rng.random_range(0..legal.len())];
        }
        let held = view.cards().unwrap_or_default();
        let order_flipped = view.reversed() != view.eleven_back();
        let mut best = legal[0];
        let mut best_score = f64::NEG_INFINITY;
        for &action in legal {
            let score = score(action, &held, order_flipped, view, self.lean);
            if score > best_score {
                best_score = score;
                best = action;
            }
        }
        best
    }
}

/// How strong a place is in the order now: 0 the weakest (3, or 2 under a
/// revolution) to 12 the strongest.
fn strength(place: u8, flipped: bool) -> f64 {
    let p = f64::from(place.clamp(1, TOP_PLACE) - 1);
    if flipped { 12.0 - p } else { p }
}

/// How many cards of the same place each held card has beside it, and
/// how many in a run of its suit: what a play breaks.
fn groups(held: &Cards) -> (u32, u32) {
    let mask = held.pack_mask();
    let mut pairs = 0;
    for place in 0..13 {
        let n = ((mask >> (4 * place)) & 0xF).count_ones();
        if n >= 2 {
            pairs += n;
        }
    }
    let mut runs = 0;
    for suit in 0..4 {
        let mut len = 0;
        for place in 0..13 {
            if mask >> (4 * place + suit) & 1 != 0 {
                len += 1;
            } else {
                if len >= 3 {
                    runs += len;
                }
                len = 0;
            }
        }
        if len >= 3 {
            runs += len;
        }
    }
    (pairs, runs)
}

/// The worth of an action to the rules of thumb: higher is better.
fn score(action: Action, held: &Cards, flipped: bool, view: &View<'_>, lean: Lean) -> f64 {
    match action {
        Action::Pass => {
            let left = held.len() as f64;
            // Nobody passes a lead it could make.
            let leading = if view.top().is_none() { 50.0 } else { 0.0 };
            match lean {
                Lean::Hoarder if left <= 4.0 => -20.0 - leading,
                Lean::Hoarder => 2.0 - leading,
                Lean::Shedder => -2.0 - leading,
                Lean::Breaker => -1.0 - leading,
                _ => {
                    // Passing costs a little more with fewer cards left.
                    -0.2 * (10.0 - left.min(10.0)) - leading
                }
            }
        }
        Action::GiveTax(cards) => {
            // Give back the weakest cards that break no group.
            let mut after = *held;
            after.remove_all(&cards);
            let (pairs, runs) = groups(&after);
            let weakness: f64 = cards
                .iter()
                .map(|c| match c.place() {
                    Some(p) => 12.0 - strength(p, false),
                    None => -30.0,
                })
                .sum();
            weakness + 0.6 * f64::from(pairs + runs)
        }
        Action::Play(set) => play_score(set, held, flipped, view, lean),
        // 7-pass, 10-discard: the weakest card in the order now that
        // breaks no group (every style alike).
        Action::Give(card) | Action::Discard(card) => {
            let mut after = *held;
            after.remove(card, 1);
            let (pairs, runs) = groups(&after);
            let weakness = match card.place() {
                Some(p) => 12.0 - strength(p, flipped),
                None => -30.0,
            };
            weakness + 0.6 * f64::from(pairs + runs)
        }
        _ => 0.0,
    }
}

fn play_score(set: Set, held: &Cards, flipped: bool, view: &View<'_>, lean: Lean) -> f64 {
    let size = f64::from(set.size());
    let left = held.len() as f64 - size;
    if left == 0.0 {
        return 1000.0;
    }
    let (low, high) = set.places();
    let power = match set.kind() {
        SetKind::LoneJoker => 14.0,
        _ => (strength(low, flipped) + strength(high.min(TOP_PLACE), flipped)) / 2.0,
    };
    let jokers = f64::from(set.wilds());
    let mut after = *held;
    after.remove_all(&set.cards());
    let (pairs_before, runs_before) = groups(held);
    let (pairs_after, runs_after) = groups(&after);
    let broken =
        f64::from((pairs_before + runs_before).saturating_sub(pairs_after + runs_after)) - size;
    let broken = broken.max(0.0);
    // A revolution helps a hand of weak cards.
    let reversing = match set.kind() {
        SetKind::OfRank => set.size() >= 4,
        SetKind::Sequence => set.size() >= 5,
        _ => false,
    } && view.rules().climbing().revolution;
    let tilt = if reversing {
        let weak = after
            .iter()
            .filter_map(|c| c.place())
            .map(|p| 6.0 - strength(p, flipped))
            .sum::<f64>();
        weak * 0.5
    } else {
        0.0
    };
    // A clear keeps the lead: worth more with cards to follow up.
    let clears = view.rules().climbing().eight_cut && set.count_at(6) > 0;
    let lead_bonus = if clears { 2.0 } else { 0.0 };
    let leading = view.top().is_none();
    let endgame = left <= 3.0;
    let balanced = || {
        let cost = if endgame { 0.3 } else { 1.0 };
        5.0 + 3.0 * size - cost * (0.6 * power + 6.0 * jokers + 2.0 * broken) + lead_bonus + tilt
            - if card_is_two(set) && !endgame {
                3.0
            } else {
                0.0
            }
    };
    match lean {
        Lean::Shedder => 3.0 * size - 0.3 * power,
        // Its strongest cards and Jokers first, else as the heuristic.
        Lean::Spender => balanced() + 0.9 * power + 9.0 * jokers,
        // Single cards when it leads, the cheapest topping when it
        // follows, whatever groups break.
        Lean::Breaker => {
            let singles = if leading { 3.0 * (size - 1.0) } else { 0.0 };
            6.0 - 0.6 * power - 4.0 * jokers - singles
        }
        // Weak groups, largest first; strong cards only among its last.
        Lean::Hoarder => {
            let strong = if power >= 9.0 || jokers > 0.0 {
                12.0
            } else {
                0.0
            };
            10.0 + size
                - 1.5 * power
                - 8.0 * jokers
                - 3.0 * broken
                - if held.len() <= 4 { 0.0 } else { strong }
        }
        Lean::Balanced | Lean::Noisy => balanced(),
    }
}

fn card_is_two(set: Set) -> bool {
    set.kind() == SetKind::OfRank && set.rank_number() == TOP_PLACE
}

impl Bot for ClimbHeuristic {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        Ok(self.choose(view, legal))
    }

    fn reseed(&mut self, seed: u64) {
        ClimbHeuristic::reseed(self, seed);
    }
}

/// Deals weighed by the belief of a decision, at most.
const BELIEF_DEALS: usize = 128;

/// A search for President and Daifugō: each candidate action (a play, or
/// the cards a rich player gives back in the exchange) is played out to
/// the end of the hand over samples of the cards the seat cannot see, each other seat
/// then playing as the kind of player its plays so far say it is (see
/// `climb/belief.rs`; before a seat has shown anything, as the table's
/// earlier hands say its players are, `climb/table.rs`), the searching
/// seat shedding its worst cards; the action with the best mean place
/// wins.
#[derive(Clone, Debug)]
pub struct ClimbSearch {
    /// Thinking time per decision.
    time: Option<Duration>,
    /// Play-outs per decision when no time is given.
    playouts: u32,
    rng: BotRng,
    heuristic: ClimbHeuristic,
    /// The most a decision may take, whatever the budget.
    cap: Option<Duration>,
    /// Who plays at this table, as its hands so far have shown.
    table: TableKinds,
}

impl ClimbSearch {
    pub(crate) fn new(time: Option<Duration>, playouts: u32, seed: u64) -> ClimbSearch {
        ClimbSearch {
            time,
            playouts: playouts.max(8),
            rng: bot_rng(seed),
            heuristic: ClimbHeuristic::new(Lean::Balanced, seed ^ 0x5eed),
            cap: None,
            table: TableKinds::default(),
        }
    }

    /// The same search, thinking at most `cap` a decision whatever its
    /// budget (as [`crate::SearchBot::capped`]).
    pub(crate) fn capped(mut self, cap: Duration) -> ClimbSearch {
        self.cap = Some(cap);
        self
    }

    pub(crate) fn reseed(&mut self, seed: u64) {
        self.rng = bot_rng(seed);
        self.heuristic.reseed(seed ^ 0x5eed);
    }

    /// A sample of the other seats' cards: the unseen cards dealt out by
    /// count, where the seat knows from the exchange it took part in what
    /// one of them holds or cannot hold (see [`Exchanged`]), the sample
    /// agrees. Among the deals that agree, each is as likely as another.
    fn sample_others(&mut self, view: &View<'_>, known: &Exchanged) -> PerSeat<Cards> {
        let me = view.seat();
        let mut others = known.placed;
        let mut unseen = known.loose.clone();
        unseen.shuffle(&mut self.rng);
        // The seat with cards it cannot hold takes its share first, from
        // the cards it may hold: every share of those is as likely, and
        // the rest then go out at random as before.
        if let Some(Barred { seat, share, cards }) = known.barred {
            let mut taken = 0;
            unseen.retain(|&card| {
                if taken < share && cards.count(card) == 0 {
                    others[seat].add(card, 1);
                    taken += 1;
                    false
                } else {
                    true
                }
            });
        }
        let mut cards = unseen.into_iter();
        for seat in Seat::all(view.players()) {
            if Some(seat) == me {
                continue;
            }
            while others[seat].len() < view.card_count(seat) {
                match cards.next() {
                    Some(card) => others[seat].add(card, 1),
                    None => break,
                }
            }
        }
        others
    }

    /// The belief at `view`'s decision (see [`belief::infer`]), from up
    /// to `deals` deals as the seat knows them.
    fn believe(
        &mut self,
        view: &View<'_>,
        prior: &[f64; FAMILY.len()],
        deals: usize,
        known: &Exchanged,
    ) -> Option<belief::Belief> {
        let mut walk = bot_rng(self.rng.random());
        belief::infer(
            view,
            prior,
            deals,
            || self.sample_others(view, known),
            |held| known.allows(held),
            &mut walk,
        )
    }

    fn search(&mut self, view: &View<'_>, legal: &[Action]) -> Action {
        let Some(me) = view.seat() else {
            return legal[0];
        };
        // The heuristic's choice first: ties go to it, and with little time
        // it is what is played.
        let hint = self.heuristic.choose(view, legal);
        let mut candidates: Vec<Action> = vec![hint];
        candidates.extend(legal.iter().copied().filter(|&a| a != hint));
        candidates.truncate(24);
        let mut totals = vec![0.0f64; candidates.len()];
        let mut counts = vec![0u32; candidates.len()];
        let start = Instant::now();
        let mut round = 0u32;
        let known = Exchanged::of(view);
        // A few deals for each play-out a budget of play-outs draws.
        let deals = match self.time {
            Some(_) => BELIEF_DEALS,
            None => (4 * self.playouts as usize).clamp(24, BELIEF_DEALS),
        };
        let prior = self.table.prior(view);
        let belief = self.believe(view, &prior, deals, &known);
        if let Some(belief) = &belief {
            self.table.saw(view, belief);
        }
        let spread = cumulative(prior);
        loop {
            let (others, kinds) = match &belief {
                Some(belief) => {
                    let (held, kinds) = belief.draw(&FAMILY, &mut self.rng);
                    (*held, kinds)
                }
                // Nothing seen this hand yet: each seat is what the table
                // has shown.
                None => {
                    let mut kinds = PerSeat::<Kind>::default();
                    for seat in Seat::all(view.players()).filter(|&s| s != me) {
                        kinds[seat] = FAMILY[draw_kind(&spread, &mut self.rng)];
                    }
                    (self.sample_others(view, &known), kinds)
                }
            };
            let Ok(sample) = view.sample(&others) else {
                break;
            };
            for (i, &action) in candidates.iter().enumerate() {
                let mut hand = sample.clone();
                if hand.apply(me, action).is_err() {
                    continue;
                }
                while hand.stage() != Stage::Over && hand.place(me).is_none() {
                    let Some(seat) = hand.next_to_act() else {
                        break;
                    };
                    let Some(next) = kinds[seat].play(&hand, seat) else {
                        break;
                    };
                    if hand.apply(seat, next).is_err() {
                        break;
                    }
                }
                let place = hand.place(me).unwrap_or(view.players() - 1);
                totals[i] += place as f64;
                counts[i] += 1;
            }
            round += 1;
            let capped = self.cap.is_some_and(|cap| start.elapsed() >= cap);
            let done = capped
                || match self.time {
                    Some(t) => start.elapsed() >= t,
                    None => round >= self.playouts,
                };
            if done {
                break;
            }
        }
        let mut best = 0;
        for i in 1..candidates.len() {
            if counts[i] == 0 {
                continue;
            }
            let mean = totals[i] / f64::from(counts[i]);
            let best_mean = totals[best] / f64::from(counts[best].max(1));
            if mean < best_mean - 1e-9 {
                best = i;
            }
        }
        candidates[best]
    }
}

/// What a seat knows of the others' cards from the exchange it took part
/// in (the rest of the unseen cards could be anywhere). Worked out once
/// for a decision, then read by every sample of it.
#[derive(Clone, Debug)]
struct Exchanged {
    /// Cards known to be in a seat's hand, not played yet: those the rich
    /// player gave back to the poor one, or the poor player's best cards
    /// taken by the rich one, each seen by the seat that gave them.
    placed: PerSeat<Cards>,
    /// The unseen cards not placed, weakest first: the ones a sample deals.
    loose: Vec<Card>,
    /// A seat that cannot hold some of the loose cards, when the others
    /// are enough for its share.
    barred: Option<Barred>,
    /// How many play at the table.
    players: usize,
}

/// The poor player gave its best cards, so it kept none that would have
/// been taken before one of them (unless a card was given to it since,
/// 7-pass).
#[derive(Clone, Copy, Debug)]
struct Barred {
    seat: Seat,
    /// How many loose cards it holds.
    share: u32,
    /// The cards it cannot hold.
    cards: Cards,
}

impl Exchanged {
    /// Whether a deal of the others' cards agrees with what the seat knows.
    fn allows(&self, held: &PerSeat<Cards>) -> bool {
        for seat in Seat::all(self.players) {
            if !held[seat].contains(&self.placed[seat]) {
                return false;
            }
        }
        if let Some(Barred { seat, cards, .. }) = self.barred {
            let mut loose = held[seat];
            for card in self.placed[seat].iter() {
                loose.remove(card, 1);
            }
            if loose.iter().any(|c| cards.count(c) > 0) {
                return false;
            }
        }
        true
    }

    fn of(view: &View<'_>) -> Exchanged {
        let unseen = view.unseen();
        let mut placed = PerSeat::<Cards>::default();
        let barred = match (view.seat(), view.my_tax()) {
            (Some(me), Some(tax)) => Self::learn(view, me, &tax, &mut placed),
            _ => None,
        };
        let mut loose = unseen;
        for seat in Seat::all(view.players()) {
            loose.remove_all(&placed[seat]);
        }
        let loose: Vec<Card> = loose.iter().collect();
        let barred = barred.and_then(|(seat, cards)| {
            let share = view.card_count(seat).saturating_sub(placed[seat].len());
            let allowed = loose.iter().filter(|&&c| cards.count(c) == 0).count() as u32;
            (allowed >= share).then_some(Barred { seat, share, cards })
        });
        Exchanged {
            placed,
            loose,
            barred,
            players: view.players(),
        }
    }

    /// Places the cards `me` gave in the exchange `tax` where they still
    /// are, and says which cards the poor player cannot hold when `me`
    /// was paid.
    fn learn(
        view: &View<'_>,
        me: Seat,
        tax: &TaxPayment,
        placed: &mut PerSeat<Cards>,
    ) -> Option<(Seat, Cards)> {
        let unseen = view.unseen();
        let (giver, holder, cards) = if me == tax.dalmuti {
            (tax.dalmuti, tax.peon, tax.gift)
        } else {
            (tax.peon, tax.dalmuti, tax.tribute)
        };
        debug_assert_eq!(giver, me);
        // A card given on (7-pass) or discarded (10-discard) face down by
        // the holder may be one of them: then where they are is no longer
        // known. A card given to the poor player spoils what its hand says.
        let (mut let_go, mut given_to_peon) = (false, false);
        for seen in view.log() {
            match seen {
                Seen::Given { from, to } | Seen::Event(Event::Given { from, to, .. }) => {
                    let_go |= from == holder;
                    given_to_peon |= to == tax.peon;
                }
                Seen::Discarded { seat } | Seen::Event(Event::Discarded { seat, .. }) => {
                    let_go |= seat == holder;
                }
                _ => {}
            }
        }
        if !let_go {
            for card in cards.iter() {
                if unseen.count(card) > placed[holder].count(card)
                    && placed[holder].len() < view.card_count(holder)
                {
                    placed[holder].add(card, 1);
                }
            }
        }
        if me != tax.dalmuti || tax.tribute.is_empty() || given_to_peon {
            return None;
        }
        let n = tax.tribute.len();
        let mut barred = Cards::EMPTY;
        for (card, count) in unseen.kinds() {
            // A card paid and given straight back: placed above.
            if tax.tribute.count(card) > 0 {
                continue;
            }
            let mut with = tax.tribute;
            with.add(card, 1);
            if with.best(n) != tax.tribute {
                barred.add(card, count);
            }
        }
        Some((tax.peon, barred))
    }
}

impl Bot for ClimbSearch {
    fn name(&self) -> &str {
        "search"
    }

    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        Ok(match view.decision() {
            // The cards a rich player gives back are played out too: the
            // rules of thumb keep the weakest cards' strength in mind, the
            // play-outs how many plays the hand left will take.
            Some(Decision::Lead | Decision::Follow { .. } | Decision::Tax { .. }) => {
                self.search(view, legal)
            }
            _ => self.heuristic.choose(view, legal),
        })
    }

    fn reseed(&mut self, seed: u64) {
        ClimbSearch::reseed(self, seed);
    }
}

/// The rules of thumb's choice, for bots of Dalmuti made directly (not by
/// name) that are handed a game of the pack.
pub(crate) fn pack_choice(view: &View<'_>, legal: &[Action]) -> Action {
    ClimbHeuristic::new(Lean::Balanced, 0).choose(view, legal)
}

/// A bot of the crate for every game: its own play in Dalmuti and
/// Corporate Shuffle, `climbing` in President and Daifugō.
pub(crate) struct Family {
    pub(crate) own: Box<dyn Bot>,
    pub(crate) climbing: Box<dyn Bot>,
}

impl Bot for Family {
    fn name(&self) -> &str {
        self.own.name()
    }

    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        if view.variant().is_suited() {
            self.climbing.decide(view, legal)
        } else {
            self.own.decide(view, legal)
        }
    }

    fn reseed(&mut self, seed: u64) {
        self.own.reseed(seed);
        self.climbing.reseed(seed);
    }

    fn plays_first_legal(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalmuti_core::{DealRng, Hand, Rules, Seed, Viewer};

    /// `cards` without those of `gone` (`Cards::remove_all` removes all
    /// or none).
    fn less(cards: Cards, gone: &Cards) -> Cards {
        let mut out = cards;
        for card in gone.iter() {
            out.remove(card, 1);
        }
        out
    }

    /// A Daifugō hand at five seats dealt from `seed`, before its
    /// exchange: seat 3 the richest (its poor player seat 2), seat 0 the
    /// second (seat 1).
    fn dealt_ranked(seed: u64) -> Hand {
        let ranking: Vec<Seat> = [3, 0, 4, 1, 2].map(Seat::new).to_vec();
        Hand::deal_ranked(
            Rules::daifugo(),
            5,
            Some(&ranking),
            &mut DealRng::new(Seed::from(seed)),
        )
    }

    /// A Daifugō game at five seats after its exchange: seat 3 the
    /// richest (its poor player seat 2, two cards each way), seat 0 the
    /// second (seat 1, one card). The rich give back their weakest cards,
    /// or with `back` a card they were paid when they may.
    fn after_the_exchange(seed: u64, back: bool) -> Hand {
        let mut hand = dealt_ranked(seed);
        while hand.stage() == Stage::Setup {
            let seat = hand.next_to_act().expect("someone chooses");
            let legal = hand.legal_actions(seat);
            // What it holds and was not dealt: what it was paid.
            let paid = less(hand.held(seat), &hand.dealt(seat));
            let action = legal
                .iter()
                .copied()
                .find(|a| {
                    back && matches!(a, Action::GiveTax(cards)
                        if cards.iter().any(|c| paid.count(c) > 0))
                })
                .unwrap_or(legal[0]);
            hand.apply(seat, action).expect("a legal action");
        }
        hand
    }

    #[test]
    fn the_poor_player_sees_its_best_cards_with_the_rich_one_in_every_sample() {
        for seed in 0..40 {
            let hand = after_the_exchange(seed / 2, seed % 2 == 1);
            let view = View::new(&hand, Viewer::Seat(Seat::new(2)));
            let tax = view.my_tax().expect("seat 2 paid");
            assert_eq!(tax.tribute.len(), 2);
            // Less what the rich player gave straight back.
            let kept = less(tax.tribute, &tax.gift);
            let known = Exchanged::of(&view);
            let mut search = ClimbSearch::new(None, 8, seed);
            for _ in 0..50 {
                let others = search.sample_others(&view, &known);
                assert!(others[Seat::new(3)].contains(&kept), "seed {seed}");
                view.sample(&others).expect("a deal of the unseen cards");
            }
        }
    }

    #[test]
    fn the_rich_player_deals_its_poor_one_nothing_better_than_what_it_paid() {
        let mut kept_weak = 0;
        let mut given_back = 0;
        for seed in 0..40 {
            let hand = after_the_exchange(seed / 2, seed % 2 == 1);
            let view = View::new(&hand, Viewer::Seat(Seat::new(3)));
            let tax = view.my_tax().expect("seat 3 was paid");
            given_back += usize::from(tax.gift.iter().any(|c| tax.tribute.count(c) > 0));
            let known = Exchanged::of(&view);
            let mut search = ClimbSearch::new(None, 8, seed);
            for _ in 0..50 {
                let others = search.sample_others(&view, &known);
                let poor = others[Seat::new(2)];
                // The cards given back are where they were given.
                assert!(poor.contains(&tax.gift), "seed {seed}");
                for card in less(poor, &tax.gift).iter() {
                    let mut with = tax.tribute;
                    with.add(card, 1);
                    assert_eq!(
                        with.best(2),
                        tax.tribute,
                        "seed {seed}: {card} would have been paid"
                    );
                }
                // What the poor player really holds is one such deal.
                kept_weak += usize::from(poor == hand.held(Seat::new(2)));
                view.sample(&others).expect("a deal of the unseen cards");
            }
        }
        // The samples know no more than the seat: the poor player's real
        // cards are one deal among very many, not what is dealt.
        assert!(
            kept_weak < 20,
            "the real hand dealt {kept_weak} times in 2,000"
        );
        // A rich player who gives a paid card straight back (the contest's
        // rules allow it) is among them.
        assert!(given_back > 0);
    }

    /// The richest player of a Daifugō deal at its exchange: the hand
    /// dealt from `seed` as [`after_the_exchange`] deals it, the poor
    /// player's best cards paid.
    fn at_the_richest_gift(seed: u64) -> Hand {
        let mut hand = dealt_ranked(seed);
        while let Some(seat) = hand.next_to_act() {
            if seat == Seat::new(3) {
                break;
            }
            let legal = hand.legal_actions(seat);
            hand.apply(seat, legal[0]).expect("a legal action");
        }
        hand
    }

    #[test]
    fn the_rich_player_keeps_a_pair_it_sheds_in_one_play_and_gives_back_two_singles() {
        // Dealt from seed 22, the richest holds 3♥ 3♦ 5♦ 6♣ and nine
        // cards of 9 and up. The rules of thumb give back the weakest
        // cards, the two 3s; played out, two single cards cost two leads
        // and the pair one, so the search gives back the 5♦ and the 6♣.
        let hand = at_the_richest_gift(22);
        let me = Seat::new(3);
        assert!(matches!(
            hand.decision(me),
            Some(Decision::Tax { count: 2, .. })
        ));
        let held = hand.held(me);
        let threes: Cards = "3H 3D".parse().expect("cards");
        let singles: Cards = "5D 6C".parse().expect("cards");
        assert!(held.contains(&threes) && held.contains(&singles), "{held}");
        let view = View::new(&hand, Viewer::Seat(me));
        let legal = view.legal_actions();
        let rule_of_thumb = ClimbHeuristic::new(Lean::Balanced, 1).choose(&view, &legal);
        assert_eq!(rule_of_thumb, Action::GiveTax(threes));
        for seed in 0..3 {
            let mut search = ClimbSearch::new(None, 125, seed);
            assert_eq!(
                search.decide(&view, &legal),
                Ok(Action::GiveTax(singles)),
                "bot seed {seed}"
            );
        }
    }

    #[test]
    fn a_seat_outside_the_exchanges_knows_nothing_of_them() {
        let hand = after_the_exchange(1, false);
        let view = View::new(&hand, Viewer::Seat(Seat::new(4)));
        let known = Exchanged::of(&view);
        assert!(known.barred.is_none());
        assert!(Seat::all(5).all(|seat| known.placed[seat].is_empty()));
    }
}
