//! The game in words for a player, in the player's language: hands, seats,
//! decisions, moves as commands, and why a move is refused. Shared by the
//! interfaces. Typed commands ("play 6 6 J", "pass") stay English in every
//! language: they are what the player types, and scripts read them.

use dalmuti_core::{Action, Card, Cards, Decision, Illegal, NotASet, Seat, Set, Title, Variant};

pub use crate::phrase::{say, say_n, shown_name, vocabulary, you_mark};
use crate::session::{SeatInfo, Session};
use crate::tr::Tr;

/// A hand grouped by rank, best first, with names and the tokens to type:
/// `"a Dalmuti [1], two Earl Marshals [3 3], a Jester [J]"`.
pub fn hand(cards: &Cards, tr: Tr) -> String {
    if cards.is_empty() {
        return tr.t("hand.empty", &[]);
    }
    let groups: Vec<String> = cards
        .kinds()
        .map(|(card, n)| {
            let tokens = vec![card.token(); n.into()].join(" ");
            format!("{} [{tokens}]", tr.count_of(n.into(), card))
        })
        .collect();
    tr.join(&groups)
}

/// The human's hand as one line.
pub fn hand_line(session: &Session) -> String {
    cards_line(&session.my_cards(), session.tr())
}

/// `cards` as the human's hand, on one line: "Your hand (16 cards): …".
pub fn cards_line(cards: &Cards, tr: Tr) -> String {
    tr.n(
        "hand.line",
        cards.len().into(),
        &[("hand", &hand(cards, tr))],
    )
}

/// A title in the variant's words, with Dalmuti's status symbols in words
/// (the crown and the straw hat; Corporate Shuffle has none), and the
/// highest Merchant (Worker) marked when the exchange is played.
pub fn title(title: Title, tr: Tr, merchant_exchange: bool) -> String {
    let name = tr.title(title);
    let key = match (tr.variant(), title) {
        (Variant::Dalmuti, Title::GreaterDalmuti) => "title.crown",
        (Variant::Dalmuti, Title::GreaterPeon) => "title.straw-hat",
        (_, Title::Merchant { class: 1 }) if merchant_exchange => "title.highest",
        _ => return name,
    };
    tr.t(key, &[("title", &name)])
}

/// The word typed to call a revolution: "revolution" or "takeover" (both
/// are understood in either game).
pub fn revolution_command(variant: Variant) -> &'static str {
    match variant {
        Variant::CorporateShuffle => "takeover",
        _ => "revolution",
    }
}

/// A seat as people count it, from 1.
pub fn seat_number(seat: Seat) -> usize {
    seat.index() + 1
}

/// One seat of the table on one line: "2. Anton, Lesser Dalmuti: 14 cards".
pub fn seat_line(info: &SeatInfo, tr: Tr, merchant_exchange: bool) -> String {
    let state = match info.out {
        Some(place) => tr.t("seat.out", &[("place", &tr.ordinal(place))]),
        None => tr.n("seat.cards", info.cards.into(), &[]),
    };
    let points = info
        .total
        .map(|t| tr.n("seat.points", t.into(), &[]))
        .unwrap_or_default();
    let acting = if info.to_act && info.out.is_none() {
        tr.t("seat.to-act", &[])
    } else if info.wedged {
        tr.t("seat.wedged", &[])
    } else {
        String::new()
    };
    tr.t(
        "seat.line",
        &[
            ("seat", &seat_number(info.seat).to_string()),
            ("name", &shown_name(&info.name, info.is_me, tr)),
            ("you", &you_mark(&info.name, info.is_me, tr)),
            ("title", &title(info.title, tr, merchant_exchange)),
            ("state", &state),
            ("points", &points),
            ("acting", &acting),
        ],
    )
}

