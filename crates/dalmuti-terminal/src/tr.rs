//! The game's words in the player's language: every message the terminal
//! game shows comes from the catalogues of `dalmuti-i18n` (the `game` part
//! for card names, titles and each variant's words, the `terminal` part for
//! the rest) through a [`Tr`].

use dalmuti_core::{Card, Cards, Set, Title, Variant};
use dalmuti_i18n::{Catalogue, Lang, catalogue};

/// A language and the game played: what every message needs to be said.
#[derive(Clone, Copy, Debug)]
pub struct Tr {
    cat: &'static Catalogue,
    variant: Variant,
}

impl Tr {
    /// The words of `variant` in `lang`.
    pub fn new(lang: Lang, variant: Variant) -> Tr {
        Tr {
            cat: catalogue(lang),
            variant,
        }
    }

    /// The language spoken.
    pub fn lang(self) -> Lang {
        self.cat.lang()
    }

    /// The game played.
    pub fn variant(self) -> Variant {
        self.variant
    }

    /// The message `key`, placeholders filled.
    pub fn t(self, key: &str, args: &[(&str, &str)]) -> String {
        self.cat.format(key, args)
    }

    /// The message `key` in the form for `n` (`{n}` is the count).
    pub fn n(self, key: &str, n: u64, args: &[(&str, &str)]) -> String {
        self.cat.format_count(key, n, args)
    }

    /// The message `<variant>.key`: wording that differs between the two
    /// games (`dalmuti.help`, `corporate-shuffle.help`).
    pub fn v(self, key: &str, args: &[(&str, &str)]) -> String {
        self.t(&format!("{}.{key}", self.variant.word()), args)
    }

    /// The game's name: "The Great Dalmuti".
    pub fn game(self) -> String {
        self.v("game", &[])
    }

    /// What the Dalmutis collect: "taxes", "executive bonuses".
    pub fn taxes(self) -> String {
        self.v("taxes", &[])
    }

    /// "revolution", "corporate takeover".
    pub fn revolution(self) -> String {
        self.v("revolution", &[])
    }

    /// "merchant exchange", "Worker exchange".
    pub fn exchange(self) -> String {
        self.v("exchange", &[])
    }

    fn card_key(self, card: Card) -> String {
        format!("{}.card.{card}", self.variant.word())
    }

    /// One card's name: "Knight"; a card of the pack by its rank and suit
    /// symbol, "Q♠", the same in every language.
    pub fn card(self, card: Card) -> String {
        if card.is_suited() && !card.is_joker() {
            return pack_card(card);
        }
        self.n(&self.card_key(card), 1, &[])
    }

    /// Several cards' name: "Knights".
    pub fn cards(self, card: Card) -> String {
        if card.is_suited() && !card.is_joker() {
            return pack_card(card);
        }
        self.n(&self.card_key(card), 2, &[])
    }

    /// The wild card's name: "Jester", "Dogbert".
    pub fn wild(self) -> String {
        self.card(self.variant.wild())
    }

    /// The wild cards' name: "Jesters", "Dogberts".
    pub fn wilds(self) -> String {
        self.cards(self.variant.wild())
    }

    /// A title: "Greater Dalmuti", "Big Boss".
    pub fn title(self, title: Title) -> String {
        let word = match title {
            Title::GreaterDalmuti => "greater-dalmuti",
            Title::LesserDalmuti => "lesser-dalmuti",
            Title::Merchant { .. } => "merchant",
            Title::LesserPeon => "lesser-peon",
            Title::GreaterPeon => "greater-peon",
        };
        self.v(&format!("title.{word}"), &[])
    }

    /// The first seat's title: "Greater Dalmuti" or "Big Boss".
    pub fn top_title(self) -> String {
        self.title(Title::GreaterDalmuti)
    }

    /// A Merchant's title: "Merchant" or "Worker".
    pub fn merchant(self) -> String {
        self.title(Title::Merchant { class: 1 })
    }

