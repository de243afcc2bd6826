//! The random bot.

use dalmuti_core::{Action, View};
use rand::Rng;

use crate::{Bot, BotFault, BotRng, bot_rng};

/// Chooses uniformly among the legal actions: the floor of the ladder.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: BotRng,
}

impl RandomBot {
    /// A random bot with its own stream.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: bot_rng(seed) }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn decide(&mut self, _view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        Ok(legal[self.rng.random_range(0..legal.len())])
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = bot_rng(seed);
    }
}
