//! The game in words for a player: hands, seats, decisions, moves as
//! commands, and why a move is refused. Shared by the interfaces.

use dalmuti_core::narrate::{cards_words, count_of, ordinal, set_words};
use dalmuti_core::{
    Action, Card, Cards, Decision, Illegal, NotASet, Seat, Set, Title, Variant, Words,
};

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
        hand(&cards, session.variant())
    )
}

/// A title in the variant's words, with Dalmuti's status symbols in words
/// (the crown and the straw hat; Corporate Shuffle has none), and the
/// highest Merchant (Worker) marked when the exchange is played.
pub fn title(title: Title, variant: Variant, merchant_exchange: bool) -> String {
    match (variant, title) {
        (Variant::Dalmuti, Title::GreaterDalmuti) => "Greater Dalmuti (crown)".to_string(),
        (Variant::Dalmuti, Title::GreaterPeon) => "Greater Peon (straw hat)".to_string(),
        (_, Title::Merchant { class: 1 }) if merchant_exchange => {
            format!("highest {}", variant.title_name(title))
        }
        (_, t) => variant.title_name(t).to_string(),
    }
}

/// The first seat's title: "Greater Dalmuti" or "Big Boss".
pub fn top_title(variant: Variant) -> &'static str {
    variant.title_name(Title::GreaterDalmuti)
}

/// The last seat's title: "Greater Peon" or "Junior Intern".
pub fn bottom_title(variant: Variant) -> &'static str {
    variant.title_name(Title::GreaterPeon)
}

/// A Merchant's title: "Merchant" or "Worker".
pub fn merchant(variant: Variant) -> &'static str {
    variant.title_name(Title::Merchant { class: 1 })
}

/// The optional exchange between Merchants, in a sentence: "merchant
/// exchange" or "Worker exchange" (as the log names it).
pub fn exchange_name(variant: Variant) -> String {
    match variant {
        Variant::Dalmuti => "merchant exchange".to_string(),
        _ => format!("{} exchange", merchant(variant)),
    }
}

/// What a Dalmuti chooses to give back: "tax gift", or Corporate
/// Shuffle's "gift in the executive bonuses".
pub fn gift(variant: Variant) -> String {
    match variant {
        Variant::Dalmuti => "tax gift".to_string(),
        _ => format!("gift in the {}", variant.words().taxes),
    }
}

/// When the setup's secret choices take effect: "every tax decision is
/// made".
pub fn setup_done(variant: Variant) -> &'static str {
    match variant {
        Variant::Dalmuti => "every tax decision is made",
        Variant::CorporateShuffle => "every executive bonus is chosen",
    }
}

/// The word typed to call a revolution: "revolution" or "takeover" (both
/// are understood in either game).
pub fn revolution_command(variant: Variant) -> &'static str {
    match variant {
        Variant::Dalmuti => "revolution",
        Variant::CorporateShuffle => "takeover",
    }
}

/// A seat as people count it, from 1.
pub fn seat_number(seat: Seat) -> usize {
    seat.index() + 1
}

/// One seat of the table on one line: "2. Anton, Lesser Dalmuti: 14 cards".
pub fn seat_line(info: &SeatInfo, variant: Variant, merchant_exchange: bool) -> String {
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
    } else if info.wedged {
        ", wedged (passes for the rest of the trick)"
    } else {
        ""
    };
    format!(
        "{}. {}{you}, {}: {state}{points}{acting}",
        seat_number(info.seat),
        info.name,
        title(info.title, variant, merchant_exchange),
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
                "On the table: {} [{}], played by {}.{passed}{}",
                set_words(&top.set, session.variant()),
                top.set,
                top.name,
                wedged_line(session)
                    .map(|w| format!(" {w}"))
                    .unwrap_or_default()
            )
        }
    }
}

/// Who the Twirling Wedgie keeps out of this trick, in a sentence.
pub fn wedged_line(session: &Session) -> Option<String> {
    let seat = session.view().wedged()?;
    Some(if seat == session.my_seat() {
        "You are wedged: you pass for the rest of the trick.".to_string()
    } else {
        format!(
            "{} is wedged: they pass for the rest of the trick.",
            session.name_at(seat)
        )
    })
}

