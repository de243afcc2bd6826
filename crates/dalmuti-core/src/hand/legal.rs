//! What each seat may do: whose turn it is, the decision it faces, and
//! its legal actions, worst first (the order bots and clients get them).

use super::*;

impl Hand {
    /// The seats with a decision to make now (several while the hand is
    /// set up, when the choices are simultaneous). Omniscient: a view shows
    /// others only [`Hand::ready_count`] during setup.
    pub fn to_act(&self) -> Seats {
        let mut seats = Seats::NONE;
        match self.stage {
            Stage::Setup if self.rules.variant.is_suited() => {
                for seat in Seat::all(self.players()) {
                    if self.climb_setup_decision(seat).is_some() {
                        seats.insert(seat);
                    }
                }
            }
            Stage::Setup => {
                seats = Seats::first(self.players()).without(self.chosen);
                if let Exchange::AwaitingAnswer { partner, .. } = self.exchange
                    && self.chosen.contains(partner)
                {
                    seats.insert(partner);
                }
            }
            Stage::Play => seats.insert(self.turn),
            Stage::Over => {}
        }
        seats
    }

    /// A seat's own setup choice.
    pub(super) fn setup_task(&self, seat: Seat) -> SetupTask {
        if seat == Seat::GREATER_DALMUTI && self.greater_tax != Gift::NotDue {
            SetupTask::Tax(2)
        } else if seat.index() == 1 && self.lesser_tax != Gift::NotDue {
            SetupTask::Tax(1)
        } else if seat == HIGHEST_MERCHANT && self.exchange != Exchange::NotDue {
            SetupTask::ExchangeOffer
        } else {
            SetupTask::Ready
        }
    }

    /// Whether `seat` has made its own setup choice.
    #[inline]
    pub(super) fn setup_done(&self, seat: Seat) -> bool {
        self.chosen.contains(seat)
    }

    /// The decision `seat` faces while the hand is set up: its own choice
    /// first; then, for a Merchant offered an exchange, the card back.
    pub(super) fn setup_decision(&self, seat: Seat) -> Option<Decision> {
        if !self.setup_done(seat) {
            return Some(match self.setup_task(seat) {
                SetupTask::Ready => Decision::Ready,
                SetupTask::Tax(count) => Decision::Tax {
                    to: seat.opposite(self.players()),
                    count,
                },
                SetupTask::ExchangeOffer => Decision::ExchangeOffer,
            });
        }
        match self.exchange {
            Exchange::AwaitingAnswer { partner, .. } if partner == seat => {
                Some(Decision::ExchangeAnswer {
                    from: HIGHEST_MERCHANT,
                })
            }
            _ => None,
        }
    }

    /// The lowest seat with a decision to make, or `None` when the hand is
    /// over: a convenient order for programs that act one seat at a time.
    #[inline]
    pub fn next_to_act(&self) -> Option<Seat> {
        match self.stage {
            Stage::Play => Some(self.turn),
            _ => self.to_act().first_seat(),
        }
    }

    /// The decision `seat` faces now, if any.
    pub fn decision(&self, seat: Seat) -> Option<Decision> {
        if seat.index() >= self.players() {
            return None;
        }
        match self.stage {
            Stage::Setup if self.rules.variant.is_suited() => self.climb_setup_decision(seat),
            Stage::Setup => self.setup_decision(seat),
            Stage::Play if seat == self.turn => Some(match self.top {
                _ if self.table.is_some() && self.climb_owed_decision().is_some() => {
                    self.climb_owed_decision().expect("owed")
                }
                None => Decision::Lead,
                Some((by, top)) => Decision::Follow { top, by },
            }),
            Stage::Play | Stage::Over => None,
        }
    }

