//! The search tree of single-observer ISMCTS (Cowling, Powley and
//! Whitehouse, 2012): one tree of actions shared by every determinization.
//!
//! A node is reached by a sequence of actions from the decision being
//! searched. Who acts after a sequence is public (turns, passes and card
//! counts are seen by all), so each node has one actor whatever the hidden
//! cards; only *which* of its children are legal depends on the
//! determinization. Hence the availability counts: a child's UCB1
//! exploration term uses how often it could have been chosen, not how often
//! its parent was visited.

use dalmuti_core::{Action, PerSeat, Seat};
use rand::Rng;

use crate::BotRng;

/// A node's place in the tree's arena.
pub(super) type NodeId = u32;

/// The root: the decision being searched. It is nobody's child, so 0 also
/// serves as "no node" in the child and sibling links.
pub(super) const ROOT: NodeId = 0;
const NONE: NodeId = 0;

/// The exploration constant of UCB1 for rewards in 0..=1; 0.7 is what
/// Cowling et al. use for ISMCTS in card games.
const EXPLORATION: f64 = 0.7;

#[derive(Clone, Debug)]
struct Node {
    /// The action that leads here from the parent.
    action: Action,
    /// Who took it: the node's rewards are that player's, so that each
    /// player chooses for themself when the tree is descended.
    actor: Seat,
    first_child: NodeId,
    next_sibling: NodeId,
    visits: u32,
    /// How many times this node's action was legal when selection looked
    /// among its parent's children.
    available: u32,
    /// The actor's rewards, summed over visits.
    reward: f64,
}

/// What to do at a node of the descent, in the current determinization.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Follow this child.
    Descend(NodeId),
    /// Add a child for this legal action that has none yet, then play out.
    Expand(Action),
    /// Stop here and play out: no child is legal and the tree is full.
    Stop,
}

/// One search tree.
#[derive(Clone, Debug)]
pub(super) struct Tree {
    nodes: Vec<Node>,
    /// Beyond this many nodes the tree stops growing (long time limits would
    /// otherwise take memory without end); iterations still run and refine
    /// the statistics of the nodes it has.
    max_nodes: usize,
    /// The children of the node being selected from that are legal in
    /// this determinization, kept from one selection to the next so that
    /// none allocates.
    legal_children: Vec<NodeId>,
    /// A favourite root action and the bonus it gets in UCB1, divided by
    /// its visits plus one (progressive bias): the search starts from it
    /// and leaves it only for what its iterations find better.
    favourite: Option<(Action, f64)>,
}

impl Tree {
    /// A tree holding only the root, with room for `capacity` nodes before
    /// it reallocates and never more than `max_nodes`.
    pub(super) fn new(capacity: usize, max_nodes: usize) -> Tree {
        let mut nodes = Vec::with_capacity(capacity.clamp(1, max_nodes));
        nodes.push(Node {
            // Placeholders: the root's action and actor are never read.
            action: Action::Pass,
            actor: Seat::GREATER_DALMUTI,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
        });
        Tree {
            nodes,
            max_nodes: max_nodes.max(1),
            legal_children: Vec::new(),
            favourite: None,
        }
    }

    /// Gives the root action `action` a head start of `bonus` in UCB1
    /// (divided by its visits plus one).
    pub(super) fn favour(&mut self, action: Action, bonus: f64) {
        self.favourite = Some((action, bonus));
    }

    /// How many nodes, the root included.
    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The action leading to `node`.
    pub(super) fn action(&self, node: NodeId) -> Action {
        self.nodes[node as usize].action
    }

    fn children(&self, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut next = self.nodes[node as usize].first_child;
        std::iter::from_fn(move || {
            let child = next;
            (child != NONE).then(|| {
                next = self.nodes[child as usize].next_sibling;
                child
            })
        })
    }

    fn has_child(&self, node: NodeId, action: Action) -> bool {
        self.children(node)
            .any(|c| self.nodes[c as usize].action == action)
    }

    /// Chooses the next step at `node`, where `legal` are the actions legal
    /// in the current determinization. While some legal action has no
    /// child, one of them is expanded (chosen at random); otherwise UCB1
    /// picks among the legal children, and every legal child counts one
    /// more availability.
    pub(super) fn select(&mut self, node: NodeId, legal: &[Action], rng: &mut BotRng) -> Step {
        // The legal children, found once: each test compares the child's
        // action with every legal one.
        let mut legal_children = std::mem::take(&mut self.legal_children);
        legal_children.clear();
        legal_children.extend(
            self.children(node)
                .filter(|&c| legal.contains(&self.nodes[c as usize].action)),
        );
        let step = self.select_among(node, legal, &legal_children, rng);
        self.legal_children = legal_children;
        step
    }

