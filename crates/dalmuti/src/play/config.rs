//! `dalmuti play`'s options, and the checked configuration of a session.

use std::time::Duration;

use dalmuti_arena::{parse_seed, seed_text};
use dalmuti_bots::BotSpec;
use dalmuti_core::{MAX_PLAYERS, MIN_PLAYERS, Rules, Scoring, Seed};

/// The bots' names, in the order they are given out: the rulebook's
/// players first, so logs read like the book's examples.
pub const BOT_NAMES: [&str; 20] = [
    "Amity", "Anton", "Cherise", "Dana", "Sondra", "Basil", "Fenna", "Gideon", "Hester", "Ivo",
    "Jocasta", "Lorcan", "Mireille", "Nils", "Orla", "Perrin", "Quilla", "Rafe", "Tamsin", "Wren",
];

/// The longest name a player may take.
pub const MAX_NAME: usize = 40;

/// `dalmuti play`'s arguments as typed.
#[derive(clap::Args, Clone, Debug)]
pub struct PlayArgs {
    /// Players at the table, you included: 3 to 16 [default: 5, or one
    /// more than the bots listed in --bots].
    #[arg(long)]
    pub players: Option<usize>,

    /// The other players' bots, separated by commas, or one bot for all of
    /// them: random, greedy, heuristic, search (or search:OPTIONS) or
    /// cmd:COMMAND.
    #[arg(long, default_value = "heuristic")]
    pub bots: String,

    /// Your name at the table.
    #[arg(long, default_value = "You")]
    pub name: String,

    /// The game's seed: a number or 64 hexadecimal digits [default: drawn
    /// from the operating system, and printed].
    #[arg(long)]
    pub seed: Option<String>,

    /// Optional rule: the stripped deck for four or five players.
    #[arg(long)]
    pub stripped_deck: bool,

    /// Optional rule: no taxes on the first hand.
    #[arg(long)]
    pub first_deal_revolution: bool,

    /// Optional rule: the highest Merchant may trade a card blind with
    /// another Merchant (6 or more players).
    #[arg(long)]
    pub merchant_exchange: bool,

    /// Scoring: none, standard or philanthropic.
    #[arg(long, value_name = "SCORING", default_value = "none")]
    pub scoring: String,

    /// The number of hands the game lasts [default: play until you quit].
    #[arg(long, value_name = "H")]
    pub hands: Option<u32>,

    /// The bots' delay between actions, in milliseconds, when the output is
    /// a terminal (0 for none).
    #[arg(long, value_name = "MS", default_value_t = 600)]
    pub speed: u64,

    /// The plain line mode: the game as lines of text, commands typed as
    /// lines (also used when standard input is not a terminal).
    #[arg(long)]
    pub plain: bool,
}

/// One bot at the table.
#[derive(Clone, Debug, PartialEq)]
pub struct BotSeat {
    /// Its name at the table.
    pub name: String,
    /// Which bot plays.
    pub spec: BotSpec,
}

/// A session's checked configuration.
#[derive(Clone, Debug)]
pub struct Config {
    /// The human's name.
    pub name: String,
    /// The other players, in order of arrival.
    pub bots: Vec<BotSeat>,
    /// The rules in force.
    pub rules: Rules,
    /// The game's seed.
    pub seed: Seed,
    /// The bots' delay between actions.
    pub speed: Duration,
    /// Whether the plain line mode was asked for.
    pub plain: bool,
}

/// Why arguments do not make a game, in words for the command line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Not 3 to 16 players.
    #[error("a table seats 3 to 16 players, you included, not {0}")]
    Players(usize),
    /// The lineup does not fit the table.
    #[error("--players {players} needs {} bots (or one bot for all), but --bots lists {bots}", players - 1)]
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
    /// An empty, too long or unprintable name.
    #[error("--name must be 1 to {MAX_NAME} printable characters, not {0:?}")]
    Name(String),
    /// Not a scoring.
    #[error("--scoring is none, standard or philanthropic, not {0:?}")]
    Scoring(String),
    /// Zero hands.
    #[error("--hands must be at least 1")]
    Hands,
    /// Not a seed.
    #[error("--seed is a number (e.g. 7) or 64 hexadecimal digits, not {0:?}")]
    Seed(String),
}

