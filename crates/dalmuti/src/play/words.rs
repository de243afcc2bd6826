//! The game in words for a player: hands, seats, decisions, moves as
//! commands, and why a move is refused. Shared by the interfaces.

use dalmuti_core::narrate::{cards_words, count_of, ordinal, set_words};
use dalmuti_core::{Action, Cards, Decision, Illegal, Seat, Title, Variant};

use super::session::{SeatInfo, Session};

/// A hand grouped by rank, best first, with names and the tokens to type:
/// `"a Dalmuti [1], two Earl Marshals [3 3], a Jester [J]"`.
pub fn hand(cards: &Cards, variant: Variant) -> String {
    if cards.is_empty() {
        return "no cards".to_string();
    }
    let groups: Vec<String> = cards
        .kinds()
        .map(|(card, n)| {
            let tokens = vec![card.token(); n.into()].join(" ");
            format!("{} [{tokens}]", count_of(n.into(), card, variant))
        })
        .collect();
    groups.join(", ")
}

/// The human's hand as one line.
pub fn hand_line(session: &Session) -> String {
    let cards = session.my_cards();
    format!(
        "Your hand ({} cards): {}.",
        cards.len(),
        hand(&cards, session.rules().variant)
    )
}

/// A title with its status symbol: the crown and the straw hat.
pub fn title(title: Title, merchant_exchange: bool) -> String {
    match title {
        Title::GreaterDalmuti => "Greater Dalmuti (crown)".to_string(),
        Title::GreaterPeon => "Greater Peon (straw hat)".to_string(),
        Title::Merchant { class: 1 } if merchant_exchange => "highest Merchant".to_string(),
        t => t.name().to_string(),
    }
}

/// A seat as people count it, from 1.
pub fn seat_number(seat: Seat) -> usize {
    seat.index() + 1
}

/// One seat of the table on one line: "2. Anton, Lesser Dalmuti: 14 cards".
pub fn seat_line(info: &SeatInfo, merchant_exchange: bool) -> String {
    let you = if info.is_me && !info.name.eq_ignore_ascii_case("you") {
        " (you)"
    } else {
        ""
    };
    let state = match info.out {
        Some(place) => format!("out, {}", ordinal(place)),
        None => format!("{} cards", info.cards),
    };
    let points = info
        .total
        .map(|t| format!(", {t} point{}", if t == 1 { "" } else { "s" }))
        .unwrap_or_default();
    let acting = if info.to_act && info.out.is_none() {
        ", to act"
    } else {
        ""
    };
    format!(
        "{}. {}{you}, {}: {state}{points}{acting}",
        seat_number(info.seat),
        info.name,
        title(info.title, merchant_exchange),
    )
}

/// Every seat's card count on one line: "Cards held: Amity 12, you 14…".
pub fn counts_line(session: &Session) -> String {
    let parts: Vec<String> = session
        .table()
        .iter()
        .map(|s| {
            let who = if s.is_me { "you" } else { s.name.as_str() };
            match s.out {
                Some(place) => format!("{who} out ({})", ordinal(place)),
                None => format!("{who} {}", s.cards),
            }
        })
        .collect();
    format!("Cards held: {}.", parts.join(", "))
}

/// The set on the table in one line, or that the table is empty.
pub fn top_line(session: &Session) -> String {
    match session.top() {
        None => "The table is empty.".to_string(),
        Some(top) => {
            let passed = if top.passed.is_empty() {
                String::new()
            } else {
                format!(" Passed since: {}.", top.passed.join(", "))
            };
            format!(
                "On the table: {} [{}], played by {}.{passed}",
                set_words(&top.set, session.rules().variant),
                top.set,
                top.name
            )
        }
    }
}

/// An action as the command that makes it: "play 6 6 J", "give 12 12",
/// "offer 4 12" (seats from 1).
pub fn command(action: &Action) -> String {
    match action {
        Action::Ready => "ready".to_string(),
        Action::CallRevolution => "revolution".to_string(),
        Action::GiveTax(cards) => format!("give {cards}"),
        Action::OfferExchange { partner, card } => {
            format!("offer {} {card}", seat_number(*partner))
        }
        Action::DeclineExchange => "decline".to_string(),
        Action::AnswerExchange(card) => format!("answer {card}"),
        Action::Play(set) => format!("play {set}"),
        Action::Pass => "pass".to_string(),
    }
}

