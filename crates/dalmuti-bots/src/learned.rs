//! The learned policy: a linear score over what a good player weighs of
//! each legal action (the leads its hand will need after it, whether it
//! wins the trick or goes out, the cards it spends, the race), its weights
//! evolved by the places they win against a league of other styles
//! (`examples/train_learned.rs`; docs/PERFORMANCE.md, "A learned policy").
//! It plays as the `learned` bot and inside the search's play-outs
//! (`search:playout=learned`).
//!
//! The weights ship in the repository (`weights/learned.json`, under two
//! kilobytes), read without any network; a file names its features,
//! so weights trained for another list are refused rather than misread.

use std::sync::OnceLock;

use dalmuti_core::{Action, Decision, Hand, Seat, Stage, View};
use serde::{Deserialize, Serialize};

use crate::heuristic::features::{self, FEATURES, Features, NAMES};
use crate::{Bot, BotFault, HeuristicBot};

/// The names of the numbers that describe a legal action, in the order
/// of [`features`] and of a policy's weights.
pub const FEATURE_NAMES: [&str; FEATURES] = NAMES;

/// The weights in the repository.
const SHIPPED: &str = include_str!("../weights/learned.json");

/// A linear policy: each legal action scores the dot product of its
/// features and the weights, and the best score is played.
///
/// ```
/// use dalmuti_bots::learned::{LearnedPolicy, FEATURE_NAMES};
/// let policy = LearnedPolicy::shipped();
/// assert_eq!(policy.weights().len(), FEATURE_NAMES.len());
/// let text = policy.to_json();
/// assert_eq!(&LearnedPolicy::from_json(&text).unwrap(), policy);
/// assert!(LearnedPolicy::from_json(r#"{"features":["pass"],"weights":[1.0]}"#).is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LearnedPolicy {
    weights: Features,
    /// How the weights were made, as the file says.
    trained: String,
}

/// A weights file as it is written.
#[derive(Serialize, Deserialize)]
struct WeightsFile {
    #[serde(default)]
    trained: String,
    features: Vec<String>,
    weights: Vec<f32>,
}

/// Weights that cannot be read, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("learned policy weights: {0}")]
pub struct BadWeights(String);

impl LearnedPolicy {
    /// A policy of these weights, one per [`FEATURE_NAMES`] entry.
    pub fn new(weights: [f32; FEATURES], trained: impl Into<String>) -> LearnedPolicy {
        LearnedPolicy {
            weights,
            trained: trained.into(),
        }
    }

    /// The policy whose weights ship in the repository.
    pub fn shipped() -> &'static LearnedPolicy {
        static POLICY: OnceLock<LearnedPolicy> = OnceLock::new();
        POLICY.get_or_init(|| {
            LearnedPolicy::from_json(SHIPPED).expect("the shipped weights name today's features")
        })
    }

    /// Reads a weights file: `{"trained": "...", "features": [names],
    /// "weights": [numbers]}`, the features exactly [`FEATURE_NAMES`].
    pub fn from_json(text: &str) -> Result<LearnedPolicy, BadWeights> {
        let file: WeightsFile =
            serde_json::from_str(text).map_err(|e| BadWeights(e.to_string()))?;
        if file.features != NAMES {
            return Err(BadWeights(format!(
                "trained for the features {:?}, not today's {NAMES:?}",
                file.features
            )));
        }
        let weights: Features = file.weights.try_into().map_err(|w: Vec<f32>| {
            BadWeights(format!("{} weights for {FEATURES} features", w.len()))
        })?;
        if let Some(bad) = weights.iter().find(|w| !w.is_finite()) {
            return Err(BadWeights(format!("weight {bad} is not a finite number")));
        }
        Ok(LearnedPolicy::new(weights, file.trained))
    }

    /// The weights file of this policy.
    pub fn to_json(&self) -> String {
        let file = WeightsFile {
            trained: self.trained.clone(),
            features: NAMES.iter().map(|n| n.to_string()).collect(),
            weights: self.weights.to_vec(),
        };
        serde_json::to_string_pretty(&file).expect("weights serialize")
    }

    /// The weights, in the order of [`FEATURE_NAMES`].
    pub fn weights(&self) -> &[f32; FEATURES] {
        &self.weights
    }

    /// How the weights were made.
    pub fn trained(&self) -> &str {
        &self.trained
    }

    fn score(&self, f: &Features) -> f32 {
        self.weights.iter().zip(f).map(|(w, x)| w * x).sum()
    }

    /// The index in `legal` of the best action of the seat to play in
    /// `view` (a lead or a follow).
    pub fn choose(&self, view: &View<'_>, legal: &[Action]) -> usize {
        let mut best = (0, f32::NEG_INFINITY);
        features::of_view(view, legal, |i, f| {
            let score = self.score(f);
            if score > best.1 {
                best = (i, score);
            }
        });
        best.0
    }

    /// The play of `seat` in a hand seen whole (a search's
    /// determinization); `legal` is a buffer for its legal actions.
    pub(crate) fn play_in(&self, hand: &Hand, seat: Seat, legal: &mut Vec<Action>) -> Action {
        let mut best = (0, f32::NEG_INFINITY);
        features::of_hand(hand, seat, legal, |i, f| {
            let score = self.score(f);
            if score > best.1 {
                best = (i, score);
            }
        });
        legal[best.0]
    }
}