impl Config {
    /// Checks the arguments and makes the configuration, or says what is
    /// wrong.
    pub fn new(args: &PlayArgs) -> Result<Config, ConfigError> {
        let name = args.name.trim().to_string();
        if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control)
        {
            return Err(ConfigError::Name(args.name.clone()));
        }
        let specs: Vec<&str> = args.bots.split(',').map(str::trim).collect();
        let players = match (args.players, specs.len()) {
            (Some(p), _) => p,
            (None, 1) => 5,
            (None, b) => b + 1,
        };
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(ConfigError::Players(players));
        }
        if specs.len() != 1 && specs.len() != players - 1 {
            return Err(ConfigError::BotCount {
                players,
                bots: specs.len(),
            });
        }
        let mut parsed = Vec::with_capacity(specs.len());
        for (i, text) in specs.iter().enumerate() {
            let spec = text.parse::<BotSpec>().map_err(|e| ConfigError::Bot {
                position: i + 1,
                spec: text.to_string(),
                reason: e.to_string(),
            })?;
            parsed.push(spec);
        }
        if parsed.len() == 1 {
            parsed = vec![parsed[0].clone(); players - 1];
        }
        let names = BOT_NAMES
            .iter()
            .filter(|b| !b.eq_ignore_ascii_case(&name))
            .map(|b| b.to_string());
        let bots = names
            .zip(parsed)
            .map(|(name, spec)| BotSeat { name, spec })
            .collect();
        let scoring: Scoring = args
            .scoring
            .parse()
            .map_err(|_| ConfigError::Scoring(args.scoring.clone()))?;
        if args.hands == Some(0) {
            return Err(ConfigError::Hands);
        }
        let rules = Rules {
            variant: Default::default(),
            stripped_deck: args.stripped_deck,
            first_deal_revolution: args.first_deal_revolution,
            merchant_exchange: args.merchant_exchange,
            scoring,
            hands: args.hands,
            join_and_leave: false,
        };
        let seed = match &args.seed {
            Some(text) => parse_seed(text).map_err(|_| ConfigError::Seed(text.clone()))?,
            None => fresh_seed(),
        };
        Ok(Config {
            name,
            bots,
            rules,
            seed,
            speed: Duration::from_millis(args.speed),
            plain: args.plain,
        })
    }

    /// The seed as `--seed` takes it.
    pub fn seed_text(&self) -> String {
        seed_text(self.seed)
    }
}

/// A short seed from the operating system (a number, easy to type again).
fn fresh_seed() -> Seed {
    let bytes = Seed::from_entropy().0;
    let mut first = [0u8; 8];
    first.copy_from_slice(&bytes[..8]);
    // Keep it under 2^53 so it survives any tool that reads numbers as
    // floating point.
    Seed::from(u64::from_le_bytes(first) >> 11)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(bots: &str) -> PlayArgs {
        PlayArgs {
            players: None,
            bots: bots.into(),
            name: "You".into(),
            seed: Some("7".into()),
            stripped_deck: false,
            first_deal_revolution: false,
            merchant_exchange: false,
            scoring: "none".into(),
            hands: None,
            speed: 0,
            plain: true,
        }
    }

    #[test]
    fn one_bot_fills_the_table_and_a_list_sets_its_size() {
        let c = Config::new(&args("heuristic")).unwrap();
        assert_eq!(c.bots.len(), 4);
        assert_eq!(c.bots[0].name, "Amity");
        let c = Config::new(&args("greedy,random")).unwrap();
        assert_eq!(c.bots.len(), 2);
        let wrong = PlayArgs {
            players: Some(4),
            ..args("greedy,random")
        };
        assert_eq!(
            Config::new(&wrong).unwrap_err().to_string(),
            "--players 4 needs 3 bots (or one bot for all), but --bots lists 2"
        );
    }

    #[test]
    fn a_bot_never_shares_the_human_name() {
        let c = Config::new(&PlayArgs {
            name: "amity".into(),
            ..args("greedy")
        })
        .unwrap();
        assert!(c.bots.iter().all(|b| b.name != "Amity"));
        assert_eq!(c.bots.len(), 4);
    }

    #[test]
    fn bad_values_are_refused() {
        for bad in [
            PlayArgs {
                players: Some(17),
                ..args("greedy")
            },
            PlayArgs {
                name: "  ".into(),
                ..args("greedy")
            },
            PlayArgs {
                scoring: "most".into(),
                ..args("greedy")
            },
            PlayArgs {
                hands: Some(0),
                ..args("greedy")
            },
            PlayArgs {
                seed: Some("seven".into()),
                ..args("greedy")
            },
            args("grumpy"),
        ] {
            assert!(Config::new(&bad).is_err(), "{bad:?}");
        }
    }
}
