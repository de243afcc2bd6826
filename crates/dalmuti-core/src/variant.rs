//! The games on this engine: *The Great Dalmuti* and its Dilbert spinoff,
//! *Corporate Shuffle*, and the two games Dalmuti comes from, President and
//! Daifugō, played with the 52-card pack. A variant is data (a deck, names,
//! titles, words); the rules of play follow from the cards themselves and,
//! for President and Daifugō, from the rule set's options
//! ([`crate::Climbing`]).

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::climbing::Climbing;
use crate::seat::{MAX_PLAYERS, MIN_PLAYERS, Title};

/// Which game is played.
///
/// ```
/// use dalmuti_core::{Card, Variant};
/// let cs: Variant = "corporate-shuffle".parse().unwrap();
/// assert_eq!(cs.card_name(Card::from_index(1).unwrap()), "CEO");
/// assert_eq!(Variant::Dalmuti.card_name(Card::from_index(1).unwrap()), "Dalmuti");
/// assert_eq!(cs.players(), 3..=8);
/// assert_eq!(cs.word(), "corporate-shuffle");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// *The Great Dalmuti*: 80 cards, ranks 1 to 12 and two Jesters.
    #[default]
    Dalmuti,
    /// *Dilbert's Corporate Shuffle*: 60 cards, values 1 to 10, two wild
    /// Dogberts, and the World Ruler, the Twirling Wedgie and Ratbert
    /// (`../shared/specs/corporate-shuffle.md`, RULES.md C1–C7).
    CorporateShuffle,
    /// Daifugō (大富豪, also Daihinmin), as the UECda computer contest plays
    /// it unless house rules say otherwise: 52 cards and a Joker, sets and
    /// same-suit sequences, revolution, 8-cut, the suit lock (RULES.md,
    /// Daifugō).
    Daifugo,
    /// President as most Western players know it (pagat.com): 52 cards,
    /// 2 high, sets of one rank, the exchange 2/1 (RULES.md, President).
    President,
}

/// The words a variant uses for the same things.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Words {
    /// The game's name.
    pub game: &'static str,
    /// What the Dalmutis collect ("taxes", "executive bonuses").
    pub taxes: &'static str,
    /// One revolution ("revolution", "corporate takeover").
    pub revolution: &'static str,
    /// The wild card ("Jester", "Dogbert").
    pub wild: &'static str,
    /// Several wild cards.
    pub wilds: &'static str,
}

const DALMUTI_WORDS: Words = Words {
    game: "The Great Dalmuti",
    taxes: "taxes",
    revolution: "revolution",
    wild: "Jester",
    wilds: "Jesters",
};

const DAIFUGO_WORDS: Words = Words {
    game: "Daifugō",
    taxes: "card exchange",
    revolution: "revolution",
    wild: "Joker",
    wilds: "Jokers",
};

const PRESIDENT_WORDS: Words = Words {
    game: "President",
    taxes: "card exchange",
    revolution: "revolution",
    wild: "Joker",
    wilds: "Jokers",
};

const CORPORATE_WORDS: Words = Words {
    game: "Corporate Shuffle",
    taxes: "executive bonuses",
    revolution: "corporate takeover",
    wild: "Dogbert",
    wilds: "Dogberts",
};

/// Corporate Shuffle's names for values 1 to 10 (Dilbert's office, from the
/// CEO down to the Engineer).
const OFFICE: [(&str, &str); 10] = [
    ("CEO", "CEOs"),
    ("Vice President", "Vice Presidents"),
    ("Consultant", "Consultants"),
    ("Lawyer", "Lawyers"),
    ("Human Resources", "Human Resources"),
    ("Accounting", "Accounting"),
    ("Manager", "Managers"),
    ("Sales", "Sales"),
    ("Marketing", "Marketing"),
    ("Engineer", "Engineers"),
];

impl Variant {
    /// The variants with their own deck of Dalmuti's family, then the games
    /// of the 52-card pack.
    pub const ALL: [Variant; 4] = [
        Variant::Dalmuti,
        Variant::CorporateShuffle,
        Variant::Daifugo,
        Variant::President,
    ];

