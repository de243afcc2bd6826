//! A pool run's configuration: the bot measured, the baseline in its seat,
//! the pools, and the table, rules, seed and threads checked the way
//! `dalmuti sim` checks them.

use std::path::Path;

use dalmuti_bots::BotSpec;
use dalmuti_core::{Rules, Seed};

use crate::config::{ConfigError, Format, SimArgs, SimConfig, shell_quote, split_lineup};

/// Deals each row plays when `--hands` is not given.
pub const POOL_DEFAULT_DEALS: u64 = 1000;

/// The pools a bot meets when `--pools` is not given: the five styles,
/// which each play differently from the heuristic (`dalmuti_bots::Style`).
pub const DEFAULT_POOLS: &str = "shedder,hoarder,spender,breaker,noisy";

/// The bot in the measured seat's place that every figure is compared
/// with, when `--baseline` is not given.
pub const DEFAULT_BASELINE: &str = "heuristic";

/// A pool run's configuration, checked.
///
/// ```
/// use dalmuti_arena::{PoolConfig, SimArgs};
/// let args = SimArgs {
///     pool: Some("search:iterations=300".into()),
///     pools: Some("greedy,noisy".into()),
///     seed: Some("3".into()),
///     ..SimArgs::default()
/// };
/// let config = PoolConfig::new(args).unwrap();
/// assert_eq!(config.players(), 5);
/// assert_eq!(config.pools().len(), 2);
/// assert_eq!(config.baseline().to_string(), "heuristic");
/// assert_eq!(
///     config.command(),
///     "dalmuti sim --pool search:iterations=300 --pools greedy,noisy --players 5 --hands 1000 --seed 3"
/// );
/// ```
#[derive(Clone, Debug)]
pub struct PoolConfig {
    /// The table, rules, seed, threads and outputs (its lineup is a
    /// placeholder).
    sim: SimConfig,
    candidate: BotSpec,
    baseline: BotSpec,
    pools: Vec<BotSpec>,
}

impl PoolConfig {
    /// Checks `dalmuti sim` arguments with `--pool` and makes the
    /// configuration, or says what is wrong. `--bots`, `--ladder`,
    /// `--games`, `--hands-per-game`, `--csv`, `--records` and `--plot` do
    /// not apply; `--duplicate` is implied.
    ///
    /// ```
    /// use dalmuti_arena::{PoolConfig, SimArgs};
    /// let bad = |pools: &str| {
    ///     let args = SimArgs {
    ///         pool: Some("heuristic".into()),
    ///         pools: Some(pools.into()),
    ///         ..SimArgs::default()
    ///     };
    ///     PoolConfig::new(args).unwrap_err().to_string()
    /// };
    /// assert!(bad("greedy,grumpy").starts_with("bot 2 of --pools (\"grumpy\"): unknown bot"));
    /// assert!(bad("").contains("one or more bots"));
    /// ```
    pub fn new(args: SimArgs) -> Result<PoolConfig, ConfigError> {
        let Some(candidate) = args.pool.clone() else {
            return Err(ConfigError::Pool("--pool names the bot to measure"));
        };
        if args.games.is_some() || args.hands_per_game.is_some() {
            return Err(ConfigError::Pool(
                "--pool plays independent hands: --games and --hands-per-game do not apply",
            ));
        }
        if args.records.is_some() || args.csv || args.plot.is_some() {
            return Err(ConfigError::Pool(
                "--records, --csv and --plot do not apply to --pool (--json does)",
            ));
        }
        if !args.bots.is_empty() || args.ladder.is_some() {
            return Err(ConfigError::Pool(
                "--pool measures one bot against pools: leave out --bots and --ladder",
            ));
        }
        let candidate = one_bot("--pool", &candidate)?;
        let baseline = one_bot(
            "--baseline",
            args.baseline.as_deref().unwrap_or(DEFAULT_BASELINE),
        )?;
        let list = args.pools.clone().unwrap_or_else(|| DEFAULT_POOLS.into());
        let texts = split_lineup(&list)
            .map_err(|_| ConfigError::Pool("--pools needs one or more bots separated by commas"))?;
        let mut pools = Vec::with_capacity(texts.len());
        for (i, text) in texts.iter().enumerate() {
            pools.push(parse(text, "--pools", i + 1)?);
        }
        let sim = SimConfig::new(SimArgs {
            pool: None,
            pools: None,
            baseline: None,
            bots: "random".into(),
            hands: Some(args.hands.unwrap_or(POOL_DEFAULT_DEALS)),
            duplicate: true,
            ..args
        })?;
        Ok(PoolConfig {
            sim,
            candidate,
            baseline,
            pools,
        })
    }