    /// Calls `f` with every legal action of `seat`, worst first, until `f`
    /// breaks. For plays, "worst first" means the worst rank first (Jesters
    /// alone, then Peasants…), fewer Jesters before more, larger leads
    /// before smaller, and a pass last; for tax gifts, the worst numbered
    /// cards first and Jesters last; a revolution comes after every other
    /// setup choice. So the first action is what a player who sheds bad
    /// cards would do, found without building the whole list.
    pub fn for_each_legal(&self, seat: Seat, mut f: impl FnMut(Action) -> ControlFlow<()>) {
        if self.rules.variant.is_suited() {
            let _ = self.climb_for_each_legal(seat, &mut f);
            return;
        }
        let held = self.held[seat];
        // The play phase first: it is the hot path of every simulation.
        if self.stage == Stage::Play && seat == self.turn {
            if self.rules.variant == Variant::CorporateShuffle {
                let _ = self.for_each_corporate_play(seat, &mut f);
                return;
            }
            let _ = match self.top {
                None => for_each_lead(held, &mut f),
                Some((_, top)) => match for_each_topping(held, self.masks[seat], top, &mut f) {
                    ControlFlow::Continue(()) => f(Action::Pass),
                    done => done,
                },
            };
            return;
        }
        let Some(decision) = self.decision(seat) else {
            return;
        };
        let _ = (|| -> ControlFlow<()> {
            match decision {
                Decision::Ready => f(Action::Ready)?,
                Decision::Tax { count, .. } => {
                    for_each_gift(held, count, self.rules.variant, &mut f)?
                }
                Decision::ExchangeOffer => {
                    f(Action::DeclineExchange)?;
                    let n = self.players();
                    for partner in
                        Seat::all(n).filter(|&s| is_merchant(s, n) && s != HIGHEST_MERCHANT)
                    {
                        for (card, _) in held.kinds() {
                            f(Action::OfferExchange { partner, card })?;
                        }
                    }
                }
                Decision::ExchangeAnswer { .. } => {
                    for (card, _) in held.kinds() {
                        f(Action::AnswerExchange(card))?;
                    }
                }
                Decision::Lead
                | Decision::Follow { .. }
                | Decision::Give { .. }
                | Decision::Discard { .. } => {
                    unreachable!("play decisions are answered above")
                }
            }
            if self.revolution_offer(seat).is_some() {
                f(Action::CallRevolution)?;
            }
            ControlFlow::Continue(())
        })();
    }

    /// Every legal action of `seat` (empty if it has nothing to decide),
    /// worst first as in [`Hand::for_each_legal`].
    pub fn legal_actions(&self, seat: Seat) -> ActionList {
        let mut list = ActionList::new();
        self.for_each_legal(seat, |a| match list.try_push(a) {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        });
        list
    }

    /// The first legal action of `seat` in [`Hand::for_each_legal`] order:
    /// its worst set (or pass when it cannot play), its worst cards in tax,
    /// no revolution and no merchant exchange.
    // Always inlined: the play loops of simulations call it at every
    // decision, and the compiler's own measure left it out of line once
    // the hand learned the games of the pack.
    #[inline(always)]
    pub fn worst_legal(&self, seat: Seat) -> Option<Action> {
        // In play, compute it directly from rank masks: no loop, few branches
        // (a property test checks it equals the first of `for_each_legal`).
        if self.stage == Stage::Play && seat == self.turn && self.rules.variant == Variant::Dalmuti
        {
            // By reference: a copy on the stack read back at once stalls the
            // processor's store forwarding.
            let held = &self.held[seat];
            let masks = self.masks[seat];
            debug_assert_eq!(masks, RankMasks::of(held), "{seat}'s masks");
            return Some(match self.top {
                None => Action::Play(worst_lead(held, masks)),
                Some((_, top)) => {
                    worst_topping(held, masks, top).map_or(Action::Pass, Action::Play)
                }
            });
        }
        self.first_legal(seat)
    }

