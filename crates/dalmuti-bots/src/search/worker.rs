//! One thread's search: its own generator and tree, iterations until its
//! budget is spent, and the root statistics it found.

use crate::clock::Instant;
use std::ops::ControlFlow;

use dalmuti_core::{Action, Hand, PerSeat, Seat, Set};

use super::belief::{Belief, FAMILY};
use super::config::{Opponents, SearchConfig};
use super::model::Kind;
use super::playout::{self, Table};
use super::tree::{NodeId, ROOT, Step, Tree};
use crate::BotRng;
use crate::knowledge::Knowledge;

/// The most nodes one tree may hold (56 bytes each, so 117 MB): far more than
/// any iteration budget needs, a bound for long time limits.
const MAX_NODES: usize = 1 << 21;

/// When a worker stops.
#[derive(Copy, Clone, Debug)]
pub(super) enum Budget {
    /// After exactly this many iterations.
    Iterations(u32),
    /// At this instant (after at least one iteration).
    Until(Instant),
    /// Once this many moves have been simulated (after at least one
    /// iteration): a budget that takes about as long at any table, and
    /// the same on any machine.
    Moves(u64),
    /// Once this many moves have been simulated, or at this instant,
    /// whichever comes first (after at least one iteration): a budget of
    /// moves with a cap on the time ([`super::SearchBot::capped`]).
    MovesUntil(u64, Instant),
}

/// About how many moves an iteration simulates at five players: how a
/// budget of moves is read as iterations, where a count is needed before
/// searching (the tree's first allocation, the deals to weigh).
pub(super) const MOVES_PER_ITERATION: u64 = 80;

/// What one tree learned about the decision.
#[derive(Clone, Debug, Default)]
pub(super) struct RootStats {
    /// Each root action tried: visits and total reward to the searching
    /// seat.
    pub(super) children: Vec<(Action, u32, f64)>,
    /// Iterations run.
    pub(super) iterations: u64,
    /// Nodes in the tree.
    pub(super) nodes: usize,
}

/// Where the determinizations come from, and how the others play in them.
pub(super) struct Deals<'a> {
    /// What the seat knows: deals are sampled from it when there is no
    /// belief.
    pub(super) knowledge: &'a Knowledge,
    /// Weighted deals and the others' kinds, inferred from the hand so far.
    pub(super) belief: Option<&'a Belief>,
    /// How every other seat plays without a belief.
    pub(super) kind: Kind,
    /// The heuristic's choice at the root, if the search favours it.
    pub(super) favourite: Option<Action>,
}

impl Deals<'_> {
    /// A determinization of `table`, and how each other seat plays in it.
    fn draw(&self, table: &Table, rng: &mut BotRng) -> (Hand, PerSeat<Kind>) {
        match self.belief {
            Some(belief) => {
                let (held, kinds) = belief.draw(&FAMILY, rng);
                (table.hand_of(held), kinds)
            }
            None => {
                let mut kinds = PerSeat::<Kind>::default();
                for seat in Seat::all(table.players()) {
                    kinds[seat] = self.kind;
                }
                (table.determinize(self.knowledge, rng), kinds)
            }
        }
    }
}

/// Searches the decision of `table` over `deals`, until `budget` is spent.
pub(super) fn search(
    config: &SearchConfig,
    table: &Table,
    deals: &Deals<'_>,
    mut rng: BotRng,
    budget: Budget,
) -> RootStats {
    let capacity = match budget {
        Budget::Iterations(n) => n as usize + 1,
        // Some 200,000 iterations a second: room for a tenth of a second.
        Budget::Until(_) => 1 << 14,
        Budget::Moves(n) | Budget::MovesUntil(n, _) => (n / MOVES_PER_ITERATION) as usize + 1,
    };
    let mut tree = Tree::new(capacity, MAX_NODES);
    // Set only when the config has a bias.
    if let Some(favourite) = deals.favourite {
        tree.favour(favourite, f64::from(config.bias) / 100.0);
    }
    let mut scratch = Scratch::default();
    let (mut iterations, mut moves) = (0u64, 0u64);
    loop {
        let done = match budget {
            Budget::Iterations(n) => iterations >= u64::from(n),
            Budget::Until(deadline) => iterations > 0 && Instant::now() >= deadline,
            Budget::Moves(n) => iterations > 0 && moves >= n,
            Budget::MovesUntil(n, deadline) => {
                iterations > 0 && (moves >= n || Instant::now() >= deadline)
            }
        };
        if done {
            break;
        }
        moves += iterate(config, table, deals, &mut tree, &mut scratch, &mut rng);
        iterations += 1;
    }
    RootStats {
        children: tree.root_children().collect(),
        iterations,
        nodes: tree.len(),
    }
}

/// Buffers reused from one iteration to the next.
#[derive(Default)]
struct Scratch {
    /// The nodes of this iteration's descent, root first.
    path: Vec<NodeId>,
    /// The legal actions at the current node.
    legal: Vec<Action>,
}

/// One iteration: determinize, descend the tree while its children are
/// legal here, expand one, play out, and back up every player's reward.
/// Returns how many moves it simulated (events of the hand).
/// With an opponent model the others' moves on the way down are their
/// model's (the kind drawn for each), not the tree's: the tree then holds
/// the searching seat's choices only.
fn iterate(
    config: &SearchConfig,
    table: &Table,
    deals: &Deals<'_>,
    tree: &mut Tree,
    scratch: &mut Scratch,
    rng: &mut BotRng,
) -> u64 {
    let (mut hand, kinds) = deals.draw(table, rng);
    let before = hand.events().len();
    let Scratch { path, legal } = scratch;
    path.clear();
    path.push(ROOT);
    let mut node = ROOT;
    let modelled = config.opponents != Opponents::Tree;
    while let Some(seat) = hand.next_to_act() {
        if modelled && seat != table.me() {
            let action = kinds[seat].play(&hand, seat, legal, rng);
            apply(&mut hand, seat, action);
            continue;
        }
        legal.clear();
        let top = hand.top().map(|(_, set)| set);
        hand.for_each_legal(seat, |a| {
            if considered(a, top) {
                legal.push(a);
            }
            ControlFlow::Continue(())
        });
        match tree.select(node, legal, rng) {
            Step::Descend(child) => {
                apply(&mut hand, seat, tree.action(child));
                node = child;
                path.push(child);
            }
            Step::Expand(action) => {
                apply(&mut hand, seat, action);
                path.push(tree.add_child(node, action, seat));
                break;
            }
            Step::Stop => break,
        }
    }
    playout::play_out(&mut hand, config.playout, table.me(), &kinds, rng, legal);
    tree.backpropagate(path, &playout::rewards(&hand));
    (hand.events().len() - before) as u64
}

/// Whether the tree weighs `action`, legal on `top`. Dogberts alone may be
/// declared as any value that tops (Corporate Shuffle): the tree weighs
/// only the best value, 1, and the worst that tops. A declared value only
/// decides who may top the set, and these two are the cases that matter
/// (keep the lead; let someone else take it), so the other eight would
/// only split the iterations.
pub(super) fn considered(action: Action, top: Option<Set>) -> bool {
    let Action::Play(set) = action else {
        return true;
    };
    match set.declared() {
        None => true,
        Some(value) => {
            let worst = top.map_or(10, |t| t.rank_number().saturating_sub(1).min(10));
            value == 1 || value == worst
        }
    }
}

fn apply(hand: &mut Hand, seat: Seat, action: Action) {
    hand.apply(seat, action)
        .expect("the tree offers only actions legal here");
}
