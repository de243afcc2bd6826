//! A ladder's configuration: the bots, checked, and the run's table, rules,
//! seed and threads, checked the way `dalmuti sim` checks them.

use std::path::Path;

use dalmuti_bots::BotSpec;
use dalmuti_core::{Rules, Seed};

use crate::config::{
    ConfigError, Entry, Format, SimArgs, SimConfig, label, shell_quote, split_lineup,
};

/// Deals each pair plays when `--hands` is not given.
pub const LADDER_DEFAULT_DEALS: u64 = 1000;

/// A ladder's configuration, checked: two or more bots, a table of 3 to 16
/// players (the game's range), deals per pair, rules, a seed.
///
/// ```
/// use dalmuti_arena::{LadderConfig, SimArgs};
/// let args = SimArgs {
///     ladder: Some("greedy, heuristic,cmd:python3 my bot.py".into()),
///     seed: Some("1".into()),
///     ..SimArgs::default()
/// };
/// let config = LadderConfig::new(args).unwrap();
/// assert_eq!(config.players(), 5);
/// assert_eq!(config.deals(), 1000);
/// assert_eq!(config.bots()[2].label, "cmd:python3 my bot.py");
/// assert_eq!(
///     config.command(),
///     "dalmuti sim --ladder 'greedy,heuristic,cmd:python3 my bot.py' --players 5 --hands 1000 --seed 1"
/// );
/// ```
#[derive(Clone, Debug)]
pub struct LadderConfig {
    /// The table, rules, seed, threads and outputs (its lineup is a
    /// placeholder).
    sim: SimConfig,
    bots: Vec<Entry>,
}

impl LadderConfig {
    /// Checks `dalmuti sim` arguments with `--ladder` and makes the
    /// configuration, or says what is wrong. `--bots`, `--games`,
    /// `--hands-per-game`, `--csv` and `--records` do not apply;
    /// `--duplicate` is implied.
    ///
    /// ```
    /// use dalmuti_arena::{LadderConfig, SimArgs};
    /// let bad = |ladder: &str| {
    ///     let args = SimArgs { ladder: Some(ladder.into()), ..SimArgs::default() };
    ///     LadderConfig::new(args).unwrap_err().to_string()
    /// };
    /// assert!(bad("greedy").contains("two or more bots"));
    /// assert!(bad("greedy,grumpy").starts_with("bot 2 of --ladder (\"grumpy\"): unknown bot"));
    /// ```
    pub fn new(args: SimArgs) -> Result<LadderConfig, ConfigError> {
        let Some(list) = args.ladder.clone() else {
            return Err(ConfigError::LadderSize);
        };
        if args.games.is_some() || args.hands_per_game.is_some() {
            return Err(ConfigError::Ladder(
                "the ladder plays independent hands: --games and --hands-per-game do not apply",
            ));
        }
        if args.records.is_some() {
            return Err(ConfigError::Ladder("--records does not apply to --ladder"));
        }
        if args.csv {
            return Err(ConfigError::Ladder(
                "--csv does not apply to --ladder (--json does)",
            ));
        }
        if !args.bots.is_empty() {
            return Err(ConfigError::Ladder(
                "--ladder lists the bots: leave out --bots",
            ));
        }
        if args.pools.is_some() || args.baseline.is_some() {
            return Err(ConfigError::Pool(
                "--pools and --baseline go with --pool BOT, the bot they measure",
            ));
        }
        let texts = split_lineup(&list).map_err(|_| ConfigError::LadderSize)?;
        if texts.len() < 2 {
            return Err(ConfigError::LadderSize);
        }
        let mut specs = Vec::with_capacity(texts.len());
        for (i, text) in texts.iter().enumerate() {
            let spec = text
                .parse::<BotSpec>()
                .map_err(|e| ConfigError::LadderBot {
                    position: i + 1,
                    spec: text.clone(),
                    reason: e.to_string(),
                })?;
            specs.push(spec);
        }
        // The table, rules, seed and threads are checked as for a lineup
        // of one bot in every seat.
        let sim = SimConfig::new(SimArgs {
            ladder: None,
            bots: "random".into(),
            hands: Some(args.hands.unwrap_or(LADDER_DEFAULT_DEALS)),
            duplicate: true,
            ..args
        })?;
        Ok(LadderConfig {
            sim,
            bots: label(specs),
        })
    }

    /// The bots on the ladder, as listed (repeats labelled `#2`, `#3`…).
    pub fn bots(&self) -> &[Entry] {
        &self.bots
    }

    /// Players at each table.
    pub fn players(&self) -> usize {
        self.sim.players()
    }

    /// Deals each pair plays (`--hands`).
    pub fn deals(&self) -> u64 {
        self.sim.deals()
    }

    /// The rules at the table.
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

    /// Whether the seed came from `--seed` (else from the operating system).
    pub fn seed_given(&self) -> bool {
        self.sim.seed_given()
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.sim.threads()
    }

    /// The same configuration on another number of threads (at least 1).
    pub fn with_threads(self, threads: usize) -> LadderConfig {
        LadderConfig {
            sim: self.sim.with_threads(threads),
            ..self
        }
    }

