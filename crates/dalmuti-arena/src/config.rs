//! The command line's raw arguments and the validated configuration made
//! from them, in one place.

use std::path::PathBuf;

use dalmuti_bots::BotSpec;
use dalmuti_core::{BadRules, Rules, Scoring, Seed, Variant};

/// `dalmuti sim`'s options as given, not yet checked: turn them into a
/// [`SimConfig`] with [`SimConfig::new`].
///
/// ```
/// use dalmuti_arena::{SimArgs, SimConfig};
/// let args = SimArgs { bots: "greedy,random,random".into(), hands: Some(10), ..SimArgs::default() };
/// let config = SimConfig::new(args).unwrap();
/// assert_eq!(config.players(), 3);
/// ```
#[derive(Clone, Debug, Default)]
pub struct SimArgs {
    /// The game: dalmuti, or corporate-shuffle (Dilbert's Corporate
    /// Shuffle: 3 to 8 players, never a stripped deck) [default: dalmuti].
    pub variant: Option<String>,
    /// Players at the table, 3 to 16 (3 to 8 in Corporate Shuffle)
    /// [default: the number of bots listed, or 5 when one bot is given for
    /// every seat].
    pub players: Option<usize>,
    /// The lineup, one bot per player separated by commas (or one bot for
    /// every seat): random, greedy, heuristic, learned, search (or search:OPTIONS),
    /// a level played in `dalmuti play` and the browser (easy, normal, hard,
    /// expert) or cmd:COMMAND (a command may contain spaces, not commas).
    pub bots: String,
    /// A round-robin ladder instead of one lineup: two or more bots,
    /// separated by commas as in --bots. Every pair meets at tables of
    /// --players seats shared between the two, each deal replayed in every
    /// seating; the report ranks the bots by a rating with 95% intervals.
    pub ladder: Option<String>,
    /// Measures one bot against pools of other styles instead of one
    /// lineup: against copies of each pool bot (--pools) and at a mixed
    /// table of them, beside the baseline (--baseline) in its seat on the
    /// same deals; the report gives each mean place and the lead over the
    /// baseline with 95% intervals, in one table.
    pub pool: Option<String>,
    /// The pools for --pool, separated by commas as in --bots (cmd:COMMAND
    /// bots too) [default: shedder,hoarder,spender,breaker,noisy].
    pub pools: Option<String>,
    /// The bot --pool compares with, in the same seat [default: heuristic].
    pub baseline: Option<String>,
    /// Independent hands to play, each dealt fresh with the lineup in a
    /// random seat order [default: 10000 unless --games]. With --ladder:
    /// deals each pair plays [default: 1000].
    pub hands: Option<u64>,
    /// Games to play instead of independent hands: titles, taxes and scores
    /// carry from hand to hand within a game. Needs --hands-per-game.
    pub games: Option<u64>,
    /// Hands in each game (with --games).
    pub hands_per_game: Option<u32>,
    /// Replay every deal (every game, with --games) with the lineup rotated
    /// through every seat, to take the luck of the deal out of comparisons.
    pub duplicate: bool,
    /// The run's seed: a number or 64 hexadecimal digits [default: drawn
    /// from the operating system, and printed].
    pub seed: Option<String>,
    /// Worker threads [default: every core]. The results do not depend on it.
    pub threads: Option<usize>,
    /// Optional rule: the stripped deck for four or five players (Dalmuti
    /// only).
    pub stripped_deck: bool,
    /// Optional rule: no taxes on a game's first hand (and so on every
    /// independent hand).
    pub first_deal_revolution: bool,
    /// Optional rule: the highest Merchant may trade a card blind.
    pub merchant_exchange: bool,
    /// President and Daifugō: their options, a preset (uecda, local,
    /// president) and `option=value`s, separated by commas
    /// (`local,jokers=2`; RULES.md lists them).
    pub house: Option<String>,
    /// Scoring in force at the table: none, standard or philanthropic (the
    /// report's points are always the standard ones).
    pub scoring: Option<String>,
    /// Print the report as JSON, or with a FILE write it there (and print
    /// the table).
    pub json: Option<Option<PathBuf>>,
    /// Print the report as CSV, one row per bot.
    pub csv: bool,
    /// Write every game (every independent hand, as a one-hand game) as a
    /// game record into this directory.
    pub records: Option<PathBuf>,
    /// Draw the mobility matrix and the finishing places per bot as SVG
    /// (with --ladder: the ratings and mean places with their intervals).
    pub plot: Option<PathBuf>,
}