    /// The first of [`Hand::for_each_legal`], out of line so that
    /// [`Hand::worst_legal`]'s Dalmuti path stays small enough to inline
    /// into a play loop.
    #[inline(never)]
    fn first_legal(&self, seat: Seat) -> Option<Action> {
        let mut first = None;
        self.for_each_legal(seat, |a| {
            first = Some(a);
            ControlFlow::Break(())
        });
        first
    }

    /// Every play of `seat` in Corporate Shuffle, worst first: Ratbert
    /// (a free lead when nobody tops it), then by value from 10 down, each
    /// value's natural sets before its Wedgie sets (one per target), then
    /// Dogberts alone (each declared value, worst first), the World Ruler,
    /// and a pass last.
    pub(super) fn for_each_corporate_play(
        &self,
        seat: Seat,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let held = self.held[seat];
        let top = self.top.map(|(_, set)| set);
        let dogberts = held.count(Card::DOGBERT);
        let fits = |size: u8| top.is_none_or(|t| t.size() == size);
        let beats = |rank: u8| top.is_none_or(|t| rank < t.rank_number());
        if held.count(Card::RATBERT) > 0 && fits(1) && beats(11) {
            f(Action::Play(Set::RATBERT))?;
        }
        for r in (1..=10u8).rev().filter(|&r| beats(r)) {
            let rank = Rank::new(r).expect("1..=10");
            let naturals = held.count_at(r as usize);
            let (least, most) = match top {
                None => (1, naturals),
                Some(t) => (
                    t.size().saturating_sub(dogberts).max(1),
                    naturals.min(t.size()),
                ),
            };
            for a in (least..=most).rev() {
                for j in 0..=dogberts {
                    if fits(a + j) {
                        f(Action::Play(Set::with_dogberts(rank, a, j).expect("a > 0")))?;
                    }
                }
            }
            if r == 6 && held.count(Card::TWIRLING_WEDGIE) > 0 {
                for a in (0..=naturals).rev() {
                    for j in 0..=dogberts {
                        let set = Set::wedgie(a, j).expect("few cards");
                        if fits(set.size()) {
                            self.for_each_wedgie_target(seat, set, f)?;
                        }
                    }
                }
            }
        }
        for j in (1..=dogberts).rev().filter(|&j| fits(j)) {
            for v in DECLARED_VALUES.rev().filter(|&v| beats(v)) {
                f(Action::Play(Set::dogberts_as(j, v).expect("1..=10")))?;
            }
        }
        if held.count(Card::WORLD_RULER) > 0 && fits(1) && beats(0) {
            f(Action::Play(Set::WORLD_RULER))?;
        }
        if top.is_some() {
            f(Action::Pass)?;
        }
        ControlFlow::Continue(())
    }

    /// `set` (holding the Wedgie) aimed at each player it may name, in seat
    /// order; or aimed at no one when its play ends the hand.
    pub(super) fn for_each_wedgie_target(
        &self,
        seat: Seat,
        set: Set,
        f: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.sizes[seat] == set.size() && self.active == 2 {
            return f(Action::Play(set));
        }
        for target in self.holding.without(Seats::only(seat)).iter() {
            f(Action::Play(
                set.with_target(Some(target)).expect("a Wedgie"),
            ))?;
        }
        ControlFlow::Continue(())
    }
}

/// The order tax gifts are listed in, worst first, wild cards last (nobody
/// wants to give one): 12 … 1, J in Dalmuti; R, 10 … 6, T, 5 … 1, 0, D in
/// Corporate Shuffle.
pub(super) const DALMUTI_GIFTS: [usize; 13] = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 13];

pub(super) const CORPORATE_GIFTS: [usize; 14] = [15, 10, 9, 8, 7, 6, 14, 5, 4, 3, 2, 1, 0, 16];

