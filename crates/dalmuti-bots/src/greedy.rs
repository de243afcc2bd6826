//! The greedy bot.

use dalmuti_core::{Action, View};

use crate::{Bot, BotFault};

/// Sheds its worst cards: plays its worst legal set (passing only when it
/// cannot play), gives its worst cards in tax, never calls a revolution and
/// makes no merchant exchange. The engine lists legal actions worst first,
/// so this is the first of them.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

impl Bot for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    fn decide(&mut self, _view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        Ok(legal[0])
    }

    fn plays_first_legal(&self) -> bool {
        true
    }
}