/// Every seat's card count on one line: "Cards held: Amity 12, you 14…".
pub fn counts_line(session: &Session) -> String {
    let tr = session.tr();
    let parts: Vec<String> = session
        .table()
        .iter()
        .map(|s| {
            let who = if s.is_me { tr.you() } else { s.name.clone() };
            match s.out {
                Some(place) => tr.t(
                    "counts.out",
                    &[("who", &who), ("place", &tr.ordinal(place))],
                ),
                None => tr.t("counts.held", &[("who", &who), ("n", &s.cards.to_string())]),
            }
        })
        .collect();
    tr.t("counts.line", &[("counts", &tr.join(&parts))])
}

/// The set on the table in one line, or that the table is empty.
pub fn top_line(session: &Session) -> String {
    let tr = session.tr();
    let Some(top) = session.top() else {
        return tr.t("top.empty", &[]);
    };
    let mut line = tr.t(
        "top.line",
        &[
            ("set", &tr.set_words(&top.set)),
            ("tokens", &top.set.to_string()),
            ("name", &top.name),
        ],
    );
    if !top.passed.is_empty() {
        line.push(' ');
        line.push_str(&tr.t("top.passed", &[("names", &tr.join(&top.passed))]));
    }
    if let Some(w) = wedged_line(session) {
        line.push(' ');
        line.push_str(&w);
    }
    line
}

/// Who the Twirling Wedgie keeps out of this trick, in a sentence.
pub fn wedged_line(session: &Session) -> Option<String> {
    let seat = session.view().wedged()?;
    Some(session.about("wedged", seat, &[]))
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
        Action::Give(card) => format!("give {card}"),
        Action::Discard(card) => format!("discard {card}"),
    }
}

/// An action in words, as a hint explains it: "three Knights (one a
/// Jester)", "two Peasants", "a Peasant to Dana", "no revolution".
pub fn action(session: &Session, action: &Action) -> String {
    let tr = session.tr();
    match action {
        Action::Ready => say(tr, "action.ready", &[]),
        Action::CallRevolution => say(tr, "action.revolution", &[]),
        Action::GiveTax(cards) => tr.cards_words(cards),
        Action::OfferExchange { partner, card } => tr.t(
            "action.offer",
            &[
                ("card", &tr.count_of(1, *card)),
                ("name", session.name_at(*partner)),
            ],
        ),
        Action::DeclineExchange => say(tr, "action.decline", &[]),
        Action::AnswerExchange(card) => tr.count_of(1, *card),
        Action::Play(set) => play_words(session, set),
        Action::Pass => tr.t("action.pass", &[]),
        Action::Give(card) | Action::Discard(card) => tr.count_of(1, *card),
    }
}

/// A set the human may play, in words, with whom its Wedgie stops:
/// "the Twirling Wedgie, and Wally passes for the rest of the trick".
pub fn play_words(session: &Session, set: &Set) -> String {
    let tr = session.tr();
    let words = tr.set_words(set);
    match set.wedgie_target() {
        Some(target) => tr.t(
            "action.wedgie",
            &[("set", &words), ("name", session.name_at(target))],
        ),
        None => words,
    }
}

/// What a revolution offered to the human would do, in words: for the
/// dialogs of every setup choice it may replace.
pub fn revolution_offer(session: &Session) -> Option<String> {
    let offer = session.revolution_offer()?;
    let view = session.view();
    let tr = session.tr();
    let what = if offer.greater {
        say(tr, "offer.greater", &[])
    } else {
        say(tr, "offer.plain", &[])
    };
    let anyway = if view.is_first_hand() && view.rules().first_deal_revolution {
        say(tr, "offer.first-deal", &[])
    } else {
        say(tr, "offer.keep-quiet", &[])
    };
    Some(say(
        tr,
        "offer.line",
        &[("what", &what), ("anyway", &anyway)],
    ))
}

