//! A game told in plain English, with card names and titles: what
//! `dalmuti replay` prints, and the words the play log uses.

use crate::card::Card;
use crate::cards::Cards;
use crate::event::Event;
use crate::game::{Game, HandLog};
use crate::rules::Scoring;
use crate::seat::Seat;
use crate::set::Set;
use crate::variant::Variant;
use crate::view::{Seen, Viewer};

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

/// `n` of a card in words: "a Mason", "an Archbishop", "four Stonecutters";
/// Corporate Shuffle's specials by their names ("the Twirling Wedgie").
///
/// ```
/// use dalmuti_core::{narrate::count_of, Card, Rank, Variant};
/// let d = Variant::Dalmuti;
/// assert_eq!(count_of(1, Rank::ARCHBISHOP.into(), d), "an Archbishop");
/// assert_eq!(count_of(4, Rank::STONECUTTER.into(), d), "four Stonecutters");
/// assert_eq!(count_of(1, Card::JESTER, d), "a Jester");
/// let cs = Variant::CorporateShuffle;
/// assert_eq!(count_of(2, Rank::ARCHBISHOP.into(), cs), "two Vice Presidents");
/// assert_eq!(count_of(1, Card::TWIRLING_WEDGIE, cs), "the Twirling Wedgie");
/// assert_eq!(count_of(1, Card::RATBERT, cs), "Ratbert");
/// ```
pub fn count_of(n: u32, card: Card, variant: Variant) -> String {
    let name = card.name(variant);
    if n == 1 {
        let article = if card == Card::TWIRLING_WEDGIE {
            "the "
        } else if card == Card::RATBERT || card == Card::WORLD_RULER {
            ""
        } else if name.starts_with(['A', 'E', 'I', 'O', 'U']) {
            "an "
        } else {
            "a "
        };
        format!("{article}{name}")
    } else {
        format!("{} {}", number(n), card.plural(variant))
    }
}

/// A set in words: "three Knights (one a Jester)", "two Jesters"; in
/// Corporate Shuffle also "two Dogberts as 3s (Consultants)" and
/// "an Accounting and the Twirling Wedgie".
///
/// ```
/// use dalmuti_core::{narrate::set_words, Variant};
/// let d = Variant::Dalmuti;
/// assert_eq!(set_words(&"6 6 J".parse().unwrap(), d), "three Knights (one a Jester)");
/// assert_eq!(set_words(&"J J".parse().unwrap(), d), "two Jesters");
/// let cs = Variant::CorporateShuffle;
/// assert_eq!(set_words(&"D D as 3".parse().unwrap(), cs), "two Dogberts as 3s (Consultants)");
/// assert_eq!(set_words(&"D as 8".parse().unwrap(), cs), "a Dogbert as an 8 (Sales)");
/// assert_eq!(set_words(&"6 T".parse().unwrap(), cs), "an Accounting and the Twirling Wedgie");
/// assert_eq!(set_words(&"4 4 D".parse().unwrap(), cs), "three Lawyers (one a Dogbert)");
/// ```
pub fn set_words(set: &Set, variant: Variant) -> String {
    if set.holds_wedgie() {
        return cards_words(&set.cards(), variant);
    }
    if let Some(value) = set.declared() {
        let card = Card::from_index(value.into()).expect("1..=10");
        let n = u32::from(set.size());
        let as_what = if n == 1 {
            let article = if matches!(value, 8 | 11) { "an" } else { "a" };
            format!("{article} {value} ({})", card.name(variant))
        } else {
            format!("{value}s ({})", card.plural(variant))
        };
        return format!("{} as {as_what}", count_of(n, Card::DOGBERT, variant));
    }
    let base = count_of(u32::from(set.size()), set.face(), variant);
    let wild = variant.words();
    match (set.naturals(), set.wilds()) {
        (0, _) | (_, 0) => base,
        (_, 1) => format!("{base} (one a {})", wild.wild),
        (_, j) => format!("{base} ({} of them {})", number(u32::from(j)), wild.wilds),
    }
}

