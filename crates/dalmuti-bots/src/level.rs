//! The bot levels offered to players, named by strength: `easy`, `normal`,
//! `hard` and `expert`. The terminal (`dalmuti play --bots hard`) and the
//! browser (the host's bot menu) both offer these four, and `dalmuti sim`
//! takes them like any bot name.
//!
//! Each level is one bot spec, written in [`Level::spec_text`]: the one
//! place to retune a level. A level only ever names a built-in bot with a
//! fixed budget, so a server may offer it to anyone.
//!
//! | Level    | Bot spec                     | Per decision (one core)  |
//! |----------|------------------------------|--------------------------|
//! | `easy`   | `greedy`                     | instant                  |
//! | `normal` | `heuristic`                  | µs (President, Daifugō: ms) |
//! | `hard`   | `search:moves=60000`         | about 10 ms              |
//! | `expert` | `search:moves=250000`        | about 40 ms              |
//!
//! The search levels have a budget of simulated moves, not of time: the same
//! seed then plays the same game on any machine (a replay, a fairness
//! check), and the measured places below hold wherever they are rerun.
//!
//! ## Measured places
//!
//! The search levels infer, from what each other player did this hand,
//! what kind of player it is, so they gain at any table, not only at one
//! of `normal` bots. `expert` against four copies of each style bot and at
//! mixed tables of them, five players, 200 deals in every seat: its lead
//! over a `normal` bot in the same seat on the same deals is 0.44
//! (`shedder`), 0.40 (`hoarder`), 0.24 (`spender`), 0.32 (`breaker`), 0.26
//! (`noisy`) and 0.28 at the mixed tables (each ±0.07; docs/PERFORMANCE.md,
//! "Against every style", has the commands and the other table sizes).
//!
//! In President and Daifugō the same levels play by the play-outs of
//! [`crate::ClimbSearch`] (each other seat played out as the kind of
//! player its plays this hand say it is: one that keeps its groups, as
//! the UECda contest's default client, or one that sheds its weakest
//! cards), `normal` with a few (8 of each candidate, a decision in a few
//! milliseconds: its rules of thumb alone played no better than `easy`
//! there), `hard` 30 and `expert` 125; the cards a rich player gives back
//! in the exchange are chosen the same way. At a table of
//! all five levels their mean places are in order in both games (Daifugō
//! 4.86, 2.94, 2.58, 2.34, 2.29 from `random` to `expert`):
//! docs/PERFORMANCE.md, "The levels in President and Daifugō".
//!
//! ```
//! use dalmuti_bots::{BotSpec, Level};
//! let hard: Level = "hard".parse().unwrap();
//! assert_eq!(hard.spec_text(), "search:moves=60000");
//! assert_eq!("hard".parse::<BotSpec>().unwrap(), BotSpec::Level(Level::Hard));
//! assert!(Level::ALL.windows(2).all(|w| w[0] < w[1]), "weakest first");
//! ```

use std::fmt;
use std::str::FromStr;

use crate::{BadSpec, Bot, BotSpec};

