//! What a seat may see in President and Daifugō, as a fixed-length vector
//! of numbers: the pack's cards one by one (their suits matter), the table
//! of the climbing games (revolution, 11-back, the lock, the direction,
//! who has passed) and the decisions of the house rules. Built from the
//! engine's `View` or from the protocol's view; both give the same numbers
//! (python/tests check it at every decision).

use dalmuti_core::{
    Card, Cards, Decision, Event, LogEntry, Seat, Seen, Set, SetKind, Stage, View, ViewSnapshot,
};

/// A card of the pack by its slot: the 52 cards by place then suit (`3S`
/// is 0, `3H` 1 … `2C` 51: bit `4 × (place − 1) + suit` of
/// `Cards::pack_mask`), then slot 52 counting the Jokers.
pub const CARD_SLOTS: usize = 53;

/// The fields of an observation at a table of `players`, in order.
pub fn layout(players: usize) -> Vec<(&'static str, usize)> {
    vec![
        ("hand", CARD_SLOTS),
        ("played", CARD_SLOTS),
        ("gave", CARD_SLOTS),
        ("got", CARD_SLOTS),
        ("discarded", CARD_SLOTS),
        ("cards_left", players),
        ("class", players),
        ("out", players),
        ("top", 13),
        ("top_by", players),
        ("passes", 1),
        ("passed", players),
        ("table", 9),
        ("decision", 5),
        ("decision_count", 1),
        ("decision_to", players),
        ("hidden_discards", 1),
        ("stage", 3),
        ("scores", players),
    ]
}

pub fn size(players: usize) -> usize {
    layout(players).iter().map(|(_, len)| len).sum()
}

/// Everything a pack observation is made of, as the observer knows it.
pub struct PackSeen {
    pub players: usize,
    pub me: usize,
    pub hand: Cards,
    pub played: Cards,
    /// Cards the observer gave away (the exchange, the 7-pass).
    pub gave: Cards,
    /// Cards the observer received (the exchange, the 7-pass).
    pub got: Cards,
    /// Cards the observer discarded (10-discard).
    pub discarded: Cards,
    pub cards_left: Vec<u32>,
    pub classes: Vec<Option<usize>>,
    pub finish_order: Vec<usize>,
    pub top: Option<(usize, Set)>,
    pub passes: usize,
    pub passed: Vec<usize>,
    pub reversed: bool,
    pub eleven_back: bool,
    pub lock: u8,
    pub lock_number: bool,
    pub clockwise: bool,
    pub decision: Option<Decision>,
    pub hidden_discards: u32,
    pub stage: Stage,
    pub scores: Option<Vec<u32>>,
}

impl PackSeen {
    /// From the engine's view of a seat; None for a spectator's.
    pub fn from_view(view: &View<'_>) -> Option<PackSeen> {
        let me = view.seat()?;
        let players = view.players();
        let mut seen = PackSeen::empty(players, me.index());
        seen.hand = view.cards().unwrap_or_default();
        for (_, set) in view.plays() {
            seen.played.add_all(&set.cards());
        }
        if let Some(t) = view.my_tax() {
            let (gave, got) = if t.dalmuti == me {
                (t.gift, t.tribute)
            } else {
                (t.tribute, t.gift)
            };
            seen.gave.add_all(&gave);
            seen.got.add_all(&got);
        }
        for entry in view.log() {
            match entry {
                Seen::Event(Event::Given { from, to, card }) => {
                    if from == me {
                        seen.gave.add(card, 1);
                    }
                    if to == me {
                        seen.got.add(card, 1);
                    }
                }
                Seen::Event(Event::Discarded { card, .. }) => seen.discarded.add(card, 1),
                Seen::Discarded { .. } => seen.hidden_discards += 1,
                _ => {}
            }
        }
        seen.cards_left = Seat::all(players).map(|s| view.card_count(s)).collect();
        seen.classes = Seat::all(players).map(|s| view.class(s)).collect();
        seen.finish_order = view.finish_order().iter().map(|s| s.index()).collect();
        seen.top = view.top().map(|(s, set)| (s.index(), set));
        seen.passes = view.passes();
        seen.passed = view.passed().iter().map(Seat::index).collect();
        seen.reversed = view.reversed();
        seen.eleven_back = view.eleven_back();
        let (lock, number) = view.lock();
        seen.lock = lock;
        seen.lock_number = number;
        seen.clockwise = view.clockwise();
        seen.decision = view.decision();
        seen.stage = view.stage();
        seen.scores = view.scores().map(<[u32]>::to_vec);
        Some(seen)
    }

