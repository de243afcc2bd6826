//! The commands a player types in the plain line mode, read
//! case-insensitively.

use dalmuti_core::{Card, Cards, Set, Variant};

use crate::tr::Tr;

/// A play as typed: cards, then the value Dogberts alone play as (`as 3`),
/// then the player the Twirling Wedgie names (`wedgie Wally`). Whether
/// these make a set is the caller's to check, with the game's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The play itself, for President and Daifugō, whose Jokers say what
    /// they stand for (`9H JK as 9S`, `5H JK 7H`).
    pub suited: Option<Set>,
    /// The cards.
    pub cards: Cards,
    /// The value after `as`.
    pub value: Option<u8>,
    /// The player after `wedgie`, as typed (lower case): a seat number
    /// from 1, or a name.
    pub target: Option<String>,
}

/// One typed line, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty line: show the situation again (between hands: deal).
    Empty,
    /// `play 6 6 J` (`play D D as 3`, `play 6 T wedgie Wally`).
    Play(Play),
    /// Cards alone, `6 6 J`: a play, a tax gift or an exchange card,
    /// whichever the decision asks for.
    Cards(Play),
    /// `pass`.
    Pass,
    /// `revolution` (or `takeover`, `yes`, `call`).
    Revolution,
    /// `ready`: nothing to choose but to say so (for a player dealt both
    /// Jesters, keeping quiet).
    Ready,
    /// `no` or `decline`: no revolution, or no merchant exchange.
    Decline,
    /// `give 10 10`: the tax gift.
    Give(Cards),
    /// `offer 4 7`: a merchant exchange with the Merchant at seat 4 (or
    /// named), offering a 7.
    Offer {
        /// The partner as typed: a seat number from 1, or a name.
        partner: String,
        /// The card offered.
        card: Card,
    },
    /// `answer 9`: the card given back in a merchant exchange.
    Answer(Card),
    /// `hint`: what the heuristic bot would do.
    Hint,
    /// `legal`: every legal move.
    Legal,
    /// `hand`: your cards.
    Hand,
    /// `table`: the seats, titles and card counts.
    Table,
    /// `log`: the hand so far.
    Log,
    /// `score`: the standings.
    Score,
    /// `help`: the rules in short and the commands.
    Help,
    /// `next`: deal the next hand.
    Next,
    /// `quit`: save and stop.
    Quit,
    /// `lang`: the languages; `lang de`: speak German from now on.
    Lang(Option<String>),
}

