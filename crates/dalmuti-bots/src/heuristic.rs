//! The heuristic bot (being written: plays like the greedy bot for now).

use dalmuti_core::{Action, View};

use crate::{Bot, BotFault};

/// Rules of thumb (being written).
#[derive(Clone, Debug)]
pub struct HeuristicBot;

impl HeuristicBot {
    /// A heuristic bot.
    pub fn new(_seed: u64) -> HeuristicBot {
        HeuristicBot
    }
}

impl Bot for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn decide(&mut self, _view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        Ok(legal[0])
    }
}