/// A bot level offered to players, weakest first (so `Easy < Expert`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Plays its worst legal set: a first game.
    Easy,
    /// Strong rules of thumb, and instant.
    Normal,
    /// Searches 60,000 simulated moves per decision (about 10 ms on one
    /// core).
    Hard,
    /// Searches 250,000 simulated moves per decision (about 40 ms on one
    /// core, 50 at most on average at any table): the strongest offered.
    Expert,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Normal, Level::Hard, Level::Expert];

    /// The level every game starts with unless told otherwise.
    pub const DEFAULT: Level = Level::Normal;

    /// Its name, as players choose it: `easy`, `normal`, `hard`, `expert`.
    ///
    /// ```
    /// assert_eq!(dalmuti_bots::Level::Expert.name(), "expert");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// The bot that plays at this level, as a bot spec. This is the one
    /// place where the levels are tuned: a stronger or faster bot for a
    /// level is a new line here (and new figures in the table above).
    ///
    /// ```
    /// assert_eq!(dalmuti_bots::Level::Easy.spec_text(), "greedy");
    /// ```
    pub fn spec_text(self) -> &'static str {
        match self {
            Level::Easy => "greedy",
            Level::Normal => "heuristic",
            // One thread each: a table of four search bots then thinks on
            // as many cores as a table of one, and a server's budget counts
            // a decision as one core.
            // A budget of moves, not iterations: an iteration at twelve
            // players is several times longer than at three, and moves
            // cost about the same at any table.
            Level::Hard => "search:moves=60000",
            Level::Expert => "search:moves=250000",
        }
    }

    /// The bot spec of [`Level::spec_text`], read.
    ///
    /// ```
    /// use dalmuti_bots::{BotSpec, Level};
    /// assert_eq!(Level::Normal.spec().unwrap(), BotSpec::Heuristic);
    /// ```
    pub fn spec(self) -> Result<BotSpec, BadSpec> {
        self.spec_text().parse::<BotSpec>().map_err(|e| {
            BadSpec(format!(
                "level {} is tuned to {:?}, which is no bot: {e}",
                self.name(),
                self.spec_text()
            ))
        })
    }

    /// Builds the level's bot, its randomness seeded by `seed`.
    ///
    /// ```
    /// let bot = dalmuti_bots::Level::Normal.build(7).unwrap();
    /// assert_eq!(bot.name(), "heuristic");
    /// ```
    pub fn build(self, seed: u64) -> Result<Box<dyn Bot>, BadSpec> {
        self.spec()?.build(seed)
    }

    /// Builds the level's bot thinking at most `cap` a decision
    /// ([`BotSpec::build_capped`]): the browser's offline engine, on a
    /// phone, caps `hard` and `expert` so that no move keeps the player
    /// waiting (docs/PERFORMANCE.md, "The offline engine").
    ///
    /// ```
    /// use std::time::Duration;
    /// let bot = dalmuti_bots::Level::Expert.build_capped(7, Duration::from_millis(300)).unwrap();
    /// assert_eq!(bot.name(), "search");
    /// ```
    pub fn build_capped(
        self,
        seed: u64,
        cap: std::time::Duration,
    ) -> Result<Box<dyn Bot>, BadSpec> {
        self.spec()?.build_capped(seed, Some(cap))
    }

    /// The level a player or a client asked for by name: one of the four,
    /// or one of the names bots had before there were levels, which older
    /// clients still send: `random` and `greedy` are `easy`, `heuristic`
    /// is `normal`, `search` is `expert` (the server's `search` thought
    /// 300 ms a decision). Options (`search:ms=5`) are refused: a level
    /// has a fixed budget.
    ///
    /// ```
    /// use dalmuti_bots::Level;
    /// assert_eq!(Level::from_name_or_alias("hard"), Ok(Level::Hard));
    /// assert_eq!(Level::from_name_or_alias("heuristic"), Ok(Level::Normal));
    /// assert!(Level::from_name_or_alias("search:ms=5").is_err());
    /// ```
    pub fn from_name_or_alias(name: &str) -> Result<Level, BadLevel> {
        match name {
            "random" | "greedy" => Ok(Level::Easy),
            "heuristic" => Ok(Level::Normal),
            "search" => Ok(Level::Expert),
            other => other.parse(),
        }
    }

    /// The level of a bot spec stored before today (a server's table saved
    /// with `search:ms=300`, `heuristic`, `hard`…), never refused: a known
    /// name maps as in [`Level::from_name_or_alias`], a `search` with
    /// options maps by its budget (at most 50 ms, 100,000 moves or 1,000
    /// iterations is `hard`, else `expert`; options that no longer read,
    /// by the name alone), and anything else (an external program, a name
    /// from the future) plays at [`Level::DEFAULT`].
    ///
    /// ```
    /// use dalmuti_bots::Level;
    /// assert_eq!(Level::from_stored("search:ms=300"), Level::Expert);
    /// assert_eq!(Level::from_stored("search:ms=50,threads=1"), Level::Hard);
    /// assert_eq!(Level::from_stored("search:iterations=4000"), Level::Expert);
    /// assert_eq!(Level::from_stored("search:moves=60000"), Level::Hard);
    /// assert_eq!(Level::from_stored("random"), Level::Easy);
    /// assert_eq!(Level::from_stored("cmd:rm -rf /"), Level::Normal);
    /// ```
    pub fn from_stored(spec: &str) -> Level {
        let spec = spec.trim();
        if let Ok(level) = Level::from_name_or_alias(spec) {
            return level;
        }
        match spec.parse::<BotSpec>() {
            Ok(BotSpec::Level(level)) => level,
            Ok(BotSpec::Random | BotSpec::Greedy) => Level::Easy,
            // The styles are opponents to measure against, not levels: they
            // play about as well as the heuristic most of them build on.
            Ok(BotSpec::Heuristic | BotSpec::Learned | BotSpec::Style(_)) => Level::Normal,
            Ok(BotSpec::Search(config)) => match (config.time, config.moves) {
                (Some(time), _) if time.as_millis() <= 50 => Level::Hard,
                (None, Some(moves)) if moves <= 100_000 => Level::Hard,
                (None, None) if config.iterations <= 1000 => Level::Hard,
                _ => Level::Expert,
            },
            Ok(BotSpec::External { .. }) => Level::DEFAULT,
            // Options that no longer read (`search:depth=3`): the bot's
            // name still says what it was.
            Err(_) => spec
                .split(':')
                .next()
                .and_then(|name| Level::from_name_or_alias(name.trim()).ok())
                .unwrap_or(Level::DEFAULT),
        }
    }
}

