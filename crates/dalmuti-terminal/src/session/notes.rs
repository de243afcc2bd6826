//! Lines of the log that no event of the hand tells: a secret setup choice
//! made (a bot's, or the human's own) and a bot's fault. Each is kept with
//! the place it fell among the hand's told lines, and said again in the
//! language spoken now, so the log told again (after `L`) is the log that
//! was shown.

use dalmuti_core::{Action, Card, Cards, Decision, PlayerId, Seat};

use super::Session;
use crate::phrase::say;

/// A line of the log that the hand's events do not tell.
#[derive(Clone, Debug)]
pub(super) struct Note {
    /// The hand (from 0).
    pub(super) hand: usize,
    /// How many of the hand's told lines came before it.
    pub(super) at: usize,
    /// What it says.
    pub(super) what: NoteWhat,
}

/// What a [`Note`] says. Players are kept, not seats: a note told again
/// in a later hand names who it named then.
#[derive(Clone, Debug)]
pub(super) enum NoteWhat {
    /// A bot made a choice that stays secret for now; the note says that
    /// it chose, and for whom, never what.
    BotChoice {
        /// The bot's player.
        player: PlayerId,
        /// What kind of choice.
        kind: Secret,
        /// Whom it concerns (the tax's Peon, the exchange's partner).
        other: Option<PlayerId>,
    },
    /// A bot failed and the safe choice was made for it.
    BotFault {
        /// The bot's player.
        player: PlayerId,
        /// How it failed.
        fault: String,
    },
    /// The human's own secret choice, cards and all: theirs to see.
    Mine(Mine),
}

/// The kind of a bot's secret choice.
#[derive(Clone, Copy, Debug)]
pub(super) enum Secret {
    /// Its tax gift.
    Tax,
    /// A merchant exchange offered.
    Offer,
    /// The card it gives back in an exchange.
    Answer,
    /// Any other choice.
    Decided,
}

/// The human's secret choice.
#[derive(Clone, Copy, Debug)]
pub(super) enum Mine {
    /// The tax gift, and to whom.
    Tax(Cards, PlayerId),
    /// A card offered in an exchange, and to whom.
    Offer(Card, PlayerId),
    /// The card given back in an exchange.
    Answer(Card),
}

impl Session {
    /// Keeps a note at the current place of the current hand's log, and
    /// returns it in words.
    pub(super) fn note(&mut self, what: NoteWhat) -> String {
        let note = Note {
            hand: self.hand_number().saturating_sub(1),
            at: self.told,
            what,
        };
        let text = self.note_text(&note);
        self.notes.push(note);
        text
    }

    /// A bot's secret choice as a note's content, its seats read now.
    pub(super) fn bot_choice(
        &self,
        player: PlayerId,
        decision: Decision,
        action: Action,
    ) -> NoteWhat {
        let at = |seat: Seat| Some(self.game.player_at(seat));
        let (kind, other) = match (decision, action) {
            (Decision::Tax { to, .. }, _) => (Secret::Tax, at(to)),
            (_, Action::OfferExchange { partner, .. }) => (Secret::Offer, at(partner)),
            (Decision::ExchangeAnswer { from, .. }, _) => (Secret::Answer, at(from)),
            _ => (Secret::Decided, None),
        };
        NoteWhat::BotChoice {
            player,
            kind,
            other,
        }
    }

    /// The human's secret choice as a note's content, if it needs one.
    pub(super) fn my_choice(&self, decision: Decision, action: Action) -> Option<Mine> {
        let at = |seat: Seat| self.game.player_at(seat);
        match (decision, action) {
            (Decision::Tax { to, .. }, Action::GiveTax(cards)) => Some(Mine::Tax(cards, at(to))),
            (_, Action::OfferExchange { partner, card }) => Some(Mine::Offer(card, at(partner))),
            (_, Action::AnswerExchange(card)) => Some(Mine::Answer(card)),
            _ => None,
        }
    }

    /// A note in the language spoken now.
    pub(super) fn note_text(&self, note: &Note) -> String {
        let tr = self.tr();
        match &note.what {
            NoteWhat::BotChoice {
                player,
                kind,
                other,
            } => {
                let taxes = tr.taxes();
                let merchant = tr.merchant();
                let key = match kind {
                    Secret::Tax => format!("{}.secret.tax", self.variant().word()),
                    Secret::Offer => "secret.offer".into(),
                    Secret::Answer => "secret.answer".into(),
                    Secret::Decided => "secret.decided".into(),
                };
                let (key, other) = match other {
                    Some(p) if *p == self.me => (format!("{key}.you"), ""),
                    Some(p) => (key, self.name(*p)),
                    None => (key, ""),
                };
                tr.t(
                    &key,
                    &[
                        ("name", self.name(*player)),
                        ("other", other),
                        ("taxes", &taxes),
                        ("merchant", &merchant),
                    ],
                )
            }
            NoteWhat::BotFault { player, fault } => tr.t(
                "bot.failed",
                &[("name", self.name(*player)), ("fault", fault)],
            ),
            NoteWhat::Mine(mine) => {
                let done = tr.v("setup-done", &[]);
                match *mine {
                    Mine::Tax(cards, to) => tr.t(
                        "tui.note.tax",
                        &[
                            ("words", &tr.cards_words(&cards)),
                            ("cards", &cards.to_string()),
                            ("name", self.name(to)),
                            ("done", &done),
                        ],
                    ),
                    Mine::Offer(card, to) => say(
                        tr,
                        "tui.note.offer",
                        &[
                            ("card", &tr.count_of(1, card)),
                            ("token", &card.to_string()),
                            ("name", self.name(to)),
                        ],
                    ),
                    Mine::Answer(card) => tr.t(
                        "tui.note.answer",
                        &[
                            ("card", &tr.count_of(1, card)),
                            ("token", &card.to_string()),
                            ("done", &done),
                        ],
                    ),
                }
            }
        }
    }

    /// `told`, the told lines of hand `index`, with that hand's notes put
    /// back where they fell.
    pub(super) fn with_notes(&self, index: usize, told: Vec<String>) -> Vec<String> {
        let mut notes = self.notes.iter().filter(|n| n.hand == index).peekable();
        let mut out = Vec::with_capacity(told.len());
        for (i, line) in told.into_iter().enumerate() {
            while let Some(note) = notes.next_if(|n| n.at <= i) {
                out.push(self.note_text(note));
            }
            out.push(line);
        }
        out.extend(notes.map(|n| self.note_text(n)));
        out
    }
}
