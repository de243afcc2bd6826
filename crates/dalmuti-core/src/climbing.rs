//! The options of the games of the 52-card pack, President and Daifugō:
//! every rule that groups argue about, as one value.

use serde::{Deserialize, Serialize};

/// What two plays in a row with the same suits (or neighbouring ranks) do
/// to the plays after them (縛り).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lock {
    /// No lock.
    #[default]
    Off,
    /// Two plays in a row with exactly the same suits lock them: until the
    /// table clears every play must have those suits (the UECda contest's
    /// しばり, `daihu.c`).
    Suit,
    /// Two sets in a row whose ranks are neighbours (6 then 7) lock the
    /// ranks: until the table clears each set must be the next rank up
    /// (down under a revolution) (数字しばり).
    Number,
    /// Both at once (激しば): two sets in a row with the same suits and
    /// neighbouring ranks; after that both must hold.
    Strict,
}

/// Who leads a game's first trick.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstLead {
    /// The holder of the 3♦ (after the exchange), every game: the UECda
    /// contest (`daihu.c`, `search_card(players_card, 2, 1)`).
    #[default]
    DiamondThree,
    /// The holder of the 3♣, every game.
    ClubThree,
    /// The top class (the President); in a game without classes, the seat
    /// the deal started at.
    TopClass,
}

/// The options of President and Daifugō: a rule set is a value of this
/// type. [`Climbing::UECDA`] is Daifugō as the UECda contest's reference
/// server plays it, [`Climbing::PRESIDENT`] President as pagat.com tells
/// it, [`Climbing::LOCAL`] the house rules a Japanese app turns on.
///
/// ```
/// use dalmuti_core::{Climbing, Lock};
/// let uecda = Climbing::UECDA;
/// assert!(uecda.eight_cut && uecda.spade_three && uecda.sequences);
/// assert_eq!(uecda.lock, Lock::Suit);
/// assert_eq!((uecda.class_cycle, uecda.reseat_every, uecda.stalemate_passes), (100, 3, 20));
/// let mine = Climbing { eleven_back: true, jokers: 2, ..Climbing::UECDA };
/// assert!(mine.check().is_ok());
/// assert!(Climbing { jokers: 3, ..mine }.check().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Climbing {
    /// Jokers in the pack: 0, 1 or 2.
    pub jokers: u8,
    /// Same-suit sequences of three or more (階段).
    pub sequences: bool,
    /// A Joker in a sequence may stand below the 3 or above the 2 (the
    /// contest's tables have those two columns, and its server takes
    /// them).
    pub joker_beyond_ends: bool,
    /// Four or more of a rank (a Joker counting) turn the order over for
    /// the rest of the game (革命).
    pub revolution: bool,
    /// A sequence of five or more does too.
    pub sequence_revolution: bool,
    /// A play holding an 8 (a Joker standing for one too) clears the table
    /// and its player leads (8切り).
    pub eight_cut: bool,
    /// A lone 3♠ beats a lone Joker and clears the table (スペ3返し).
    pub spade_three: bool,
    /// The lock (縛り).
    pub lock: Lock,
    /// A play holding a Jack turns the order over until the table clears
    /// (イレブンバック).
    pub eleven_back: bool,
    /// A play holding 5s skips as many players as it holds 5s (5スキップ).
    pub five_skip: bool,
    /// A play holding 9s turns the direction of play round (9リバース); an
    /// even number of 9s leaves it.
    pub nine_reverse: bool,
    /// A play of 2s clears the table and its player leads, as an 8 does
    /// under the 8-cut (President's "2 clears the trick"; with no
    /// revolution, whatever the order).
    pub two_clears: bool,
    /// A play holding 7s makes its player give as many cards of their
    /// choice to the next player (7渡し), one at a time
    /// ([`crate::Decision::Give`]).
    pub seven_pass: bool,
    /// A play holding 10s makes its player discard as many cards of their
    /// choice, out of play (10捨て), one at a time
    /// ([`crate::Decision::Discard`]).
    pub ten_discard: bool,
    /// A set of the same rank and size as the set on the table may be
    /// played on it, and skips the next player (President's same-rank
    /// skip).
    pub same_rank_skip: bool,
    /// Nothing beats a set of 2s, a lone Joker neither, whatever the order
    /// (President's unbeatable 2s): the others can only pass, or with the
    /// same-rank skip play 2s on it.
    pub unbeatable_twos: bool,
    /// The capital falls (都落ち): when someone other than the top class
    /// goes out first, the top class drops to last place at once.
    pub miyako_ochi: bool,
    /// Forbidden last cards (反則上がり): going out with a Joker, a 2 (a 3
    /// under a revolution), an 8 (under the 8-cut) or the 3♠ that beat a
    /// Joker puts the player at the bottom.
    pub forbidden_finish: bool,
    /// A pass stands until the table clears: who has passed is not asked
    /// again (the contest's server; pagat's President lets a player who
    /// passed play at the next turn).
    pub permanent_pass: bool,
    /// The table clears only when every player holding cards has passed,
    /// the last to play too: the turn comes back to them and they may play
    /// on their own cards (UECda, `rule.html` § 4.2.4).
    pub last_player_passes: bool,
    /// The player to lead may pass (the contest's server allows it).
    pub lead_may_pass: bool,
    /// So many passes in a row end the game, those left taking the last
    /// places at random (UECda: 20); 0 for never.
    pub stalemate_passes: u8,
    /// The exchange between classes: the poorest gives their two best
    /// cards to the richest, who gives back two of their choice; the
    /// second poorest and second richest one (with four players or more).
    pub exchange: bool,
    /// Who leads a game's first trick.
    pub first_lead: FirstLead,
    /// Classes end every so many games: the next game has no classes and no
    /// exchange (UECda: 100); 0 for never.
    pub class_cycle: u32,
    /// The players draw seats again every so many games (UECda: 3); 0 for
    /// never.
    pub reseat_every: u32,
}