/// The features of each of `legal` for the seat to play in `view` (a lead
/// or a follow), in order: what [`LearnedPolicy`] weighs, and what a
/// researcher trains weights on.
///
/// ```
/// use dalmuti_bots::learned::{features, FEATURE_NAMES};
/// use dalmuti_bots::{Bot, HeuristicBot};
/// use dalmuti_core::{DealRng, Decision, Hand, Rules, Seed, View, Viewer};
/// let mut hand = Hand::deal(Rules::default(), 4, false, &mut DealRng::new(Seed::from(1)));
/// let mut bot = HeuristicBot::new(0);
/// // Past the setup, to the first lead.
/// let seat = loop {
///     let seat = hand.next_to_act().unwrap();
///     let view = View::new(&hand, Viewer::Seat(seat));
///     if view.decision() == Some(Decision::Lead) {
///         break seat;
///     }
///     let action = bot.decide(&view, &view.legal_actions()).unwrap();
///     hand.apply(seat, action).unwrap();
/// };
/// let view = View::new(&hand, Viewer::Seat(seat));
/// let legal = view.legal_actions();
/// let rows = features(&view, &legal);
/// assert_eq!(rows.len(), legal.len());
/// // One action is the heuristic's own choice.
/// let favourite = FEATURE_NAMES.iter().position(|&n| n == "heuristic_choice").unwrap();
/// assert_eq!(rows.iter().filter(|r| r[favourite] == 1.0).count(), 1);
/// ```
pub fn features(view: &View<'_>, legal: &[Action]) -> Vec<[f32; FEATURES]> {
    let mut out = vec![[0.0; FEATURES]; legal.len()];
    features::of_view(view, legal, |i, f| out[i] = *f);
    out
}

/// The learned policy as a bot: its best-scored action in play, the
/// heuristic's choices in the setup and its exact two-player ending.
///
/// ```
/// use dalmuti_bots::{Bot, LearnedBot};
/// use dalmuti_core::{DealRng, Hand, Rules, Seed, Stage, View, Viewer};
/// let mut hand = Hand::deal(Rules::default(), 5, false, &mut DealRng::new(Seed::from(2)));
/// let mut bot = LearnedBot::new(0);
/// while let Some(seat) = hand.next_to_act() {
///     let view = View::new(&hand, Viewer::Seat(seat));
///     let action = bot.decide(&view, &view.legal_actions()).unwrap();
///     hand.apply(seat, action).unwrap();
/// }
/// assert_eq!(hand.stage(), Stage::Over);
/// ```
#[derive(Clone, Debug)]
pub struct LearnedBot {
    policy: LearnedPolicy,
    heuristic: HeuristicBot,
}

impl LearnedBot {
    /// The learned bot with the shipped weights. It has no randomness.
    pub fn new(seed: u64) -> LearnedBot {
        LearnedBot::with_policy(LearnedPolicy::shipped().clone(), seed)
    }

    /// The learned bot with other weights (while training them).
    pub fn with_policy(policy: LearnedPolicy, seed: u64) -> LearnedBot {
        LearnedBot {
            policy,
            heuristic: HeuristicBot::new(seed),
        }
    }
}

impl Bot for LearnedBot {
    fn name(&self) -> &str {
        "learned"
    }

    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        // President and Daifugō: the rules of thumb of the pack's games
        // (a bot built by name plays them through `climb`; this keeps a
        // bot made directly from playing them with Dalmuti's reckoning).
        if view.variant().is_suited() {
            return Ok(crate::climb::pack_choice(view, legal));
        }
        let play = view.stage() == Stage::Play
            && matches!(
                view.decision(),
                Some(Decision::Lead | Decision::Follow { .. })
            );
        if !play || legal.len() == 1 || features::ending_solved(view) {
            return self.heuristic.decide(view, legal);
        }
        Ok(legal[self.policy.choose(view, legal)])
    }
}
