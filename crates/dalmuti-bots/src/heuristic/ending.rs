//! The two-player ending, played exactly: when one rival is left, the
//! bot searches every line of play to the end within a budget.

use super::*;

// ----- the two-player ending -----

/// A two-player ending seen from the player to move: both hands (the
/// other's being exactly the unseen cards), the set on the table, what a
/// pass leads to, and where Ratbert stands in the trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Duel {
    mover: Cards,
    other: Cards,
    top: Option<Set>,
    on_pass: OnPass,
    ratbert: InTrick,
}

/// What happens when the player to move passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum OnPass {
    /// The round ends, won by the other player (who played the set on the
    /// table): they take Ratbert back if it is due, and lead.
    OtherWins,
    /// The round ends, its winner gone out: the mover leads.
    MoverLeads,
    /// The round ends, its winner gone out: the other player leads.
    OtherLeads,
    /// The other player may still top the set (its player went out); if
    /// they pass too, the mover leads (`true`) or they do (`false`).
    OtherFollows(bool),
}

/// Where Ratbert stands in the trick (Corporate Shuffle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum InTrick {
    /// Not in this trick.
    Absent,
    /// Led, and so far the trick's only card.
    Alone,
    /// Led and topped: the trick's winner takes it back, unless out.
    Topped,
}

impl Duel {
    /// The ending at `view`, if exactly two players hold cards and both
    /// hands are small enough to search. Not while the Wedgie silences
    /// someone: who answers then is not a duel's.
    pub(super) fn at(view: &View<'_>, k: &Knowledge) -> Option<Duel> {
        let holding = view.holding();
        if holding.len() != 2 || view.wedged().is_some() {
            return None;
        }
        let other = holding.iter().find(|&s| s != k.me)?;
        if k.unseen.len() != k.counts[other]
            || positions(k.mine) * positions(k.unseen) > ENDING_POSITIONS
        {
            return None;
        }
        let on_pass = match view.top() {
            None => OnPass::OtherWins,
            Some((by, _)) if by == other => OnPass::OtherWins,
            Some((by, _)) => {
                // The set's player went out: both must pass, then the next
                // player after them leads.
                let mover_leads = holding.next_after(by) == Some(k.me);
                match view.passes() {
                    0 => OnPass::OtherFollows(mover_leads),
                    _ if mover_leads => OnPass::MoverLeads,
                    _ => OnPass::OtherLeads,
                }
            }
        };
        let ratbert = match view.top() {
            Some((_, top)) if top.is_ratbert() => InTrick::Alone,
            Some(_) if view.ratbert_to_take() => InTrick::Topped,
            _ => InTrick::Absent,
        };
        Some(Duel {
            mover: k.mine,
            other: k.unseen,
            top: view.top().map(|(_, s)| s),
            on_pass,
            ratbert,
        })
    }

    /// The position after the mover plays `set`, and whether the same
    /// player moves in it (`None`: the mover went out and won).
    pub(super) fn after_play(self, set: Set) -> Option<(Duel, bool)> {
        let mut rest = without(self.mover, set);
        if rest.is_empty() {
            return None;
        }
        let ratbert = match self.ratbert {
            _ if set.is_ratbert() => InTrick::Alone,
            InTrick::Alone => InTrick::Topped,
            r => r,
        };
        if set.is_world_ruler() || set.holds_wedgie() {
            // The trick ends at once (the Wedgie's victim can only be the
            // other player): the mover wins it, and leads.
            if ratbert == InTrick::Topped {
                rest.add(Card::RATBERT, 1);
            }
            return Some((
                Duel {
                    mover: rest,
                    other: self.other,
                    top: None,
                    on_pass: OnPass::OtherWins,
                    ratbert: InTrick::Absent,
                },
                true,
            ));
        }
        Some((
            Duel {
                mover: self.other,
                other: rest,
                top: Some(set),
                on_pass: OnPass::OtherWins,
                ratbert,
            },
            false,
        ))
    }

    /// The position after the mover passes, and whether the same player
    /// moves in it.
    pub(super) fn after_pass(self) -> (Duel, bool) {
        let lead = |mover, other| Duel {
            mover,
            other,
            top: None,
            on_pass: OnPass::OtherWins,
            ratbert: InTrick::Absent,
        };
        match self.on_pass {
            OnPass::OtherWins => {
                let mut winner = self.other;
                if self.ratbert == InTrick::Topped {
                    winner.add(Card::RATBERT, 1);
                }
                (lead(winner, self.mover), false)
            }
            OnPass::MoverLeads => (lead(self.mover, self.other), true),
            OnPass::OtherLeads => (lead(self.other, self.mover), false),
            OnPass::OtherFollows(mover_leads) => (
                Duel {
                    mover: self.other,
                    other: self.mover,
                    on_pass: if mover_leads {
                        OnPass::OtherLeads
                    } else {
                        OnPass::MoverLeads
                    },
                    ..self
                },
                false,
            ),
        }
    }
}

