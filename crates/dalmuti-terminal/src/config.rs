//! `dalmuti play`'s options, and the checked configuration of a session.

use std::time::Duration;

use dalmuti_bots::BotSpec;
use dalmuti_core::{BadRules, IdleRule, Rules, Scoring, Seed, Variant};
use dalmuti_i18n::Lang;

/// The bots' names, in the order they are given out: the rulebook's
/// players first, so logs read like the book's examples.
pub const BOT_NAMES: [&str; 20] = [
    "Amity", "Anton", "Cherise", "Dana", "Sondra", "Basil", "Fenna", "Gideon", "Hester", "Ivo",
    "Jocasta", "Lorcan", "Mireille", "Nils", "Orla", "Perrin", "Quilla", "Rafe", "Tamsin", "Wren",
];

/// The bots' names in Corporate Shuffle: Dilbert's office, one word each
/// so that `wedgie NAME` reads them back; one more than the largest table
/// needs, in case the human takes one of them.
pub const OFFICE_NAMES: [&str; 8] = [
    "Alice", "Dilbert", "Wally", "Asok", "Ted", "Tina", "Carol", "Phil",
];

/// The longest name a player may take.
pub const MAX_NAME: usize = 40;

/// `dalmuti play`'s options as given, not yet checked: [`Config::new`]
/// checks them. [`Default`] gives the command line's defaults.
#[derive(Clone, Debug)]
pub struct PlayArgs {
    /// The game: dalmuti (The Great Dalmuti) or corporate-shuffle
    /// (Dilbert's Corporate Shuffle: 60 cards, office titles, Dogberts and
    /// three special cards; 3 to 8 players).
    pub variant: String,
    /// Players at the table, you included: 3 to 16 (3 to 8 in Corporate
    /// Shuffle) [default: 5, or one more than the bots listed in --bots].
    pub players: Option<usize>,
    /// The other players' bots, separated by commas, or one bot for all of
    /// them: a level, weakest first easy, normal, hard (searches about
    /// 10 ms a move) or expert (about 40 ms); or a bot by name: random,
    /// greedy, heuristic, learned, a style (shedder, hoarder, spender, breaker,
    /// noisy, patient), search (or search:OPTIONS) or cmd:COMMAND.
    pub bots: String,
    /// Your name at the table.
    pub name: String,
    /// The game's seed: a number or 64 hexadecimal digits [default: drawn
    /// from the operating system, and printed].
    pub seed: Option<String>,
    /// Optional rule: the stripped deck for four or five players (never in
    /// Corporate Shuffle).
    pub stripped_deck: bool,
    /// Optional rule: no taxes (executive bonuses) on the first hand.
    pub first_deal_revolution: bool,
    /// Optional rule: the highest Merchant (Worker) may trade a card blind
    /// with another Merchant (6 or more players).
    pub merchant_exchange: bool,
    /// Scoring: none, standard or philanthropic (places in President and
    /// Daifugō).
    pub scoring: String,
    /// President and Daifugō: a preset (uecda, local, president) and
    /// OPTION=VALUE, separated by commas (docs/RULES.md).
    pub house: Option<String>,
    /// The number of hands the game lasts [default: play until you quit].
    pub hands: Option<u32>,
    /// The bots' delay between actions, in milliseconds, when the output is
    /// a terminal (0 for none).
    pub speed: u64,
    /// The plain line mode: the game as lines of text, commands typed as
    /// lines (also used when standard input is not a terminal).
    pub plain: bool,
    /// The language: en, ko, de, es or ja [default: $DALMUTI_LANG, else
    /// the terminal's locale (LC_ALL, LC_MESSAGES, LANG), else English].
    /// Switch during the game with L, or by typing "lang de".
    pub lang: Option<String>,
}

impl Default for PlayArgs {
    /// The command line's defaults: five players, you against four
    /// `normal` bots in The Great Dalmuti, no optional rule.
    fn default() -> PlayArgs {
        PlayArgs {
            variant: "dalmuti".into(),
            players: None,
            bots: "normal".into(),
            name: "You".into(),
            seed: None,
            stripped_deck: false,
            first_deal_revolution: false,
            merchant_exchange: false,
            scoring: "none".into(),
            house: None,
            hands: None,
            speed: 600,
            plain: false,
            lang: None,
        }
    }
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
    /// The language the game speaks.
    pub lang: Lang,
}