/// An action in words, as a hint explains it: "three Knights (one a
/// Jester)", "two Peasants", "a Peasant to Dana", "no revolution".
pub fn action(session: &Session, action: &Action) -> String {
    match action {
        Action::Ready => "keep quiet about the Jesters".to_string(),
        Action::CallRevolution => "call a revolution".to_string(),
        Action::GiveTax(cards) => cards_words(cards, session.rules().variant),
        Action::OfferExchange { partner, card } => {
            format!(
                "{} to {}",
                count_of(1, *card, session.rules().variant),
                session.name_at(*partner)
            )
        }
        Action::DeclineExchange => "no merchant exchange".to_string(),
        Action::AnswerExchange(card) => count_of(1, *card, session.rules().variant),
        Action::Play(set) => set_words(set, session.rules().variant),
        Action::Pass => "keep your cards".to_string(),
    }
}

/// What a revolution offered to the human would do, in words: for the
/// dialogs of every setup choice it may replace.
pub fn revolution_offer(session: &Session) -> Option<String> {
    let offer = session.revolution_offer()?;
    let view = session.view();
    let what = if offer.greater {
        "As Greater Peon yours is a greater revolution: no taxes, and everyone trades seats with \
         their opposite for this hand, so you become the Greater Dalmuti and lead."
    } else {
        "A revolution means no taxes this hand; seats stay as they are."
    };
    let taxes = if view.is_first_hand() && view.rules().first_deal_revolution {
        "This first hand has no taxes anyway (first-deal revolution)."
    } else {
        "If you keep quiet, taxes go ahead as usual."
    };
    Some(format!(
        "You were dealt both Jesters and may call a revolution instead. {what} {taxes} \
         Nobody learns that you kept quiet."
    ))
}

/// That the human may not call a revolution now.
pub fn no_revolution() -> String {
    "Only a player dealt both Jesters may call a revolution, while the hand is set up and \
     before making their setup choice."
        .to_string()
}

/// What the decision is about, in a sentence or two, before the prompt
/// (with the revolution the human may call instead, if any).
pub fn explain(session: &Session, decision: &Decision) -> String {
    let text = explain_decision(session, decision);
    match revolution_offer(session) {
        Some(offer) if *decision == Decision::Ready => offer,
        Some(offer) => format!("{text} {offer}"),
        None => text,
    }
}

fn explain_decision(session: &Session, decision: &Decision) -> String {
    let view = session.view();
    let n = view.players();
    match *decision {
        Decision::Ready => "The hand is being set up: look at your cards.".to_string(),
        Decision::Tax { to, count } => format!(
            "Taxes: as {} you give {} of your choice to {}, the {}, who at the same time gives \
             you their best {}. Nobody else learns the cards.",
            view.title(session.my_seat()).name(),
            if count == 1 {
                "one card".to_string()
            } else {
                format!("{count} cards")
            },
            session.name_at(to),
            to.title(n).name(),
            if count == 1 { "card" } else { "cards" },
        ),
        Decision::ExchangeOffer => {
            let partners: Vec<String> = Seat::all(n)
                .filter(|&s| matches!(s.title(n), Title::Merchant { class } if class > 1))
                .map(|s| format!("seat {} {}", seat_number(s), session.name_at(s)))
                .collect();
            format!(
                "Merchant exchange: as the highest Merchant you may trade one card blind with \
                 another Merchant ({}). Each of you gives one card at the same time, unseen.",
                partners.join(", ")
            )
        }
        Decision::ExchangeAnswer { from } => format!(
            "Merchant exchange: {}, the highest Merchant, offers you a blind trade. Give one \
             card back; you see theirs when the taxes are done.",
            session.name_at(from)
        ),
        Decision::Lead => "You lead this round: play any set.".to_string(),
        Decision::Follow { top, by } => format!(
            "To top {} played by {}, play {} of a better rank (a lower number), Jesters \
             allowed; or pass.",
            set_words(&top, session.rules().variant),
            if by == session.my_seat() {
                "you"
            } else {
                session.name_at(by)
            },
            if top.size() == 1 {
                "one card".to_string()
            } else {
                format!("{} cards", top.size())
            }
        ),
    }
}

