//! How much a search bot may think per decision, as written on a command
//! line after `search:`: `iterations=2000`, `moves=100000`, `ms=50`,
//! `threads=2`, `opponents=infer|heuristic|tree|greedy|STYLE`,
//! `playout=learned|model|greedy|heuristic`, `bias=N`, `setup=search|heuristic`
//! (or its old name `tax=`), comma-separated.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::{BadSpec, Style};

/// How much a search bot may think per decision.
///
/// The budget is either a number of iterations (then the bot is
/// deterministic for a seed, whatever the number of threads) or a time
/// limit. When `time` is set it is the budget and `iterations` is not
/// used, so a command line gives one or the other, never both.
///
/// ```
/// use dalmuti_bots::SearchConfig;
/// let config: SearchConfig = "ms=50,threads=2".parse().unwrap();
/// assert_eq!(config.time, Some(std::time::Duration::from_millis(50)));
/// assert_eq!(config.to_string(), ":ms=50,threads=2");
/// assert_eq!("".parse::<SearchConfig>().unwrap(), SearchConfig::default());
/// assert!("iterations=x".parse::<SearchConfig>().is_err());
/// let tree: SearchConfig = "opponents=tree,playout=heuristic".parse().unwrap();
/// assert_eq!(tree.to_string(), ":opponents=tree,playout=heuristic");
/// assert!("opponents=psychic".parse::<SearchConfig>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Iterations per decision, over all threads together (ignored when
    /// `time` is set).
    pub iterations: u32,
    /// A time limit per decision, if any: then the search runs until it
    /// and `iterations` is ignored.
    pub time: Option<Duration>,
    /// A budget of simulated moves per decision (over all threads), if
    /// any and no time limit: then `iterations` is ignored. Iterations
    /// are longer at a bigger table, so this budget takes about as long
    /// at any table, and it is the same on any machine.
    pub moves: Option<u64>,
    /// Threads searching in parallel, each with its own tree.
    pub threads: usize,
    /// How the other players choose inside the search.
    pub opponents: Opponents,
    /// How every player plays once the search leaves its tree.
    pub playout: Playout,
    /// Whether setup choices (the tax gift, the revolution call, the
    /// merchant exchange) are weighed by play-outs ([`SetupSearch`]) or
    /// made by the heuristic's rules of thumb.
    ///
    /// [`SetupSearch`]: crate::SetupSearch
    pub setup: Setup,
    /// The head start of the heuristic's choice at the root, in
    /// hundredths of a place's reward (0: none).
    pub bias: u32,
}

/// How the search bot makes its setup choices: a Dalmuti's tax gift, the
/// revolution call of a player dealt both Jesters, the highest Merchant's
/// exchange and the answer to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Setup {
    /// A few candidates (the heuristic's favourites, and the revolution
    /// when it is offered), each played out on the same sampled deals; see
    /// `docs/PERFORMANCE.md` for what each kind of choice gains.
    #[default]
    Search,
    /// The heuristic's rules of thumb.
    Heuristic,
}

/// How the other players choose inside the search.
///
/// `Infer` (the default) models every other seat as one of a few kinds of
/// player, weighted by what that seat did this hand: against players who
/// are not the heuristic bot it is what makes the search strong
/// (docs/PERFORMANCE.md, "Against every style"). `Heuristic`, `Greedy`
/// and `Style` model them all as that one bot: for a table known to be
/// of one kind.
///
/// Between two of the searching seat's decisions the others play as
/// modelled with the cards the determinization gave them, and the tree
/// holds only the searching seat's own choices. `Tree` is plain
/// single-observer ISMCTS: every player's choices are in the tree, each
/// choosing by UCB1 for its own reward. Against four heuristic bots
/// (five-player duplicate, 300 iterations a decision) the heuristic model
/// is 0.34 places a hand better than the tree (2.897 → 2.558,
/// `docs/PERFORMANCE.md`), because the tree's choices for the others are
/// made from the searching seat's information and spread its iterations
/// over moves the others would never make.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Opponents {
    /// The others play as the heuristic bot.
    Heuristic,
    /// The others choose in the tree (ISMCTS).
    Tree,
    /// The others play as the greedy bot.
    Greedy,
    /// The others play one style.
    Style(Style),
    /// Each other seat is inferred, from what it did this hand, to be one
    /// of a few kinds of player (the heuristic, the greedy bot, a random
    /// player), and the deals are weighted by how likely they make what
    /// was seen.
    #[default]
    Infer,
}