/// Why arguments do not make a game, in words for the command line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Not a variant.
    #[error("--variant is dalmuti, corporate-shuffle, daifugo or president, not {0:?}")]
    Variant(String),
    /// Too few or too many players for the variant.
    #[error("{} seats {} to {} players, you included, not {players}", .variant.words().game, .variant.players().start(), .variant.players().end())]
    Players {
        /// The game asked for.
        variant: Variant,
        /// Players asked for.
        players: usize,
    },
    /// The stripped deck asked for a game that has none.
    #[error("--stripped-deck is not for Corporate Shuffle: its 60-card deck is never stripped")]
    StrippedDeck,
    /// Rules that make no game of President or Daifugō.
    #[error("{0}")]
    Rules(String),
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
    /// An optional rule that can never come into force at this table.
    #[error("--{flag} cannot apply: {0}", flag = .0.switch().replace('_', "-"))]
    IdleRule(IdleRule),
    /// Not a scoring.
    #[error("--scoring is none, standard or philanthropic, not {0:?}")]
    Scoring(String),
    /// Zero hands.
    #[error("--hands must be at least 1")]
    Hands,
    /// Not a seed.
    #[error("--seed is a number (e.g. 7) or 64 hexadecimal digits, not {0:?}")]
    Seed(String),
    /// Not a language the game speaks.
    #[error("{0} is one of {langs}, not {1:?}", langs = lang_list())]
    Lang(&'static str, String),
}

/// The languages as `--lang` takes them: "en (English), ko (한국어)…".
fn lang_list() -> String {
    let all: Vec<String> = Lang::ALL
        .iter()
        .map(|l| format!("{} ({})", l.code(), l.native_name()))
        .collect();
    all.join(", ")
}

/// The language to speak: `--lang`, else `DALMUTI_LANG`, else the locale
/// (`var` reads the environment).
pub fn choose_lang(
    flag: Option<&str>,
    var: impl Fn(&str) -> Option<String>,
) -> Result<Lang, ConfigError> {
    let pick = |what: &'static str, text: String| {
        text.parse::<Lang>()
            .map_err(|_| ConfigError::Lang(what, shorten(&text)))
    };
    if let Some(text) = flag {
        return pick("--lang", text.to_string());
    }
    if let Some(text) = var("DALMUTI_LANG").filter(|v| !v.is_empty()) {
        return pick("DALMUTI_LANG", text);
    }
    Ok(Lang::detect(var))
}

