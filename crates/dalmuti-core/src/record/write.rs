//! Writing records: any game the engine plays, as `dalmuti-record/1`.

use serde::{Serialize, Serializer};

use super::{FORMAT, FORMAT_SUITED, HandRecord, PlayRecord, Record, Settled};
use crate::card::Card;
use crate::cards::Cards;
use crate::climbing::Climbing;
use crate::event::Event;
use crate::game::{Game, HandLog};
use crate::rules::Rules;
use crate::seat::Seat;

impl Record {
    /// The record of everything played so far in `game` (the last hand may
    /// be in progress: a decision not yet made is left out and is asked
    /// again when the record is replayed).
    pub fn from_game(game: &Game) -> Record {
        let name = |p| game.name(p).to_string();
        let seating = match game.hands().first() {
            Some(first) => first.dealt_seating.iter().map(|&p| name(p)).collect(),
            None => game.next_seating().iter().map(|&p| name(p)).collect(),
        };
        let draw = game.draw().map(|rounds| {
            rounds
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|&(p, c)| {
                            (
                                game.name(crate::game::PlayerId::from_index(p)).to_string(),
                                c,
                            )
                        })
                        .collect()
                })
                .collect()
        });
        Record {
            rules: *game.rules(),
            draw,
            seating,
            hands: game
                .hands()
                .iter()
                .enumerate()
                .map(|(i, log)| {
                    let mut record = hand_record(game, log);
                    if game.rules().variant.is_suited() && i > 0 {
                        let before = &game.hands()[i - 1].dealt_seating;
                        if *before != log.dealt_seating {
                            record.seating =
                                Some(log.dealt_seating.iter().map(|&p| name(p)).collect());
                        }
                    }
                    record
                })
                .collect(),
        }
    }

    /// The record as pretty-printed JSON text.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serializes")
    }
}

/// The record's one JSON form (docs/RECORDS.md), through the document's
/// own types below: what is written is what these types say, in the
/// format's order, with the fields a game did not use left out.
impl Serialize for Record {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RecordDoc {
            format: if self.rules.variant.is_suited() {
                FORMAT_SUITED
            } else {
                FORMAT
            },
            rules: RulesDoc::of(&self.rules),
            draw: self
                .draw
                .as_ref()
                .map(|rounds| rounds.iter().map(|r| ByName(r)).collect()),
            seating: &self.seating,
            hands: self.hands.iter().map(HandDoc::of).collect(),
        }
        .serialize(serializer)
    }
}

/// The document's top level.
#[derive(Serialize)]
struct RecordDoc<'a> {
    format: &'static str,
    rules: RulesDoc,
    #[serde(skip_serializing_if = "Option::is_none")]
    draw: Option<Vec<ByName<'a, Card>>>,
    seating: &'a [String],
    hands: Vec<HandDoc<'a>>,
}

/// The rules as a record writes them: Dalmuti's switches for the games
/// that have them, the climbing games' options for theirs.
#[derive(Serialize)]
struct RulesDoc {
    variant: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    stripped_deck: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_deal_revolution: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    merchant_exchange: Option<bool>,
    scoring: &'static str,
    // The project's own fields, which other readers ignore.
    #[serde(skip_serializing_if = "Option::is_none")]
    hands: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    join_and_leave: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    climbing: Option<Climbing>,
}

impl RulesDoc {
    fn of(rules: &Rules) -> RulesDoc {
        let dalmuti = !rules.variant.is_suited();
        RulesDoc {
            variant: rules.variant.word(),
            stripped_deck: dalmuti.then_some(rules.stripped_deck),
            first_deal_revolution: dalmuti.then_some(rules.first_deal_revolution),
            merchant_exchange: dalmuti.then_some(rules.merchant_exchange),
            scoring: rules.scoring.word(),
            hands: rules.hands,
            // Written only when off: on is every reader's default.
            join_and_leave: (dalmuti && !rules.join_and_leave).then_some(false),
            climbing: (!dalmuti).then(|| rules.climbing()),
        }
    }
}

/// A hand as a record writes it.
#[derive(Serialize)]
struct HandDoc<'a> {
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    leave: &'a [String],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    join: Vec<Join<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seating: Option<&'a [String]>,
    deal: ByName<'a, Cards>,
    #[serde(skip_serializing_if = "Option::is_none")]
    revolution: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tax: Option<ByName<'a, Cards>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    merchant_exchange: Option<ByName<'a, Card>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    declined: Vec<&'static str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    ready: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    merchant_offer: Option<Offer<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stalemate: Option<&'a [String]>,
    /// Each line as its text ([`PlayRecord`]'s `Display`).
    plays: Vec<String>,
}