    /// From the protocol's view and decision, or what is wrong with them.
    pub fn from_snapshot(
        view: &ViewSnapshot,
        decision: Option<Decision>,
    ) -> Result<PackSeen, String> {
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
        let table = view
            .table
            .as_ref()
            .ok_or("a view of President or Daifugō has a table")?;
        let cards = |text: &str| {
            text.parse::<Cards>()
                .map_err(|e| format!("cards {text:?}: {e}"))
        };
        let card = |text: &str| {
            text.parse::<Card>()
                .map_err(|e| format!("card {text:?}: {e}"))
        };
        let set = |text: &str| {
            text.parse::<Set>()
                .map_err(|e| format!("set {text:?}: {e}"))
        };
        let mut seen = PackSeen::empty(players, me);
        if let Some(text) = &view.hand {
            seen.hand = cards(text)?;
        }
        if let Some(t) = &view.my_tax {
            seen.gave.add_all(&cards(&t.gave)?);
            seen.got.add_all(&cards(&t.received)?);
        }
        for entry in &view.log {
            match entry {
                LogEntry::Played { set: text, .. } => seen.played.add_all(&set(text)?.cards()),
                LogEntry::Given {
                    from,
                    to,
                    card: Some(text),
                } => {
                    let c = card(text)?;
                    if *from == me {
                        seen.gave.add(c, 1);
                    }
                    if *to == me {
                        seen.got.add(c, 1);
                    }
                }
                LogEntry::Discarded {
                    card: Some(text), ..
                } => seen.discarded.add(card(text)?, 1),
                LogEntry::Discarded { card: None, .. } => seen.hidden_discards += 1,
                _ => {}
            }
        }
        seen.cards_left = view.seats.iter().map(|s| s.cards).collect();
        seen.classes = table.classes.clone();
        seen.finish_order = view.finish_order.clone();
        seen.top = match &view.top {
            Some((seat, text)) => Some((*seat, set(text)?)),
            None => None,
        };
        seen.passes = view.passes;
        seen.passed = table.passed.clone();
        seen.reversed = table.reversed;
        seen.eleven_back = table.eleven_back;
        seen.lock = lock_mask(&table.lock)?;
        seen.lock_number = table.lock_number;
        seen.clockwise = table.clockwise;
        seen.decision = decision;
        seen.stage = match view.stage.as_str() {
            "setup" => Stage::Setup,
            "play" => Stage::Play,
            "over" => Stage::Over,
            other => return Err(format!("stage {other:?} is not setup, play or over")),
        };
        seen.scores = view.scores.clone();
        Ok(seen)
    }

    fn empty(players: usize, me: usize) -> PackSeen {
        PackSeen {
            players,
            me,
            hand: Cards::EMPTY,
            played: Cards::EMPTY,
            gave: Cards::EMPTY,
            got: Cards::EMPTY,
            discarded: Cards::EMPTY,
            cards_left: vec![0; players],
            classes: vec![None; players],
            finish_order: Vec::new(),
            top: None,
            passes: 0,
            passed: Vec::new(),
            reversed: false,
            eleven_back: false,
            lock: 0,
            lock_number: false,
            clockwise: true,
            decision: None,
            hidden_discards: 0,
            stage: Stage::Setup,
            scores: None,
        }
    }