    /// The word in records, rules and command lines: `dalmuti`,
    /// `corporate-shuffle`, `daifugo` or `president`.
    pub fn word(self) -> &'static str {
        match self {
            Variant::Dalmuti => "dalmuti",
            Variant::CorporateShuffle => "corporate-shuffle",
            Variant::Daifugo => "daifugo",
            Variant::President => "president",
        }
    }

    /// Whether the game is played with the 52-card pack (and Jokers):
    /// President and Daifugō, whose plays the rule set's [`crate::Climbing`]
    /// options govern.
    #[inline]
    pub const fn is_suited(self) -> bool {
        matches!(self, Variant::Daifugo | Variant::President)
    }

    /// The variant's vocabulary.
    pub fn words(self) -> &'static Words {
        match self {
            Variant::Dalmuti => &DALMUTI_WORDS,
            Variant::CorporateShuffle => &CORPORATE_WORDS,
            Variant::Daifugo => &DAIFUGO_WORDS,
            Variant::President => &PRESIDENT_WORDS,
        }
    }

    /// How many players may sit at a table: 3 to 16 for Dalmuti; 3 to 8 for
    /// Corporate Shuffle (C2), President and Daifugō (the UECda contest
    /// plays with five).
    pub fn players(self) -> RangeInclusive<usize> {
        match self {
            Variant::Dalmuti => MIN_PLAYERS..=MAX_PLAYERS,
            _ => MIN_PLAYERS..=8,
        }
    }

    /// The named sets of President and Daifugō's options a table of this
    /// game may start from, the game's own first ([`Climbing::PRESETS`]):
    /// the contest's rules and the apps' house rules for Daifugō, pagat.com's
    /// for President; none for Dalmuti and Corporate Shuffle, which have no
    /// such options. The server offers them to the browser's form, so no
    /// client keeps a copy of a rule set.
    ///
    /// ```
    /// use dalmuti_core::{Climbing, Variant};
    /// let names: Vec<&str> = Variant::Daifugo.presets().iter().map(|p| p.0).collect();
    /// assert_eq!(names, ["uecda", "local", "local_all"]);
    /// assert_eq!(Variant::President.presets(), [("president", Climbing::PRESIDENT)]);
    /// assert!(Variant::Dalmuti.presets().is_empty());
    /// ```
    pub fn presets(self) -> &'static [(&'static str, Climbing)] {
        match self {
            Variant::Daifugo => &Climbing::PRESETS[..3],
            Variant::President => &Climbing::PRESETS[3..],
            Variant::Dalmuti | Variant::CorporateShuffle => &[],
        }
    }

    /// The wild card of this deck.
    pub fn wild(self) -> Card {
        match self {
            Variant::Dalmuti => Card::JESTER,
            Variant::CorporateShuffle => Card::DOGBERT,
            Variant::Daifugo | Variant::President => Card::JOKER,
        }
    }

    /// Every kind of card in this variant's deck, in the order hands are
    /// written (best first, specials after the numbers, wilds last; for
    /// President and Daifugō the pack from 3♠ up, then the Joker).
    pub fn kinds(self) -> impl DoubleEndedIterator<Item = Card> + Clone {
        let suited = self.is_suited();
        Card::all()
            .filter(move |c| !suited && c.variant().is_none_or(|v| v == self))
            .chain(Card::pack().chain([Card::JOKER]).filter(move |_| suited))
    }

    /// The name printed on a card, e.g. "Earl Marshal" or "Vice President".
    pub fn card_name(self, card: Card) -> &'static str {
        match (self, card.number()) {
            (Variant::CorporateShuffle, Some(n @ 1..=10)) => OFFICE[n as usize - 1].0,
            _ => card.own_name(),
        }
    }

    /// The name of several of these cards, e.g. "Baronesses" or "Lawyers".
    pub fn card_plural(self, card: Card) -> &'static str {
        match (self, card.number()) {
            (Variant::CorporateShuffle, Some(n @ 1..=10)) => OFFICE[n as usize - 1].1,
            _ => card.own_plural(),
        }
    }

    /// A title in this variant's words: "Greater Dalmuti" or "Big Boss".
    pub fn title_name(self, title: Title) -> &'static str {
        match self {
            Variant::Dalmuti => title.name(),
            Variant::Daifugo => match title {
                Title::GreaterDalmuti => "Daifugō",
                Title::LesserDalmuti => "Fugō",
                Title::Merchant { .. } => "Heimin",
                Title::LesserPeon => "Hinmin",
                Title::GreaterPeon => "Daihinmin",
            },
            Variant::President => match title {
                Title::GreaterDalmuti => "President",
                Title::LesserDalmuti => "Vice-President",
                Title::Merchant { .. } => "Neutral",
                Title::LesserPeon => "Vice-Scum",
                Title::GreaterPeon => "Scum",
            },
            Variant::CorporateShuffle => match title {
                Title::GreaterDalmuti => "Big Boss",
                Title::LesserDalmuti => "Little Boss",
                Title::Merchant { .. } => "Worker",
                Title::LesserPeon => "Senior Intern",
                Title::GreaterPeon => "Junior Intern",
            },
        }
    }
}

