//! What a seat may see, as a fixed-length vector of numbers for learning
//! agents. Built from the engine's `View` (the environments) or from the
//! bot protocol's view (a Python agent playing in `dalmuti sim`): both go
//! through [`Seen`], so the two give the same numbers.

use dalmuti_core::{CARD_KINDS, Cards, Decision, Seat, Set, Stage, View, ViewSnapshot};

/// The fields of an observation at a table of `players`: name and length,
/// in order. Seats are counted from the observer: 0 is the observer, 1 the
/// next to play after it, and so on.
pub fn layout(players: usize) -> Vec<(&'static str, usize)> {
    vec![
        ("hand", CARD_KINDS),
        ("played", CARD_KINDS),
        ("cards_left", players),
        ("seat", players),
        ("out", players),
        ("top", 4),
        ("top_by", players),
        ("passes", 1),
        ("wedged", players),
        ("decision", 6),
        ("tax_count", 1),
        ("revolution", 4),
        ("stage", 3),
        ("scores", players),
    ]
}

pub fn size(players: usize) -> usize {
    layout(players).iter().map(|(_, len)| len).sum()
}

/// The fields of an observation under `rules`: Dalmuti's and Corporate
/// Shuffle's, or President's and Daifugō's (`observe_pack`).
pub fn layout_for(rules: &dalmuti_core::Rules, players: usize) -> Vec<(&'static str, usize)> {
    if rules.variant.is_suited() {
        crate::observe_pack::layout(players)
    } else {
        layout(players)
    }
}

pub fn size_for(rules: &dalmuti_core::Rules, players: usize) -> usize {
    layout_for(rules, players).iter().map(|(_, len)| len).sum()
}

/// The observation of a seat's view into `out` (of [`size_for`] its
/// rules), whichever the game.
pub fn encode_view(view: &View<'_>, out: &mut [f32]) {
    if view.variant().is_suited() {
        crate::observe_pack::PackSeen::from_view(view)
            .expect("a seat's view")
            .encode(out);
    } else {
        Seen::from_view(view).expect("a seat's view").encode(out);
    }
}

/// The observation of a protocol view and its decision, whichever the
/// game, or what is wrong with them.
pub fn encode_snapshot(
    view: &ViewSnapshot,
    decision: Option<Decision>,
) -> Result<Vec<f32>, String> {
    if view.variant.is_suited() {
        let seen = crate::observe_pack::PackSeen::from_snapshot(view, decision)?;
        let mut out = vec![0.0; crate::observe_pack::size(seen.players)];
        seen.encode(&mut out);
        Ok(out)
    } else {
        let seen = Seen::from_snapshot(view, decision)?;
        let mut out = vec![0.0; size(seen.players)];
        seen.encode(&mut out);
        Ok(out)
    }
}

/// Everything an observation is made of, as the observer knows it.
pub struct Seen {
    pub players: usize,
    pub me: usize,
    pub hand: Cards,
    pub played: Cards,
    pub cards_left: Vec<u32>,
    pub finish_order: Vec<usize>,
    pub top: Option<(usize, Set)>,
    pub passes: usize,
    pub wedged: Option<usize>,
    pub decision: Option<Decision>,
    /// Offered to the observer: whether greater.
    pub revolution_offer: Option<bool>,
    /// Called: whether greater.
    pub revolution: Option<bool>,
    pub stage: Stage,
    pub scores: Option<Vec<u32>>,
}

impl Seen {
    /// From the engine's view of a seat; None for a spectator's.
    pub fn from_view(view: &View<'_>) -> Option<Seen> {
        let me = view.seat()?;
        let players = view.players();
        let mut played = Cards::default();
        for (_, set) in view.plays() {
            played.add_all(&set.cards());
        }
        Some(Seen {
            players,
            me: me.index(),
            hand: view.cards().unwrap_or_default(),
            played,
            cards_left: Seat::all(players).map(|s| view.card_count(s)).collect(),
            finish_order: view.finish_order().iter().map(|s| s.index()).collect(),
            top: view.top().map(|(s, set)| (s.index(), set)),
            passes: view.passes(),
            wedged: view.wedged().map(Seat::index),
            decision: view.decision(),
            revolution_offer: view.revolution_offer().map(|o| o.greater),
            revolution: view.revolution().map(|r| r.greater),
            stage: view.stage(),
            scores: view.scores().map(<[u32]>::to_vec),
        })
    }

