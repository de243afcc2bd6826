//! Naming bots on a command line: `random`, `greedy`, `heuristic`, `learned`,
//! `search:iterations=2000`, a style (`shedder`, `hoarder`…),
//! `cmd:python3 examples/bot.py`…, or a level
//! named by strength: `easy`, `normal`, `hard`, `expert` ([`Level`]).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::external::ExternalBot;
use crate::heuristic::HeuristicBot;
use crate::level::Level;
use crate::search::{SearchBot, SearchConfig};
use crate::style::{Style, StyleBot};
use crate::{Bot, GreedyBot, LearnedBot, RandomBot};

/// How long an external bot may think about one decision unless told
/// otherwise.
pub const DEFAULT_EXTERNAL_TIMEOUT: Duration = Duration::from_secs(5);

/// Which bot to build, as written on a command line.
///
/// ```
/// use dalmuti_bots::BotSpec;
/// assert_eq!("greedy".parse::<BotSpec>().unwrap(), BotSpec::Greedy);
/// assert_eq!(
///     "cmd:python3 bot.py".parse::<BotSpec>().unwrap().to_string(),
///     "cmd:python3 bot.py"
/// );
/// assert_eq!("expert".parse::<BotSpec>().unwrap().to_string(), "expert");
/// let refusal = "hard:ms=5".parse::<BotSpec>().unwrap_err().to_string();
/// assert!(refusal.contains("takes no options"), "{refusal}");
/// assert!("grumpy".parse::<BotSpec>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    /// Uniform over legal actions.
    Random,
    /// Its worst legal set.
    Greedy,
    /// Rules of thumb.
    Heuristic,
    /// The learned linear policy ([`LearnedBot`]).
    Learned,

    /// Information-set Monte-Carlo tree search.
    Search(SearchConfig),
    /// A bot of one clear style: `shedder`, `hoarder`, `spender`,
    /// `breaker`, `noisy`, `patient`.
    Style(Style),
    /// A level named by strength, which is one of the bots above with a
    /// fixed budget ([`Level::spec_text`]); reports keep its name.
    Level(Level),
    /// A program speaking the bot protocol on standard input and output.
    External {
        /// The command line, split on white space.
        command: String,
        /// How long it may take per decision.
        timeout: Duration,
    },
}

/// A bot description that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadSpec(pub String);

/// The heuristic's greedy play-outs of each candidate per decision in
/// President and Daifugō.
const HEURISTIC_PLAYOUTS: u32 = 8;

impl BotSpec {
    /// Builds the bot, its randomness seeded by `seed`. An external bot's
    /// program is started here.
    ///
    /// Every bot plays every game: in President and Daifugō the heuristic,
    /// the learned bot and the styles play by [`crate::climb`]'s rules of
    /// thumb (each style its lean) and the search by its play-outs, with
    /// the same budget.
    pub fn build(&self, seed: u64) -> Result<Box<dyn Bot>, BadSpec> {
        self.build_capped(seed, None)
    }