/// An action as the command that makes it: "play 6 6 J", "give 12 12",
/// "offer 4 12" (seats from 1), "play D D as 3", "play 6 T wedgie Wally".
pub fn command(session: &Session, action: &Action) -> String {
    match action {
        Action::Ready => "ready".to_string(),
        Action::CallRevolution => revolution_command(session.variant()).to_string(),
        Action::GiveTax(cards) => format!("give {cards}"),
        Action::OfferExchange { partner, card } => {
            format!("offer {} {card}", seat_number(*partner))
        }
        Action::DeclineExchange => "decline".to_string(),
        Action::AnswerExchange(card) => format!("answer {card}"),
        Action::Play(set) => match set.wedgie_target() {
            Some(target) => format!("play {set} wedgie {}", session.name_at(target)),
            None => format!("play {set}"),
        },
        Action::Pass => "pass".to_string(),
    }
}

/// An action in words, as a hint explains it: "three Knights (one a
/// Jester)", "two Peasants", "a Peasant to Dana", "no revolution".
pub fn action(session: &Session, action: &Action) -> String {
    let variant = session.variant();
    let words = variant.words();
    match action {
        Action::Ready => format!("keep quiet about the {}", words.wilds),
        Action::CallRevolution => format!("call a {}", words.revolution),
        Action::GiveTax(cards) => cards_words(cards, variant),
        Action::OfferExchange { partner, card } => {
            format!(
                "{} to {}",
                count_of(1, *card, variant),
                session.name_at(*partner)
            )
        }
        Action::DeclineExchange => format!("no {}", exchange_name(variant)),
        Action::AnswerExchange(card) => count_of(1, *card, variant),
        Action::Play(set) => play_words(session, set),
        Action::Pass => "keep your cards".to_string(),
    }
}

/// A set the human may play, in words, with whom its Wedgie stops:
/// "the Twirling Wedgie, and Wally passes for the rest of the trick".
pub fn play_words(session: &Session, set: &Set) -> String {
    let words = set_words(set, session.variant());
    match set.wedgie_target() {
        Some(target) => format!(
            "{words}, and {} passes for the rest of the trick",
            session.name_at(target)
        ),
        None => words,
    }
}

/// What a revolution offered to the human would do, in words: for the
/// dialogs of every setup choice it may replace.
pub fn revolution_offer(session: &Session) -> Option<String> {
    let offer = session.revolution_offer()?;
    let view = session.view();
    let variant = session.variant();
    let Words {
        taxes,
        revolution,
        wilds,
        ..
    } = *variant.words();
    let what = if offer.greater {
        format!(
            "As {} yours is a greater {revolution}: no {taxes}, and everyone trades seats with \
             their opposite for this hand, so you become the {} and lead.",
            bottom_title(variant),
            top_title(variant)
        )
    } else {
        format!("A {revolution} means no {taxes} this hand; seats stay as they are.")
    };
    let anyway = if view.is_first_hand() && view.rules().first_deal_revolution {
        format!("This first hand has no {taxes} anyway (first-deal {revolution}).")
    } else {
        format!("If you keep quiet, {taxes} go ahead as usual.")
    };
    Some(format!(
        "You were dealt both {wilds} and may call a {revolution} instead. {what} {anyway} \
         Nobody learns that you kept quiet."
    ))
}

/// That the human may not call a revolution now.
pub fn no_revolution(variant: Variant) -> String {
    let words = variant.words();
    format!(
        "Only a player dealt both {} may call a {}, while the hand is set up and before making \
         their setup choice.",
        words.wilds, words.revolution
    )
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
    let variant = session.variant();
    match *decision {
        Decision::Ready => "The hand is being set up: look at your cards.".to_string(),
        Decision::Tax { to, count } => format!(
            "{}: as {} you give {} of your choice to {}, the {}, who at the same time gives \
             you their best {}. Nobody else learns the cards.",
            capitalize(variant.words().taxes),
            variant.title_name(view.title(session.my_seat())),
            if count == 1 {
                "one card".to_string()
            } else {
                format!("{count} cards")
            },
            session.name_at(to),
            variant.title_name(to.title(n)),
            if count == 1 { "card" } else { "cards" },
        ),
        Decision::ExchangeOffer => {
            let partners: Vec<String> = Seat::all(n)
                .filter(|&s| matches!(s.title(n), Title::Merchant { class } if class > 1))
                .map(|s| format!("seat {} {}", seat_number(s), session.name_at(s)))
                .collect();
            let m = merchant(variant);
            format!(
                "{m} exchange: as the highest {m} you may trade one card blind with another {m} \
                 ({}). Each of you gives one card at the same time, unseen.",
                partners.join(", ")
            )
        }
        Decision::ExchangeAnswer { from } => format!(
            "{m} exchange: {}, the highest {m}, offers you a blind trade. Give one card back; \
             you see theirs when the {} are done.",
            session.name_at(from),
            variant.words().taxes,
            m = merchant(variant),
        ),
        Decision::Lead => "You lead this round: play any set.".to_string(),
        Decision::Follow { top, by } => format!(
            "To top {} played by {}, play {} of a better {} (a lower number), {} allowed; or \
             pass.",
            set_words(&top, variant),
            if by == session.my_seat() {
                "you"
            } else {
                session.name_at(by)
            },
            if top.size() == 1 {
                "one card".to_string()
            } else {
                format!("{} cards", top.size())
            },
            rank_word(variant),
            variant.words().wilds,
        ),
    }
}