    /// Writes the observation into `out` (of length [`size`]).
    pub fn encode(&self, out: &mut [f32]) {
        let p = self.players;
        debug_assert_eq!(out.len(), size(p));
        out.fill(0.0);
        let rel = |seat: usize| (seat + p - self.me) % p;
        let mut at = 0;
        let mut field = |len: usize| {
            let start = at;
            at += len;
            start
        };
        for cards in [
            &self.hand,
            &self.played,
            &self.gave,
            &self.got,
            &self.discarded,
        ] {
            slots(cards, &mut out[field(CARD_SLOTS)..][..CARD_SLOTS]);
        }
        let left = field(p);
        for (seat, &n) in self.cards_left.iter().enumerate().take(p) {
            out[left + rel(seat)] = n as f32;
        }
        let class = field(p);
        for (seat, c) in self.classes.iter().enumerate().take(p) {
            if let Some(c) = c {
                out[class + rel(seat)] = (c + 1) as f32;
            }
        }
        let out_at = field(p);
        for (place, &s) in self.finish_order.iter().enumerate() {
            if s < p {
                out[out_at + rel(s)] = (place + 1) as f32;
            }
        }
        let top = field(13);
        let top_by = field(p);
        if let Some((by, set)) = self.top {
            out[top] = 1.0;
            let kind = match set.kind() {
                SetKind::Sequence => 2,
                SetKind::LoneJoker => 3,
                _ => 1,
            };
            out[top + kind] = 1.0;
            let (low, high) = set.places();
            out[top + 4] = f32::from(low);
            out[top + 5] = f32::from(high);
            out[top + 6] = f32::from(set.size());
            out[top + 7] = f32::from(set.wilds());
            for bit in 0..5 {
                out[top + 8 + bit] = f32::from((set.suit_mask() >> bit) & 1);
            }
            if by < p {
                out[top_by + rel(by)] = 1.0;
            }
        }
        out[field(1)] = self.passes as f32;
        let passed = field(p);
        for &s in &self.passed {
            if s < p {
                out[passed + rel(s)] = 1.0;
            }
        }
        let table = field(9);
        out[table] = f32::from(u8::from(self.reversed));
        out[table + 1] = f32::from(u8::from(self.eleven_back));
        for bit in 0..5 {
            out[table + 2 + bit] = f32::from((self.lock >> bit) & 1);
        }
        out[table + 7] = f32::from(u8::from(self.lock_number));
        out[table + 8] = f32::from(u8::from(self.clockwise));
        let decision = field(5);
        let count = field(1);
        let to = field(p);
        if let Some(d) = self.decision {
            let (kind, n, whom) = match d {
                Decision::Tax { to, count } => (0, count, Some(to)),
                Decision::Lead => (1, 0, None),
                Decision::Follow { .. } => (2, 0, None),
                Decision::Give { to, left } => (3, left, Some(to)),
                Decision::Discard { left } => (4, left, None),
                // Dalmuti's setup decisions: never in these games.
                _ => (0, 0, None),
            };
            out[decision + kind] = 1.0;
            out[count] = f32::from(n);
            if let Some(s) = whom.filter(|s| s.index() < p) {
                out[to + rel(s.index())] = 1.0;
            }
        }
        out[field(1)] = self.hidden_discards as f32;
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

/// The cards in their slots: 1 for each card of the pack held, the number
/// of Jokers in the last.
fn slots(cards: &Cards, out: &mut [f32]) {
    let mask = cards.pack_mask();
    for (i, slot) in out.iter_mut().enumerate().take(52) {
        *slot = ((mask >> i) & 1) as f32;
    }
    out[52] = f32::from(cards.jokers());
}

/// A lock's suits from the view's letters (`SH`, `+` a Joker beyond the
/// four suits).
fn lock_mask(letters: &str) -> Result<u8, String> {
    let mut mask = 0u8;
    for c in letters.chars() {
        mask |= match c {
            'S' => 1,
            'H' => 2,
            'D' => 4,
            'C' => 8,
            '+' => 16,
            other => return Err(format!("{other:?} in the lock {letters:?} is not a suit")),
        };
    }
    Ok(mask)
}