impl Config {
    /// Checks the arguments and makes the configuration, or says what is
    /// wrong.
    pub fn new(args: &PlayArgs) -> Result<Config, ConfigError> {
        let lang = choose_lang(args.lang.as_deref(), |k| std::env::var(k).ok())?;
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
        let variant: Variant = args
            .variant
            .parse()
            .map_err(|_| ConfigError::Variant(shorten(&args.variant)))?;
        let scoring: Scoring = args
            .scoring
            .parse()
            .map_err(|_| ConfigError::Scoring(args.scoring.clone()))?;
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
        // President and Daifugō are scored by places unless told otherwise.
        let scoring = match (variant.is_suited(), scoring) {
            (true, Scoring::None) => Scoring::Places,
            (_, s) => s,
        };
        let rules = Rules {
            variant,
            stripped_deck: args.stripped_deck,
            first_deal_revolution: args.first_deal_revolution,
            merchant_exchange: args.merchant_exchange,
            scoring,
            hands: args.hands,
            join_and_leave: false,
            climbing,
        };
        // The table's size and the deck are checked here, before any bot
        // is read, so the message names the real fault.
        rules.check(players).map_err(|e| match e {
            BadRules::Players { variant, players } => ConfigError::Players { variant, players },
            BadRules::StrippedCorporate => ConfigError::StrippedDeck,
            e => ConfigError::Rules(e.to_string()),
        })?;
        // Announced as "Rules: stripped deck" and then not played would
        // mislead: a rule that cannot apply at this table is refused.
        if let Some(&idle) = rules.idle_at(players).first() {
            return Err(ConfigError::IdleRule(idle));
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
        let pool: &[&str] = match variant {
            Variant::Dalmuti | Variant::Daifugo | Variant::President => &BOT_NAMES,
            Variant::CorporateShuffle => &OFFICE_NAMES,
        };
        let names = pool
            .iter()
            .filter(|b| !b.eq_ignore_ascii_case(&name))
            .map(|b| b.to_string());
        let bots = names
            .zip(parsed)
            .map(|(name, spec)| BotSeat { name, spec })
            .collect();
        if args.hands == Some(0) {
            return Err(ConfigError::Hands);
        }
        let seed = match &args.seed {
            Some(text) => Seed::from_text(text).map_err(|_| ConfigError::Seed(text.clone()))?,
            None => fresh_seed(),
        };
        Ok(Config {
            name,
            bots,
            rules,
            seed,
            speed: Duration::from_millis(args.speed),
            plain: args.plain,
            lang,
        })
    }

    /// The seed as `--seed` takes it.
    pub fn seed_text(&self) -> String {
        self.seed.text()
    }
}

/// Text echoed back in a message: at most 40 characters.
fn shorten(text: &str) -> String {
    text.chars().take(40).collect()
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
            variant: "dalmuti".into(),
            players: None,
            bots: bots.into(),
            name: "You".into(),
            seed: Some("7".into()),
            stripped_deck: false,
            first_deal_revolution: false,
            merchant_exchange: false,
            scoring: "none".into(),
            house: None,
            hands: None,
            speed: 0,
            plain: true,
            lang: Some("en".into()),
        }
    }

    #[test]
    fn the_language_is_the_flag_else_dalmuti_lang_else_the_locale() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        let japanese = env(&[("LANG", "ja_JP.UTF-8")]);
        assert_eq!(choose_lang(None, japanese), Ok(Lang::Ja));
        assert_eq!(choose_lang(Some("de"), japanese), Ok(Lang::De));
        assert_eq!(
            choose_lang(
                None,
                env(&[("DALMUTI_LANG", "ko"), ("LANG", "ja_JP.UTF-8")])
            ),
            Ok(Lang::Ko)
        );
        assert_eq!(
            choose_lang(None, env(&[("LANG", "fr_FR.UTF-8")])),
            Ok(Lang::En)
        );
        let err = choose_lang(Some("xx"), japanese).unwrap_err().to_string();
        assert_eq!(
            err,
            "--lang is one of en (English), ko (한국어), de (Deutsch), es (Español), \
             ja (日本語), not \"xx\""
        );
        assert!(choose_lang(None, env(&[("DALMUTI_LANG", "klingon")])).is_err());
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

    #[test]
    fn corporate_shuffle_seats_three_to_eight_with_office_names() {
        let cs = |players: usize| PlayArgs {
            variant: "Corporate-Shuffle".into(),
            players: Some(players),
            ..args("greedy")
        };
        let c = Config::new(&cs(8)).unwrap();
        assert_eq!(c.rules.variant, Variant::CorporateShuffle);
        let names: Vec<&str> = c.bots.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(
            names,
            ["Alice", "Dilbert", "Wally", "Asok", "Ted", "Tina", "Carol"]
        );
        assert_eq!(
            Config::new(&cs(9)).unwrap_err().to_string(),
            "Corporate Shuffle seats 3 to 8 players, you included, not 9"
        );
        assert_eq!(
            Config::new(&cs(2)).unwrap_err().to_string(),
            "Corporate Shuffle seats 3 to 8 players, you included, not 2"
        );
        // Nine players is a Dalmuti table, though.
        assert!(
            Config::new(&PlayArgs {
                players: Some(9),
                ..args("greedy")
            })
            .is_ok()
        );
    }

    #[test]
    fn corporate_shuffle_refuses_the_stripped_deck_and_unknown_variants() {
        let stripped = PlayArgs {
            variant: "corporate-shuffle".into(),
            players: Some(4),
            stripped_deck: true,
            ..args("greedy")
        };
        assert_eq!(
            Config::new(&stripped).unwrap_err(),
            ConfigError::StrippedDeck
        );
        assert!(
            Config::new(&PlayArgs {
                variant: "dalmuti".into(),
                ..stripped
            })
            .is_ok()
        );
        let err = Config::new(&PlayArgs {
            variant: "dilbert".into(),
            ..args("greedy")
        })
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "--variant is dalmuti, corporate-shuffle, daifugo or president, not \"dilbert\""
        );
    }
}