    /// Whether the text report is printed ([`PoolConfig::json_on_stdout`]
    /// otherwise).
    pub fn json_on_stdout(&self) -> bool {
        self.sim.format() == Format::Json
    }

    /// The file the JSON report goes to, if any.
    pub fn json_file(&self) -> Option<&Path> {
        self.sim.json_file()
    }

    /// The bot measured.
    pub fn candidate(&self) -> &BotSpec {
        &self.candidate
    }

    /// The bot it is compared with, in the same seat on the same deals.
    pub fn baseline(&self) -> &BotSpec {
        &self.baseline
    }

    /// The pools, as listed.
    pub fn pools(&self) -> &[BotSpec] {
        &self.pools
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        self.sim.players()
    }

    /// Deals each row plays (each in every rotation).
    pub fn deals(&self) -> u64 {
        self.sim.deals()
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.sim.rules()
    }

    /// The run's seed.
    pub fn seed(&self) -> Seed {
        self.sim.seed()
    }

    /// The seed as `--seed` takes it.
    pub fn seed_text(&self) -> String {
        self.sim.seed_text()
    }

    /// Whether the seed was given (or drawn).
    pub fn seed_given(&self) -> bool {
        self.sim.seed_given()
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.sim.threads()
    }

    /// The same run on `threads` worker threads.
    pub fn with_threads(mut self, threads: usize) -> PoolConfig {
        self.sim = self.sim.with_threads(threads);
        self
    }

    /// Whether the run has a mixed table: two pools or more.
    pub fn mixed(&self) -> bool {
        self.pools.len() > 1
    }

    /// Hands in all: per row, deals × rotations for the measured bot and
    /// for the baseline, and for each pool the pool bot among the baseline.
    pub fn total_hands(&self) -> u64 {
        let rows = self.pools.len() as u64 + u64::from(self.mixed());
        let lineups = 2 * rows + self.pools.len() as u64;
        lineups * self.deals() * self.players() as u64
    }

    /// The command that repeats this run (threads and output files left
    /// out, as they do not change the results).
    pub fn command(&self) -> String {
        let pools: Vec<String> = self.pools.iter().map(ToString::to_string).collect();
        let mut words = vec![
            "dalmuti sim --pool".to_string(),
            shell_quote(&self.candidate.to_string()),
        ];
        if self.baseline.to_string() != DEFAULT_BASELINE {
            words.push("--baseline".into());
            words.push(shell_quote(&self.baseline.to_string()));
        }
        words.push("--pools".into());
        words.push(shell_quote(&pools.join(",")));
        words.push("--players".into());
        words.push(self.players().to_string());
        words.push("--hands".into());
        words.push(self.deals().to_string());
        words.push("--seed".into());
        words.push(self.seed_text());
        words.extend(self.sim.rule_flags());
        words.join(" ")
    }
}

/// One bot named by `flag`.
fn one_bot(flag: &'static str, text: &str) -> Result<BotSpec, ConfigError> {
    if text.contains(',') && !text.starts_with("search:") {
        return Err(ConfigError::PoolBot {
            flag,
            position: 1,
            spec: text.into(),
            reason: "names one bot, not a list".into(),
        });
    }
    parse(text.trim(), flag, 1)
}

fn parse(text: &str, flag: &'static str, position: usize) -> Result<BotSpec, ConfigError> {
    text.parse::<BotSpec>().map_err(|e| ConfigError::PoolBot {
        flag,
        position,
        spec: text.to_string(),
        reason: e.to_string(),
    })
}
