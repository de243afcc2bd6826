//! The rules in force at a table: the rulebook's optional rules as switches.

use serde::{Deserialize, Serialize};

use crate::climbing::Climbing;
use crate::variant::Variant;

/// Which optional rules are in force. `Rules::default()` is the basic game.
///
/// ```
/// use dalmuti_core::{Rules, Scoring};
/// let rules = Rules { scoring: Scoring::Standard, hands: Some(20), ..Rules::default() };
/// assert!(!rules.stripped_deck);
/// assert!(rules.join_and_leave); // on unless switched off
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Rules {
    /// Which game: Dalmuti, or Corporate Shuffle.
    pub variant: Variant,
    /// With four players strip the 11s and 12s (57 cards); with five the
    /// 12s (68 cards). Other table sizes use the full deck.
    pub stripped_deck: bool,
    /// No taxes on the first hand; a Greater Peon dealt both Jesters may
    /// still call a greater revolution.
    pub first_deal_revolution: bool,
    /// The highest Merchant may trade one card blind with another Merchant
    /// during taxation.
    pub merchant_exchange: bool,
    /// Points per hand: none, standard, or philanthropic.
    pub scoring: Scoring,
    /// The number of hands the game lasts; `None` plays on until stopped.
    pub hands: Option<u32>,
    /// Whether players may join (as a Merchant, halfway down) and leave
    /// between hands.
    pub join_and_leave: bool,
    /// The options of President and Daifugō; `None` for the variant's own
    /// ([`Climbing::UECDA`] for Daifugō, [`Climbing::PRESIDENT`] for
    /// President). Always `None` in Dalmuti and Corporate Shuffle, and then
    /// not written, so their rules read and write as before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub climbing: Option<Climbing>,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            variant: Variant::Dalmuti,
            stripped_deck: false,
            first_deal_revolution: false,
            merchant_exchange: false,
            scoring: Scoring::None,
            hands: None,
            join_and_leave: true,
            climbing: None,
        }
    }
}

impl Rules {
    /// Daifugō as the UECda contest plays it: a match scored 5, 4, 3, 2, 1
    /// points a game (the contest's `daihu.c`), nobody joining or leaving.
    ///
    /// ```
    /// use dalmuti_core::{Rules, Scoring, Variant};
    /// let rules = Rules::daifugo();
    /// assert_eq!((rules.variant, rules.scoring), (Variant::Daifugo, Scoring::Places));
    /// assert!(rules.climbing().eight_cut);
    /// assert!(rules.check(5).is_ok());
    /// ```
    pub fn daifugo() -> Rules {
        Rules {
            variant: Variant::Daifugo,
            scoring: Scoring::Places,
            join_and_leave: false,
            ..Rules::default()
        }
    }

    /// President as pagat.com tells it, scored by places.
    pub fn president() -> Rules {
        Rules {
            variant: Variant::President,
            ..Rules::daifugo()
        }
    }

    /// The options of President and Daifugō in force: the rule set's own,
    /// or the variant's ([`Climbing::UECDA`] for Daifugō and, for the
    /// other games, where nothing reads them).
    #[inline]
    pub fn climbing(&self) -> Climbing {
        match (self.climbing, self.variant) {
            (Some(c), _) => c,
            (None, Variant::President) => Climbing::PRESIDENT,
            (None, _) => Climbing::UECDA,
        }
    }