impl<'a> HandDoc<'a> {
    fn of(hand: &'a HandRecord) -> HandDoc<'a> {
        let mut declined = Vec::new();
        if hand.declined_revolution {
            declined.push("revolution");
        }
        if hand.declined_exchange {
            declined.push("merchant_exchange");
        }
        HandDoc {
            leave: &hand.leave,
            join: hand
                .join
                .iter()
                .map(|(name, seat)| Join { name, seat: *seat })
                .collect(),
            seating: hand.seating.as_deref(),
            deal: ByName(&hand.deal),
            revolution: hand.revolution.as_deref(),
            tax: hand.tax.as_deref().map(ByName),
            merchant_exchange: hand.merchant_exchange.as_ref().map(|x| ByName(x)),
            declined,
            ready: &hand.ready,
            merchant_offer: hand.merchant_offer.as_ref().map(|(from, to, card)| Offer {
                from,
                to,
                card: card.token(),
            }),
            stalemate: hand.stalemate.as_deref(),
            plays: hand.plays.iter().map(ToString::to_string).collect(),
        }
    }
}

/// A player who joined before a hand, and their seat.
#[derive(Serialize)]
struct Join<'a> {
    name: &'a str,
    seat: usize,
}

/// A merchant exchange offered and not yet answered.
#[derive(Serialize)]
struct Offer<'a> {
    from: &'a str,
    to: &'a str,
    card: &'static str,
}

/// What each player holds or gave, as one object keyed by name in the
/// order given: a card by its token, cards as their text.
struct ByName<'a, T>(&'a [(String, T)]);

impl Serialize for ByName<'_, Card> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, card)| (name, card.token())))
    }
}

impl Serialize for ByName<'_, Cards> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, cards)| (name, cards.to_string())))
    }
}

fn hand_record(game: &Game, log: &HandLog) -> HandRecord {
    let hand = &log.hand;
    let name = |s: Seat| game.name(log.player_at(s)).to_string();
    // The deal is listed in the seating of the deal, before any reversal.
    let deal = log
        .dealt_seating
        .iter()
        .map(|&p| {
            let seat = log.seat_of(p).expect("seated");
            (game.name(p).to_string(), hand.dealt(seat))
        })
        .collect();
    // Chosen gifts, even those still waiting for the other decisions.
    let tax: Vec<_> = hand.tax_gifts().map(|(s, gift)| (name(s), gift)).collect();
    HandRecord {
        leave: log.left.iter().map(|&p| game.name(p).to_string()).collect(),
        join: log
            .joined
            .iter()
            .map(|&(p, seat)| (game.name(p).to_string(), seat))
            .collect(),
        deal,
        revolution: hand.revolution().map(|r| name(r.by)),
        tax: (!tax.is_empty()).then_some(tax),
        merchant_exchange: hand
            .merchant_choices()
            .map(|t| [(name(t.offerer), t.offered), (name(t.partner), t.returned)]),
        declined_revolution: hand
            .events()
            .iter()
            .any(|e| matches!(e, Event::RevolutionDeclined { .. })),
        // A revolution voids a decline made before it, in the log too.
        declined_exchange: hand
            .events()
            .iter()
            .any(|e| matches!(e, Event::ExchangeDeclined { .. })),
        merchant_offer: hand
            .merchant_offer()
            .map(|(from, to, card)| (name(from), name(to), card)),
        // Only a hand saved before its first play needs it: after that,
        // everyone was ready.
        ready: if hand
            .events()
            .iter()
            .any(|e| matches!(e, Event::Played { .. }))
        {
            Vec::new()
        } else {
            hand.said_ready().iter().map(name).collect()
        },
        seating: None,
        stalemate: hand
            .events()
            .iter()
            .position(|e| matches!(e, Event::Effect(crate::event::Effect::Stalemate { .. })))
            .map(|at| {
                hand.events()[at..]
                    .iter()
                    .filter_map(|e| match *e {
                        Event::WentOut { seat, .. } => Some(name(seat)),
                        _ => None,
                    })
                    .collect()
            }),
        plays: plays(hand, &name),
    }
}

/// A hand's plays and passes, one line each; the cards a player gives or
/// discards after a play, one line for those of a kind in a row.
fn plays(hand: &crate::Hand, name: &impl Fn(Seat) -> String) -> Vec<PlayRecord> {
    let mut out: Vec<PlayRecord> = Vec::new();
    let line = |seat, set: Option<crate::Set>, settled| PlayRecord {
        player: name(seat),
        set,
        wedgie: set.and_then(|s| s.wedgie_target()).map(name),
        settled,
    };
    // The seat of the last line, when it gives or discards.
    let mut settling: Option<Seat> = None;
    for event in hand.events() {
        match *event {
            Event::Played { seat, set } => {
                out.push(line(seat, Some(set), None));
                settling = None;
            }
            Event::Passed { seat } => {
                out.push(line(seat, None, None));
                settling = None;
            }
            Event::Given { from, card, .. } => {
                match (settling, out.last_mut().and_then(|l| l.settled.as_mut())) {
                    (Some(s), Some(Settled::Give(cards))) if s == from => cards.add(card, 1),
                    _ => {
                        out.push(line(from, None, Some(Settled::Give(Cards::one(card)))));
                        settling = Some(from);
                    }
                }
            }
            Event::Discarded { seat, card } => {
                match (settling, out.last_mut().and_then(|l| l.settled.as_mut())) {
                    (Some(s), Some(Settled::Discard(cards))) if s == seat => cards.add(card, 1),
                    _ => {
                        out.push(line(seat, None, Some(Settled::Discard(Cards::one(card)))));
                        settling = Some(seat);
                    }
                }
            }
            _ => {}
        }
    }
    out
}
