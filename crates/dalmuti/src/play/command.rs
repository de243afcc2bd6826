//! The commands a player types in the plain line mode, read
//! case-insensitively.

use dalmuti_core::{Card, Cards};

/// One typed line, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty line: show the situation again (between hands: deal).
    Empty,
    /// `play 6 6 J`.
    Play(Cards),
    /// Cards alone, `6 6 J`: a play, a tax gift or an exchange card,
    /// whichever the decision asks for.
    Cards(Cards),
    /// `pass`.
    Pass,
    /// `revolution` (or `yes`, `call`).
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
}

/// Reads one line as a command, or says in one sentence what is wrong.
///
/// Cards are `1` to `12` and `J` (or `jester`), separated by spaces or
/// commas.
pub fn parse(line: &str) -> Result<Command, String> {
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
            Err(format!(
                "\"{verb}\" takes nothing after it. Type help for the commands."
            ))
        }
    };
    match verb.as_str() {
        "play" | "p" => {
            if rest.is_empty() {
                return Err("Play which cards? For example: play 6 6 J".into());
            }
            cards(rest).map(Command::Play)
        }
        "give" => {
            if rest.is_empty() {
                return Err("Give which cards? For example: give 12 12".into());
            }
            cards(rest).map(Command::Give)
        }
        "offer" => match rest {
            [partner, card] => Ok(Command::Offer {
                partner: partner.clone(),
                card: one_card(card)?,
            }),
            _ => Err("Offer needs a seat and a card, for example: offer 4 12".into()),
        },
        "answer" => match rest {
            [card] => Ok(Command::Answer(one_card(card)?)),
            _ => Err("Answer needs one card, for example: answer 9".into()),
        },
        "pass" => nothing_more(Command::Pass),
        "revolution" | "yes" | "call" => nothing_more(Command::Revolution),
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
        _ if is_card(verb) => cards(&words).map(Command::Cards),
        _ => Err(format!(
            "Unknown command \"{}\". Type help for the commands.",
            shorten(verb)
        )),
    }
}

fn is_card(word: &str) -> bool {
    one_card(word).is_ok()
}

fn one_card(word: &str) -> Result<Card, String> {
    let token = match word {
        "j" | "jester" | "jesters" => "J",
        other => other,
    };
    token.parse::<Card>().map_err(|_| {
        format!(
            "\"{}\" is not a card: cards are 1 (Dalmuti) to 12 (Peasant) and J (Jester).",
            shorten(word)
        )
    })
}

fn cards(words: &[String]) -> Result<Cards, String> {
    let mut all = Cards::EMPTY;
    for word in words {
        let card = one_card(word)?;
        if all.count(card) == u8::MAX {
            return Err("That is far more cards than anyone holds.".into());
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

    fn c(s: &str) -> Cards {
        s.parse().unwrap()
    }

    #[test]
    fn commands_read_in_any_case_with_or_without_a_verb() {
        assert_eq!(parse("PLAY 6 6 j"), Ok(Command::Play(c("6 6 J"))));
        assert_eq!(parse("  6, 6 Jester "), Ok(Command::Cards(c("6 6 J"))));
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
}
