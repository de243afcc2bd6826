//! The legal actions of a seat in President and Daifugō: every lead, run
//! and follow the table allows, and the checks a play must pass.

use super::*;

impl Hand {
    /// Every legal action of a seat in President or Daifugō, worst first.
    // Out of line: inlined into `for_each_legal` it would keep Dalmuti's
    // `worst_legal` from being inlined into the play loop.
    #[inline(never)]
    pub(in crate::hand) fn climb_for_each_legal(
        &self,
        seat: Seat,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self.stage {
            Stage::Setup => {
                if let Some((count, _)) = self.return_count(seat) {
                    for_each_return(self.held[seat], count, f)?;
                }
                ControlFlow::Continue(())
            }
            Stage::Play if seat == self.turn => {
                if let Some(owed) = self.climb_owed_decision() {
                    return self.for_each_settling(seat, owed, f);
                }
                let c = self.rules.climbing();
                match self.top {
                    None => {
                        self.for_each_lead(seat, &c, f)?;
                        if c.lead_may_pass {
                            f(Action::Pass)?;
                        }
                    }
                    Some((_, top)) => {
                        self.for_each_follow(seat, top, &c, f)?;
                        f(Action::Pass)?;
                    }
                }
                ControlFlow::Continue(())
            }
            _ => ControlFlow::Continue(()),
        }
    }

    /// Every card `seat` may give or discard, the weakest in the order now
    /// first, a Joker last.
    pub(in crate::hand) fn for_each_settling(
        &self,
        seat: Seat,
        owed: Decision,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let held = self.held[seat];
        let flipped = self.tb().flipped();
        let act = |card| match owed {
            Decision::Give { .. } => Action::Give(card),
            _ => Action::Discard(card),
        };
        for i in THREE..=TWO {
            let p = if flipped { TWO + THREE - i } else { i };
            for suit in crate::Suit::ALL.iter().rev() {
                let card = Card::suited(p, *suit).expect("a place of the pack");
                if held.count(card) > 0 {
                    f(act(card))?;
                }
            }
        }
        if held.jokers() > 0 {
            f(act(Card::JOKER))?;
        }
        ControlFlow::Continue(())
    }

    pub(in crate::hand) fn for_each_lead(
        &self,
        seat: Seat,
        c: &Climbing,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let held = &self.held[seat];
        let pack = held.pack_mask();
        let jokers = held.jokers().min(c.jokers);
        let flipped = self.tb().flipped();
        let places = (THREE..=TWO).map(|i| if flipped { TWO + THREE - i } else { i });
        // Without Jokers first, weakest rank first: its sequences (the
        // most cards), then its sets, largest first. Then the same with
        // Jokers, which nobody sheds first.
        let rows = crate::Suit::ALL.map(|suit| row_of(pack, suit));
        for p in places.clone() {
            if c.sequences {
                for suit in crate::Suit::ALL {
                    self.for_each_run_from(rows[suit.index()], suit, p, 0, 0, c, None, f)?;
                }
            }
            let have = ((pack >> (4 * u32::from(p - 1))) & 0xF).count_ones() as u8;
            for size in (1..=have).rev() {
                for_each_set(pack, p, size, 0, 0, 0, f)?;
            }
        }
        if jokers == 0 {
            return ControlFlow::Continue(());
        }
        for p in places {
            if c.sequences {
                for suit in crate::Suit::ALL {
                    self.for_each_run_from(rows[suit.index()], suit, p, jokers, 1, c, None, f)?;
                }
            }
            for size in (2..=4 + jokers).rev() {
                for_each_set(pack, p, size, jokers, 1, 0, f)?;
            }
        }
        if c.sequences && c.joker_beyond_ends {
            // Runs whose lowest place is the Joker below the 3.
            for suit in crate::Suit::ALL {
                self.for_each_run_from(rows[suit.index()], suit, 0, jokers, 1, c, None, f)?;
            }
        }
        if jokers > 0 {
            f(Action::Play(Set::LONE_JOKER))?;
        }
        ControlFlow::Continue(())
    }

