//! A game told in plain English, with card names and titles: what
//! `dalmuti replay` prints, and the words the play log uses.

use crate::card::Card;
use crate::cards::Cards;
use crate::event::Event;
use crate::game::{Game, HandLog};
use crate::rules::Scoring;
use crate::seat::Seat;
use crate::set::Set;

const NUMBERS: [&str; 17] = [
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
];

const ORDINALS: [&str; 16] = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
];

fn number(n: u32) -> String {
    NUMBERS
        .get(n as usize)
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

/// "first", "second"… for a 0-based place.
pub fn ordinal(place: usize) -> String {
    ORDINALS
        .get(place)
        .map_or_else(|| format!("{}th", place + 1), |w| (*w).to_string())
}

/// `n` of a card in words: "a Mason", "an Archbishop", "four Stonecutters".
///
/// ```
/// use dalmuti_core::{narrate::count_of, Card, Rank};
/// assert_eq!(count_of(1, Rank::ARCHBISHOP.into()), "an Archbishop");
/// assert_eq!(count_of(4, Rank::STONECUTTER.into()), "four Stonecutters");
/// assert_eq!(count_of(1, Card::JESTER), "a Jester");
/// ```
pub fn count_of(n: u32, card: Card) -> String {
    if n == 1 {
        let article = if card.name().starts_with(['A', 'E', 'I', 'O', 'U']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {}", card.name())
    } else {
        format!("{} {}", number(n), card.plural())
    }
}

/// A set in words: "three Knights (one a Jester)", "two Jesters".
///
/// ```
/// use dalmuti_core::narrate::set_words;
/// assert_eq!(set_words(&"6 6 J".parse().unwrap()), "three Knights (one a Jester)");
/// assert_eq!(set_words(&"J J".parse().unwrap()), "two Jesters");
/// ```
pub fn set_words(set: &Set) -> String {
    let base = count_of(u32::from(set.size()), set.face());
    match (set.naturals(), set.jesters()) {
        (0, _) | (_, 0) => base,
        (_, 1) => format!("{base} (one a Jester)"),
        (_, j) => format!("{base} ({} of them Jesters)", number(u32::from(j))),
    }
}

/// A group of cards in words: "an Archbishop and a Baroness".
///
/// ```
/// use dalmuti_core::narrate::cards_words;
/// assert_eq!(cards_words(&"10 10".parse().unwrap()), "two Shepherdesses");
/// assert_eq!(cards_words(&"2 4".parse().unwrap()), "an Archbishop and a Baroness");
/// ```
pub fn cards_words(cards: &Cards) -> String {
    let parts: Vec<String> = cards
        .kinds()
        .map(|(c, n)| count_of(u32::from(n), c))
        .collect();
    match parts.len() {
        0 => "nothing".to_string(),
        1 => parts[0].clone(),
        n => format!("{} and {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

/// Tells one hand's events, in order, one sentence each. `name` gives a
/// seat of play's player name.
pub fn events(events: &[Event], players: usize, name: &dyn Fn(Seat) -> String) -> Vec<String> {
    let title = |s: Seat| s.title(players).name();
    let mut lines = Vec::with_capacity(events.len());
    let mut leading = true;
    for event in events {
        let line = match *event {
            Event::RevolutionCalled {
                seat,
                greater: true,
            } => format!(
                "{0} was dealt both Jesters and, as Greater Peon, calls a greater revolution: no taxes, \
                 and everyone trades seats with their opposite. {0} is now the Greater Dalmuti.",
                name(seat)
            ),
            Event::RevolutionCalled {
                seat,
                greater: false,
            } => format!(
                "{} was dealt both Jesters and calls a revolution: no taxes this hand.",
                name(seat)
            ),
            Event::RevolutionDeclined { seat } => {
                format!(
                    "{} was dealt both Jesters but calls no revolution.",
                    name(seat)
                )
            }
            Event::TaxPaid(t) => format!(
                "Taxes: {}, the {}, gives {} to {}, the {}, and receives {}.",
                name(t.dalmuti),
                title(t.dalmuti),
                cards_words(&t.gift),
                name(t.peon),
                title(t.peon),
                cards_words(&t.tribute)
            ),
            Event::MerchantExchange(t) => format!(
                "Merchant exchange: {} trades {} blind with {} for {}.",
                name(t.offerer),
                count_of(1, t.offered),
                name(t.partner),
                count_of(1, t.returned)
            ),
            Event::ExchangeDeclined { seat } => {
                format!("{}, the highest Merchant, makes no exchange.", name(seat))
            }
            Event::Played { seat, set } => {
                let verb = if leading { "leads" } else { "tops it with" };
                leading = false;
                format!("{} {verb} {}.", name(seat), set_words(&set))
            }
            Event::Passed { seat } => format!("{} passes.", name(seat)),
            Event::WentOut { seat, place } => format!(
                "{} has gone out, {}: next hand's {}.",
                name(seat),
                ordinal(place.into()),
                Seat::new(place.into()).title(players).name()
            ),
            Event::RoundWon { seat, leader } => {
                leading = true;
                if seat == leader {
                    format!("Everyone passes: {} wins the round and leads.", name(seat))
                } else {
                    format!(
                        "Everyone passes. {} is out, so the lead goes to {}.",
                        name(seat),
                        name(leader)
                    )
                }
            }
            Event::HandOver => "Only one player still holds cards: the hand is over.".to_string(),
        };
        lines.push(line);
    }
    lines
}

/// The whole game as text: rules, the draw, then every hand with its
/// seating, deal, events, finishing order and scores.
pub fn game(game: &Game) -> Vec<String> {
    let mut out = Vec::new();
    let rules = game.rules();
    let mut options = Vec::new();
    if rules.stripped_deck {
        options.push("stripped decks");
    }
    if rules.first_deal_revolution {
        options.push("first-deal revolution");
    }
    if rules.merchant_exchange {
        options.push("merchant exchange");
    }
    match rules.scoring {
        Scoring::None => {}
        Scoring::Standard => options.push("scoring"),
        Scoring::Philanthropic => options.push("philanthropic scoring"),
    }
    out.push(format!(
        "A game of The Great Dalmuti, {} hand(s). Optional rules: {}.",
        game.hands().len(),
        if options.is_empty() {
            "none".to_string()
        } else {
            options.join(", ")
        }
    ));
    if let Some(rounds) = game.draw() {
        for (i, round) in rounds.iter().enumerate() {
            let draws: Vec<String> = round
                .iter()
                .map(|&(p, c)| {
                    format!(
                        "{} draws {}",
                        game.name(crate::game::PlayerId::from_index(p)),
                        count_of(1, c)
                    )
                })
                .collect();
            let intro = if i == 0 {
                "The draw for seats"
            } else {
                "The tied players draw again"
            };
            out.push(format!("{intro}: {}.", draws.join(", ")));
        }
    }
    let mut totals = vec![0u32; game.players().count()];
    for (i, log) in game.hands().iter().enumerate() {
        out.push(String::new());
        out.extend(hand(game, i, log, &mut totals));
    }
    if game.is_between_hands() && !game.hands().is_empty() {
        out.push(String::new());
        let next: Vec<&str> = game.next_seating().iter().map(|&p| game.name(p)).collect();
        out.push(format!("Next hand's seating: {}.", next.join(", ")));
        if game.scored() {
            let mut standings: Vec<(u32, &str)> = game
                .players()
                .map(|p| (game.total(p), game.name(p)))
                .collect();
            standings.sort_by_key(|s| std::cmp::Reverse(s.0));
            let words: Vec<String> = standings.iter().map(|(t, n)| format!("{n} {t}")).collect();
            out.push(format!("Standings: {}.", words.join(", ")));
        }
    }
    out
}

fn hand(game: &Game, index: usize, log: &HandLog, totals: &mut [u32]) -> Vec<String> {
    let hand = &log.hand;
    let n = hand.players();
    let mut out = vec![format!("Hand {}", index + 1)];
    for &p in &log.left {
        out.push(format!("{} leaves the table.", game.name(p)));
    }
    for &(p, seat) in &log.joined {
        out.push(format!(
            "{} joins the table at seat {}.",
            game.name(p),
            seat + 1
        ));
    }
    let seating: Vec<String> = log
        .dealt_seating
        .iter()
        .enumerate()
        .map(|(i, &p)| format!("{} ({})", game.name(p), Seat::new(i).title(n)))
        .collect();
    out.push(format!("Seating: {}.", seating.join(", ")));
    for &p in &log.dealt_seating {
        let seat = log.seat_of(p).expect("seated");
        let dealt = hand.dealt(seat);
        out.push(format!(
            "  {} is dealt {} cards: {dealt}",
            game.name(p),
            dealt.len()
        ));
    }
    if hand.is_first() && hand.rules().first_deal_revolution {
        out.push("First-deal revolution: no taxes this hand.".to_string());
    }
    let name = |s: Seat| game.name(log.player_at(s)).to_string();
    out.extend(events(hand.events(), n, &name));
    let order: Vec<String> = log
        .finishers()
        .enumerate()
        .map(|(i, p)| format!("{}. {}", i + 1, game.name(p)))
        .collect();
    if hand.stage() == crate::Stage::Over {
        out.push(format!("Finishing order: {}.", order.join(", ")));
    } else {
        out.push(format!(
            "The record stops here, mid-hand. Out so far: {}.",
            if order.is_empty() {
                "no one".into()
            } else {
                order.join(", ")
            }
        ));
    }
    if let Some(points) = hand.points() {
        let scores: Vec<String> = Seat::all(n)
            .map(|s| {
                let p = log.player_at(s);
                totals[p.index()] += points[s];
                format!("{} +{} ({})", game.name(p), points[s], totals[p.index()])
            })
            .collect();
        out.push(format!("Scores this hand (totals): {}.", scores.join(", ")));
    }
    out
}
