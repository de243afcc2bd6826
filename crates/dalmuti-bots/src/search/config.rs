//! How much a search bot may think per decision, as written on a command
//! line after `search:`: `iterations=2000`, `ms=50`, `threads=2`,
//! comma-separated.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::BadSpec;

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
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Iterations per decision, over all threads together (ignored when
    /// `time` is set).
    pub iterations: u32,
    /// A time limit per decision, if any: then the search runs until it
    /// and `iterations` is ignored.
    pub time: Option<Duration>,
    /// Threads searching in parallel, each with its own tree.
    pub threads: usize,
}

/// More threads than this is surely a typing mistake.
const MAX_THREADS: usize = 256;

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

    /// Reads the options after `search:`; an empty string is the default.
    fn from_str(s: &str) -> Result<SearchConfig, BadSpec> {
        let mut config = SearchConfig::default();
        let (mut iterations, mut ms, mut threads) = (false, false, false);
        for option in s.split(',').map(str::trim).filter(|o| !o.is_empty()) {
            let Some((key, value)) = option.split_once('=') else {
                return Err(BadSpec(format!(
                    "search option {option:?} is not KEY=VALUE (iterations=N, ms=N or threads=N)"
                )));
            };
            let (key, value) = (key.trim(), value.trim());
            let seen = match key {
                "iterations" => &mut iterations,
                "ms" => &mut ms,
                "threads" => &mut threads,
                _ => {
                    return Err(BadSpec(format!(
                        "unknown search option {key:?}: expected iterations, ms or threads"
                    )));
                }
            };
            if std::mem::replace(seen, true) {
                return Err(BadSpec(format!("search option {key} is given twice")));
            }
            let n = positive(key, value)?;
            match key {
                "iterations" => {
                    config.iterations = u32::try_from(n)
                        .map_err(|_| BadSpec(format!("search iterations={value} is too many")))?;
                }
                "ms" => config.time = Some(Duration::from_millis(n)),
                _ if n as usize > MAX_THREADS => {
                    return Err(BadSpec(format!(
                        "search threads={value}: at most {MAX_THREADS}"
                    )));
                }
                _ => config.threads = n as usize,
            }
        }
        if iterations && ms {
            return Err(BadSpec(
                "search takes iterations=N or ms=N as its budget, not both".into(),
            ));
        }
        Ok(config)
    }
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
        match self.time {
            // Whole milliseconds, at least one: what the parser accepts.
            Some(time) => options.push(format!("ms={}", time.as_millis().max(1))),
            None if self.iterations != default.iterations => {
                options.push(format!("iterations={}", self.iterations));
            }
            None => {}
        }
        if self.threads != default.threads {
            options.push(format!("threads={}", self.threads));
        }
        if !options.is_empty() {
            write!(f, ":{}", options.join(","))?;
        }
        Ok(())
    }
}