/// That the human may not call a revolution now.
pub fn no_revolution(tr: Tr) -> String {
    say(tr, "no-revolution", &[])
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
    let tr = session.tr();
    match *decision {
        Decision::Ready => tr.t("explain.ready", &[]),
        Decision::Tax { to, count } => say_n(
            tr,
            "explain.tax",
            count.into(),
            &[
                ("my_title", &tr.title(view.title(session.my_seat()))),
                ("name", session.name_at(to)),
                ("title", &tr.title(to.title(n))),
            ],
        ),
        Decision::ExchangeOffer => {
            let partners: Vec<String> = Seat::all(n)
                .filter(|&s| matches!(s.title(n), Title::Merchant { class } if class > 1))
                .map(|s| {
                    tr.t(
                        "explain.partner",
                        &[
                            ("seat", &seat_number(s).to_string()),
                            ("name", session.name_at(s)),
                        ],
                    )
                })
                .collect();
            say(tr, "explain.offer", &[("partners", &tr.join(&partners))])
        }
        Decision::ExchangeAnswer { from } => {
            say(tr, "explain.answer", &[("name", session.name_at(from))])
        }
        Decision::Lead => tr.t("explain.lead", &[]),
        Decision::Give { to, left } => tr.t(
            "explain.give",
            &[("name", session.name_at(to)), ("n", &left.to_string())],
        ),
        Decision::Discard { left } => tr.t("explain.discard", &[("n", &left.to_string())]),
        Decision::Follow { top, by } => {
            let words = vocabulary(tr);
            let mut args: Vec<(&str, &str)> = words.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let set = tr.set_words(&top);
            let size = top.size().to_string();
            args.extend([("set", set.as_str()), ("n", size.as_str())]);
            let key = if nothing_tops(session) {
                "explain.follow.nothing"
            } else if session.variant().is_suited() {
                "explain.follow.pack"
            } else if top.size() == 1 {
                "explain.follow.one"
            } else {
                "explain.follow"
            };
            session.about(key, by, &args)
        }
    }
}

/// Whether the only legal answer to the set on the table is a pass: the
/// player holds nothing that tops it (say a Dalmuti alone), and advice to
/// play a better rank would be nonsense.
fn nothing_tops(session: &Session) -> bool {
    session.legal().iter().all(|a| *a == Action::Pass)
}

/// The prompt line: `> ` then the decision's keyword, a colon, and the
/// commands that answer it. Scripts read the keyword: it is English in
/// every language, as the commands are.
pub fn prompt(session: &Session, decision: &Decision) -> String {
    let tr = session.tr();
    let call = revolution_command(session.variant());
    let greater = |key: &str, greater: bool| {
        if greater {
            format!("{key}.greater")
        } else {
            key.to_string()
        }
    };
    let instead = session
        .revolution_offer()
        .map(|o| say(tr, &greater("prompt.instead", o.greater), &[("call", call)]))
        .unwrap_or_default();
    let body = match *decision {
        Decision::Ready => match session.revolution_offer() {
            Some(offer) => say(
                tr,
                &greater("prompt.revolution", offer.greater),
                &[("call", call)],
            ),
            None => tr.t("prompt.ready", &[]),
        },
        Decision::Tax { to, count } => tr.n(
            "prompt.tax",
            count.into(),
            &[("name", session.name_at(to)), ("instead", &instead)],
        ),
        Decision::ExchangeOffer => tr.t("prompt.exchange", &[("instead", &instead)]),
        Decision::ExchangeAnswer { from } => {
            tr.t("prompt.answer", &[("name", session.name_at(from))])
        }
        Decision::Lead => tr.t("prompt.lead", &[("forms", &play_forms(session))]),
        Decision::Give { to, left } => tr.t(
            "prompt.give",
            &[("name", session.name_at(to)), ("n", &left.to_string())],
        ),
        Decision::Discard { left } => tr.t("prompt.discard", &[("n", &left.to_string())]),
        Decision::Follow { top, .. } => tr.t(
            "prompt.follow",
            &[
                ("set", &tr.set_words(&top)),
                ("tokens", &top.to_string()),
                ("forms", &play_forms(session)),
            ],
        ),
    };
    format!("> {}: {body}", keyword(decision, session))
}