    /// An entry of a space-separated list message (`numbers`, `ordinals`),
    /// if the language has one there.
    fn word_of(self, key: &str, i: usize) -> Option<String> {
        self.t(key, &[])
            .split_whitespace()
            .nth(i)
            .map(str::to_string)
    }

    /// A count in words where the language writes them ("two"), else in
    /// digits.
    pub fn number(self, n: u32) -> String {
        self.word_of("numbers", n as usize)
            .unwrap_or_else(|| n.to_string())
    }

    /// A 0-based finishing place: "first", "2.", "3위".
    pub fn ordinal(self, place: usize) -> String {
        self.word_of("ordinals", place)
            .unwrap_or_else(|| self.t("ordinal", &[("n", &(place + 1).to_string())]))
    }

    /// The article before a word, where the language has one that depends
    /// on the sound it starts with (English "a", "an").
    fn article(self, vowel: bool) -> String {
        self.t(if vowel { "article.an" } else { "article.a" }, &[])
    }

    /// `n` of a card in words: "a Mason", "four Stonecutters", "the
    /// Twirling Wedgie".
    pub fn count_of(self, n: u32, card: Card) -> String {
        if card.is_suited() && !card.is_joker() {
            return pack_card(card);
        }
        // A department (Marketing, Sales) is counted as cards of it: "two
        // Marketing cards", never "two Marketing".
        let counted = format!("{}.counted.{card}", self.variant.word());
        let counted = self.cat.has_own(&counted).then_some(counted);
        if n != 1 {
            let names = match &counted {
                Some(key) => self.n(key, 2, &[]),
                None => self.cards(card),
            };
            return self.n(
                "count.many",
                n.into(),
                &[("number", &self.number(n)), ("names", &names)],
            );
        }
        let name = match &counted {
            Some(key) => self.n(key, 1, &[]),
            None => self.card(card),
        };
        if [Card::TWIRLING_WEDGIE, Card::RATBERT, Card::WORLD_RULER].contains(&card) {
            return self.t(&format!("count.one.{card}"), &[("name", &name)]);
        }
        let a = self.article(name.starts_with(['A', 'E', 'I', 'O', 'U']));
        self.t("count.one", &[("a", &a), ("name", &name)])
    }

    /// A set in words: "three Knights (one a Jester)", "two Dogberts as 3s
    /// (Consultants)".
    pub fn set_words(self, set: &Set) -> String {
        if set.is_suited() {
            // The play as written, each card by its suit's symbol and each
            // Joker by name; a set's Jokers with what they stand for.
            let joker = self.card(Card::JOKER);
            let text = set.to_string();
            let (cards, stand) = match text.split_once(" as ") {
                Some((c, s)) => (c.to_string(), Some(s.to_string())),
                None => (text, None),
            };
            let symbols = |t: &str| -> Vec<String> {
                t.split(' ')
                    .map(|tok| match tok.parse::<Card>() {
                        Ok(c) if c.is_joker() => joker.clone(),
                        Ok(c) => pack_card(c),
                        Err(_) => tok.to_string(),
                    })
                    .collect()
            };
            let mut out = symbols(&cards).join(" ");
            if let Some(stand) = stand {
                out.push_str(&format!(" (= {})", symbols(&stand).join(" ")));
            }
            return out;
        }
        if set.holds_wedgie() {
            return self.cards_words(&set.cards());
        }
        if let Some(value) = set.declared() {
            let card = Card::from_index(value.into()).expect("1..=10");
            let n = u32::from(set.size());
            let dogberts = self.count_of(n, Card::DOGBERT);
            let a = self.article(matches!(value, 8 | 11));
            return self.n(
                "set.as",
                n.into(),
                &[
                    ("dogberts", &dogberts),
                    ("a", &a),
                    ("value", &value.to_string()),
                    ("name", &self.n(&self.card_key(card), n.into(), &[])),
                ],
            );
        }
        let base = self.count_of(u32::from(set.size()), set.face());
        match (set.naturals(), set.wilds()) {
            (0, _) | (_, 0) => base,
            (_, j) => {
                let name = self.n(&self.card_key(self.variant.wild()), j.into(), &[]);
                self.n(
                    "set.with-wilds",
                    j.into(),
                    &[
                        ("base", &base),
                        ("number", &self.number(j.into())),
                        ("wild", &name),
                    ],
                )
            }
        }
    }

