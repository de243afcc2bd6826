//! Writing records: any game the engine plays, as `dalmuti-record/1`.

use serde_json::{Map, Value, json};

use super::{FORMAT, FORMAT_SUITED, HandRecord, PlayRecord, Record, Settled};
use crate::cards::Cards;
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

    /// The record as a JSON value, fields in the order of the format's page.
    pub fn to_json(&self) -> Value {
        let mut doc = Map::new();
        let format = if self.rules.variant.is_suited() {
            FORMAT_SUITED
        } else {
            FORMAT
        };
        doc.insert("format".into(), json!(format));
        doc.insert("rules".into(), rules_json(&self.rules));
        if let Some(draw) = &self.draw {
            let rounds = draw
                .iter()
                .map(|r| {
                    Value::Object(
                        r.iter()
                            .map(|(n, c)| (n.clone(), json!(c.token())))
                            .collect(),
                    )
                })
                .collect();
            doc.insert("draw".into(), Value::Array(rounds));
        }
        doc.insert("seating".into(), json!(self.seating));
        doc.insert("hands".into(), self.hands.iter().map(hand_json).collect());
        Value::Object(doc)
    }

    /// The record as pretty-printed JSON text.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string_pretty(&self.to_json()).expect("a JSON value always prints")
    }
}

fn rules_json(rules: &Rules) -> Value {
    let mut r = Map::new();
    r.insert("variant".into(), json!(rules.variant.word()));
    if !rules.variant.is_suited() {
        r.insert("stripped_deck".into(), json!(rules.stripped_deck));
        r.insert(
            "first_deal_revolution".into(),
            json!(rules.first_deal_revolution),
        );
        r.insert("merchant_exchange".into(), json!(rules.merchant_exchange));
    }
    r.insert("scoring".into(), json!(rules.scoring.word()));
    // The project's own fields, which other readers ignore.
    if let Some(h) = rules.hands {
        r.insert("hands".into(), json!(h));
    }
    if !rules.join_and_leave && !rules.variant.is_suited() {
        r.insert("join_and_leave".into(), json!(false));
    }
    if rules.variant.is_suited() {
        r.insert(
            "climbing".into(),
            serde_json::to_value(rules.climbing()).expect("options serialize"),
        );
    }
    Value::Object(r)
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

fn hand_json(hand: &HandRecord) -> Value {
    let mut h = Map::new();
    if !hand.leave.is_empty() {
        h.insert("leave".into(), json!(hand.leave));
    }
    if !hand.join.is_empty() {
        let joins = hand
            .join
            .iter()
            .map(|(n, s)| json!({"name": n, "seat": s}))
            .collect();
        h.insert("join".into(), Value::Array(joins));
    }
    if let Some(seating) = &hand.seating {
        h.insert("seating".into(), json!(seating));
    }
    let cards = |pairs: &[(String, crate::Cards)]| {
        Value::Object(
            pairs
                .iter()
                .map(|(n, c)| (n.clone(), json!(c.to_string())))
                .collect(),
        )
    };
    h.insert("deal".into(), cards(&hand.deal));
    if let Some(r) = &hand.revolution {
        h.insert("revolution".into(), json!(r));
    }
    if let Some(t) = &hand.tax {
        h.insert("tax".into(), cards(t));
    }
    if let Some(x) = &hand.merchant_exchange {
        let o = x
            .iter()
            .map(|(n, c)| (n.clone(), json!(c.token())))
            .collect();
        h.insert("merchant_exchange".into(), Value::Object(o));
    }
    let mut declined = Vec::new();
    if hand.declined_revolution {
        declined.push("revolution");
    }
    if hand.declined_exchange {
        declined.push("merchant_exchange");
    }
    if !declined.is_empty() {
        h.insert("declined".into(), json!(declined));
    }
    if !hand.ready.is_empty() {
        h.insert("ready".into(), json!(hand.ready));
    }
    if let Some((from, to, card)) = &hand.merchant_offer {
        h.insert(
            "merchant_offer".into(),
            json!({"from": from, "to": to, "card": card.token()}),
        );
    }
    if let Some(order) = &hand.stalemate {
        h.insert("stalemate".into(), json!(order));
    }
    let plays = hand.plays.iter().map(|p| json!(p.to_string())).collect();
    h.insert("plays".into(), Value::Array(plays));
    Value::Object(h)
}