    /// From the protocol's view and decision, or what is wrong with them.
    pub fn from_snapshot(view: &ViewSnapshot, decision: Option<Decision>) -> Result<Seen, String> {
        let me = view
            .seat
            .ok_or("a spectator's view has no observation: it has no seat")?;
        let players = view.players;
        if me >= players || view.seats.len() != players {
            return Err(format!(
                "the view's seat {me} or its {} seats do not fit {players} players",
                view.seats.len()
            ));
        }
        let cards = |text: &str| {
            text.parse::<Cards>()
                .map_err(|e| format!("cards {text:?}: {e}"))
        };
        let set = |text: &str| {
            text.parse::<Set>()
                .map_err(|e| format!("set {text:?}: {e}"))
        };
        let mut played = Cards::default();
        for entry in &view.log {
            if let dalmuti_core::LogEntry::Played { set: text, .. } = entry {
                played.add_all(&set(text)?.cards());
            }
        }
        let top = match &view.top {
            Some((seat, text)) => Some((*seat, set(text)?)),
            None => None,
        };
        let stage = match view.stage.as_str() {
            "setup" => Stage::Setup,
            "play" => Stage::Play,
            "over" => Stage::Over,
            other => return Err(format!("stage {other:?} is not setup, play or over")),
        };
        Ok(Seen {
            players,
            me,
            hand: match &view.hand {
                Some(text) => cards(text)?,
                None => Cards::default(),
            },
            played,
            cards_left: view.seats.iter().map(|s| s.cards).collect(),
            finish_order: view.finish_order.clone(),
            top,
            passes: view.passes,
            wedged: view.wedged,
            decision,
            revolution_offer: view.revolution_offer.as_ref().map(|o| o.greater),
            revolution: view.revolution.as_ref().map(|r| r.greater),
            stage,
            scores: view.scores.clone(),
        })
    }

    /// Writes the observation into `out` (of length [`size`]).
    pub fn encode(&self, out: &mut [f32]) {
        let p = self.players;
        debug_assert_eq!(out.len(), size(p));
        out.fill(0.0);
        // Seats from the observer's point of view.
        let rel = |seat: usize| (seat + p - self.me) % p;
        let mut at = 0;
        let mut field = |len: usize| {
            let start = at;
            at += len;
            start
        };
        let hand = field(CARD_KINDS);
        for (card, n) in self.hand.kinds() {
            out[hand + card.index()] = f32::from(n);
        }
        let played = field(CARD_KINDS);
        for (card, n) in self.played.kinds() {
            out[played + card.index()] = f32::from(n);
        }
        let left = field(p);
        for (seat, &n) in self.cards_left.iter().enumerate() {
            out[left + rel(seat)] = n as f32;
        }
        let seat = field(p);
        out[seat + self.me] = 1.0;
        let out_at = field(p);
        for (place, &s) in self.finish_order.iter().enumerate() {
            out[out_at + rel(s)] = (place + 1) as f32;
        }
        let top = field(4);
        let top_by = field(p);
        if let Some((by, set)) = self.top {
            out[top] = 1.0;
            out[top + 1] = f32::from(set.rank_number());
            out[top + 2] = f32::from(set.size());
            out[top + 3] = f32::from(set.wilds());
            out[top_by + rel(by)] = 1.0;
        }
        out[field(1)] = self.passes as f32;
        let wedged = field(p);
        if let Some(w) = self.wedged {
            out[wedged + rel(w)] = 1.0;
        }
        let decision = field(6);
        let tax_count = field(1);
        // Give and Discard are the pack's games' decisions, observed by
        // `observe_pack`: never asked here.
        if let Some(d) = self
            .decision
            .filter(|d| !matches!(d, Decision::Give { .. } | Decision::Discard { .. }))
        {
            let kind = match d {
                Decision::Ready => 0,
                Decision::Tax { count, .. } => {
                    out[tax_count] = f32::from(count);
                    1
                }
                Decision::ExchangeOffer => 2,
                Decision::ExchangeAnswer { .. } => 3,
                Decision::Lead => 4,
                Decision::Follow { .. } | Decision::Give { .. } | Decision::Discard { .. } => 5,
            };
            out[decision + kind] = 1.0;
        }
        let revolution = field(4);
        if let Some(greater) = self.revolution_offer {
            out[revolution] = 1.0;
            out[revolution + 1] = f32::from(u8::from(greater));
        }
        if let Some(greater) = self.revolution {
            out[revolution + 2] = 1.0;
            out[revolution + 3] = f32::from(u8::from(greater));
        }
        let stage = field(3);
        out[stage
            + match self.stage {
                Stage::Setup => 0,
                Stage::Play => 1,
                Stage::Over => 2,
            }] = 1.0;
        let scores = field(p);
        if let Some(points) = &self.scores {
            for (seat, &n) in points.iter().enumerate().take(p) {
                out[scores + rel(seat)] = n as f32;
            }
        }
    }
}