/// A group of cards in words: "an Archbishop and a Baroness".
///
/// ```
/// use dalmuti_core::{narrate::cards_words, Variant};
/// let d = Variant::Dalmuti;
/// assert_eq!(cards_words(&"10 10".parse().unwrap(), d), "two Shepherdesses");
/// assert_eq!(cards_words(&"2 4".parse().unwrap(), d), "an Archbishop and a Baroness");
/// ```
pub fn cards_words(cards: &Cards, variant: Variant) -> String {
    let parts: Vec<String> = cards
        .kinds()
        .map(|(c, n)| count_of(u32::from(n), c, variant))
        .collect();
    match parts.len() {
        0 => "nothing".to_string(),
        1 => parts[0].clone(),
        n => format!("{} and {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

/// Tells one hand's events, in order, one sentence each. `name` gives a
/// seat of play's player name.
pub fn events(
    events: &[Event],
    players: usize,
    variant: Variant,
    name: &dyn Fn(Seat) -> String,
) -> Vec<String> {
    let words = variant.words();
    let title = |s: Seat| variant.title_name(s.title(players));
    let count_of = |n, card| count_of(n, card, variant);
    let cards_words = |cards: &Cards| cards_words(cards, variant);
    let mut lines = Vec::with_capacity(events.len());
    let mut leading = true;
    let mut previous = None;
    for event in events {
        let line = match *event {
            Event::RevolutionCalled {
                seat,
                greater: true,
            } => format!(
                "{0} was dealt both {wilds} and, as {peon}, calls a greater {revolution}: no {taxes}, \
                 and everyone trades seats with their opposite. {0} is now the {top}.",
                name(seat),
                wilds = words.wilds,
                peon = title(Seat::new(players - 1)),
                revolution = words.revolution,
                taxes = words.taxes,
                top = title(Seat::GREATER_DALMUTI),
            ),
            Event::RevolutionCalled {
                seat,
                greater: false,
            } => format!(
                "{} was dealt both {} and calls a {}: no {} this hand.",
                name(seat),
                words.wilds,
                words.revolution,
                words.taxes
            ),
            Event::RevolutionDeclined { seat } => {
                format!(
                    "{} was dealt both {} but calls no {}.",
                    name(seat),
                    words.wilds,
                    words.revolution
                )
            }
            Event::TaxPaid(t) => format!(
                "{}: {}, the {}, gives {} to {}, the {}, and receives {}.",
                capitalized(words.taxes),
                name(t.dalmuti),
                title(t.dalmuti),
                cards_words(&t.gift),
                name(t.peon),
                title(t.peon),
                cards_words(&t.tribute)
            ),
            Event::MerchantExchange(t) => format!(
                "{} exchange: {} trades {} blind with {} for {}.",
                title(Seat::new(2)),
                name(t.offerer),
                count_of(1, t.offered),
                name(t.partner),
                count_of(1, t.returned)
            ),
            Event::ExchangeDeclined { seat } => {
                format!(
                    "{}, the highest {}, makes no exchange.",
                    name(seat),
                    title(seat)
                )
            }
            Event::Played { seat, set } => {
                let verb = if leading { "leads" } else { "tops it with" };
                leading = false;
                format!(
                    "{} {verb} {}{}.",
                    name(seat),
                    set_words(&set, variant),
                    power(&set, &|s| name(s))
                )
            }
            Event::Passed { seat } => format!("{} passes.", name(seat)),
            Event::WentOut { seat, place } => format!(
                "{} has gone out, {}: next hand's {}.",
                name(seat),
                ordinal(place.into()),
                title(Seat::new(place.into()))
            ),
            Event::RoundWon { seat, leader } => {
                leading = true;
                if seat == leader {
                    format!(
                        "{}: {} wins the round and leads.",
                        round_end_after(previous),
                        name(seat)
                    )
                } else {
                    format!(
                        "{}. {} is out, so the lead goes to {}.",
                        round_end_after(previous),
                        name(seat),
                        name(leader)
                    )
                }
            }
            Event::RatbertTaken { seat } => format!("Ratbert goes back to {}.", name(seat)),
            Event::HandOver => "Only one player still holds cards: the hand is over.".to_string(),
        };
        previous = Some(event);
        lines.push(line);
    }
    lines
}

/// "Tax" words at the start of a sentence.
fn capitalized(words: &str) -> String {
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// What a special card does, after the set's words: the Wedgie's victim,
/// the World Ruler's instant win.
fn power(set: &Set, name: &dyn Fn(Seat) -> String) -> String {
    if let Some(target) = set.wedgie_target() {
        format!(": {} must pass for the rest of the trick", name(target))
    } else if set.is_world_ruler() {
        ", which wins the trick at once".to_string()
    } else {
        String::new()
    }
}

/// How a round ended, from the event before it: everyone passed, or the
/// World Ruler or the Wedgie left no one to answer.
fn round_end_after(previous: Option<&Event>) -> &'static str {
    match previous {
        Some(Event::Passed { .. }) => "Everyone passes",
        _ => "The trick is won at once",
    }
}

/// Tells a hand's log as one viewer may see it ([`crate::View::log`]), one
/// sentence per entry, in order. The viewer's own seat is told in the
/// second person ("You lead…"). Tax and merchant exchanges are told with
/// their cards only to the two seats in them: any other viewer hears who
/// traded and how many cards, whatever the entries hold. `name` gives a
/// seat of play's player name (it is not asked for the viewer's seat).
///
/// ```
/// use dalmuti_core::narrate::seen;
/// use dalmuti_core::{Event, Seat, Seen, TaxPayment, Viewer};
/// let payment = TaxPayment {
///     dalmuti: Seat::new(0),
///     peon: Seat::new(3),
///     gift: "12 12".parse().unwrap(),
///     tribute: "2 4".parse().unwrap(),
/// };
/// let log = [
///     Seen::Event(Event::TaxPaid(payment)),
///     Seen::TaxPaid { dalmuti: Seat::new(1), peon: Seat::new(2), cards: 1 },
///     Seen::Event(Event::Played { seat: Seat::new(0), set: "9 9".parse().unwrap() }),
///     Seen::Event(Event::Passed { seat: Seat::new(1) }),
/// ];
/// let names = ["Amity", "Anton", "Cherise", "Dana"];
/// let name = |s: Seat| names[s.index()].to_string();
/// let d = dalmuti_core::Variant::Dalmuti;
/// assert_eq!(
///     seen(log, 4, d, Viewer::Seat(Seat::new(0)), &name),
///     [
///         "Taxes: you give two Peasants to Dana, the Greater Peon, and receive an Archbishop and a Baroness.",
///         "Taxes: Anton, the Lesser Dalmuti, gives a card to Cherise, the Lesser Peon, and receives Cherise's best card.",
///         "You lead two Cooks.",
///         "Anton passes.",
///     ]
/// );
/// // Another seat never hears the cards, even from a full event.
/// let told = seen([Seen::Event(Event::TaxPaid(payment))], 4, d, Viewer::Seat(Seat::new(1)), &name);
/// assert_eq!(
///     told,
///     ["Taxes: Amity, the Greater Dalmuti, gives two cards to Dana, the Greater Peon, and receives Dana's two best cards."]
/// );
/// ```
pub fn seen(
    log: impl IntoIterator<Item = Seen>,
    players: usize,
    variant: Variant,
    viewer: Viewer,
    name: &dyn Fn(Seat) -> String,
) -> Vec<String> {
    let me = match viewer {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    let teller = Teller {
        players,
        variant,
        me,
        name,
    };
    let mut leading = true;
    let mut previous = None;
    log.into_iter()
        .map(|entry| match entry {
            Seen::TaxPaid {
                dalmuti,
                peon,
                cards,
            } => teller.hidden_tax(dalmuti, peon, cards),
            Seen::MerchantExchanged { offerer, partner } => {
                teller.hidden_exchange(offerer, partner)
            }
            Seen::Event(event) => {
                let line = teller.event(event, leading, previous.as_ref());
                match event {
                    Event::Played { .. } => leading = false,
                    Event::RoundWon { .. } => leading = true,
                    _ => {}
                }
                previous = Some(event);
                line
            }
        })
        .collect()
}

/// Names seats for [`seen`]: the viewer as "you", the others by name.
struct Teller<'a> {
    players: usize,
    variant: Variant,
    me: Option<Seat>,
    name: &'a dyn Fn(Seat) -> String,
}

impl Teller<'_> {
    fn is_me(&self, seat: Seat) -> bool {
        self.me == Some(seat)
    }

    /// The seat as a sentence's subject or object, lower case for "you".
    fn who(&self, seat: Seat) -> String {
        if self.is_me(seat) {
            "you".to_string()
        } else {
            (self.name)(seat)
        }
    }

    /// The seat at the start of a sentence.
    fn subject(&self, seat: Seat) -> String {
        if self.is_me(seat) {
            "You".to_string()
        } else {
            (self.name)(seat)
        }
    }

    /// The verb for the seat: `mine` for "you", `theirs` for the others.
    fn verb<'v>(&self, seat: Seat, mine: &'v str, theirs: &'v str) -> &'v str {
        if self.is_me(seat) { mine } else { theirs }
    }

    fn title(&self, seat: Seat) -> &'static str {
        self.variant.title_name(seat.title(self.players))
    }

    fn count_of(&self, n: u32, card: Card) -> String {
        count_of(n, card, self.variant)
    }

    fn cards_words(&self, cards: &Cards) -> String {
        cards_words(cards, self.variant)
    }

    /// "Taxes" or "Executive bonuses", to start a sentence.
    fn taxes(&self) -> String {
        capitalized(self.variant.words().taxes)
    }

    fn hidden_tax(&self, dalmuti: Seat, peon: Seat, cards: u32) -> String {
        let (some, best) = if cards == 1 {
            ("a card".to_string(), "best card".to_string())
        } else {
            (
                format!("{} cards", number(cards)),
                format!("{} best cards", number(cards)),
            )
        };
        let whose = if self.is_me(peon) {
            "your".to_string()
        } else {
            format!("{}'s", (self.name)(peon))
        };
        format!(
            "{}: {}, the {}, {} {some} to {}, the {}, and {} {whose} {best}.",
            self.taxes(),
            self.subject(dalmuti),
            self.title(dalmuti),
            self.verb(dalmuti, "give", "gives"),
            self.who(peon),
            self.title(peon),
            self.verb(dalmuti, "receive", "receives"),
        )
    }

    fn hidden_exchange(&self, offerer: Seat, partner: Seat) -> String {
        format!(
            "{} exchange: {} {} a card blind with {}.",
            self.title(Seat::new(2)),
            self.subject(offerer),
            self.verb(offerer, "trade", "trades"),
            self.who(partner)
        )
    }

    fn event(&self, event: Event, leading: bool, previous: Option<&Event>) -> String {
        let words = self.variant.words();
        match event {
            Event::RevolutionCalled {
                seat,
                greater: true,
            } => {
                let mut line = format!(
                    "{} dealt both {} and, as {}, {} a greater {}: no {}, \
                     and everyone trades seats with their opposite. {} now the {}.",
                    self.subject(seat) + self.verb(seat, " were", " was"),
                    words.wilds,
                    self.title(Seat::new(self.players - 1)),
                    self.verb(seat, "call", "calls"),
                    words.revolution,
                    words.taxes,
                    self.subject(seat) + self.verb(seat, " are", " is"),
                    self.title(Seat::GREATER_DALMUTI),
                );
                if let Some(me) = self.me.filter(|&me| me != seat) {
                    line.push_str(&format!(" You are now the {}.", self.title(me)));
                }
                line
            }
            Event::RevolutionCalled {
                seat,
                greater: false,
            } => format!(
                "{} dealt both {} and {} a {}: no {} this hand.",
                self.subject(seat) + self.verb(seat, " were", " was"),
                words.wilds,
                self.verb(seat, "call", "calls"),
                words.revolution,
                words.taxes,
            ),
            Event::RevolutionDeclined { seat } => format!(
                "{} dealt both {} but {} no {}.",
                self.subject(seat) + self.verb(seat, " were", " was"),
                words.wilds,
                self.verb(seat, "call", "calls"),
                words.revolution,
            ),
            Event::TaxPaid(t) if self.is_me(t.dalmuti) => format!(
                "{}: you give {} to {}, the {}, and receive {}.",
                self.taxes(),
                self.cards_words(&t.gift),
                self.who(t.peon),
                self.title(t.peon),
                self.cards_words(&t.tribute)
            ),
            Event::TaxPaid(t) if self.is_me(t.peon) => format!(
                "{}: you give your best {}, {}, to {}, the {}, and receive {}.",
                self.taxes(),
                if t.tribute.len() == 1 {
                    "card"
                } else {
                    "cards"
                },
                self.cards_words(&t.tribute),
                self.who(t.dalmuti),
                self.title(t.dalmuti),
                self.cards_words(&t.gift)
            ),
            Event::TaxPaid(t) => self.hidden_tax(t.dalmuti, t.peon, t.gift.len()),
            Event::MerchantExchange(t) if self.is_me(t.offerer) => format!(
                "{} exchange: you give {} blind to {} and receive {}.",
                self.title(Seat::new(2)),
                self.count_of(1, t.offered),
                self.who(t.partner),
                self.count_of(1, t.returned)
            ),
            Event::MerchantExchange(t) if self.is_me(t.partner) => format!(
                "{} exchange: {} gives you {} blind and receives {}.",
                self.title(Seat::new(2)),
                self.who(t.offerer),
                self.count_of(1, t.offered),
                self.count_of(1, t.returned)
            ),
            Event::MerchantExchange(t) => self.hidden_exchange(t.offerer, t.partner),
            Event::ExchangeDeclined { seat } => format!(
                "{}, the highest {}, {} no exchange.",
                self.subject(seat),
                self.title(seat),
                self.verb(seat, "make", "makes")
            ),
            Event::Played { seat, set } => format!(
                "{} {} {}{}.",
                self.subject(seat),
                match (leading, self.is_me(seat)) {
                    (true, true) => "lead",
                    (true, false) => "leads",
                    (false, true) => "top it with",
                    (false, false) => "tops it with",
                },
                set_words(&set, self.variant),
                power(&set, &|s| self.who(s))
            ),
            Event::Passed { seat } => {
                format!(
                    "{} {}.",
                    self.subject(seat),
                    self.verb(seat, "pass", "passes")
                )
            }
            Event::WentOut { seat, place } => format!(
                "{} gone out, {}: next hand's {}.",
                self.subject(seat) + self.verb(seat, " have", " has"),
                ordinal(place.into()),
                self.title(Seat::new(usize::from(place).min(crate::MAX_PLAYERS - 1)))
            ),
            Event::RoundWon { seat, leader } if seat == leader => format!(
                "{}: {} {} the round and {}.",
                round_end_after(previous),
                self.who(seat),
                self.verb(seat, "win", "wins"),
                self.verb(seat, "lead", "leads"),
            ),
            Event::RoundWon { seat, leader } => format!(
                "{}. {} out, so the lead goes to {}.",
                round_end_after(previous),
                self.subject(seat) + self.verb(seat, " are", " is"),
                self.who(leader)
            ),
            Event::RatbertTaken { seat } => format!("Ratbert goes back to {}.", self.who(seat)),
            Event::HandOver => "Only one player still holds cards: the hand is over.".to_string(),
        }
    }
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
        "A game of {}, {} hand(s). Optional rules: {}.",
        rules.variant.words().game,
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
                        count_of(1, c, rules.variant)
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
        .map(|(i, &p)| {
            let title = hand.rules().variant.title_name(Seat::new(i).title(n));
            format!("{} ({title})", game.name(p))
        })
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
        let words = hand.rules().variant.words();
        out.push(format!(
            "First-deal {}: no {} this hand.",
            words.revolution, words.taxes
        ));
    }
    let name = |s: Seat| game.name(log.player_at(s)).to_string();
    out.extend(events(hand.events(), n, hand.rules().variant, &name));
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
