//! What the other players hold and what kind of player each is, inferred
//! from what they did this hand (`opponents=infer`).
//!
//! A few kinds of player are candidates for every other seat ([`FAMILY`]):
//! the heuristic bot, the greedy bot (its worst set whenever it can) and a
//! random player. Deals of the unseen cards are sampled as the seat knows
//! them; in each, the hand is replayed from its first lead, and at every
//! decision another seat made, each kind's choice there is compared with
//! what the seat did: a kind chooses its own favourite with probability
//! 1 − ε and any legal action with ε, the random kind any legal action.
//! Each deal is then weighted by how likely it makes the plays seen (every
//! seat's kind summed out under the prior), and each seat's kind is
//! distributed given the deal. The search draws a deal by weight, and each
//! other seat's kind given that deal: a seat that passed where the greedy
//! bot could have played is unlikely to be greedy, or unlikely to hold what
//! would have topped.

use dalmuti_core::{Action, Card, Cards, Event, Hand, PerSeat, PlayPosition, Seat, Seen, View};

use super::model::{Kind, fill};
use super::playout::Table;
use crate::BotRng;
use crate::knowledge::Knowledge;
use crate::weighing::{WeightedDeals, likelihood};

/// The kinds of player every other seat may be.
pub(super) const FAMILY: [Kind; 3] = [Kind::Heuristic, Kind::Greedy, Kind::Random];

/// How likely each kind is before anything is seen: the heuristic, a
/// sensible player, most.
const PRIOR: [f64; 3] = [0.6, 0.3, 0.1];

/// ε: how often a kind is taken to play something other than its
/// favourite (any legal action).
const NOISE: f64 = 0.15;

/// Deals sampled and weighted per decision, at most.
pub(super) const PARTICLES: usize = 128;

/// Decisions of other seats replayed per decision, over every deal: the
/// number of deals is cut to fit, down to [`FEWEST_PARTICLES`].
const REPLAY_BUDGET: usize = 6000;

/// Deals sampled however long the hand so far.
const FEWEST_PARTICLES: usize = 24;

/// The power the likelihood of a deal is raised to. The kinds are only
/// approximations of the real players, so a deal's full likelihood is
/// overconfident: a few deals would take all the weight. Tempered, more
/// deals count (five players, 200 deals, 1,000 iterations: the lead over
/// the heuristic against greedy bots 0.18 → 0.22, against four heuristic
/// bots 0.27 → 0.30; docs/PERFORMANCE.md).
const TEMPER: f64 = 0.3;

/// The weighted deals, each other seat's kind of [`FAMILY`] given each.
pub(super) type Belief = WeightedDeals<{ FAMILY.len() }>;

/// The plays of the hand so far, in order, and what the replay needs.
struct History {
    /// Who acted and what they did, from the first lead.
    actions: Vec<(Seat, Action)>,
    /// Ratberts each seat took back (Corporate Shuffle).
    taken: PerSeat<Cards>,
}

impl History {
    fn of(view: &View<'_>) -> Option<History> {
        let mut actions = Vec::new();
        let mut taken = PerSeat::<Cards>::default();
        for seen in view.log() {
            match seen {
                Seen::Event(Event::Played { seat, set }) => actions.push((seat, Action::Play(set))),
                Seen::Event(Event::Passed { seat }) => actions.push((seat, Action::Pass)),
                Seen::Event(Event::RatbertTaken { seat }) => taken[seat].add(Card::RATBERT, 1),
                _ => {}
            }
        }
        (!actions.is_empty()).then_some(History { actions, taken })
    }
}

/// The belief at `view`'s decision, from `samples` deals; `None` when
/// there is nothing to infer from (no play yet, or a position without its
/// history).
pub(super) fn infer(
    view: &View<'_>,
    knowledge: &Knowledge,
    table: &Table,
    samples: usize,
    rng: &mut BotRng,
) -> Option<Belief> {
    if !table.accounted() {
        return None;
    }
    let history = History::of(view)?;
    let me = knowledge.me;
    // Fewer deals when the hand so far is long (a big table, late in the
    // hand), so that the replays cost about as much at any table.
    let replayed = history.actions.iter().filter(|(s, _)| *s != me).count();
    let samples = (REPLAY_BUDGET / replayed.max(1)).clamp(FEWEST_PARTICLES.min(samples), samples);
    let mut legal = Vec::new();
    let deals = (0..samples).filter_map(|_| {
        let held = table.sample(knowledge, rng);
        let ll = replay(view, knowledge, &history, &held, &mut legal)?;
        Some((held, ll))
    });
    WeightedDeals::weigh(me, knowledge.players, &PRIOR, TEMPER, deals)
}