    /// A group of cards in words: "an Archbishop and a Baroness".
    pub fn cards_words(self, cards: &Cards) -> String {
        if cards.is_suited() {
            let parts: Vec<String> = cards.iter().map(|c| self.card(c)).collect();
            if parts.is_empty() {
                return self.t("nothing", &[]);
            }
            return parts.join(" ");
        }
        let parts: Vec<String> = cards
            .kinds()
            .map(|(c, n)| self.count_of(u32::from(n), c))
            .collect();
        if parts.is_empty() {
            return self.t("nothing", &[]);
        }
        self.list(&parts, "list.and")
    }

    /// Items joined as a list with `last` ("list.and": "a, b and c";
    /// "list.or": "a, b or c").
    pub fn list(self, items: &[String], last: &str) -> String {
        match items.split_last() {
            None => self.t("nothing", &[]),
            Some((only, [])) => only.clone(),
            Some((end, rest)) => self.t(
                last,
                &[
                    ("rest", &rest.join(&self.t("list.separator", &[]))),
                    ("last", end),
                ],
            ),
        }
    }

    /// Items joined by the language's comma: "a, b, c".
    pub fn join(self, items: &[String]) -> String {
        items.join(&self.t("list.separator", &[]))
    }

    /// The player's own name in lists and tables: "you".
    pub fn you(self) -> String {
        self.t("you", &[])
    }
}

/// A card of the pack as people read it: its rank and suit symbol, "10♥".
pub fn pack_card(card: Card) -> String {
    match (card.place(), card.suit()) {
        (Some(place), Some(suit)) => {
            format!("{}{}", dalmuti_core::place_word(place), suit.symbol())
        }
        _ => card.token().to_string(),
    }
}

/// The first letter in upper case (a no-op for scripts without case).
pub fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(value: usize) -> Card {
        Card::from_index(value).unwrap()
    }

    #[test]
    fn departments_are_counted_as_cards_of_them() {
        let en = Tr::new(Lang::En, Variant::CorporateShuffle);
        assert_eq!(en.count_of(1, card(9)), "a Marketing card");
        assert_eq!(en.count_of(2, card(9)), "two Marketing cards");
        assert_eq!(en.count_of(1, card(6)), "an Accounting card");
        assert_eq!(en.count_of(3, card(5)), "three Human Resources cards");
        assert_eq!(en.count_of(1, card(8)), "a Sales card");
        let set: Set = "9 9".parse().unwrap();
        assert_eq!(en.set_words(&set), "two Marketing cards");
        // A person's title counts as it is; so does Dalmuti's deck.
        assert_eq!(en.count_of(2, card(10)), "two Engineers");
        assert_eq!(en.count_of(1, card(7)), "a Manager");
        let dalmuti = Tr::new(Lang::En, Variant::Dalmuti);
        assert_eq!(dalmuti.count_of(2, card(9)), "two Cooks");
        // The card's own name stays on the hand's chips.
        assert_eq!(en.card(card(9)), "Marketing");
        let de = Tr::new(Lang::De, Variant::CorporateShuffle);
        assert!(de.count_of(2, card(9)).ends_with(" Marketingkarten"));
        let es = Tr::new(Lang::Es, Variant::CorporateShuffle);
        assert!(es.count_of(2, card(8)).ends_with(" cartas de Ventas"));
    }
}