    /// Builds the bot as [`BotSpec::build`] does, a search thinking at
    /// most `cap` a decision whatever its budget ([`SearchBot::capped`]):
    /// for a slow device. Other bots think no longer than a move anyway.
    pub fn build_capped(
        &self,
        seed: u64,
        cap: Option<std::time::Duration>,
    ) -> Result<Box<dyn Bot>, BadSpec> {
        use crate::climb::{ClimbHeuristic, ClimbSearch, Family, Lean};
        let family = |own: Box<dyn Bot>, climbing: Box<dyn Bot>| -> Box<dyn Bot> {
            Box::new(Family { own, climbing })
        };
        Ok(match self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Greedy => Box::new(GreedyBot),
            // In President and Daifugō the rules of thumb alone played no
            // better than greedy (`easy`), so the heuristic looks a little
            // ahead there: a few greedy play-outs of each candidate, a
            // tenth of `hard`'s (docs/PERFORMANCE.md, "The levels in
            // President and Daifugō").
            BotSpec::Heuristic => family(
                Box::new(HeuristicBot::new(seed)),
                Box::new(ClimbSearch::new(None, HEURISTIC_PLAYOUTS, seed)),
            ),
            BotSpec::Learned => family(
                Box::new(LearnedBot::new(seed)),
                Box::new(ClimbHeuristic::new(Lean::Balanced, seed)),
            ),
            BotSpec::Search(config) => {
                // The same budget: its time, or as many play-outs as
                // iterations (a play-out of every candidate each).
                let playouts = match config.moves {
                    Some(moves) => (moves / 2_000).clamp(8, 100_000) as u32,
                    None => (config.iterations / 8).max(8),
                };
                family(
                    Box::new(match cap {
                        Some(cap) => SearchBot::new(config.clone(), seed).capped(cap),
                        None => SearchBot::new(config.clone(), seed),
                    }),
                    Box::new(match cap {
                        Some(cap) => ClimbSearch::new(config.time, playouts, seed).capped(cap),
                        None => ClimbSearch::new(config.time, playouts, seed),
                    }),
                )
            }
            BotSpec::Style(style) => {
                let lean = match style {
                    crate::Style::Shedder => Lean::Shedder,
                    crate::Style::Hoarder => Lean::Hoarder,
                    crate::Style::Spender => Lean::Spender,
                    crate::Style::Breaker => Lean::Breaker,
                    crate::Style::Noisy => Lean::Noisy,
                    crate::Style::Patient => Lean::Balanced,
                };
                family(
                    Box::new(StyleBot::new(*style, seed)),
                    Box::new(ClimbHeuristic::new(lean, seed)),
                )
            }
            BotSpec::Level(level) => level.build(seed)?,
            BotSpec::External { command, timeout } => {
                Box::new(ExternalBot::spawn(command, *timeout)?)
            }
        })
    }
}

impl FromStr for BotSpec {
    type Err = BadSpec;

    fn from_str(s: &str) -> Result<BotSpec, BadSpec> {
        let s = s.trim();
        if let Some(command) = s.strip_prefix("cmd:") {
            if command.trim().is_empty() {
                return Err(BadSpec(
                    "cmd: needs a command, e.g. cmd:python3 bot.py".into(),
                ));
            }
            return Ok(BotSpec::External {
                command: command.trim().to_string(),
                timeout: DEFAULT_EXTERNAL_TIMEOUT,
            });
        }
        let (name, options) = s.split_once(':').unwrap_or((s, ""));
        match (name, options) {
            ("random", "") => Ok(BotSpec::Random),
            ("greedy", "") => Ok(BotSpec::Greedy),
            ("heuristic", "") => Ok(BotSpec::Heuristic),
            ("learned", "") => Ok(BotSpec::Learned),

            ("search", options) => Ok(BotSpec::Search(options.parse()?)),
            (name, "") if name.parse::<Style>().is_ok() => {
                Ok(BotSpec::Style(name.parse().expect("checked")))
            }
            (name, options) => match name.parse::<Level>() {
                Ok(level) if options.is_empty() => Ok(BotSpec::Level(level)),
                Ok(level) => Err(BadSpec(format!(
                    "level {level} takes no options (it is {}): name that bot with your own options instead",
                    level.spec_text()
                ))),
                Err(_) => Err(BadSpec(format!(
                    "unknown bot {name:?}: expected easy, normal, hard, expert, random, greedy, heuristic, learned, search[:options], shedder, hoarder, spender, breaker, noisy, patient or cmd:COMMAND"
                ))),
            },
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Heuristic => f.write_str("heuristic"),
            BotSpec::Learned => f.write_str("learned"),

            BotSpec::Search(config) => write!(f, "search{config}"),
            BotSpec::Style(style) => write!(f, "{style}"),
            BotSpec::Level(level) => write!(f, "{level}"),
            BotSpec::External { command, .. } => write!(f, "cmd:{command}"),
        }
    }
}