/// How every player plays once the search leaves its tree (one move in
/// ten is a random legal action either way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Playout {
    /// The worst legal set: some fifty times cheaper than the heuristic.
    Greedy,
    /// The heuristic bot's play.
    Heuristic,
    /// The searching seat as the heuristic, every other seat as it is
    /// modelled (the kind inferred for it, with `opponents=infer`); the
    /// heuristic's choice has the head start at the root.
    Model,
    /// As `Model`, but the searching seat plays the learned policy
    /// ([`LearnedPolicy`](crate::LearnedPolicy)), whose choice has the
    /// head start at the root (docs/PERFORMANCE.md, "A learned policy").
    #[default]
    Learned,
}

/// The default head start of the favourite (the learned policy's choice,
/// or the heuristic's with `playout=model`) at the root, in hundredths of
/// a place: with few iterations the search's averages are noisy, and the
/// learned policy's choice is seldom a blunder. Six tenths of a place,
/// measured against a tenth and three tenths (docs/PERFORMANCE.md, "A
/// learned policy").
pub const BIAS: u32 = 600;

/// More threads than this is surely a typing mistake.
const MAX_THREADS: usize = 256;

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            iterations: 1000,
            time: None,
            moves: None,
            threads: 1,
            opponents: Opponents::default(),
            playout: Playout::default(),
            setup: Setup::default(),
            bias: BIAS,
        }
    }
}

impl FromStr for SearchConfig {
    type Err = BadSpec;

    /// Reads the options after `search:`; an empty string is the default.
    fn from_str(s: &str) -> Result<SearchConfig, BadSpec> {
        let mut config = SearchConfig::default();
        let mut seen_keys: Vec<&str> = Vec::new();
        for option in s.split(',').map(str::trim).filter(|o| !o.is_empty()) {
            let Some((key, value)) = option.split_once('=') else {
                return Err(BadSpec(format!(
                    "search option {option:?} is not KEY=VALUE (iterations=N, moves=N, ms=N, threads=N, opponents=infer|heuristic|tree|greedy|STYLE, playout=learned|model|greedy|heuristic, bias=N or setup=search|heuristic)"
                )));
            };
            let (key, value) = (key.trim(), value.trim());
            // `tax` is the old name of `setup`, from before the revolution
            // and the exchange were searched too: old command lines still
            // read, and giving both is giving one twice.
            let key = if key == "tax" { "setup" } else { key };
            if seen_keys.contains(&key) {
                return Err(BadSpec(format!("search option {key} is given twice")));
            }
            match key {
                "iterations" => {
                    config.iterations = u32::try_from(positive(key, value)?)
                        .map_err(|_| BadSpec(format!("search iterations={value} is too many")))?;
                }
                "ms" => config.time = Some(Duration::from_millis(positive(key, value)?)),
                "moves" => config.moves = Some(positive(key, value)?),
                "threads" => {
                    let n = positive(key, value)?;
                    if n as usize > MAX_THREADS {
                        return Err(BadSpec(format!(
                            "search threads={value}: at most {MAX_THREADS}"
                        )));
                    }
                    config.threads = n as usize;
                }
                "opponents" => {
                    config.opponents = match value {
                        "heuristic" => Opponents::Heuristic,
                        "tree" => Opponents::Tree,
                        "greedy" => Opponents::Greedy,
                        "infer" => Opponents::Infer,
                        other => Opponents::Style(other.parse().map_err(|()| {
                            BadSpec(format!(
                                "search opponents={other:?}: expected heuristic, infer, tree, greedy or a style (shedder, hoarder, spender, breaker, noisy, patient)"
                            ))
                        })?),
                    };
                }
                "playout" => {
                    config.playout = match value {
                        "greedy" => Playout::Greedy,
                        "heuristic" => Playout::Heuristic,
                        "model" => Playout::Model,
                        "learned" => Playout::Learned,
                        other => {
                            return Err(BadSpec(format!(
                                "search playout={other:?}: expected greedy, heuristic, model or learned"
                            )));
                        }
                    };
                }
                "bias" => {
                    config.bias = value.parse::<u32>().map_err(|_| {
                        BadSpec(format!(
                            "search option bias={value:?}: expected a whole number of hundredths of a place (0 for none)"
                        ))
                    })?;
                }
                "setup" => {
                    config.setup = choice(
                        key,
                        value,
                        [("search", Setup::Search), ("heuristic", Setup::Heuristic)],
                    )?;
                }
                _ => {
                    return Err(BadSpec(format!(
                        "unknown search option {key:?}: expected iterations, moves, ms, threads, opponents, playout, bias or setup"
                    )));
                }
            }
            seen_keys.push(key);
        }
        if ["iterations", "ms", "moves"]
            .iter()
            .filter(|k| seen_keys.contains(k))
            .count()
            > 1
        {
            return Err(BadSpec(
                "search takes one budget: iterations=N, moves=N or ms=N".into(),
            ));
        }
        Ok(config)
    }
}