/// Gifts of `count` (1 or 2) cards, worst first, wild cards last.
pub(super) fn for_each_gift(
    held: Cards,
    count: u8,
    variant: Variant,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let order: &[usize] = match variant {
        Variant::CorporateShuffle => &CORPORATE_GIFTS,
        _ => &DALMUTI_GIFTS,
    };
    let order = order.iter().copied();
    for (i, a) in order.clone().enumerate() {
        let a = Card::from_index(a).expect("card index");
        if held.count(a) == 0 {
            continue;
        }
        if count == 1 {
            f(Action::GiveTax(Cards::one(a)))?;
            continue;
        }
        for b in order.clone().skip(i) {
            let b = Card::from_index(b).expect("card index");
            let need = if a == b { 2 } else { 1 };
            if held.count(b) >= need {
                let mut gift = Cards::one(a);
                gift.add(b, 1);
                f(Action::GiveTax(gift))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The first set of [`for_each_lead`]: all the Jesters alone if any, else
/// every card of the worst rank held.
#[inline]
pub(super) fn worst_lead(held: &Cards, masks: RankMasks) -> Set {
    let jesters = held.count(Card::JESTER);
    if jesters > 0 {
        return Set::jesters_alone(jesters).expect("jesters > 0");
    }
    let r = 15 - masks.at_least(1).leading_zeros() as u8;
    let rank = Rank::new(r).expect("a player to act holds cards");
    Set::new(rank, held.count_at(r as usize), 0).expect("held")
}

/// The first set of [`for_each_topping`]: the worst rank that can top
/// `top`, with as few Jesters as possible.
#[inline]
pub(super) fn worst_topping(held: &Cards, masks: RankMasks, top: Set) -> Option<Set> {
    let size = top.size();
    let ranks = topping_ranks(held, masks, top);
    if ranks == 0 {
        return None;
    }
    let r = 15 - ranks.leading_zeros() as u8;
    let naturals = held.count_at(r as usize).min(size);
    Set::new(Rank::new(r).expect("1..=12"), naturals, size - naturals)
}

/// The ranks (bit r for rank r) strictly better than `top` of which
/// `held` has enough cards to top it, Jesters filling in.
#[inline]
pub(super) fn topping_ranks(held: &Cards, masks: RankMasks, top: Set) -> u16 {
    let jesters = held.count(Card::JESTER);
    let least = top.size().saturating_sub(jesters).max(1);
    let enough = if least <= RankMasks::LANES {
        masks.at_least(least)
    } else {
        held.ranks_with_at_least(least)
    };
    enough & ((1u16 << top.rank_number()) - 1)
}

/// Every set `held` can lead, worst first.
pub(super) fn for_each_lead(
    held: Cards,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let jesters = held.count(Card::JESTER);
    for j in (1..=jesters).rev() {
        f(Action::Play(Set::jesters_alone(j).expect("j > 0")))?;
    }
    for r in (1..=12u8).rev() {
        let naturals = held.count_at(r as usize);
        let rank = Rank::new(r).expect("1..=12");
        for a in (1..=naturals).rev() {
            for j in 0..=jesters {
                f(Action::Play(Set::new(rank, a, j).expect("a > 0")))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Every set of `held` that tops `top`, worst first. The ranks that can
/// top come from the seat's rank masks (`masks`), as for
/// [`worst_topping`]: testing each rank in turn was the hottest branch of
/// a search's play-outs, and mispredicted.
#[inline]
pub(super) fn for_each_topping(
    held: Cards,
    masks: RankMasks,
    top: Set,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let size = top.size();
    let jesters = held.count(Card::JESTER);
    let mut ranks = topping_ranks(&held, masks, top);
    // Worst (highest) rank first.
    while ranks != 0 {
        let r = 15 - ranks.leading_zeros() as u8;
        ranks &= !(1 << r);
        let naturals = held.count_at(r as usize);
        let rank = Rank::new(r).expect("1..=12");
        // Most naturals first: Jesters are spent only when needed.
        let most = naturals.min(size);
        let least = size.saturating_sub(jesters).max(1);
        for a in (least..=most).rev() {
            f(Action::Play(Set::new(rank, a, size - a).expect("a > 0")))?;
        }
    }
    ControlFlow::Continue(())
}
