//! Setup choices (the tax gift, the revolution call, the merchant
//! exchange) weighed by Monte-Carlo play-outs instead of rules of thumb.
//!
//! A setup choice decides the hand a seat plays with, and who leads, so
//! each candidate is weighed by playing the hand that follows to its end
//! many times: the cards the seat cannot see dealt at random as it knows
//! them, the others' setup choices made as the heuristic bot would make
//! them with the cards they were dealt, the exchanges done by the engine,
//! and every seat (this one too) playing as the heuristic bot (before the
//! first lead nobody has played, so there is nothing to infer a kind
//! from). Every
//! candidate is played on the same deals (common random numbers), so the
//! comparison between them is sharper than the noise of each.

use dalmuti_core::{Action, Decision, Hand, Seat, Stage, View, Viewer};

use crate::heuristic::{self, playout_play};
use crate::knowledge::Knowledge;
use crate::{Bot, BotRng, HeuristicBot, bot_rng};

/// How many candidates a Dalmuti weighs: the heuristic's cheapest gifts by
/// its own cost, and the revolution call in place of the fourth when it
/// is offered (so the work, and the time it takes, is the same).
const GIFTS: usize = 4;
/// How many cards a Merchant weighs giving in an exchange, the heuristic's
/// cheapest first.
const EXCHANGE_CARDS: usize = 3;

/// Chooses setup choices by play-outs.
///
/// ```
/// use dalmuti_bots::{Bot, HeuristicBot, SetupSearch};
/// use dalmuti_core::{DealRng, Hand, Rules, Seed, Stage, View, Viewer};
/// let mut hand = Hand::deal(Rules::default(), 5, false, &mut DealRng::new(Seed::from(1)));
/// let mut search = SetupSearch::new(32, 7);
/// let mut others = HeuristicBot::new(0);
/// while let Some(seat) = hand.next_to_act() {
///     let view = View::new(&hand, Viewer::Seat(seat));
///     let legal = view.legal_actions();
///     let action = match hand.stage() {
///         Stage::Setup => search.choose(&view, &legal).unwrap(),
///         _ => others.decide(&view, &legal).unwrap(),
///     };
///     assert!(legal.contains(&action));
///     hand.apply(seat, action).unwrap();
/// }
/// ```
#[derive(Clone, Debug)]
pub struct SetupSearch {
    deals: u32,
    rng: BotRng,
    heuristic: HeuristicBot,
}

impl SetupSearch {
    /// Weighs each candidate over `deals` sampled deals, its randomness
    /// seeded by `seed`.
    pub fn new(deals: u32, seed: u64) -> SetupSearch {
        SetupSearch {
            deals: deals.max(1),
            rng: bot_rng(seed),
            heuristic: HeuristicBot::default(),
        }
    }