/// Reads one line as a command for the game of `tr`, or says in one
/// sentence (in `tr`'s language) what is wrong. The command words are
/// English in every language; cards may also be typed by their names in
/// the language played (one-word names: "ritter", "기사").
///
/// Cards are the record's tokens, separated by spaces or commas: `1` to
/// `12` and `J` (or `jester`) in Dalmuti; `0`, `1` to `10`, `T`, `R` and
/// `D` (or `dogbert`, `ratbert`) in Corporate Shuffle. Cards of the other
/// game's deck are refused here.
pub fn parse(line: &str, tr: Tr) -> Result<Command, String> {
    let words: Vec<String> = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let Some((verb, rest)) = words.split_first() else {
        return Ok(Command::Empty);
    };
    let nothing_more = |command: Command| {
        if rest.is_empty() {
            Ok(command)
        } else {
            Err(tr.t("cmd.nothing-after", &[("word", verb)]))
        }
    };
    match verb.as_str() {
        "play" | "p" => {
            if rest.is_empty() {
                return Err(tr.t("cmd.play-which", &[("example", example(tr.variant()))]));
            }
            play(rest, tr).map(Command::Play)
        }
        "give" => {
            if rest.is_empty() {
                let example = match tr.variant() {
                    Variant::Dalmuti => "12 12",
                    Variant::CorporateShuffle => "10 10",
                    Variant::Daifugo | Variant::President => "3C 4D",
                };
                return Err(tr.t("cmd.give-which", &[("example", example)]));
            }
            cards(rest, tr).map(Command::Give)
        }
        "offer" => match rest {
            [partner, card] => Ok(Command::Offer {
                partner: partner.clone(),
                card: one_card(card, tr)?,
            }),
            _ => Err(tr.t("cmd.offer-needs", &[])),
        },
        // 10-discard: the card to discard (cards alone do as well).
        "discard" => match rest {
            [] => Err(tr.t("cmd.answer-needs", &[])),
            _ => play(rest, tr).map(Command::Cards),
        },
        "answer" => match rest {
            [card] => Ok(Command::Answer(one_card(card, tr)?)),
            _ => Err(tr.t("cmd.answer-needs", &[])),
        },
        "lang" | "language" => match rest {
            [] => Ok(Command::Lang(None)),
            [code] => Ok(Command::Lang(Some(shorten(code)))),
            _ => Err(tr.t("cmd.nothing-after", &[("word", verb)])),
        },
        "pass" => nothing_more(Command::Pass),
        "revolution" | "takeover" | "yes" | "call" => nothing_more(Command::Revolution),
        "no" | "decline" => nothing_more(Command::Decline),
        "ready" | "quiet" => nothing_more(Command::Ready),
        "hint" => nothing_more(Command::Hint),
        "legal" | "moves" => nothing_more(Command::Legal),
        "hand" | "cards" => nothing_more(Command::Hand),
        "table" => nothing_more(Command::Table),
        "log" => nothing_more(Command::Log),
        "score" | "scores" | "standings" => nothing_more(Command::Score),
        "help" | "?" => nothing_more(Command::Help),
        "next" | "deal" => nothing_more(Command::Next),
        "quit" | "exit" | "q" => nothing_more(Command::Quit),
        _ if one_card(verb, tr).is_ok() => play(&words, tr).map(Command::Cards),
        _ => Err(tr.t("cmd.unknown", &[("word", &shorten(verb))])),
    }
}

/// A set of cards as people write it in `variant`, for the examples in
/// messages.
fn example(variant: Variant) -> &'static str {
    match variant {
        Variant::Dalmuti => "6 6 J",
        Variant::CorporateShuffle => "6 6 D",
        Variant::Daifugo | Variant::President => "9H JK as 9S",
    }
}

/// The cards of a game, in a sentence: their tokens and names.
fn deck_words(tr: Tr) -> String {
    let names: Vec<(String, String)> = tr
        .variant()
        .kinds()
        .map(|card| (format!("c{card}"), tr.card(card)))
        .collect();
    let args: Vec<(&str, &str)> = names
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    tr.v("deck", &args)
}

/// A card of the pack as typed: `9h`, `10♥`, `jk` or `joker`.
fn suited_token(word: &str) -> String {
    let lower = word.to_lowercase();
    if lower == "jk" || lower == "joker" || lower == "jokers" || lower == "🃏" {
        return "JK".into();
    }
    lower
        .replace('♠', "s")
        .replace('♥', "h")
        .replace('♦', "d")
        .replace('♣', "c")
        .to_uppercase()
}

fn one_card(word: &str, tr: Tr) -> Result<Card, String> {
    let variant = tr.variant();
    if variant.is_suited() {
        return suited_token(word)
            .parse::<Card>()
            .ok()
            .filter(|c| c.is_suited())
            .ok_or_else(|| {
                tr.t(
                    "cmd.not-a-card",
                    &[("word", &shorten(word)), ("deck", &tr.t("pack.cards", &[]))],
                )
            });
    }
    let token = match word {
        "j" | "jester" | "jesters" => "J",
        "d" | "dogbert" | "dogberts" => "D",
        "t" => "T",
        "r" | "ratbert" => "R",
        other => other,
    };
    token
        .parse::<Card>()
        .ok()
        // Each game's specials exist in its own deck only.
        .filter(|card| card.variant().is_none_or(|v| v == variant))
        // A card's name in the language played, singular or plural.
        .or_else(|| {
            variant.kinds().find(|&card| {
                [tr.card(card), tr.cards(card)]
                    .iter()
                    .any(|name| name.to_lowercase() == word)
            })
        })
        .ok_or_else(|| {
            tr.t(
                "cmd.not-a-card",
                &[("word", &shorten(word)), ("deck", &deck_words(tr))],
            )
        })
}