/// How many sub-hands a hand has: the product of (copies + 1) per kind.
pub(super) fn positions(cards: Cards) -> u64 {
    cards.kinds().map(|(_, n)| u64::from(n) + 1).product()
}

/// Every set `cards` can lead, or can top `top` with. A Wedgie set names
/// no victim: in a duel it can only be the other player.
pub(super) fn sets_to_play(cards: Cards, top: Option<Set>, variant: Variant) -> ActionList {
    let mut list = ActionList::new();
    let wilds = cards.wilds();
    let mut push = |s: Option<Set>| {
        if let Some(s) = s.filter(|s| top.is_none_or(|t| s.tops(&t))) {
            let _ = list.try_push(Action::Play(s));
        }
    };
    match variant {
        // President and Daifugō never come here: their plays are
        // chosen in climb.rs.
        Variant::Dalmuti | Variant::Daifugo | Variant::President => {
            for (rank, copies) in groups(cards) {
                let rank = Rank::new(rank).expect("1..=12");
                for naturals in 1..=copies {
                    for j in 0..=wilds {
                        push(Set::new(rank, naturals, j));
                    }
                }
            }
            for j in 1..=wilds {
                push(Set::jesters_alone(j));
            }
        }
        Variant::CorporateShuffle => {
            if cards.count(Card::RATBERT) > 0 {
                push(Some(Set::RATBERT));
            }
            for v in DECLARED_VALUES {
                let rank = Rank::new(v).expect("1..=10");
                let copies = cards.count(rank.into());
                for naturals in 1..=copies {
                    for j in 0..=wilds {
                        push(Set::with_dogberts(rank, naturals, j));
                    }
                }
                if v == 6 && cards.count(Card::TWIRLING_WEDGIE) > 0 {
                    for naturals in 0..=copies {
                        for j in 0..=wilds {
                            push(Set::wedgie(naturals, j));
                        }
                    }
                }
            }
            for j in 1..=wilds {
                for v in DECLARED_VALUES {
                    push(Set::dogberts_as(j, v));
                }
            }
            if cards.count(Card::WORLD_RULER) > 0 {
                push(Some(Set::WORLD_RULER));
            }
        }
    }
    list
}

/// The exact search of two-player endings, with the positions it has
/// solved (a position's outcome never depends on how it was reached).
#[derive(Clone, Debug, Default)]
pub(super) struct Ending {
    solved: HashMap<Duel, bool, BuildHasherDefault<QuickHasher>>,
    /// Both hands together at the last decision searched: a later decision
    /// of the same ending holds some of these cards, never others (but for
    /// Ratbert coming back, which starts a new table).
    cards: Cards,
    visits: u32,
    variant: Variant,
}

impl Ending {
    /// A winning action among `legal` if the search finds one, trying
    /// `preferred` first; else `preferred`.
    pub(super) fn choose(
        &mut self,
        duel: Duel,
        legal: &[Action],
        preferred: Option<Action>,
        variant: Variant,
    ) -> Option<Action> {
        let mut cards = duel.mover;
        cards.add_all(&duel.other);
        if !self.cards.contains(&cards)
            || self.solved.len() > ENDING_MEMORY
            || variant != self.variant
        {
            // Another ending: its positions will not come back.
            self.solved.clear();
        }
        self.cards = cards;
        self.variant = variant;
        self.visits = 0;
        let candidates = preferred
            .iter()
            .chain(legal.iter().filter(|&&a| Some(a) != preferred));
        for &action in candidates {
            if self.wins_with(duel, action) == Some(true) {
                return Some(action);
            }
        }
        preferred
    }

    /// Whether the mover wins by playing `action` (`None`: out of budget).
    pub(super) fn wins_with(&mut self, duel: Duel, action: Action) -> Option<bool> {
        let (next, same) = match action {
            Action::Play(set) => match duel.after_play(set) {
                None => return Some(true),
                Some(next) => next,
            },
            Action::Pass if duel.top.is_some() => duel.after_pass(),
            _ => return Some(false),
        };
        self.wins(next).map(|w| w == same)
    }

    /// Whether the player to move in `duel` wins against best play.
    pub(super) fn wins(&mut self, duel: Duel) -> Option<bool> {
        if let Some(&known) = self.solved.get(&duel) {
            return Some(known);
        }
        self.visits += 1;
        if self.visits > ENDING_BUDGET {
            return None;
        }
        let moves = sets_to_play(duel.mover, duel.top, self.variant);
        // Going out at once wins: look for it before anything deeper.
        let mut win = moves
            .iter()
            .any(|a| matches!(a, Action::Play(s) if s.cards() == duel.mover));
        if !win {
            for &action in moves.iter().chain(duel.top.map(|_| Action::Pass).iter()) {
                if self.wins_with(duel, action)? {
                    win = true;
                    break;
                }
            }
        }
        self.solved.insert(duel, win);
        Some(win)
    }
}

/// A fast hasher for the table of solved endings (multiply and rotate, as
/// in rustc's FxHash): the keys are small and never chosen by an attacker.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct QuickHasher(u64);

impl QuickHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for QuickHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
