//! The search bot (being written: plays like the greedy bot for now).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use dalmuti_core::{Action, View};

use crate::{BadSpec, Bot, BotFault};

/// How much a search bot may think per decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Iterations per decision.
    pub iterations: u32,
    /// A time limit per decision, if any.
    pub time: Option<Duration>,
    /// Threads searching in parallel.
    pub threads: usize,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            iterations: 1000,
            time: None,
            threads: 1,
        }
    }
}

impl FromStr for SearchConfig {
    type Err = BadSpec;
    fn from_str(s: &str) -> Result<SearchConfig, BadSpec> {
        if s.is_empty() {
            Ok(SearchConfig::default())
        } else {
            Err(BadSpec(format!("unknown search options {s:?}")))
        }
    }
}

impl fmt::Display for SearchConfig {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Ok(())
    }
}

/// Information-set Monte-Carlo tree search (being written).
#[derive(Clone, Debug)]
pub struct SearchBot;

impl SearchBot {
    /// A search bot.
    pub fn new(_config: SearchConfig, _seed: u64) -> SearchBot {
        SearchBot
    }
}

impl Bot for SearchBot {
    fn name(&self) -> &str {
        "search"
    }

    fn decide(&mut self, _view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        Ok(legal[0])
    }
}