    /// Runs of `suit` (its places held: `row`) from place `low`, longest
    /// first, each with every placing of up to `jokers` Jokers that uses at
    /// least `min_used`; only those that top `top` when given.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::hand) fn for_each_run_from(
        &self,
        row: u16,
        suit: crate::Suit,
        low: u8,
        jokers: u8,
        min_used: u8,
        c: &Climbing,
        top: Option<Set>,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let highest = if c.joker_beyond_ends { ABOVE } else { TWO };
        if !c.joker_beyond_ends && low == 0 {
            return ControlFlow::Continue(());
        }
        let max_len = (highest + 1).saturating_sub(low);
        if jokers == 0 {
            // Without Jokers a run is the held places in a row from `low`.
            let run = (u32::from(row) >> low).trailing_ones() as u8;
            let (most, least) = match top {
                Some(t) => (t.size(), t.size()),
                None => (run, 3),
            };
            if run < most.max(3) {
                return ControlFlow::Continue(());
            }
            for len in (least..=most).rev() {
                let set = Set::sequence(suit, low, len, 0).expect("a run held");
                if top.is_none_or(|t| self.tops_now(set, t, c).is_ok()) {
                    f(Action::Play(set))?;
                }
            }
            return ControlFlow::Continue(());
        }
        let (longest, shortest) = match top {
            Some(t) => (t.size().min(max_len), t.size()),
            None => (max_len, 3),
        };
        for len in (shortest..=longest).rev() {
            let window = ((1u32 << len) - 1) << low;
            let missing = window & !u32::from(row);
            let need = missing.count_ones() as u8;
            if need > jokers || need >= len {
                continue;
            }
            let missing_rel = (missing >> low) as u16;
            // Every placing of Jokers: the missing places, and as many more
            // as the Jokers left allow (a Joker may stand for a card held).
            let spare = jokers - need;
            let free = ((1u16 << len) - 1) & !missing_rel;
            let mut emit = |at: u16| -> ControlFlow<()> {
                if at.count_ones() as u8 >= min_used
                    && let Some(set) = Set::sequence(suit, low, len, at)
                    && top.is_none_or(|t| self.tops_now(set, t, c).is_ok())
                {
                    f(Action::Play(set))?;
                }
                ControlFlow::Continue(())
            };
            emit(missing_rel)?;
            if spare >= 1 {
                let mut a = free;
                while a != 0 {
                    let bit_a = a & a.wrapping_neg();
                    emit(missing_rel | bit_a)?;
                    if spare >= 2 {
                        let mut b = a & !bit_a;
                        while b != 0 {
                            let bit_b = b & b.wrapping_neg();
                            emit(missing_rel | bit_a | bit_b)?;
                            b &= !bit_b;
                        }
                    }
                    a &= !bit_a;
                }
            }
        }
        ControlFlow::Continue(())
    }

    pub(in crate::hand) fn for_each_follow(
        &self,
        seat: Seat,
        top: Set,
        c: &Climbing,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let held = &self.held[seat];
        let pack = held.pack_mask();
        let jokers = held.jokers().min(c.jokers);
        let flipped = self.tb().flipped();
        match top.kind() {
            SetKind::OfRank => {
                let size = top.size();
                let t = top.rank_number();
                // Nothing beats 2s under the unbeatable 2s, but 2s of the
                // same size under the same-rank skip.
                let unbeatable = c.unbeatable_twos && t == TWO;
                let mut p = if c.same_rank_skip {
                    t
                } else {
                    step_up(t, flipped)
                };
                while (THREE..=TWO).contains(&p) && !(unbeatable && p != t) {
                    let suits = self.required_suits(top);
                    let number_ok = !self.tb().lock_number || p == step_up(t, flipped);
                    if number_ok {
                        for_each_set(pack, p, size, jokers, 0, suits, f)?;
                    }
                    p = step_up(p, flipped);
                }
                if size == 1 && jokers > 0 && !unbeatable {
                    f(Action::Play(Set::LONE_JOKER))?;
                }
            }
            SetKind::Sequence => {
                let suits = self.required_suits(top);
                for suit in crate::Suit::ALL {
                    if suits != 0 && suits != 1 << suit.index() {
                        continue;
                    }
                    let lows: ArrayVec<u8, 16> = if flipped {
                        (0..top.rank_number()).rev().collect()
                    } else {
                        (top.places().1 + 1..=ABOVE).collect()
                    };
                    let row = row_of(pack, suit);
                    for low in lows {
                        self.for_each_run_from(row, suit, low, jokers, 0, c, Some(top), f)?;
                    }
                }
            }
            SetKind::LoneJoker => {
                let spade = Card::suited(THREE, crate::Suit::Spades).expect("3♠");
                if c.spade_three && held.count(spade) > 0 {
                    f(Action::Play(Set::of_rank(THREE, 1, 0, 0).expect("3♠")))?;
                }
            }
            SetKind::Dalmuti => {}
        }
        ControlFlow::Continue(())
    }

    /// The suits a play must have now: the top's under a suit lock, else
    /// 0 (any).
    pub(in crate::hand) fn required_suits(&self, top: Set) -> u8 {
        if self.tb().lock_suits {
            top.suit_mask()
        } else {
            0
        }
    }

    // ----- checking and applying -----

    /// Whether `set` may be played on `top` now: the same kind and size and
    /// strictly higher (a lone Joker on any single card, the 3♠ on a lone
    /// Joker), and the lock (`external.c`, `compare_card_status`; `daihu.c`
    /// for the lock and the 3♠).
    pub(in crate::hand) fn tops_now(
        &self,
        set: Set,
        top: Set,
        c: &Climbing,
    ) -> Result<(), Illegal> {
        let flipped = self.tb().flipped();
        let not = || Err(crate::hand::apply::not_topping(set, top));
        if set.size() != top.size() {
            return not();
        }
        match (top.kind(), set.kind()) {
            (SetKind::LoneJoker, SetKind::OfRank) => {
                let spade = Set::of_rank(THREE, 1, 0, 0).expect("3♠");
                if c.spade_three && set == spade {
                    Ok(())
                } else {
                    not()
                }
            }
            (SetKind::OfRank, SetKind::LoneJoker) => {
                if c.unbeatable_twos && top.rank_number() == TWO {
                    not()
                } else {
                    Ok(())
                }
            }
            (SetKind::OfRank, SetKind::OfRank) => {
                let (p, t) = (set.rank_number(), top.rank_number());
                let equal = c.same_rank_skip && p == t;
                let beats = if c.unbeatable_twos && t == TWO {
                    false
                } else {
                    higher(p, t, flipped)
                };
                if !(beats || equal) {
                    return not();
                }
                self.lock_ok(set, top)
            }
            (SetKind::Sequence, SetKind::Sequence) => {
                let (low, high) = set.places();
                let (t_low, t_high) = top.places();
                let above = if flipped { high < t_low } else { low > t_high };
                if !above {
                    return not();
                }
                self.lock_ok(set, top)
            }
            _ => not(),
        }
    }

    pub(in crate::hand) fn lock_ok(&self, set: Set, top: Set) -> Result<(), Illegal> {
        if self.tb().lock_suits && set.suit_mask() != top.suit_mask() {
            return Err(Illegal::Locked {
                top,
                played: set,
                suits: true,
            });
        }
        if self.tb().lock_number
            && set.rank_number() != step_up(top.rank_number(), self.tb().flipped())
        {
            return Err(Illegal::Locked {
                top,
                played: set,
                suits: false,
            });
        }
        Ok(())
    }

    /// Whether the rule set has this kind of play at all.
    pub(in crate::hand) fn shape_ok(set: Set, c: &Climbing) -> Result<(), Illegal> {
        match set.kind() {
            SetKind::Dalmuti => Err(Illegal::NotOfThisGame(set)),
            SetKind::Sequence if !c.sequences => Err(Illegal::NotOfThisGame(set)),
            SetKind::Sequence
                if !c.joker_beyond_ends && {
                    let (low, high) = set.places();
                    low == 0 || high > TWO
                } =>
            {
                Err(Illegal::NotOfThisGame(set))
            }
            _ if set.wilds() > c.jokers => Err(Illegal::NotOfThisGame(set)),
            _ => Ok(()),
        }
    }
}