impl Default for Climbing {
    /// Daifugō as the UECda contest plays it.
    fn default() -> Climbing {
        Climbing::UECDA
    }
}

impl Climbing {
    /// Daifugō as the UECda contest's reference server (`tndhms` of
    /// `tndhm_devkit_c-20180826`) plays it, the contest's 2010 standard
    /// rules: RULES.md § Daifugō says where each comes from.
    pub const UECDA: Climbing = Climbing {
        jokers: 1,
        sequences: true,
        joker_beyond_ends: true,
        revolution: true,
        sequence_revolution: true,
        eight_cut: true,
        spade_three: true,
        lock: Lock::Suit,
        eleven_back: false,
        five_skip: false,
        nine_reverse: false,
        two_clears: false,
        seven_pass: false,
        ten_discard: false,
        same_rank_skip: false,
        unbeatable_twos: false,
        miyako_ochi: false,
        forbidden_finish: false,
        permanent_pass: true,
        last_player_passes: true,
        lead_may_pass: true,
        stalemate_passes: 20,
        exchange: true,
        first_lead: FirstLead::DiamondThree,
        class_cycle: 100,
        reseat_every: 3,
    };

    /// The house rules a Japanese app turns on ("local rules"): the
    /// contest's, with 11-back, the capital falling, forbidden last cards,
    /// 5-skip and 9-reverse; the leader must play and the table clears when
    /// everyone else has passed, as people play.
    pub const LOCAL: Climbing = Climbing {
        eleven_back: true,
        miyako_ochi: true,
        forbidden_finish: true,
        five_skip: true,
        nine_reverse: true,
        last_player_passes: false,
        lead_may_pass: false,
        stalemate_passes: 0,
        joker_beyond_ends: false,
        class_cycle: 0,
        reseat_every: 0,
        ..Climbing::UECDA
    };

    /// Every local rule a Japanese app offers turned on at once: the
    /// local rules ([`Climbing::LOCAL`]) with 7-pass and 10-discard, the
    /// two rules that add a decision after a play.
    pub const LOCAL_ALL: Climbing = Climbing {
        seven_pass: true,
        ten_discard: true,
        ..Climbing::LOCAL
    };

    /// President as pagat.com tells it: 52 cards, 2 high, sets of one rank,
    /// the exchange 2/1, the President leads; a pass does not stop a player
    /// playing at their next turn.
    pub const PRESIDENT: Climbing = Climbing {
        jokers: 0,
        sequences: false,
        joker_beyond_ends: false,
        revolution: false,
        sequence_revolution: false,
        eight_cut: false,
        spade_three: false,
        lock: Lock::Off,
        eleven_back: false,
        five_skip: false,
        nine_reverse: false,
        two_clears: false,
        seven_pass: false,
        ten_discard: false,
        same_rank_skip: false,
        unbeatable_twos: false,
        miyako_ochi: false,
        forbidden_finish: false,
        permanent_pass: false,
        last_player_passes: false,
        lead_may_pass: false,
        stalemate_passes: 0,
        exchange: true,
        first_lead: FirstLead::TopClass,
        class_cycle: 0,
        reseat_every: 0,
    };

    /// The named presets: `uecda`, `local`, `local_all` and `president`.
    pub const PRESETS: [(&'static str, Climbing); 4] = [
        ("uecda", Climbing::UECDA),
        ("local", Climbing::LOCAL),
        ("local_all", Climbing::LOCAL_ALL),
        ("president", Climbing::PRESIDENT),
    ];

    /// A preset by name.
    pub fn preset(name: &str) -> Option<Climbing> {
        Climbing::PRESETS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(&name.trim().replace('-', "_")))
            .map(|&(_, c)| c)
    }