/// The decision's keyword on the prompt line.
fn keyword(decision: &Decision, session: &Session) -> &'static str {
    match decision {
        Decision::Ready if session.revolution_offer().is_some() => "revolution",
        Decision::Ready => "ready",
        Decision::Tax { .. } => "tax",
        Decision::ExchangeOffer => "exchange",
        Decision::ExchangeAnswer { .. } => "answer",
        Decision::Lead => "lead",
        Decision::Follow { .. } => "follow",
        Decision::Give { .. } => "give",
        Decision::Discard { .. } => "discard",
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
fn task(decision: &Decision, tr: Tr) -> String {
    let key = match decision {
        Decision::Ready => "task.ready",
        Decision::Tax { .. } => "task.tax",
        Decision::ExchangeOffer => "task.exchange",
        Decision::ExchangeAnswer { .. } => "task.answer",
        Decision::Lead => "task.lead",
        Decision::Follow { .. } => "task.follow",
        Decision::Give { .. } => "task.give",
        Decision::Discard { .. } => "task.discard",
    };
    say(tr, key, &[("gift", &tr.v("gift", &[]))])
}

/// That a command does not answer the decision at hand.
pub fn wrong_decision(decision: &Decision, tr: Tr) -> String {
    tr.t("wrong-decision", &[("task", &task(decision, tr))])
}

/// That a hand is still on when the player asks for the next one.
pub fn not_over_yet(decision: &Decision, tr: Tr) -> String {
    tr.t("not-over-yet", &[("task", &task(decision, tr))])
}

/// That the human does not hold `wanted`.
pub fn not_held(held: &Cards, wanted: &Cards, tr: Tr) -> String {
    let missing = wanted.missing_from(held);
    tr.t(
        "not-held.typed",
        &[
            ("wanted", &wanted.to_string()),
            ("words", &tr.cards_words(&missing)),
            ("missing", &missing.to_string()),
        ],
    )
}

/// Why typed cards are not a set, in the game's words.
pub fn not_a_set(cards: &Cards, why: &NotASet, tr: Tr) -> String {
    let cards_text = cards.to_string();
    let args = |more: &[(&'static str, String)]| {
        let mut all = vec![("cards", cards_text.clone())];
        all.extend_from_slice(more);
        all
    };
    let (key, args) = match why {
        NotASet::MixedRanks(_) | NotASet::Empty | NotASet::MixedDecks(_) => (
            format!("{}.not-a-set.mixed", tr.variant().word()),
            args(&[]),
        ),
        NotASet::AloneOnly(card) => (
            "not-a-set.alone".to_string(),
            args(&[("name", tr.card(*card)), ("card", card.to_string())]),
        ),
        NotASet::DeclaredMissing => ("not-a-set.declare".to_string(), args(&[])),
        NotASet::DeclaredNotAlone => (format!("{}.not-a-set.as", tr.variant().word()), args(&[])),
        NotASet::DeclaredValue(value) => (
            "not-a-set.value".to_string(),
            args(&[("value", value.to_string())]),
        ),
        NotASet::TargetWithoutWedgie => ("not-a-set.no-wedgie".to_string(), args(&[])),
        NotASet::TooLarge | NotASet::BadCard(_) | NotASet::BadWords(_) => {
            ("not-a-set.too-large".to_string(), args(&[]))
        }
        NotASet::NotAPlay(why) => ("not-a-set.pack".to_string(), args(&[("why", why.clone())])),
    };
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    say(tr, &key, &args)
}

/// Why the engine refused the human's move, in one sentence.
pub fn refusal(session: &Session, reason: &Illegal) -> String {
    let tr = session.tr();
    let seat_name = |seat: Seat, otherwise: &str| {
        if seat.index() < session.players() {
            session.name_at(seat).to_string()
        } else {
            tr.t(otherwise, &[])
        }
    };
    match reason {
        Illegal::HandOver => tr.t("refusal.hand-over", &[]),
        Illegal::NoRevolution => no_revolution(tr),
        Illegal::NotToAct => tr.t("refusal.not-to-act", &[]),
        Illegal::WrongDecision(d) => wrong_decision(d, tr),
        Illegal::NotHeld(missing) => tr.t(
            "refusal.not-held",
            &[
                ("words", &tr.cards_words(missing)),
                ("missing", &missing.to_string()),
            ],
        ),
        Illegal::MustLead => tr.t("refusal.must-lead", &[]),
        Illegal::WedgieNeedsTarget => say(tr, "refusal.wedgie-needs-target", &[]),
        Illegal::WedgieTarget(seat) if *seat == session.my_seat() => {
            say(tr, "refusal.wedgie-target.you", &[])
        }
        Illegal::WedgieTarget(seat) => say(
            tr,
            "refusal.wedgie-target",
            &[("name", &seat_name(*seat, "that-seat"))],
        ),
        Illegal::WedgieEndsHand => say(tr, "refusal.wedgie-ends-hand", &[]),
        Illegal::WrongSize { top, played } => tr.n(
            "refusal.wrong-size",
            top.size().into(),
            &[
                ("played", &played.to_string()),
                ("top", &top.to_string()),
                ("size", &played.size().to_string()),
            ],
        ),
        Illegal::DoesNotTop { top, played } => say(
            tr,
            if nothing_tops(session) {
                "refusal.does-not-top.nothing"
            } else {
                "refusal.does-not-top"
            },
            &[
                ("played", &played.to_string()),
                ("top", &top.to_string()),
                ("n", &top.size().to_string()),
                ("set", &tr.set_words(top)),
            ],
        ),
        Illegal::TaxCount { needed, given } => say_n(
            tr,
            &format!("{}.refusal.tax-count", tr.variant().word()),
            (*needed).into(),
            &[("given", &given.to_string())],
        ),
        Illegal::NotAMerchant(seat) => say(
            tr,
            "refusal.not-a-merchant",
            &[
                ("name", &seat_name(*seat, "nobody")),
                ("seat", &seat_number(*seat).to_string()),
            ],
        ),
        Illegal::Locked { top, played, suits } => tr.t(
            if *suits {
                "refusal.locked"
            } else {
                "refusal.locked-number"
            },
            &[
                ("played", &tr.set_words(played)),
                ("top", &tr.set_words(top)),
                ("word", &tr.v("word.lock", &[])),
            ],
        ),
        Illegal::NotOfThisGame(set) => tr.t(
            "refusal.not-of-this-game",
            &[("played", &set.to_string()), ("game", &tr.game())],
        ),
    }
}

/// The optional rules in force, in words ("stripped deck", "merchant
/// exchange", "standard scoring"…), for the headers of both modes.
pub fn optional_rules(rules: &dalmuti_core::Rules, tr: Tr) -> Vec<String> {
    let mut options = Vec::new();
    if rules.stripped_deck {
        options.push(tr.t("rules.stripped-deck", &[]));
    }
    if rules.first_deal_revolution {
        options.push(say(tr, "rules.first-deal", &[]));
    }
    if rules.merchant_exchange {
        options.push(tr.exchange());
    }
    if rules.scoring != dalmuti_core::Scoring::None {
        options.push(tr.t(&format!("rules.scoring.{}", rules.scoring.word()), &[]));
    }
    if rules.variant.is_suited() {
        // The options that change play, by the words players use.
        let c = rules.climbing();
        let word = |key: &str| tr.v(&format!("word.{key}"), &[]);
        for (on, key) in [
            (c.sequences, "sequence"),
            (c.revolution, "revolution"),
            (c.eight_cut, "eight-cut"),
            (c.lock != dalmuti_core::Lock::Off, "lock"),
            (c.spade_three, "spade-three"),
            (c.eleven_back, "eleven-back"),
            (c.miyako_ochi, "miyako-ochi"),
            (c.five_skip, "five-skip"),
            (c.nine_reverse, "nine-reverse"),
            (c.forbidden_finish, "forbidden-finish"),
        ] {
            if on {
                options.push(word(key));
            }
        }
        if c.jokers > 0 {
            options.push(tr.count_of(c.jokers.into(), dalmuti_core::Card::JOKER));
        }
    }
    options
}