/// The place beyond the 2 where only a Joker stands.
pub(super) const ABOVE: u8 = crate::card::suit::ABOVE_TWO;

/// The places of `suit` held, as bits (bit p for place p, 1..=13).
pub(super) fn row_of(pack: u64, suit: crate::Suit) -> u16 {
    let mut mask = (pack >> suit.index()) & 0x1_1111_1111_1111;
    let mut row = 0u16;
    while mask != 0 {
        let bit = mask.trailing_zeros();
        row |= 1 << (bit / 4 + 1);
        mask &= mask - 1;
    }
    row
}

/// Every set of `size` cards of place `p` that `held` can make with
/// `min_used` to `jokers` Jokers, fewest Jokers first, each Joker standing
/// for every suit it may; only those of suits `suits` when not 0.
pub(super) fn for_each_set(
    pack: u64,
    p: u8,
    size: u8,
    jokers: u8,
    min_used: u8,
    suits: u8,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let row = ((pack >> (4 * u32::from(p - 1))) & 0xF) as u8;
    let have = row.count_ones() as u8;
    if have == 0 || have + jokers < size {
        return ControlFlow::Continue(());
    }
    for used in min_used..=jokers.min(size - 1) {
        let naturals = size - used;
        if naturals > have {
            continue;
        }
        // Natural subsets of `row` of the right size, in a fixed order.
        let mut sub = 0u8;
        loop {
            // The next subset of `row` (counting up through its bits).
            sub = sub.wrapping_sub(row) & row;
            if sub == 0 {
                break;
            }
            if sub.count_ones() as u8 != naturals {
                continue;
            }
            if used == 0 {
                let set = Set::of_rank(p, sub, 0, 0).expect("held naturals");
                if suits == 0 || set.suit_mask() == suits {
                    f(Action::Play(set))?;
                }
                continue;
            }
            // Jokers: each set of missing suits for them, the rest beyond
            // the four suits (only once all four are there).
            let open = 0xF & !sub;
            let mut js = 0u8;
            loop {
                if js.count_ones() as u8 <= used {
                    let extra = used - js.count_ones() as u8;
                    if let Some(set) = Set::of_rank(p, sub, js, extra)
                        && (suits == 0 || set.suit_mask() == suits)
                    {
                        f(Action::Play(set))?;
                    }
                }
                js = js.wrapping_sub(open) & open;
                if js == 0 {
                    break;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Every way to give back `count` cards of `held`, the weakest first.
pub(super) fn for_each_return(
    held: Cards,
    count: u8,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    // Weakest first: 3♣ 3♦ 3♥ 3♠ 4♣ … 2♠, then the Jokers.
    let mut cards: ArrayVec<Card, 64> = ArrayVec::new();
    for p in THREE..=TWO {
        for suit in crate::Suit::ALL.iter().rev() {
            let card = Card::suited(p, *suit).expect("a place of the pack");
            if held.count(card) > 0 {
                cards.push(card);
            }
        }
    }
    for _ in 0..held.jokers() {
        cards.push(Card::JOKER);
    }
    match count {
        1 => {
            let mut last = None;
            for &a in &cards {
                if last != Some(a) {
                    f(Action::GiveTax(Cards::one(a)))?;
                }
                last = Some(a);
            }
        }
        2 => {
            for i in 0..cards.len() {
                if i > 0 && cards[i] == cards[i - 1] {
                    continue;
                }
                for j in i + 1..cards.len() {
                    if j > i + 1 && cards[j] == cards[j - 1] {
                        continue;
                    }
                    let mut gift = Cards::one(cards[i]);
                    gift.add(cards[j], 1);
                    f(Action::GiveTax(gift))?;
                }
            }
        }
        _ => {}
    }
    ControlFlow::Continue(())
}