    /// Whether the options make a game, or why not.
    pub fn check(&self) -> Result<(), &'static str> {
        if self.jokers > 2 {
            return Err("a pack holds 0, 1 or 2 Jokers");
        }
        if self.joker_beyond_ends && !self.sequences {
            return Err("joker_beyond_ends needs sequences");
        }
        if self.sequence_revolution && !self.sequences {
            return Err("sequence_revolution needs sequences");
        }
        Ok(())
    }

    /// Sets one option from its name and a value as a person types it
    /// (`eleven_back=true`, `lock=strict`, `jokers=2`): for command lines.
    ///
    /// ```
    /// use dalmuti_core::{Climbing, Lock};
    /// let mut c = Climbing::UECDA;
    /// c.set("lock", "number").unwrap();
    /// c.set("eleven-back", "yes").unwrap();
    /// assert_eq!(c.lock, Lock::Number);
    /// assert!(c.eleven_back);
    /// assert!(c.set("lock", "sideways").is_err());
    /// assert!(c.set("colour", "on").is_err());
    /// ```
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let key = name.trim().replace('-', "_");
        let mut value_json = serde_json::to_value(*self).expect("options serialize");
        let slot = value_json
            .get_mut(&key)
            .ok_or_else(|| format!("no option {name:?}: the options are {}", Climbing::names()))?;
        let v = value.trim().to_ascii_lowercase();
        *slot = match slot {
            serde_json::Value::Bool(_) => serde_json::Value::Bool(match v.as_str() {
                "true" | "yes" | "on" | "1" => true,
                "false" | "no" | "off" | "0" => false,
                _ => return Err(format!("{name} is on or off, not {value:?}")),
            }),
            serde_json::Value::Number(_) => serde_json::Value::Number(
                v.parse::<u32>()
                    .map_err(|_| format!("{name} is a whole number, not {value:?}"))?
                    .into(),
            ),
            _ => serde_json::Value::String(v.replace('-', "_")),
        };
        let read: Climbing =
            serde_json::from_value(value_json).map_err(|e| format!("{name} = {value:?}: {e}"))?;
        read.check().map_err(str::to_string)?;
        *self = read;
        Ok(())
    }

    /// These options with those a record gives put over them (its
    /// `rules.climbing`: JSON text of an object of option: value); an
    /// option left out keeps its value here, and an unknown one is
    /// refused.
    ///
    /// ```
    /// use dalmuti_core::{Climbing, Lock};
    /// let c = Climbing::PRESIDENT.over(r#"{"lock": "suit", "jokers": 2}"#).unwrap();
    /// assert_eq!((c.lock, c.jokers), (Lock::Suit, 2));
    /// assert_eq!(c.sequences, Climbing::PRESIDENT.sequences);
    /// assert!(Climbing::UECDA.over(r#"{"colour": "on"}"#).is_err());
    /// assert!(Climbing::UECDA.over(r#"{"jokers": "two"}"#).is_err());
    /// ```
    // The record's options and a command line's (`set`) are data named by
    // a person, read through the options' own serde form: one list of
    // their names and types, the struct's.
    pub fn over(self, given: &str) -> Result<Climbing, String> {
        let mut options = serde_json::to_value(self).expect("options serialize");
        let given: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(given).map_err(|e| crate::wire::without_position(&e))?;
        for (key, value) in given {
            match options.get_mut(&key) {
                Some(slot) => *slot = value,
                None => {
                    return Err(format!(
                        "no option {key:?}: the options are {}",
                        Climbing::names()
                    ));
                }
            }
        }
        serde_json::from_value(options).map_err(|e| e.to_string())
    }

    /// Options as a person types them: a preset (`uecda`, `local`,
    /// `local_all`, `president`) and `option=value`s, separated by commas, over the
    /// variant's own options.
    ///
    /// ```
    /// use dalmuti_core::{Climbing, Variant};
    /// let c = Climbing::from_options(Variant::Daifugo, "local, jokers=2").unwrap();
    /// assert!(c.eleven_back && c.jokers == 2);
    /// let p = Climbing::from_options(Variant::President, "revolution=on").unwrap();
    /// assert!(p.revolution && !p.sequences);
    /// assert!(Climbing::from_options(Variant::Daifugo, "chaos").is_err());
    /// ```
    pub fn from_options(variant: crate::Variant, text: &str) -> Result<Climbing, String> {
        let mut c = match variant {
            crate::Variant::President => Climbing::PRESIDENT,
            _ => Climbing::UECDA,
        };
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            match item.split_once('=') {
                Some((name, value)) => c.set(name, value)?,
                None => c = Climbing::preset(item).ok_or_else(|| {
                    format!(
                        "{item:?} is neither a preset (uecda, local, local_all, president) nor option=value"
                    )
                })?,
            }
        }
        Ok(c)
    }

    /// The options' names, for messages.
    pub fn names() -> String {
        match serde_json::to_value(Climbing::UECDA) {
            Ok(serde_json::Value::Object(map)) => {
                map.keys().cloned().collect::<Vec<_>>().join(", ")
            }
            _ => String::new(),
        }
    }
}