/// A name that is not one of the levels.
///
/// ```
/// let refusal = "grumpy".parse::<dalmuti_bots::Level>().unwrap_err();
/// assert!(refusal.to_string().contains("easy, normal, hard, expert"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{asked:?} is not a bot level: choose one of {}", level_names())]
pub struct BadLevel {
    /// What was asked for, shortened if long.
    pub asked: String,
}

/// "easy, normal, hard, expert".
fn level_names() -> String {
    Level::ALL.map(Level::name).join(", ")
}

impl FromStr for Level {
    type Err = BadLevel;

    /// Exactly one of the four names; old bot names are
    /// [`Level::from_name_or_alias`]'s.
    fn from_str(s: &str) -> Result<Level, BadLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| BadLevel {
                asked: s.chars().take(40).collect(),
            })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `60000` as the docs write it: `60,000`.
    fn grouped(n: &str) -> String {
        let mut out = String::new();
        for (i, c) in n.chars().enumerate() {
            if i > 0 && (n.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        out
    }

    #[test]
    fn the_docs_give_the_search_levels_budgets() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for doc in ["README.md", "docs/PROTOCOL.md"] {
            let text = std::fs::read_to_string(root.join(doc)).unwrap();
            for level in [Level::Hard, Level::Expert] {
                let moves = level
                    .spec_text()
                    .strip_prefix("search:moves=")
                    .expect("a budget of moves");
                assert!(
                    text.contains(moves) || text.contains(&grouped(moves)),
                    "{doc} does not give {}'s budget, {moves} moves",
                    level.name()
                );
            }
            // The budgets before moves were counted (issue 41).
            for old in ["iterations a decision", "1,000 iterations", "4,000"] {
                assert!(!text.contains(old), "{doc} still says {old:?}");
            }
        }
    }

    #[test]
    fn every_level_reads_back_and_builds() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
            assert_eq!(level.to_string(), level.name());
            assert_eq!(Level::from_stored(level.name()), level);
            assert_eq!(Level::from_stored(level.spec_text()), level);
            let spec = level.spec().expect("every level's spec is a bot");
            assert!(
                !matches!(spec, BotSpec::External { .. } | BotSpec::Level(_)),
                "a level is a built-in bot: {spec}"
            );
            assert!(level.build(1).is_ok());
        }
    }

    #[test]
    fn old_names_are_aliases_and_options_are_refused() {
        for (old, level) in [
            ("random", Level::Easy),
            ("greedy", Level::Easy),
            ("heuristic", Level::Normal),
            ("search", Level::Expert),
        ] {
            assert_eq!(Level::from_name_or_alias(old), Ok(level));
            assert!(old.parse::<Level>().is_err(), "{old} is only an alias");
        }
        for asked in ["search:ms=300", "cmd:bot", "Hard", "", " easy"] {
            let refusal = Level::from_name_or_alias(asked).unwrap_err();
            assert!(refusal.to_string().contains(&level_names()));
        }
    }

    #[test]
    fn stored_specs_map_to_the_nearest_level() {
        assert_eq!(Level::from_stored("search:ms=20"), Level::Hard);
        assert_eq!(
            Level::from_stored("search:threads=256,ms=600000"),
            Level::Expert
        );
        assert_eq!(
            Level::from_stored("search:iterations=4294967295"),
            Level::Expert
        );
        assert_eq!(Level::from_stored("greedy"), Level::Easy);
        assert_eq!(Level::from_stored("oracle"), Level::Normal);
        assert_eq!(Level::from_stored("search:bogus"), Level::Expert);
        assert_eq!(Level::from_stored("oracle:x=1"), Level::Normal);
    }
}