/// A word that names no variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the variant is dalmuti, corporate-shuffle, daifugo or president, not {0:?}")]
pub struct BadVariant(pub String);

impl std::str::FromStr for Variant {
    type Err = BadVariant;

    /// `dalmuti`, `corporate-shuffle`, `daifugo` (or `daihinmin`) or
    /// `president`, in any case, spaces around ignored.
    fn from_str(s: &str) -> Result<Variant, BadVariant> {
        match s.trim().to_ascii_lowercase().as_str() {
            "dalmuti" => Ok(Variant::Dalmuti),
            "corporate-shuffle" => Ok(Variant::CorporateShuffle),
            "daifugo" | "daihinmin" => Ok(Variant::Daifugo),
            "president" => Ok(Variant::President),
            _ => Err(BadVariant(s.chars().take(40).collect())),
        }
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// What a card is called in each game, and which game's deck holds it:
/// the card knows its rank, the game its names.
impl Card {
    /// The only game whose deck holds this card, or `None` for the numbers
    /// 1 to 10, which both decks hold, and for the 52-card pack and its
    /// Jokers, which President and Daifugō share.
    pub const fn variant(self) -> Option<Variant> {
        match self.index() {
            1..=10 => None,
            11..=13 => Some(Variant::Dalmuti),
            0 | 14..=16 => Some(Variant::CorporateShuffle),
            _ => None,
        }
    }

    /// The card's name in `variant`, e.g. "Cook" or "Marketing".
    pub fn name(self, variant: Variant) -> &'static str {
        variant.card_name(self)
    }

    /// The name for several of these cards in `variant`.
    pub fn plural(self, variant: Variant) -> &'static str {
        variant.card_plural(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn office_titles_follow_the_encyclopedia() {
        let cs = Variant::CorporateShuffle;
        let names: Vec<_> = crate::Seat::all(5)
            .map(|s| cs.title_name(s.title(5)))
            .collect();
        assert_eq!(
            names,
            [
                "Big Boss",
                "Little Boss",
                "Worker",
                "Senior Intern",
                "Junior Intern"
            ]
        );
        let three: Vec<_> = crate::Seat::all(3)
            .map(|s| cs.title_name(s.title(3)))
            .collect();
        assert_eq!(three, ["Big Boss", "Worker", "Junior Intern"]);
    }

    #[test]
    fn each_deck_has_its_own_kinds() {
        let cs: Vec<_> = Variant::CorporateShuffle
            .kinds()
            .map(|c| c.token())
            .collect();
        assert_eq!(
            cs,
            [
                "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "R", "D"
            ]
        );
        let dalmuti: Vec<_> = Variant::Dalmuti.kinds().map(|c| c.token()).collect();
        assert_eq!(dalmuti.len(), 13);
        assert_eq!(dalmuti.last(), Some(&"J"));
    }
}