/// The prompt line: `> ` then the decision's keyword, a colon, and the
/// commands that answer it. Scripts read the keyword.
pub fn prompt(session: &Session, decision: &Decision) -> String {
    let instead = session
        .revolution_offer()
        .map(|o| {
            format!(
                ", or \"revolution\" to call a {}revolution instead",
                if o.greater { "greater " } else { "" }
            )
        })
        .unwrap_or_default();
    match *decision {
        Decision::Ready => match session.revolution_offer() {
            Some(offer) => format!(
                "> revolution: type \"revolution\" to call a {}revolution or \"no\" to keep quiet",
                if offer.greater { "greater " } else { "" }
            ),
            None => "> ready: type \"ready\"".to_string(),
        },
        Decision::Tax { to, count } => format!(
            "> tax: give {count} card{} to {} (\"give CARDS\"){instead}",
            if count == 1 { "" } else { "s" },
            session.name_at(to)
        ),
        Decision::ExchangeOffer => {
            format!("> exchange: \"offer SEAT CARD\" to trade blind, or \"decline\"{instead}")
        }
        Decision::ExchangeAnswer { from } => format!(
            "> answer: give one card back to {} (\"answer CARD\")",
            session.name_at(from)
        ),
        Decision::Lead => "> lead: play a set (\"play CARDS\")".to_string(),
        Decision::Follow { top, .. } => format!(
            "> follow: top {} [{top}] (\"play CARDS\") or \"pass\"",
            set_words(&top, session.rules().variant)
        ),
    }
}

/// What the player must do now, as the end of a refusal: "you are to lead
/// a set".
fn task(decision: &Decision) -> &'static str {
    match decision {
        Decision::Ready => "you are to say you are ready (\"ready\")",
        Decision::Tax { .. } => "you are to choose your tax gift (\"give CARDS\")",
        Decision::ExchangeOffer => {
            "you may offer a merchant exchange (\"offer SEAT CARD\") or decline it (\"decline\")"
        }
        Decision::ExchangeAnswer { .. } => {
            "you are to give a card back in the merchant exchange (\"answer CARD\")"
        }
        Decision::Lead => "you are to lead a set (\"play CARDS\")",
        Decision::Follow { .. } => "you are to top the set on the table (\"play CARDS\") or pass",
    }
}

/// That a command does not answer the decision at hand.
pub fn wrong_decision(decision: &Decision) -> String {
    format!("That is not the decision now: {}.", task(decision))
}

/// That the human does not hold `wanted`.
pub fn not_held(held: &Cards, wanted: &Cards, variant: Variant) -> String {
    let missing = wanted.missing_from(held);
    format!(
        "You do not hold {wanted}: you are missing {} [{missing}]. Type hand to see your cards.",
        cards_words(&missing, variant)
    )
}

/// Why the engine refused the human's move, in one sentence.
pub fn refusal(session: &Session, reason: &Illegal) -> String {
    match reason {
        Illegal::HandOver => "The hand is over.".to_string(),
        Illegal::NoRevolution => no_revolution(),
        Illegal::NotToAct => "It is not your turn: you have nothing to decide now.".to_string(),
        Illegal::WrongDecision(d) => wrong_decision(d),
        Illegal::NotHeld(missing) => format!(
            "You do not hold that: you are missing {} [{missing}].",
            cards_words(missing, session.rules().variant)
        ),
        Illegal::MustLead => "You lead this round, so you cannot pass: play any set.".to_string(),
        r @ (Illegal::WedgieNeedsTarget | Illegal::WedgieTarget(_) | Illegal::WedgieEndsHand) => {
            format!("{}.", capitalize(&r.to_string()))
        }
        Illegal::WrongSize { top, played } => format!(
            "{played} does not top {top}: you must play {} card{}, not {}.",
            top.size(),
            if top.size() == 1 { "" } else { "s" },
            played.size()
        ),
        Illegal::DoesNotTop { top, played } => format!(
            "{played} does not top {top}: play {} of a better rank than {} (a lower number), or pass.",
            top.size(),
            set_words(top, session.rules().variant)
        ),
        Illegal::TaxCount { needed, given } => format!(
            "Give exactly {needed} card{} in tax, not {given}.",
            if *needed == 1 { "" } else { "s" }
        ),
        Illegal::NotAMerchant(seat) => format!(
            "{} at seat {} is not another Merchant.",
            if seat.index() < session.players() {
                session.name_at(*seat).to_string()
            } else {
                "Nobody".to_string()
            },
            seat_number(*seat)
        ),
    }
}

/// The optional rules in force, in words ("stripped deck", "merchant
/// exchange", "standard scoring"…), for the headers of both modes.
pub fn optional_rules(rules: &dalmuti_core::Rules) -> Vec<String> {
    let mut options = Vec::new();
    if rules.stripped_deck {
        options.push("stripped deck".to_string());
    }
    if rules.first_deal_revolution {
        options.push("first-deal revolution".to_string());
    }
    if rules.merchant_exchange {
        options.push("merchant exchange".to_string());
    }
    if rules.scoring != dalmuti_core::Scoring::None {
        options.push(format!("{} scoring", rules.scoring.word()));
    }
    options
}

/// The first letter in upper case.
fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