/// How many independent hands a run plays when neither `--hands` nor
/// `--games` is given.
pub const DEFAULT_HANDS: u64 = 10_000;

/// The most game records `--records` writes in one run: one file a game
/// (a hand, for independent hands), a few kilobytes each, so 10,000 is tens
/// of megabytes, enough to study or replay, and a mistyped `--hands 300000`
/// cannot fill a disk with files nobody meant to keep.
pub const MAX_RECORDS: u64 = 10_000;

/// What a run plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Independent hands, each a first hand with a random seating.
    Hands {
        /// How many deals.
        hands: u64,
    },
    /// Games whose titles, taxes and scores carry from hand to hand.
    Games {
        /// How many games.
        games: u64,
        /// Hands in each game.
        hands_per_game: u32,
    },
}

/// How the report is printed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// A table for people.
    Text,
    /// One JSON document.
    Json,
    /// One CSV row per bot.
    Csv,
}

/// One place in the lineup: a bot and its label in the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// `heuristic`, or `heuristic#2` for its second copy in the lineup.
    pub label: String,
    /// The bot.
    pub spec: BotSpec,
}

/// A run's configuration, checked: a table the game seats (3 to 16
/// players, 3 to 8 in Corporate Shuffle), one bot per player, a mode with
/// at least one hand, a seed.
#[derive(Clone, Debug)]
pub struct SimConfig {
    lineup: Vec<Entry>,
    mode: Mode,
    duplicate: bool,
    rules: Rules,
    seed: Seed,
    seed_given: bool,
    threads: usize,
    format: Format,
    json_file: Option<PathBuf>,
    records: Option<PathBuf>,
    plot: Option<PathBuf>,
}