/// A play: cards, then `as VALUE`, then `wedgie NAME`, each optional.
fn play(words: &[String], tr: Tr) -> Result<Play, String> {
    if tr.variant().is_suited() {
        // The words are the play as the record writes it: each card, and
        // `as` the cards its Jokers stand for in a set.
        let mut tokens = Vec::with_capacity(words.len());
        for word in words {
            if word.eq_ignore_ascii_case("as") {
                tokens.push("as".to_string());
            } else {
                tokens.push(one_card(word, tr)?.token().to_string());
            }
        }
        let text = tokens.join(" ");
        let set: Set = text.parse().map_err(|e: dalmuti_core::NotASet| {
            tr.t(
                "not-a-set.pack",
                &[("cards", &text), ("why", &e.to_string())],
            )
        })?;
        return Ok(Play {
            suited: Some(set),
            cards: set.cards(),
            value: None,
            target: None,
        });
    }
    let (words, target) = match words.iter().position(|w| w == "wedgie") {
        Some(at) => {
            let name = words[at + 1..].join(" ");
            if name.is_empty() {
                return Err(tr.t("cmd.wedgie-name", &[]));
            }
            (&words[..at], Some(name))
        }
        None => (words, None),
    };
    let (words, value) = match words.iter().position(|w| w == "as") {
        Some(at) => match &words[at + 1..] {
            [value] => {
                let value = value
                    .parse::<u8>()
                    .map_err(|_| tr.t("cmd.not-a-value", &[("word", &shorten(value))]))?;
                (&words[..at], Some(value))
            }
            _ => {
                return Err(tr.t("cmd.one-value", &[]));
            }
        },
        None => (words, None),
    };
    if words.is_empty() {
        return Err(tr.t("cmd.play-which", &[("example", example(tr.variant()))]));
    }
    Ok(Play {
        suited: None,
        cards: cards(words, tr)?,
        value,
        target,
    })
}

fn cards(words: &[String], tr: Tr) -> Result<Cards, String> {
    let mut all = Cards::EMPTY;
    for word in words {
        let card = one_card(word, tr)?;
        if all.count(card) == u8::MAX {
            return Err(tr.t("cmd.too-many", &[]));
        }
        all.add(card, 1);
    }
    Ok(all)
}