    /// Reseeds its randomness.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = bot_rng(seed);
    }

    /// The setup choice whose play-outs finish best among the few worth
    /// weighing ([`SetupSearch::candidates`]); `None` if the view's
    /// decision is not a setup choice.
    ///
    /// A player other than a Dalmuti who is offered a revolution calls it
    /// at once, without play-outs: weighed by play-outs, calling was better
    /// on average for the Peons and for every Merchant, at five and at
    /// eight players (`docs/PERFORMANCE.md`), and a decision made at once
    /// cannot tell the table, by how long it took, that someone kept quiet
    /// about two Jesters: the others' only choice is to say ready, which is
    /// made at once too. A Dalmuti, whom everyone knows to be choosing a
    /// gift, weighs the call against its three cheapest gifts: as many
    /// candidates as the four gifts it weighs without the Jesters.
    pub fn choose(&mut self, view: &View<'_>, legal: &[Action]) -> Option<Action> {
        let dalmuti = matches!(view.decision(), Some(Decision::Tax { .. }));
        if !dalmuti && legal.contains(&Action::CallRevolution) {
            return Some(Action::CallRevolution);
        }
        let candidates = SetupSearch::candidates(view, legal);
        self.best_of(view, &candidates)
    }

    /// The setup choices worth weighing, the heuristic's favourites first:
    /// a revolution call when one is offered; for a tax gift the
    /// heuristic's four cheapest gifts (three beside a revolution call);
    /// for a merchant exchange, declining and the three cheapest cards
    /// offered to the Merchant the heuristic would choose (these are
    /// weighed over twice the deals); for an answer, the three cheapest
    /// cards; saying ready otherwise. Empty outside the setup.
    ///
    /// ```
    /// use dalmuti_bots::SetupSearch;
    /// use dalmuti_core::{Action, DealRng, Hand, Rules, Seat, Seed, View, Viewer};
    /// let hand = Hand::deal(Rules::default(), 5, false, &mut DealRng::new(Seed::from(1)));
    /// let view = View::new(&hand, Viewer::Seat(Seat::new(4)));
    /// let legal = view.legal_actions();
    /// let candidates = SetupSearch::candidates(&view, &legal);
    /// assert!(candidates.contains(&Action::Ready));
    /// assert!(candidates.iter().all(|a| legal.contains(a)));
    /// ```
    pub fn candidates(view: &View<'_>, legal: &[Action]) -> Vec<Action> {
        let Some(mine) = view.cards() else {
            return Vec::new();
        };
        let mut candidates = Vec::new();
        if legal.contains(&Action::CallRevolution) {
            candidates.push(Action::CallRevolution);
        }
        match view.decision() {
            Some(Decision::Ready) => candidates.push(Action::Ready),
            Some(Decision::Tax { .. }) => {
                let gifts = GIFTS - candidates.len();
                candidates.extend(heuristic::cheapest_gifts(mine, legal, gifts));
            }
            Some(Decision::ExchangeOffer) => {
                candidates.push(Action::DeclineExchange);
                // To the Merchant the heuristic would choose (the first):
                // whom a bad card goes to hardly matters, and fewer
                // candidates are told apart better by the same play-outs.
                let partner = legal.iter().find_map(|a| match a {
                    Action::OfferExchange { partner, .. } => Some(*partner),
                    _ => None,
                });
                if let Some(partner) = partner {
                    let offers = heuristic::cheapest_cards(mine, EXCHANGE_CARDS)
                        .into_iter()
                        .map(|card| Action::OfferExchange { partner, card })
                        .filter(|a| legal.contains(a));
                    candidates.extend(offers);
                }
            }
            Some(Decision::ExchangeAnswer { .. }) => {
                candidates.extend(
                    heuristic::cheapest_cards(mine, EXCHANGE_CARDS)
                        .into_iter()
                        .map(Action::AnswerExchange)
                        .filter(|a| legal.contains(a)),
                );
            }
            Some(
                Decision::Lead
                | Decision::Follow { .. }
                | Decision::Give { .. }
                | Decision::Discard { .. },
            )
            | None => return Vec::new(),
        }
        candidates
    }

    /// The candidate whose play-outs finish best (the lowest mean place,
    /// ties to the earlier candidate); the only one without play-outs when
    /// there is one; `None` when there is none, when the view's decision
    /// is not a setup choice, or if a candidate turns out not to be legal
    /// in the sampled deals (then the caller should fall back on a rule).
    pub fn best_of(&mut self, view: &View<'_>, candidates: &[Action]) -> Option<Action> {
        if view.stage() != Stage::Setup || view.decision().is_none() {
            return None;
        }
        if candidates.len() < 2 {
            return candidates.first().copied();
        }
        let places = self.weigh(view, candidates)?;
        let best = (0..candidates.len()).min_by(|&i, &j| places[i].total_cmp(&places[j]))?;
        Some(candidates[best])
    }

    /// Each candidate's mean finishing place (0 first) over the sampled
    /// deals, every candidate played on the same deals; `None` outside the
    /// setup or if a candidate is not legal in a sampled deal.
    ///
    /// ```
    /// use dalmuti_bots::SetupSearch;
    /// use dalmuti_core::{DealRng, Hand, Rules, Seat, Seed, View, Viewer};
    /// let hand = Hand::deal(Rules::default(), 5, false, &mut DealRng::new(Seed::from(1)));
    /// let view = View::new(&hand, Viewer::Seat(Seat::GREATER_DALMUTI));
    /// let legal = view.legal_actions();
    /// let gifts = &legal[..2];
    /// let places = SetupSearch::new(16, 7).weigh(&view, gifts).unwrap();
    /// assert_eq!(places.len(), 2);
    /// assert!(places.iter().all(|&p| (0.0..5.0).contains(&p)));
    /// ```
    pub fn weigh(&mut self, view: &View<'_>, candidates: &[Action]) -> Option<Vec<f64>> {
        if view.stage() != Stage::Setup || view.decision().is_none() {
            return None;
        }
        let knowledge = Knowledge::from_view(view);
        let mut places = vec![0u64; candidates.len()];
        let mut legal = Vec::new();
        // An offer is told apart from declining by one card's difference
        // either way: twice the play-outs, for one decision a hand.
        let deals = match view.decision() {
            Some(Decision::ExchangeOffer) => 2 * self.deals,
            _ => self.deals,
        };
        for _ in 0..deals {
            let dealt = knowledge.sample(&mut self.rng);
            let hand = Hand::from_deal(
                *view.rules(),
                view.players(),
                view.is_first_hand(),
                dealt.as_slice(view.players()),
            )
            .ok()?;
            for (i, &candidate) in candidates.iter().enumerate() {
                let place = self.played_out_place(view, hand.clone(), candidate, &mut legal)?;
                places[i] += place as u64;
            }
        }
        let deals = f64::from(deals);
        Some(places.into_iter().map(|p| p as f64 / deals).collect())
    }

    /// The seat's place (0 first) in `hand`, a sampled deal, when it makes
    /// `choice` and the rest of the hand goes as the heuristic would play
    /// it; `None` if the engine refuses a move.
    fn played_out_place(
        &mut self,
        view: &View<'_>,
        mut hand: Hand,
        choice: Action,
        legal: &mut Vec<Action>,
    ) -> Option<usize> {
        let me = view.seat()?;
        // Asked to answer an exchange, the seat has said it is ready and
        // knows it was offered a card, not which: the highest Merchant
        // offers what the heuristic would have offered from its sampled
        // cards.
        if let Some(Decision::ExchangeAnswer { from }) = view.decision() {
            let card = heuristic::worst_lone_card(hand.held(from))?;
            let offer = Action::OfferExchange { partner: me, card };
            hand.apply(from, offer).ok()?;
            hand.apply(me, Action::Ready).ok()?;
        }
        hand.apply(me, choice).ok()?;
        while hand.stage() == Stage::Setup {
            let seat = hand.next_to_act()?;
            let action = self.heuristic_setup(&hand, seat)?;
            hand.apply(seat, action).ok()?;
        }
        while let Some(seat) = hand.next_to_act() {
            let action = playout_play(&hand, seat, legal);
            hand.apply(seat, action).ok()?;
        }
        // A greater revolution (whoever called it) seats everyone in the
        // opposite chair for this hand.
        let reversed = hand.revolution().is_some_and(|r| r.greater);
        hand.place(if reversed {
            me.opposite(view.players())
        } else {
            me
        })
    }

    /// What the heuristic would choose for `seat` in the setup of a
    /// sampled deal (a revolution call among them, if it holds both
    /// Jesters and the heuristic would call).
    fn heuristic_setup(&mut self, hand: &Hand, seat: Seat) -> Option<Action> {
        let view = View::new(hand, Viewer::Seat(seat));
        let legal = view.legal_actions();
        self.heuristic.decide(&view, &legal).ok()
    }
}