/// "rank" in Dalmuti, "value" in Corporate Shuffle (each rulebook's word).
pub fn rank_word(variant: Variant) -> &'static str {
    match variant {
        Variant::Dalmuti => "rank",
        Variant::CorporateShuffle => "value",
    }
}

/// The prompt line: `> ` then the decision's keyword, a colon, and the
/// commands that answer it. Scripts read the keyword.
pub fn prompt(session: &Session, decision: &Decision) -> String {
    let variant = session.variant();
    let (call, revolution) = (revolution_command(variant), variant.words().revolution);
    let instead = session
        .revolution_offer()
        .map(|o| {
            format!(
                ", or \"{call}\" to call a {}{revolution} instead",
                if o.greater { "greater " } else { "" }
            )
        })
        .unwrap_or_default();
    // The keyword after "> " is the same in both games: scripts read it.
    match *decision {
        Decision::Ready => match session.revolution_offer() {
            Some(offer) => format!(
                "> revolution: type \"{call}\" to call a {}{revolution} or \"no\" to keep quiet",
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
        Decision::Lead => format!("> lead: play a set ({})", play_forms(session)),
        Decision::Follow { top, .. } => format!(
            "> follow: top {} [{top}] ({}) or \"pass\"",
            set_words(&top, variant),
            play_forms(session)
        ),
    }
}

/// How to type a play, with the forms the human's special cards need.
fn play_forms(session: &Session) -> String {
    let cards = session.my_cards();
    let mut forms = vec!["\"play CARDS\""];
    if cards.count(Card::DOGBERT) > 0 {
        forms.push("\"play D as VALUE\"");
    }
    if cards.count(Card::TWIRLING_WEDGIE) > 0 {
        forms.push("\"play T wedgie NAME\"");
    }
    forms.join(", ")
}

/// What the player must do now, as the end of a refusal: "you are to lead
/// a set".
fn task(decision: &Decision, variant: Variant) -> String {
    match decision {
        Decision::Ready => "you are to say you are ready (\"ready\")".to_string(),
        Decision::Tax { .. } => {
            format!("you are to choose your {} (\"give CARDS\")", gift(variant))
        }
        Decision::ExchangeOffer => format!(
            "you may offer a {} (\"offer SEAT CARD\") or decline it (\"decline\")",
            exchange_name(variant)
        ),
        Decision::ExchangeAnswer { .. } => format!(
            "you are to give a card back in the {} (\"answer CARD\")",
            exchange_name(variant)
        ),
        Decision::Lead => "you are to lead a set (\"play CARDS\")".to_string(),
        Decision::Follow { .. } => {
            "you are to top the set on the table (\"play CARDS\") or pass".to_string()
        }
    }
}

/// That a command does not answer the decision at hand.
pub fn wrong_decision(decision: &Decision, variant: Variant) -> String {
    format!("That is not the decision now: {}.", task(decision, variant))
}

/// That the human does not hold `wanted`.
pub fn not_held(held: &Cards, wanted: &Cards, variant: Variant) -> String {
    let missing = wanted.missing_from(held);
    format!(
        "You do not hold {wanted}: you are missing {} [{missing}]. Type hand to see your cards.",
        cards_words(&missing, variant)
    )
}

/// Why typed cards are not a set, in the game's words.
pub fn not_a_set(cards: &Cards, why: &NotASet, variant: Variant) -> String {
    match (why, variant) {
        (NotASet::MixedRanks(_) | NotASet::Empty, Variant::Dalmuti) => {
            format!("{cards} is not a set: a set is cards of one rank, with any number of Jesters.")
        }
        (NotASet::MixedRanks(_) | NotASet::Empty, Variant::CorporateShuffle) => format!(
            "{cards} is not a set: a set is cards of one value, with any number of Dogberts (the \
             Twirling Wedgie counts as a 6)."
        ),
        (NotASet::AloneOnly(card), _) => format!(
            "{} ({card}) is played only alone, as a set of one: play {card}.",
            card.name(variant)
        ),
        (NotASet::DeclaredMissing, _) => format!(
            "Dogberts alone play as a value you name, 1 to 10: play {cards} as 3, for example."
        ),
        (NotASet::DeclaredNotAlone, Variant::Dalmuti) => {
            "Only Corporate Shuffle's Dogberts are played \"as\" a value: a Jester takes the \
             rank of the cards it joins, and alone it ranks 13."
                .to_string()
        }
        (NotASet::DeclaredNotAlone, Variant::CorporateShuffle) => {
            "Only Dogberts alone are played \"as\" a value: with other cards they take theirs."
                .to_string()
        }
        (NotASet::DeclaredValue(value), _) => {
            format!("Dogberts alone play as 1 to 10, not {value}: play {cards} as 3, for example.")
        }
        (NotASet::TooLarge, _) => format!("{cards} is too many cards for one set."),
        (other, _) => format!("{}.", capitalize(&other.to_string())),
    }
}

/// Why the engine refused the human's move, in one sentence.
pub fn refusal(session: &Session, reason: &Illegal) -> String {
    let variant = session.variant();
    match reason {
        Illegal::HandOver => "The hand is over.".to_string(),
        Illegal::NoRevolution => no_revolution(variant),
        Illegal::NotToAct => "It is not your turn: you have nothing to decide now.".to_string(),
        Illegal::WrongDecision(d) => wrong_decision(d, variant),
        Illegal::NotHeld(missing) => format!(
            "You do not hold that: you are missing {} [{missing}].",
            cards_words(missing, variant)
        ),
        Illegal::MustLead => "You lead this round, so you cannot pass: play any set.".to_string(),
        Illegal::WedgieNeedsTarget => "The Twirling Wedgie must name another player who still \
                                       holds cards: add \"wedgie NAME\"."
            .to_string(),
        Illegal::WedgieTarget(seat) if *seat == session.my_seat() => {
            "The Twirling Wedgie cannot name you: name another player who still holds cards."
                .to_string()
        }
        Illegal::WedgieTarget(seat) => format!(
            "The Twirling Wedgie cannot name {}, who holds no cards: name another player who \
             still holds cards.",
            if seat.index() < session.players() {
                session.name_at(*seat)
            } else {
                "that seat"
            }
        ),
        Illegal::WedgieEndsHand => "This play ends the hand, so the Twirling Wedgie names no \
                                    one: play it without \"wedgie\"."
            .to_string(),
        Illegal::WrongSize { top, played } => format!(
            "{played} does not top {top}: you must play {} card{}, not {}.",
            top.size(),
            if top.size() == 1 { "" } else { "s" },
            played.size()
        ),
        Illegal::DoesNotTop { top, played } => format!(
            "{played} does not top {top}: play {} of a better {} than {} (a lower number), or \
             pass.",
            top.size(),
            rank_word(variant),
            set_words(top, variant)
        ),
        Illegal::TaxCount { needed, given } => format!(
            "Give exactly {needed} card{} {}, not {given}.",
            if *needed == 1 { "" } else { "s" },
            match variant {
                Variant::Dalmuti => "in tax".to_string(),
                _ => format!("in the {}", variant.words().taxes),
            }
        ),
        Illegal::NotAMerchant(seat) => format!(
            "{} at seat {} is not another {}.",
            if seat.index() < session.players() {
                session.name_at(*seat).to_string()
            } else {
                "Nobody".to_string()
            },
            seat_number(*seat),
            merchant(variant)
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
        options.push(format!("first-deal {}", rules.variant.words().revolution));
    }
    if rules.merchant_exchange {
        options.push(exchange_name(rules.variant));
    }
    if rules.scoring != dalmuti_core::Scoring::None {
        options.push(format!("{} scoring", rules.scoring.word()));
    }
    options
}

/// The first letter in upper case.
pub fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