    /// Whether these rules can seat `players`, or why not: the variant's
    /// table sizes (3 to 16 for Dalmuti, 3 to 8 for Corporate Shuffle), and
    /// no stripped deck in Corporate Shuffle (C1).
    ///
    /// ```
    /// use dalmuti_core::{Rules, Variant};
    /// let cs = Rules { variant: Variant::CorporateShuffle, ..Rules::default() };
    /// assert!(cs.check(8).is_ok());
    /// assert!(cs.check(9).is_err());
    /// let stripped = Rules { stripped_deck: true, ..cs };
    /// assert!(stripped.check(5).is_err());
    /// ```
    pub fn check(&self, players: usize) -> Result<(), BadRules> {
        let range = self.variant.players();
        if !range.contains(&players) {
            return Err(BadRules::Players {
                variant: self.variant,
                players,
            });
        }
        if self.variant == Variant::CorporateShuffle && self.stripped_deck {
            return Err(BadRules::StrippedCorporate);
        }
        if self.variant.is_suited() {
            if self.stripped_deck || self.first_deal_revolution || self.merchant_exchange {
                return Err(BadRules::DalmutiOnly(self.variant));
            }
            if self.join_and_leave {
                return Err(BadRules::JoinSuited(self.variant));
            }
            if self.scoring == Scoring::Philanthropic {
                return Err(BadRules::DalmutiOnly(self.variant));
            }
            let climbing = self.climbing();
            climbing
                .check()
                .map_err(|why| BadRules::Climbing(why.to_string()))?;
            if climbing.jokers == 2 && players < 4 {
                // 18 cards and two Jokers make more plays than a decision
                // lists (MAX_ACTIONS).
                return Err(BadRules::Climbing(
                    "two Jokers need four players or more".to_string(),
                ));
            }
        } else if self.climbing.is_some() {
            return Err(BadRules::ClimbingOutside(self.variant));
        }
        Ok(())
    }
}

impl Rules {
    /// The fewest players for a merchant exchange: two Merchants (Workers),
    /// so a Greater and a Lesser pair and two more (D7).
    pub const MERCHANT_EXCHANGE_PLAYERS: usize = 6;
}

/// Why rules cannot seat a table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadRules {
    /// Too few or too many players for the variant.
    #[error(
        "{} seats {} to {} players, not {players}",
        .variant.words().game, .variant.players().start(), .variant.players().end()
    )]
    Players {
        /// The variant.
        variant: Variant,
        /// How many were asked for.
        players: usize,
    },
    /// Corporate Shuffle's deck is never stripped.
    #[error("Corporate Shuffle's 60-card deck is never stripped: stripped_deck must be false")]
    StrippedCorporate,
    /// Dalmuti's optional rules (stripped deck, first-deal revolution,
    /// merchant exchange, philanthropic scoring) in President or Daifugō.
    #[error(
        "{} has no stripped deck, first-deal revolution, merchant exchange or philanthropic \
         scoring: those are Dalmuti's",
        .0.words().game
    )]
    DalmutiOnly(Variant),
    /// Joining and leaving between games of President or Daifugō.
    #[error("{} is played as a match by the same players: join_and_leave must be false", .0.words().game)]
    JoinSuited(Variant),
    /// Options that make no game.
    #[error("climbing options: {0}")]
    Climbing(String),
    /// President and Daifugō's options given to another game.
    #[error("{} has no climbing options: they are President's and Daifugō's", .0.words().game)]
    ClimbingOutside(Variant),
}

/// How hands are scored.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scoring {
    /// No points: each hand is played for its own sake.
    #[default]
    None,
    /// One point for every player who finished after you.
    Standard,
    /// Standard, plus a point to the Greater Dalmuti when the Greater Peon
    /// rises, and to the Lesser Dalmuti when the Lesser Peon rises.
    Philanthropic,
    /// A point for every player, yourself included, who finished no better
    /// than you: 5, 4, 3, 2, 1 at five players, as the UECda contest scores
    /// its matches (`daihu.c`: `point += 5 - place`).
    Places,
}

/// A word that is not a scoring.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("scoring is none, standard, philanthropic or places, not {0:?}")]
pub struct BadScoring(pub String);

impl std::str::FromStr for Scoring {
    type Err = BadScoring;

    /// The record's word, in any case, spaces around it ignored.
    ///
    /// ```
    /// use dalmuti_core::Scoring;
    /// assert_eq!(" Standard ".parse(), Ok(Scoring::Standard));
    /// assert!("golf".parse::<Scoring>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Scoring, BadScoring> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" => Ok(Scoring::None),
            "standard" => Ok(Scoring::Standard),
            "philanthropic" => Ok(Scoring::Philanthropic),
            "places" => Ok(Scoring::Places),
            _ => Err(BadScoring(s.to_string())),
        }
    }
}

impl Scoring {
    /// The record's word for it: `none`, `standard`, `philanthropic` or
    /// `places`.
    pub fn word(self) -> &'static str {
        match self {
            Scoring::None => "none",
            Scoring::Standard => "standard",
            Scoring::Philanthropic => "philanthropic",
            Scoring::Places => "places",
        }
    }
}