    /// Whether `--json` (without a file) asks for JSON on standard output.
    pub fn json_on_stdout(&self) -> bool {
        self.sim.format() == Format::Json
    }

    /// Where `--json FILE` writes the report, if anywhere.
    pub fn json_file(&self) -> Option<&Path> {
        self.sim.json_file()
    }

    /// Where `--plot FILE` draws the ladder, if anywhere.
    pub fn plot(&self) -> Option<&Path> {
        self.sim.plot()
    }

    /// The seatings of a pair, as patterns: `true` where the pair's first
    /// bot sits. Both bots alternate round the table; with an odd table the
    /// first bot has the extra seat in one pattern and the second in the
    /// other, so the pair holds equal shares of the seats (with an even
    /// table one pattern is enough: its rotations include the swapped one).
    pub(crate) fn patterns(&self) -> Vec<Vec<bool>> {
        let n = self.players();
        let alternate: Vec<bool> = (0..n).map(|i| i % 2 == 0).collect();
        if n % 2 == 0 {
            vec![alternate]
        } else {
            let swapped = alternate.iter().map(|a| !a).collect();
            vec![alternate, swapped]
        }
    }

    /// Hands each pair plays: deals × patterns × rotations.
    pub fn hands_per_pair(&self) -> u64 {
        self.deals() * (self.patterns().len() * self.players()) as u64
    }

    /// The pairs of bots, by index, in the order they are played.
    pub(crate) fn pairs(&self) -> Vec<(usize, usize)> {
        let k = self.bots.len();
        (0..k)
            .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
            .collect()
    }

    /// Hands in all: pairs × hands per pair.
    pub fn total_hands(&self) -> u64 {
        self.pairs().len() as u64 * self.hands_per_pair()
    }

    /// The command that repeats this ladder (with the seed, even one drawn
    /// from the operating system; threads and output files left out, as
    /// they do not change the results).
    pub fn command(&self) -> String {
        let list: Vec<String> = self.bots.iter().map(|e| e.spec.to_string()).collect();
        let mut words = vec![
            "dalmuti".to_string(),
            "sim".into(),
            "--ladder".into(),
            shell_quote(&list.join(",")),
            "--players".into(),
            self.players().to_string(),
            "--hands".into(),
            self.deals().to_string(),
            "--seed".into(),
            self.seed_text(),
        ];
        words.extend(self.sim.rule_flags());
        words.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ladder(list: &str, more: SimArgs) -> Result<LadderConfig, String> {
        LadderConfig::new(SimArgs {
            ladder: Some(list.into()),
            ..more
        })
        .map_err(|e| e.to_string())
    }

    #[test]
    fn patterns_share_every_seat_equally() {
        for players in 3..=8 {
            let c = ladder(
                "greedy,random",
                SimArgs {
                    players: Some(players),
                    ..SimArgs::default()
                },
            )
            .unwrap();
            let patterns = c.patterns();
            let seats_of_first: usize = patterns.iter().flatten().filter(|&&a| a).count();
            assert_eq!(2 * seats_of_first, patterns.len() * players, "{players}");
            assert_eq!(c.hands_per_pair(), 1000 * (patterns.len() * players) as u64);
        }
    }

    #[test]
    fn options_that_do_not_apply_are_refused() {
        let bad = |more: SimArgs| ladder("greedy,random", more).unwrap_err();
        assert!(
            bad(SimArgs {
                games: Some(2),
                hands_per_game: Some(2),
                ..SimArgs::default()
            })
            .contains("independent hands")
        );
        assert!(
            bad(SimArgs {
                csv: true,
                ..SimArgs::default()
            })
            .contains("--csv")
        );
        assert!(
            bad(SimArgs {
                bots: "greedy".into(),
                ..SimArgs::default()
            })
            .contains("--bots")
        );
        assert_eq!(
            bad(SimArgs {
                players: Some(2),
                ..SimArgs::default()
            }),
            "a table seats 3 to 16 players, not 2"
        );
        assert!(ladder("greedy,,random", SimArgs::default()).is_err());
        assert!(ladder("cmd:", SimArgs::default()).is_err());
        assert!(
            ladder("greedy,cmd:", SimArgs::default())
                .unwrap_err()
                .contains("cmd: needs a command")
        );
    }

    #[test]
    fn the_command_repeats_the_rules_and_quotes_commands() {
        let c = ladder(
            "random,cmd:python3 it's.py",
            SimArgs {
                players: Some(6),
                hands: Some(30),
                variant: Some("corporate-shuffle".into()),
                merchant_exchange: true,
                scoring: Some("standard".into()),
                seed: Some("9".into()),
                ..SimArgs::default()
            },
        )
        .unwrap();
        assert_eq!(
            c.command(),
            r"dalmuti sim --ladder 'random,cmd:python3 it'\''s.py' --players 6 --hands 30 --seed 9 --variant corporate-shuffle --merchant-exchange --scoring standard"
        );
    }
}