    /// [`Tree::select`], given the children of `node` legal here, in the
    /// order of its list of children.
    fn select_among(
        &mut self,
        node: NodeId,
        legal: &[Action],
        legal_children: &[NodeId],
        rng: &mut BotRng,
    ) -> Step {
        let tried = legal_children.len();
        if tried < legal.len() && self.nodes.len() < self.max_nodes {
            let mut pick = rng.random_range(0..legal.len() - tried);
            for &action in legal {
                if !self.has_child(node, action) {
                    if pick == 0 {
                        return Step::Expand(action);
                    }
                    pick -= 1;
                }
            }
            unreachable!("fewer children are legal than legal actions");
        }
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        let favourite = self.favourite.filter(|_| node == ROOT);
        for &id in legal_children {
            let child = &mut self.nodes[id as usize];
            // Every child has been visited: it was expanded, then
            // backpropagated, before anyone could select it.
            let visits = f64::from(child.visits);
            let mut score = child.reward / visits
                + EXPLORATION * (f64::from(child.available).ln() / visits).sqrt();
            if let Some((action, bonus)) = favourite
                && action == child.action
            {
                score += bonus / (visits + 1.0);
            }
            if score > best_score {
                best_score = score;
                best = Some(id);
            }
            child.available += 1;
        }
        best.map_or(Step::Stop, Step::Descend)
    }

    /// Adds a child of `parent` for `action`, taken by `actor`. Call only
    /// after [`Tree::select`] asked for it (so there is room).
    pub(super) fn add_child(&mut self, parent: NodeId, action: Action, actor: Seat) -> NodeId {
        let id = self.nodes.len() as NodeId;
        let first = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            action,
            actor,
            first_child: NONE,
            next_sibling: first,
            visits: 0,
            // Available now, the one time it was chosen.
            available: 1,
            reward: 0.0,
        });
        self.nodes[parent as usize].first_child = id;
        id
    }

    /// Counts one visit for every node of `path` and adds its actor's
    /// reward.
    pub(super) fn backpropagate(&mut self, path: &[NodeId], rewards: &PerSeat<f64>) {
        for &id in path {
            let node = &mut self.nodes[id as usize];
            node.visits += 1;
            node.reward += rewards[node.actor];
        }
    }

    /// The root's children: action, visits and total reward.
    pub(super) fn root_children(&self) -> impl Iterator<Item = (Action, u32, f64)> + '_ {
        self.children(ROOT).map(|c| {
            let node = &self.nodes[c as usize];
            (node.action, node.visits, node.reward)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot_rng;

    fn play(s: &str) -> Action {
        Action::Play(s.parse().unwrap())
    }

    #[test]
    fn nodes_stay_small() {
        // The node limit in worker.rs counts on it (an action holds a
        // group of cards: 24 bytes since the pack's cards joined them).
        assert!(std::mem::size_of::<Node>() <= 56);
    }

    #[test]
    fn expands_every_legal_action_before_choosing_by_ucb() {
        let mut tree = Tree::new(16, 16);
        let mut rng = bot_rng(1);
        let legal = [play("12"), play("1")];
        let me = Seat::new(0);
        let mut seen = Vec::new();
        for _ in 0..2 {
            let Step::Expand(a) = tree.select(ROOT, &legal, &mut rng) else {
                panic!("expected an expansion");
            };
            let child = tree.add_child(ROOT, a, me);
            let mut rewards = PerSeat::default();
            rewards[me] = if a == legal[1] { 1.0 } else { 0.0 };
            tree.backpropagate(&[ROOT, child], &rewards);
            seen.push(a);
        }
        seen.sort_by_key(|a| legal.iter().position(|l| l == a));
        assert_eq!(seen, legal);
        // Both tried: UCB1 prefers the one that won.
        let Step::Descend(child) = tree.select(ROOT, &legal, &mut rng) else {
            panic!("expected a descent");
        };
        assert_eq!(tree.action(child), legal[1]);
    }

    #[test]
    fn only_legal_children_are_chosen_and_a_full_tree_stops() {
        let mut tree = Tree::new(2, 2);
        let mut rng = bot_rng(2);
        let me = Seat::new(1);
        let child = tree.add_child(ROOT, play("5"), me);
        tree.backpropagate(&[ROOT, child], &PerSeat::default());
        // The tree is full: "4" cannot be expanded, and "5" is not legal.
        assert_eq!(tree.select(ROOT, &[play("4")], &mut rng), Step::Stop);
        assert_eq!(
            tree.select(ROOT, &[play("4"), play("5")], &mut rng),
            Step::Descend(child)
        );
    }
}