/// The option named by `value` among two, or a refusal naming both.
fn choice<T: Copy>(key: &str, value: &str, options: [(&str, T); 2]) -> Result<T, BadSpec> {
    options
        .iter()
        .find(|(name, _)| *name == value)
        .map(|&(_, option)| option)
        .ok_or_else(|| {
            BadSpec(format!(
                "search {key}={value:?}: expected {} or {}",
                options[0].0, options[1].0
            ))
        })
}

/// A whole number above zero: a budget of nothing would leave the bot no
/// statistics to choose by.
fn positive(key: &str, value: &str) -> Result<u64, BadSpec> {
    value.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
        BadSpec(format!(
            "search option {key}={value:?}: expected a whole number above 0"
        ))
    })
}

impl fmt::Display for SearchConfig {
    /// Writes the options back as `:key=value,…`, leaving out defaults (so
    /// the default writes nothing and `search{config}` reads back).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let default = SearchConfig::default();
        let mut options = Vec::new();
        match (self.time, self.moves) {
            // Whole milliseconds, at least one: what the parser accepts.
            (Some(time), _) => options.push(format!("ms={}", time.as_millis().max(1))),
            (None, Some(moves)) => options.push(format!("moves={moves}")),
            (None, None) if self.iterations != default.iterations => {
                options.push(format!("iterations={}", self.iterations));
            }
            (None, None) => {}
        }
        if self.threads != default.threads {
            options.push(format!("threads={}", self.threads));
        }
        match self.opponents {
            Opponents::Infer => {}
            Opponents::Heuristic => options.push("opponents=heuristic".into()),
            Opponents::Tree => options.push("opponents=tree".into()),
            Opponents::Greedy => options.push("opponents=greedy".into()),
            Opponents::Style(style) => options.push(format!("opponents={style}")),
        }
        if self.bias != default.bias {
            options.push(format!("bias={}", self.bias));
        }
        match self.playout {
            Playout::Learned => {}
            Playout::Greedy => options.push("playout=greedy".into()),
            Playout::Heuristic => options.push("playout=heuristic".into()),
            Playout::Model => options.push("playout=model".into()),
        }
        if self.setup == Setup::Heuristic {
            options.push("setup=heuristic".into());
        }
        if !options.is_empty() {
            write!(f, ":{}", options.join(","))?;
        }
        Ok(())
    }
}