/// A word as echoed back in a message: at most 20 characters.
fn shorten(word: &str) -> String {
    let short: String = word.chars().take(20).collect();
    if short.len() < word.len() {
        format!("{short}…")
    } else {
        short
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalmuti_i18n::Lang;

    const D: Variant = Variant::Dalmuti;
    const CS: Variant = Variant::CorporateShuffle;

    fn en(variant: Variant) -> Tr {
        Tr::new(Lang::En, variant)
    }

    fn c(s: &str) -> Cards {
        s.parse().unwrap()
    }

    fn plain(s: &str) -> Play {
        Play {
            suited: None,
            cards: c(s),
            value: None,
            target: None,
        }
    }

    fn parse(line: &str) -> Result<Command, String> {
        super::parse(line, en(D))
    }

    #[test]
    fn commands_read_in_any_case_with_or_without_a_verb() {
        assert_eq!(parse("PLAY 6 6 j"), Ok(Command::Play(plain("6 6 J"))));
        assert_eq!(parse("  6, 6 Jester "), Ok(Command::Cards(plain("6 6 J"))));
        assert_eq!(parse("Give 10 10"), Ok(Command::Give(c("10 10"))));
        assert_eq!(
            parse("offer Dana 7"),
            Ok(Command::Offer {
                partner: "dana".into(),
                card: "7".parse().unwrap()
            })
        );
        assert_eq!(parse("answer J"), Ok(Command::Answer(Card::JESTER)));
        assert_eq!(parse("No"), Ok(Command::Decline));
        assert_eq!(parse(""), Ok(Command::Empty));
        assert_eq!(parse("Pass"), Ok(Command::Pass));
    }

    #[test]
    fn bad_lines_say_why() {
        assert!(
            parse("dance")
                .unwrap_err()
                .starts_with("Unknown command \"dance\"")
        );
        assert!(parse("play 13").unwrap_err().contains("not a card"));
        assert!(parse("play").unwrap_err().contains("which cards"));
        assert!(parse("pass now").unwrap_err().contains("takes nothing"));
        assert!(parse("offer 4").unwrap_err().contains("a seat and a card"));
        let long = "x".repeat(500);
        assert!(parse(&long).unwrap_err().len() < 100);
        let many = vec!["7"; 300].join(" ");
        assert!(parse(&many).is_err());
    }

    #[test]
    fn corporate_shuffle_plays_say_their_value_and_their_victim() {
        let cs = |line: &str| super::parse(line, en(CS));
        assert_eq!(
            cs("play D d as 3"),
            Ok(Command::Play(Play {
                suited: None,
                cards: c("D D"),
                value: Some(3),
                target: None
            }))
        );
        assert_eq!(
            cs("6 T wedgie Wally"),
            Ok(Command::Cards(Play {
                suited: None,
                cards: c("6 T"),
                value: None,
                target: Some("wally".into())
            }))
        );
        assert_eq!(cs("play 0"), Ok(Command::Play(plain("0"))));
        assert_eq!(cs("play ratbert"), Ok(Command::Play(plain("R"))));
        assert_eq!(cs("takeover"), Ok(Command::Revolution));
        // The value's range is the set's to check; here only its form.
        assert_eq!(
            cs("play D as 0"),
            Ok(Command::Play(Play {
                suited: None,
                cards: c("D"),
                value: Some(0),
                target: None
            }))
        );
        assert!(
            cs("play D as")
                .unwrap_err()
                .contains("one value after \"as\"")
        );
        assert!(
            cs("play D as three")
                .unwrap_err()
                .contains("is not a value")
        );
        assert!(
            cs("play 6 T wedgie")
                .unwrap_err()
                .contains("after \"wedgie\"")
        );
        assert!(cs("play as 3").unwrap_err().contains("which cards"));
    }

    #[test]
    fn each_game_knows_only_its_own_cards() {
        let err = super::parse("play J", en(CS)).unwrap_err();
        assert!(err.contains("\"j\" is not a card"), "{err}");
        assert!(err.contains("D (Dogbert)"), "{err}");
        assert!(super::parse("play 11", en(CS)).is_err());
        assert!(parse("play D").unwrap_err().contains("J (Jester)"));
        assert!(parse("play 0").is_err());
        assert!(parse("12").is_ok());
    }

    #[test]
    fn cards_may_be_typed_by_their_names_in_the_language_played() {
        let de = Tr::new(Lang::De, D);
        assert_eq!(
            super::parse("play ritter ritter", de),
            Ok(Command::Play(plain("6 6")))
        );
        assert_eq!(super::parse("Narr", de), Ok(Command::Cards(plain("J"))));
        let ko = Tr::new(Lang::Ko, D);
        assert_eq!(
            super::parse("play 기사 광대", ko),
            Ok(Command::Play(plain("6 J")))
        );
        // The command words stay English; the messages follow the language.
        let err = super::parse("spielen 6", de).unwrap_err();
        assert!(err.contains("\"spielen\""), "{err}");
        assert_ne!(err, super::parse("spielen 6", en(D)).unwrap_err());
        assert_eq!(
            super::parse("lang ja", de),
            Ok(Command::Lang(Some("ja".into())))
        );
    }
}