/// Replays the hand from its first lead with every seat's cards as they
/// were then (`held` now, plus what each seat played, less the Ratberts it
/// took back), and returns each seat's log-likelihood of its decisions
/// under each kind; `None` if the replay does not fit (it always should).
fn replay(
    view: &View<'_>,
    knowledge: &Knowledge,
    history: &History,
    held: &PerSeat<Cards>,
    legal: &mut Vec<Action>,
) -> Option<PerSeat<[f64; FAMILY.len()]>> {
    let players = knowledge.players;
    let start: Vec<Cards> = Seat::all(players)
        .map(|s| {
            let mut cards = held[s];
            cards.add_all(&knowledge.played_by[s]);
            cards.remove_all(&history.taken[s]);
            cards
        })
        .collect();
    let (leader, _) = history.actions[0];
    let mut hand = Hand::from_position(PlayPosition {
        rules: *view.rules(),
        held: start,
        gone_out: Vec::new(),
        turn: leader,
        top: None,
        passes: 0,
    })
    .ok()?;
    let mut ll = PerSeat::<[f64; FAMILY.len()]>::default();
    for &(seat, action) in &history.actions {
        if seat != knowledge.me {
            fill(&hand, seat, legal);
            let n = legal.len();
            if n > 1 {
                for (t, kind) in FAMILY.iter().enumerate() {
                    let p = likelihood(kind.choice(&hand, seat, legal), action, n, NOISE);
                    ll[seat][t] += p.ln();
                }
            }
        }
        hand.apply(seat, action).ok()?;
    }
    Some(ll)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bot, BotSpec, bot_rng};
    use dalmuti_core::{DealRng, Rules, Seed, Stage, Variant, Viewer};

    /// Plays hands of five with `others` in seats 1 to 4 and the heuristic
    /// in seat 0; at seat 0's decisions late in the hand, how likely its
    /// belief finds each kind for the others, on average.
    fn kinds_found(variant: Variant, others: &str, seeds: u64) -> [f64; FAMILY.len()] {
        let rules = Rules {
            variant,
            ..Rules::default()
        };
        let mut total = [0.0; FAMILY.len()];
        let mut counted = 0.0;
        for seed in 0..seeds {
            let mut hand = Hand::deal(rules, 5, false, &mut DealRng::new(Seed::from(seed)));
            let mut bots: Vec<Box<dyn Bot>> = (0..5)
                .map(|i| {
                    let spec = if i == 0 { "heuristic" } else { others };
                    spec.parse::<BotSpec>().unwrap().build(seed).unwrap()
                })
                .collect();
            let mut plays = 0;
            while let Some(seat) = hand.next_to_act() {
                let view = View::new(&hand, Viewer::Seat(seat));
                let legal = view.legal_actions();
                if hand.stage() == Stage::Play {
                    plays += 1;
                }
                if seat.index() == 0 && plays >= 20 && legal.len() > 1 {
                    let k = Knowledge::from_view(&view);
                    let table = Table::of(&view, &k);
                    let belief = infer(&view, &k, &table, PARTICLES, &mut bot_rng(seed))
                        .expect("a hand with plays has a belief");
                    assert!(belief.effective_deals() >= 1.0);
                    for s in (1..5).map(Seat::new).filter(|&s| !hand.held(s).is_empty()) {
                        let found = belief.kinds_of(s);
                        assert!((found.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                        for (t, f) in total.iter_mut().zip(found) {
                            *t += f;
                        }
                        counted += 1.0;
                    }
                }
                let action = bots[seat.index()].decide(&view, &legal).unwrap();
                hand.apply(seat, action).unwrap();
            }
        }
        assert!(counted > 20.0, "only {counted} beliefs");
        total.map(|t| t / counted)
    }

    #[test]
    fn the_others_kinds_are_told_apart_by_what_they_do() {
        // The deals' weights are tempered (`TEMPER`), so no kind is ever
        // quite certain.
        // The belief is Dalmuti's and Corporate Shuffle's search's.
        for variant in Variant::ALL.into_iter().filter(|v| !v.is_suited()) {
            let greedy = kinds_found(variant, "greedy", 8);
            assert!(greedy[1] > 0.7, "{variant}: greedy bots seen as {greedy:?}");
            // The heuristic at the table knows more than its model (taxes,
            // the two-player ending), so its choices differ a little more.
            let heuristic = kinds_found(variant, "heuristic", 8);
            assert!(
                heuristic[0] > 0.55,
                "{variant}: heuristic bots seen as {heuristic:?}"
            );
            // A random player's choice is often some kind's favourite too.
            let random = kinds_found(variant, "random", 8);
            assert!(
                random[2] > 0.45,
                "{variant}: random bots seen as {random:?}"
            );
        }
    }
}