/// Why arguments do not make a run, in words for the command line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Not 3 to 16 players.
    #[error("a table seats 3 to 16 players, not {0}")]
    Players(usize),
    /// Not a game.
    #[error("--variant is dalmuti or corporate-shuffle, not {0:?}")]
    Variant(String),
    /// Rules the game does not allow: a table size outside its range, the
    /// stripped deck in Corporate Shuffle, or an optional rule that cannot
    /// apply at the table (`Rules::idle_at`).
    #[error("{0}")]
    Rules(String),
    /// `--records` would write more files than [`MAX_RECORDS`].
    #[error(
        "--records would write {0} game records, one file each; the most is {MAX_RECORDS}: play \
         fewer --hands (or --games), or leave --records off"
    )]
    TooManyRecords(u64),
    /// `--bots` is empty or has an empty entry.
    #[error(
        "--bots needs one bot per player, separated by commas, e.g. --bots greedy,random,random"
    )]
    NoBots,
    /// The lineup does not fit the table.
    #[error(
        "--players {players} needs {players} bots (or one bot for every seat), but --bots lists {bots}"
    )]
    BotCount {
        /// Players asked for.
        players: usize,
        /// Bots listed.
        bots: usize,
    },
    /// A bot that cannot be named.
    #[error("bot {position} of --bots ({spec:?}): {reason}")]
    Bot {
        /// 1-based place in the lineup.
        position: usize,
        /// What was written.
        spec: String,
        /// Why it is not a bot.
        reason: String,
    },
    /// A bad combination or value of `--hands`, `--games`,
    /// `--hands-per-game`.
    #[error("{0}")]
    Mode(&'static str),
    /// Not a scoring.
    #[error("--scoring is none, standard or philanthropic, not {0:?}")]
    Scoring(String),
    /// Not a seed.
    #[error("--seed is a number (e.g. 7) or 64 hexadecimal digits, not {0:?}")]
    Seed(String),
    /// Zero threads.
    #[error("--threads must be at least 1")]
    Threads,
    /// `--ladder` lists fewer than two bots, or an empty entry.
    #[error("--ladder needs two or more bots separated by commas, e.g. --ladder greedy,heuristic")]
    LadderSize,
    /// A bot of `--ladder` that cannot be named.
    #[error("bot {position} of --ladder ({spec:?}): {reason}")]
    LadderBot {
        /// 1-based place in the list.
        position: usize,
        /// What was written.
        spec: String,
        /// Why it is not a bot.
        reason: String,
    },
    /// An option the ladder does not take.
    #[error("{0}")]
    Ladder(&'static str),
    /// A pool run without its bot, or with an option it does not take.
    #[error("{0}")]
    Pool(&'static str),
    /// A bot of `--pool`, `--pools` or `--baseline` that cannot be named.
    #[error("bot {position} of {flag} ({spec:?}): {reason}")]
    PoolBot {
        /// The option.
        flag: &'static str,
        /// 1-based place in its list.
        position: usize,
        /// What was written.
        spec: String,
        /// Why it is not a bot.
        reason: String,
    },
}

impl SimConfig {
    /// Checks raw arguments and makes the configuration, or says what is
    /// wrong.
    ///
    /// ```
    /// use dalmuti_arena::{SimArgs, SimConfig};
    /// let wrong = SimArgs { players: Some(4), bots: "greedy,random".into(), ..SimArgs::default() };
    /// let error = SimConfig::new(wrong).unwrap_err().to_string();
    /// assert_eq!(error, "--players 4 needs 4 bots (or one bot for every seat), but --bots lists 2");
    /// ```
    pub fn new(args: SimArgs) -> Result<SimConfig, ConfigError> {
        let variant = match args.variant.as_deref() {
            None => Variant::Dalmuti,
            Some(text) => text
                .parse()
                .map_err(|_| ConfigError::Variant(text.trim().chars().take(40).collect()))?,
        };
        if args.ladder.is_some() {
            return Err(ConfigError::Ladder(
                "--ladder is a ladder, not a lineup: make a LadderConfig",
            ));
        }
        if args.pool.is_some() {
            return Err(ConfigError::Pool(
                "--pool measures a bot against pools, not a lineup: make a PoolConfig",
            ));
        }
        if args.pools.is_some() || args.baseline.is_some() {
            return Err(ConfigError::Pool(
                "--pools and --baseline go with --pool BOT, the bot they measure",
            ));
        }
        let specs = split_lineup(&args.bots)?;
        let players = match (args.players, specs.len()) {
            (Some(p), _) => p,
            (None, 1) => 5,
            (None, b) => b,
        };
        if !variant.players().contains(&players) {
            // Said the way each game says it: Dalmuti's range is the
            // table's, Corporate Shuffle's its own.
            return Err(match variant {
                Variant::Dalmuti => ConfigError::Players(players),
                _ => ConfigError::Rules(BadRules::Players { variant, players }.to_string()),
            });
        }
        if specs.len() != 1 && specs.len() != players {
            return Err(ConfigError::BotCount {
                players,
                bots: specs.len(),
            });
        }
        let mut parsed = Vec::with_capacity(players);
        for (i, text) in specs.iter().enumerate() {
            let spec = text.parse::<BotSpec>().map_err(|e| ConfigError::Bot {
                position: i + 1,
                spec: text.clone(),
                reason: e.to_string(),
            })?;
            parsed.push(spec);
        }
        if parsed.len() == 1 {
            parsed = vec![parsed[0].clone(); players];
        }
        let lineup = label(parsed);

        let mode = match (args.hands, args.games, args.hands_per_game) {
            (Some(_), Some(_), _) => {
                return Err(ConfigError::Mode(
                    "--hands counts independent hands; with --games give --hands-per-game instead",
                ));
            }
            (_, None, Some(_)) => {
                return Err(ConfigError::Mode(
                    "--hands-per-game needs --games (the number of games)",
                ));
            }
            (None, Some(_), None) => {
                return Err(ConfigError::Mode(
                    "--games needs --hands-per-game (the hands in each game)",
                ));
            }
            (None, Some(games), Some(hands_per_game)) => {
                if games == 0 || hands_per_game == 0 {
                    return Err(ConfigError::Mode(
                        "--games and --hands-per-game must be at least 1",
                    ));
                }
                Mode::Games {
                    games,
                    hands_per_game,
                }
            }
            (hands, None, None) => {
                let hands = hands.unwrap_or(DEFAULT_HANDS);
                if hands == 0 {
                    return Err(ConfigError::Mode("--hands must be at least 1"));
                }
                Mode::Hands { hands }
            }
        };

        let scoring = match args.scoring.as_deref() {
            None => Scoring::None,
            Some(text) => text
                .parse()
                .map_err(|_| ConfigError::Scoring(text.trim().to_string()))?,
        };
        let climbing = match (&args.house, variant.is_suited()) {
            (None, _) => None,
            (Some(text), true) => Some(
                dalmuti_core::Climbing::from_options(variant, text)
                    .map_err(|e| ConfigError::Rules(format!("--house: {e}")))?,
            ),
            (Some(_), false) => {
                return Err(ConfigError::Rules(
                    "--house sets the rules of President and Daifugō only".into(),
                ));
            }
        };
        let rules = Rules {
            variant,
            stripped_deck: args.stripped_deck,
            first_deal_revolution: args.first_deal_revolution,
            merchant_exchange: args.merchant_exchange,
            scoring,
            hands: match mode {
                Mode::Hands { .. } => Some(1),
                Mode::Games { hands_per_game, .. } => Some(hands_per_game),
            },
            join_and_leave: false,
            climbing,
        };
        rules.check(players).map_err(|e| match e {
            BadRules::StrippedCorporate => ConfigError::Rules(
                "--stripped-deck is a Dalmuti rule: Corporate Shuffle's 60-card deck is never \
                 stripped"
                    .into(),
            ),
            e => ConfigError::Rules(e.to_string()),
        })?;
        // A rule that can never come into force at this table is refused
        // rather than announced in the report and silently not played.
        if let Some(idle) = rules.idle_at(players).first() {
            return Err(ConfigError::Rules(format!(
                "--{} cannot apply: {idle}",
                idle.switch().replace('_', "-")
            )));
        }

        let (seed, seed_given) = match &args.seed {
            Some(text) => (parse_seed(text)?, true),
            None => (Seed::from_entropy(), false),
        };
        let threads = match args.threads {
            Some(0) => return Err(ConfigError::Threads),
            Some(t) => t,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let (format, json_file) = match args.json {
            Some(None) => (Format::Json, None),
            Some(Some(file)) => (Format::Text, Some(file)),
            None if args.csv => (Format::Csv, None),
            None => (Format::Text, None),
        };
        let config = SimConfig {
            lineup,
            mode,
            duplicate: args.duplicate,
            rules,
            seed,
            seed_given,
            threads,
            format,
            json_file,
            records: args.records,
            plot: args.plot,
        };
        if config.records.is_some() && config.record_count() > MAX_RECORDS {
            return Err(ConfigError::TooManyRecords(config.record_count()));
        }
        Ok(config)
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        self.lineup.len()
    }

    /// The lineup, one entry per player.
    pub fn lineup(&self) -> &[Entry] {
        &self.lineup
    }

    /// Independent hands or games.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether every deal is replayed with the lineup in every seat.
    pub fn duplicate(&self) -> bool {
        self.duplicate
    }

    /// How many times each deal is played: the number of players in
    /// duplicate runs, else 1.
    pub fn rotations(&self) -> usize {
        if self.duplicate { self.players() } else { 1 }
    }

    /// The rules at the table (`hands` is 1 for independent hands, the
    /// hands per game in games; nobody joins or leaves).
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The run's seed.
    pub fn seed(&self) -> Seed {
        self.seed
    }

    /// The seed as `--seed` takes it: the number when it was given as one,
    /// else 64 hexadecimal digits.
    pub fn seed_text(&self) -> String {
        seed_text(self.seed)
    }

    /// Whether the seed came from `--seed` (else from the operating system).
    pub fn seed_given(&self) -> bool {
        self.seed_given
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The same configuration on another number of threads (at least 1).
    pub fn with_threads(mut self, threads: usize) -> SimConfig {
        self.threads = threads.max(1);
        self
    }

    /// How the report is to be printed.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Where `--json FILE` writes the report as JSON, if anywhere (the
    /// table is printed then).
    pub fn json_file(&self) -> Option<&std::path::Path> {
        self.json_file.as_deref()
    }

    /// Where to write game records, if anywhere.
    pub fn records(&self) -> Option<&std::path::Path> {
        self.records.as_deref()
    }

    /// Where to draw the plot, if anywhere.
    pub fn plot(&self) -> Option<&std::path::Path> {
        self.plot.as_deref()
    }

    /// Deals in the run: hands, or games × hands per game.
    pub fn deals(&self) -> u64 {
        match self.mode {
            Mode::Hands { hands } => hands,
            Mode::Games {
                games,
                hands_per_game,
            } => games * u64::from(hands_per_game),
        }
    }

    /// The command-line flags of the rules that differ from the default
    /// (`--variant corporate-shuffle`, `--merchant-exchange`…), for a
    /// command that repeats a run.
    pub(crate) fn rule_flags(&self) -> Vec<String> {
        let rules = self.rules();
        let mut words = Vec::new();
        if rules.variant != Variant::Dalmuti {
            words.push("--variant".into());
            words.push(rules.variant.word().into());
        }
        for (on, flag) in [
            (rules.stripped_deck, "--stripped-deck"),
            (rules.first_deal_revolution, "--first-deal-revolution"),
            (rules.merchant_exchange, "--merchant-exchange"),
        ] {
            if on {
                words.push(flag.into());
            }
        }
        if rules.scoring != Scoring::None {
            words.push("--scoring".into());
            words.push(rules.scoring.word().into());
        }
        words
    }

    /// The game records `--records` writes: one per game and rotation (an
    /// independent hand is a game of one hand).
    pub fn record_count(&self) -> u64 {
        let games = match self.mode {
            Mode::Hands { hands } => hands,
            Mode::Games { games, .. } => games,
        };
        games * self.rotations() as u64
    }

    /// Hands played in all: deals × rotations.
    pub fn total_hands(&self) -> u64 {
        self.deals() * self.rotations() as u64
    }
}

/// Splits a lineup on commas only: `cmd:python3 bot.py` keeps its spaces.
/// A piece that is an option (`KEY=VALUE`, no bot name before a colon)
/// belongs to the bot before it, so `search:iterations=500,threads=2,greedy`
/// is two bots: bot names never hold `=`.
pub(crate) fn split_lineup(bots: &str) -> Result<Vec<String>, ConfigError> {
    let mut specs: Vec<String> = Vec::new();
    for piece in bots.split(',').map(str::trim) {
        let option = piece.contains('=') && !piece.contains(':');
        match specs.last_mut() {
            Some(last) if option && !last.is_empty() => {
                last.push(',');
                last.push_str(piece);
            }
            _ => specs.push(piece.to_string()),
        }
    }
    if specs.iter().any(String::is_empty) {
        return Err(ConfigError::NoBots);
    }
    Ok(specs)
}

/// A word as a POSIX shell reads it back: as is when it is made of safe
/// characters, else in single quotes.
pub(crate) fn shell_quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || ",:=./_+-@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Labels for the lineup: the spec, with `#2`, `#3`… on repeats.
pub(crate) fn label(specs: Vec<BotSpec>) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::with_capacity(specs.len());
    for spec in specs {
        let name = spec.to_string();
        let copies = entries.iter().filter(|e| e.spec == spec).count();
        let label = if copies == 0 {
            name
        } else {
            format!("{name}#{}", copies + 1)
        };
        entries.push(Entry { label, spec });
    }
    entries
}

/// A seed as `--seed` takes it: 64 hexadecimal digits, or a number.
///
/// ```
/// use dalmuti_arena::parse_seed;
/// use dalmuti_core::Seed;
/// assert_eq!(parse_seed("7").unwrap(), Seed::from(7));
/// assert_eq!(parse_seed(&Seed::from(7).to_string()).unwrap(), Seed::from(7));
/// assert!(parse_seed("seven").is_err());
/// ```
pub fn parse_seed(text: &str) -> Result<Seed, ConfigError> {
    Seed::from_text(text).map_err(|_| ConfigError::Seed(text.trim().to_string()))
}

/// A seed written so [`parse_seed`] reads it back: the number if it is one
/// ([`Seed::text`]).
pub fn seed_text(seed: Seed) -> String {
    seed.text()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(bots: &str) -> SimArgs {
        SimArgs {
            bots: bots.into(),
            seed: Some("1".into()),
            ..SimArgs::default()
        }
    }

    #[test]
    fn a_single_bot_fills_every_seat_and_repeats_are_numbered() {
        let c = SimConfig::new(SimArgs {
            players: Some(4),
            ..args("greedy")
        })
        .unwrap();
        let labels: Vec<&str> = c.lineup().iter().map(|e| e.label.as_str()).collect();
        assert_eq!(labels, ["greedy", "greedy#2", "greedy#3", "greedy#4"]);
        let c = SimConfig::new(args("random, greedy,random")).unwrap();
        let labels: Vec<&str> = c.lineup().iter().map(|e| e.label.as_str()).collect();
        assert_eq!(labels, ["random", "greedy", "random#2"]);
        assert_eq!(
            c.mode(),
            Mode::Hands {
                hands: DEFAULT_HANDS
            }
        );
    }

    #[test]
    fn search_options_after_a_comma_stay_with_their_bot() {
        let c = SimConfig::new(args(
            "search:iterations=50,opponents=tree,greedy,search:ms=5",
        ))
        .unwrap();
        let labels: Vec<&str> = c.lineup().iter().map(|e| e.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "search:iterations=50,opponents=tree",
                "greedy",
                "search:ms=5"
            ]
        );
        // An option with no bot before it is no bot.
        assert!(SimConfig::new(args("iterations=5,greedy,greedy")).is_err());
    }

    #[test]
    fn commands_keep_their_spaces() {
        let c = SimConfig::new(args("cmd:python3 examples/bot.py --fast,greedy,greedy")).unwrap();
        assert_eq!(c.lineup()[0].label, "cmd:python3 examples/bot.py --fast");
    }

    #[test]
    fn bad_arguments_are_refused_in_plain_words() {
        let err = |a: SimArgs| SimConfig::new(a).unwrap_err().to_string();
        assert_eq!(
            err(SimArgs {
                players: Some(2),
                ..args("greedy")
            }),
            "a table seats 3 to 16 players, not 2"
        );
        assert_eq!(
            err(SimArgs {
                players: Some(17),
                ..args("greedy")
            }),
            "a table seats 3 to 16 players, not 17"
        );
        assert!(err(args("greedy,grumpy,random")).starts_with("bot 2 of --bots (\"grumpy\"): "));
        assert!(err(args("greedy,,random")).contains("one bot per player"));
        assert!(
            err(SimArgs {
                games: Some(3),
                ..args("greedy")
            })
            .contains("--games needs --hands-per-game")
        );
        assert!(
            err(SimArgs {
                hands_per_game: Some(3),
                ..args("greedy")
            })
            .contains("needs --games")
        );
        assert!(
            err(SimArgs {
                hands: Some(0),
                ..args("greedy")
            })
            .contains("at least 1")
        );
        assert!(
            err(SimArgs {
                scoring: Some("golf".into()),
                ..args("greedy")
            })
            .contains("\"golf\"")
        );
        assert!(
            err(SimArgs {
                seed: Some("x".into()),
                ..args("greedy")
            })
            .contains("--seed")
        );
        assert_eq!(
            err(SimArgs {
                threads: Some(0),
                ..args("greedy")
            }),
            "--threads must be at least 1"
        );
    }

    #[test]
    fn seeds_read_back_as_written() {
        assert_eq!(seed_text(Seed::from(7)), "7");
        let s = Seed::from_entropy();
        assert_eq!(parse_seed(&seed_text(s)).unwrap(), s);
        let c = SimConfig::new(SimArgs {
            seed: None,
            ..args("greedy")
        })
        .unwrap();
        assert!(!c.seed_given());
    }
}
