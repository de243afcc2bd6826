//! The tax gift chosen by Monte-Carlo play-outs instead of a rule of
//! thumb.
//!
//! A Dalmuti's gift decides the hand it plays with (the Peon's best cards
//! come back whatever it gives), so each candidate gift is weighed by
//! playing the hand that follows to its end many times: the cards the seat
//! cannot see dealt at random as it knows them, the tribute taken from the
//! sampled Peon, and every seat (this one too) playing as the heuristic
//! bot. Every candidate is played on the same deals (common random
//! numbers), so the comparison between them is sharper than the noise of
//! each.

use dalmuti_core::{Action, Cards, Decision, Hand, PlayPosition, Seat, View};

use crate::heuristic::{self, playout_play};
use crate::knowledge::Knowledge;
use crate::{BotRng, bot_rng};

/// How many gifts are weighed: the heuristic's best few by its own cost.
const CANDIDATES: usize = 4;

/// Chooses tax gifts by play-outs.
///
/// ```
/// use dalmuti_bots::{Bot, HeuristicBot, TaxSearch};
/// use dalmuti_core::{Action, DealRng, Decision, Hand, Rules, Seed, View, Viewer};
/// let mut hand = Hand::deal(Rules::default(), 5, false, &mut DealRng::new(Seed::from(1)));
/// let mut search = TaxSearch::new(32, 7);
/// let mut others = HeuristicBot::new(0);
/// while let Some(seat) = hand.next_to_act() {
///     let view = View::new(&hand, Viewer::Seat(seat));
///     let legal = view.legal_actions();
///     let action = match view.decision() {
///         Some(Decision::Tax { .. }) => search.tax_gift(&view, &legal).unwrap(),
///         _ => others.decide(&view, &legal).unwrap(),
///     };
///     assert!(legal.contains(&action));
///     hand.apply(seat, action).unwrap();
/// }
/// ```
#[derive(Clone, Debug)]
pub struct TaxSearch {
    deals: u32,
    rng: BotRng,
}

impl TaxSearch {
    /// Weighs each candidate gift over `deals` sampled deals, its
    /// randomness seeded by `seed`.
    pub fn new(deals: u32, seed: u64) -> TaxSearch {
        TaxSearch {
            deals: deals.max(1),
            rng: bot_rng(seed),
        }
    }

    /// Reseeds its randomness.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = bot_rng(seed);
    }

    /// The gift whose play-outs finish best, among the heuristic's best
    /// few; `None` if the view's decision is not a tax gift.
    pub fn tax_gift(&mut self, view: &View<'_>, legal: &[Action]) -> Option<Action> {
        let Some(Decision::Tax { to: peon, count }) = view.decision() else {
            return None;
        };
        let mine = view.cards()?;
        let candidates = heuristic::cheapest_gifts(mine, legal, CANDIDATES);
        if candidates.len() < 2 {
            return candidates.first().copied();
        }
        let knowledge = Knowledge::from_view(view);
        let me = knowledge.me;
        let mut places = vec![0u64; candidates.len()];
        let mut legal_buffer = Vec::new();
        for _ in 0..self.deals {
            let held = knowledge.sample(&mut self.rng);
            let tribute = held[peon].best(u32::from(count));
            for (i, &gift) in candidates.iter().enumerate() {
                let Action::GiveTax(gift) = gift else {
                    unreachable!("candidates are gifts")
                };
                let mut start: Vec<Cards> = held.as_slice(view.players()).to_vec();
                start[me.index()].remove_all(&gift);
                start[me.index()].add_all(&tribute);
                start[peon.index()].remove_all(&tribute);
                start[peon.index()].add_all(&gift);
                places[i] += played_out_place(view, start, me, &mut legal_buffer) as u64;
            }
        }
        // The lowest total place; ties go to the heuristic's order.
        let best = (0..candidates.len()).min_by_key(|&i| (places[i], i))?;
        Some(candidates[best])
    }
}

/// `me`'s place (0 first) when the hand dealt as `start` is played from
/// the Greater Dalmuti's lead to its end, every seat as the heuristic.
fn played_out_place(
    view: &View<'_>,
    start: Vec<Cards>,
    me: Seat,
    legal: &mut Vec<Action>,
) -> usize {
    let mut hand = Hand::from_position(PlayPosition {
        rules: *view.rules(),
        held: start,
        gone_out: Vec::new(),
        turn: Seat::GREATER_DALMUTI,
        top: None,
        passes: 0,
    })
    .expect("a sampled deal after the taxes is a position of play");
    while let Some(seat) = hand.next_to_act() {
        let action = playout_play(&hand, seat, legal);
        hand.apply(seat, action)
            .expect("the heuristic plays legal actions");
    }
    hand.place(me).expect("the hand is over")
}
