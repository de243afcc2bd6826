//! Bots in other programs (being written).

use std::time::Duration;

use dalmuti_core::{Action, View};

use crate::{BadSpec, Bot, BotFault};

/// A bot in another program (being written).
#[derive(Debug)]
pub struct ExternalBot;

impl ExternalBot {
    /// Starts the program.
    pub fn spawn(command: &str, _timeout: Duration) -> Result<ExternalBot, BadSpec> {
        Err(BadSpec(format!(
            "external bots are not ready yet: {command}"
        )))
    }
}

impl Bot for ExternalBot {
    fn name(&self) -> &str {
        "external"
    }

    fn decide(&mut self, _view: &View<'_>, _legal: &[Action]) -> Result<Action, BotFault> {
        Err(BotFault::Crashed("not ready".into()))
    }
}
