//! An action applied in President and Daifugō: a play and its effects, a
//! pass, the exchange settled, going out, and the end of the hand.

use super::*;

impl Hand {
    /// Applies an action in President or Daifugō.
    pub(in crate::hand) fn climb_apply(
        &mut self,
        seat: Seat,
        action: Action,
    ) -> Result<(), Illegal> {
        match self.stage {
            Stage::Over => Err(Illegal::HandOver),
            Stage::Setup => {
                let decision = self.climb_setup_decision(seat).ok_or(Illegal::NotToAct)?;
                let Action::GiveTax(gift) = action else {
                    return Err(Illegal::WrongDecision(decision));
                };
                let (count, slot) = self.return_count(seat).expect("a rich seat to give");
                if gift.len() != u32::from(count) {
                    return Err(Illegal::TaxCount {
                        needed: count,
                        given: gift.len(),
                    });
                }
                if !self.held[seat].contains(&gift) {
                    return Err(Illegal::NotHeld(gift.missing_from(&self.held[seat])));
                }
                let gift_slot = if slot == 0 {
                    &mut self.greater_tax
                } else {
                    &mut self.lesser_tax
                };
                let Gift::Returning(mut payment) = *gift_slot else {
                    unreachable!("a seat to give back has a payment waiting")
                };
                payment.gift = gift;
                *gift_slot = Gift::Paid(payment);
                self.held[seat].remove_all(&gift);
                self.held[payment.peon].add_all(&gift);
                self.sizes = sizes_of(&self.held, self.players());
                self.events.push(Event::TaxPaid(payment));
                self.climb_maybe_play();
                Ok(())
            }
            Stage::Play if seat != self.turn => Err(Illegal::NotToAct),
            Stage::Play if self.tb().owed.pending() => self.climb_settle(seat, action),
            Stage::Play => match action {
                Action::Play(set) => self.climb_play(seat, set),
                Action::Pass => self.climb_pass(seat),
                _ => Err(self.not_a_play()),
            },
        }
    }

    pub(in crate::hand) fn climb_play(&mut self, seat: Seat, set: Set) -> Result<(), Illegal> {
        let c = self.rules.climbing();
        Hand::shape_ok(set, &c)?;
        let cards = set.cards();
        if !self.held[seat].contains(&cards) {
            return Err(Illegal::NotHeld(cards.missing_from(&self.held[seat])));
        }
        let before = self.top.map(|(_, t)| t);
        if let Some(top) = before {
            self.tops_now(set, top, &c)?;
        }
        // Accepted: the cards go, the table changes.
        self.held[seat].remove_all(&cards);
        self.sizes[seat] -= set.size();
        self.events.push(Event::Played { seat, set });
        self.top = Some((seat, set));
        let t = self.tbm();
        t.in_row = 0;
        t.since = 0;
        t.last = seat;
        let spade_cut = before.is_some_and(|b| b.kind() == SetKind::LoneJoker);
        let mut clear = None;
        if set.kind() == SetKind::LoneJoker {
            // A lone Joker ends any lock (`daihu.c`: `now_shibari=0`) and
            // does nothing else: no 8, no Jack, whatever it stands for.
            t.lock_suits = false;
            t.lock_number = false;
        } else if spade_cut {
            clear = Some(Effect::SpadeThree { seat });
        } else {
            self.climb_lock(set, before, &c);
            self.climb_effects(seat, set, &c, &mut clear);
        }
        if self.sizes[seat] == 0 {
            let forbidden = self.forbidden_last(set, spade_cut, &c);
            self.climb_out(seat, forbidden, &c);
            if self.stage == Stage::Over {
                return Ok(());
            }
        }
        // A set of the rank on the table skips the next player, as a 5
        // does under the 5-skip.
        let equal = c.same_rank_skip
            && before.is_some_and(|b| {
                b.kind() == SetKind::OfRank
                    && set.kind() == SetKind::OfRank
                    && b.rank_number() == set.rank_number()
            });
        let skips = if c.five_skip { set.count_at(FIVE) } else { 0 } + u8::from(equal);
        // 7-pass and 10-discard: the player settles them before the turn
        // moves on; the table shows what the play did at once.
        let left = self.sizes[seat];
        let give = if c.seven_pass {
            set.count_at(SEVEN).min(left)
        } else {
            0
        };
        let discard = if c.ten_discard {
            set.count_at(TEN).min(left - give)
        } else {
            0
        };
        if give > 0 || discard > 0 {
            if let Some(effect) = clear {
                self.events.push(Event::Effect(effect));
            }
            let to = self
                .climb_next_in(self.holding, seat)
                .expect("another player holds cards");
            self.tbm().owed = Owed {
                give,
                to,
                discard,
                clears: clear.is_some(),
                skips,
            };
            return Ok(());
        }
        if let Some(effect) = clear {
            self.events.push(Event::Effect(effect));
            self.climb_clear();
            return Ok(());
        }
        self.climb_move_on(seat, skips, &c);
        Ok(())
    }

    /// After a play that does not clear the table: it clears if everyone
    /// who had to has passed, else the turn moves on.
    pub(in crate::hand) fn climb_move_on(&mut self, seat: Seat, skips: u8, c: &Climbing) {
        if self.climb_all_passed(c) {
            self.climb_clear();
            return;
        }
        self.climb_next_turn(seat, skips, c);
    }

    /// A card given (7-pass) or discarded (10-discard) after a play; once
    /// all are, the play's turn moves on as it would have.
    pub(in crate::hand) fn climb_settle(
        &mut self,
        seat: Seat,
        action: Action,
    ) -> Result<(), Illegal> {
        let c = self.rules.climbing();
        let mut owed = self.tb().owed;
        let decision = self.climb_owed_decision().expect("something owed");
        let card = match (action, decision) {
            (Action::Give(card), Decision::Give { .. })
            | (Action::Discard(card), Decision::Discard { .. }) => card,
            _ => return Err(Illegal::WrongDecision(decision)),
        };
        if self.held[seat].count(card) == 0 {
            return Err(Illegal::NotHeld(Cards::one(card)));
        }
        self.held[seat].remove(card, 1);
        self.sizes[seat] -= 1;
        if owed.give > 0 {
            self.held[owed.to].add(card, 1);
            self.sizes[owed.to] += 1;
            self.events.push(Event::Given {
                from: seat,
                to: owed.to,
                card,
            });
            owed.give -= 1;
        } else {
            self.tbm().discarded.add(card, 1);
            self.events.push(Event::Discarded { seat, card });
            owed.discard -= 1;
        }
        self.tbm().owed = if owed.pending() { owed } else { Owed::NONE };
        if owed.pending() {
            return Ok(());
        }
        // Settled: a player left with no card went out (never a forbidden
        // finish: their last card was not played).
        if self.sizes[seat] == 0 {
            self.climb_out(seat, false, &c);
            if self.stage == Stage::Over {
                return Ok(());
            }
        }
        if owed.clears {
            self.climb_clear();
        } else {
            self.climb_move_on(seat, owed.skips, &c);
        }
        Ok(())
    }

    /// Whether going out with `set` is a forbidden finish (反則上がり): a
    /// Joker, a 2 (a 3 under a revolution), an 8 under the 8-cut, or the
    /// 3♠ that beat a Joker.
    pub(in crate::hand) fn forbidden_last(&self, set: Set, spade_cut: bool, c: &Climbing) -> bool {
        let flipped = self.tb().reversed;
        c.forbidden_finish
            && (set.wilds() > 0
                || set.count_at(if flipped { THREE } else { TWO }) > 0
                || (c.eight_cut && set.count_at(EIGHT) > 0)
                || spade_cut)
    }

    /// The lock after an accepted play (`daihu.c`: the suits of two plays in
    /// a row equal; the number lock alike for neighbouring ranks).
    pub(in crate::hand) fn climb_lock(&mut self, set: Set, before: Option<Set>, c: &Climbing) {
        let Some(before) = before else {
            return;
        };
        let t = self.tbm();
        let same_suits = set.suit_mask() == before.suit_mask();
        let neighbours = set.kind() == SetKind::OfRank
            && before.kind() == SetKind::OfRank
            && set.rank_number() == step_up(before.rank_number(), t.flipped());
        let (suits, number) = match c.lock {
            Lock::Off => (false, false),
            Lock::Suit => (same_suits, false),
            Lock::Number => (false, neighbours),
            Lock::Strict => (same_suits && neighbours, same_suits && neighbours),
        };
        let newly = (suits && !t.lock_suits) || (number && !t.lock_number);
        t.lock_suits |= suits;
        t.lock_number |= number;
        if newly {
            let suits = if t.lock_suits { set.suit_mask() } else { 0 };
            let number = t.lock_number;
            self.events
                .push(Event::Effect(Effect::Locked { suits, number }));
        }
    }

    /// Revolution, 11-back, 9-reverse, and what clears the table (8-cut,
    /// 2s), in the order the contest's server checks them (`daihu.c`).
    pub(in crate::hand) fn climb_effects(
        &mut self,
        seat: Seat,
        set: Set,
        c: &Climbing,
        clear: &mut Option<Effect>,
    ) {
        let revolution = match set.kind() {
            SetKind::OfRank => c.revolution && set.size() >= 4,
            SetKind::Sequence => c.sequence_revolution && set.size() >= 5,
            _ => false,
        };
        if revolution {
            let t = self.tbm();
            t.reversed = !t.reversed;
            let reversed = self.tb().reversed;
            self.events
                .push(Event::Effect(Effect::Revolution { seat, reversed }));
        }
        if c.eight_cut && set.count_at(EIGHT) > 0 {
            *clear = Some(Effect::EightCut { seat });
        }
        if c.two_clears && set.kind() == SetKind::OfRank && set.rank_number() == TWO {
            clear.get_or_insert(Effect::TwoClears { seat });
        }
        if c.nine_reverse && set.count_at(NINE) % 2 == 1 {
            let t = self.tbm();
            t.counter = !t.counter;
            let clockwise = !self.tb().counter;
            self.events
                .push(Event::Effect(Effect::Reversed { seat, clockwise }));
        }
        if c.eleven_back && set.count_at(JACK) > 0 {
            let t = self.tbm();
            t.back = !t.back;
            let on = self.tb().back;
            self.events
                .push(Event::Effect(Effect::ElevenBack { seat, on }));
        }
    }

    /// Whether every player who must pass for the table to clear has
    /// passed.
    pub(in crate::hand) fn climb_all_passed(&self, c: &Climbing) -> bool {
        let t = self.tb();
        let mut must = self.holding;
        if !c.last_player_passes {
            must.remove(t.last);
        }
        if must.is_empty() {
            return self.top.is_some();
        }
        if c.permanent_pass {
            must.without(t.passed).is_empty()
        } else {
            usize::from(t.since) >= must.len()
        }
    }

    /// The next seat in the direction of play from `from` among `seats`.
    pub(in crate::hand) fn climb_next_in(&self, seats: Seats, from: Seat) -> Option<Seat> {
        if self.tb().counter {
            seats.next_before(from)
        } else {
            seats.next_after(from)
        }
    }

    /// The turn passes on from `from`, skipping `skips` players (5-skip).
    pub(in crate::hand) fn climb_next_turn(&mut self, from: Seat, skips: u8, c: &Climbing) {
        let mut eligible = self.holding;
        if c.permanent_pass {
            eligible = eligible.without(self.tb().passed);
        }
        let mut next = self.climb_next_in(eligible, from).expect("someone to play");
        if skips > 0 {
            // Someone must be left to play: all the others at most when the
            // turn may come back to the player, all but one when not.
            let others = eligible.without(Seats::only(from)).len();
            let most = if eligible.contains(from) {
                others
            } else {
                others.saturating_sub(1)
            };
            let mut skipped = Seats::NONE;
            for _ in 0..usize::from(skips).min(most) {
                skipped.insert(next);
                next = self.climb_next_in(eligible, next).expect("someone to play");
            }
            if !skipped.is_empty() {
                self.events.push(Event::Effect(Effect::Skipped {
                    seat: from,
                    skipped,
                }));
            }
            if next == from && !c.last_player_passes {
                // Everyone else lost their turn: the trick is the player's.
                self.climb_clear();
                return;
            }
        }
        self.turn = next;
    }

    /// The table clears: the last to play leads, or if out the next player
    /// holding cards (`daihu.c`, the `flash` branch).
    pub(in crate::hand) fn climb_clear(&mut self) {
        let last = self.tb().last;
        let leader = if self.holding.contains(last) {
            last
        } else {
            self.climb_next_in(self.holding, last)
                .expect("two players hold cards")
        };
        self.events.push(Event::RoundWon { seat: last, leader });
        let t = self.tbm();
        t.back = false;
        t.lock_suits = false;
        t.lock_number = false;
        t.passed = Seats::NONE;
        t.since = 0;
        t.last = leader;
        self.top = None;
        self.passes = 0;
        self.turn = leader;
    }

    pub(in crate::hand) fn climb_pass(&mut self, seat: Seat) -> Result<(), Illegal> {
        let c = self.rules.climbing();
        if self.top.is_none() && !c.lead_may_pass {
            return Err(Illegal::MustLead);
        }
        self.events.push(Event::Passed { seat });
        let t = self.tbm();
        t.passed.insert(seat);
        t.in_row = t.in_row.saturating_add(1);
        t.since = t.since.saturating_add(1);
        self.passes = self.passes.saturating_add(1);
        if c.stalemate_passes > 0 && self.tb().in_row >= c.stalemate_passes {
            self.climb_stalemate();
            return Ok(());
        }
        if self.climb_all_passed(&c)
            || (self.top.is_none() && self.holding.without(self.tb().passed).is_empty())
        {
            self.climb_clear();
            return Ok(());
        }
        self.climb_next_turn(seat, 0, &c);
        Ok(())
    }

    /// A player has no card left: a place at the top, or at the bottom
    /// for a forbidden last card; the capital may fall.
    pub(in crate::hand) fn climb_out(&mut self, seat: Seat, forbidden: bool, c: &Climbing) {
        self.holding.remove(seat);
        self.active -= 1;
        if forbidden {
            self.events.push(Event::Effect(Effect::Fouled { seat }));
            self.climb_sink(seat);
        } else {
            let first = self.finish.is_empty();
            self.finish.push(seat);
            self.events.push(Event::WentOut {
                seat,
                place: self.finish.len() as u8 - 1,
            });
            if first && c.miyako_ochi {
                let top = Seat::all(self.players()).find(|&s| self.tb().class[s] == 0);
                if let Some(fallen) = top.filter(|&s| s != seat && self.holding.contains(s)) {
                    self.holding.remove(fallen);
                    self.active -= 1;
                    self.events
                        .push(Event::Effect(Effect::Fell { seat: fallen }));
                    self.climb_sink(fallen);
                }
            }
        }
        self.climb_maybe_over();
    }

    /// Places `seat` at the bottom, below those already there.
    pub(in crate::hand) fn climb_sink(&mut self, seat: Seat) {
        let players = self.players() as u8;
        let t = self.tbm();
        t.sunk[usize::from(t.sunk_len)] = seat.index() as u8;
        t.sunk_len += 1;
        let place = players - t.sunk_len;
        self.events.push(Event::WentOut { seat, place });
    }

    /// When one player or none holds cards, the game is over: the one left
    /// takes the last place above the bottom.
    pub(in crate::hand) fn climb_maybe_over(&mut self) {
        if self.active > 1 {
            return;
        }
        if let Some(last) = self.holding.first_seat() {
            self.holding.remove(last);
            self.active = 0;
            self.finish.push(last);
            self.events.push(Event::WentOut {
                seat: last,
                place: self.finish.len() as u8 - 1,
            });
        }
        self.climb_finish();
    }

    pub(in crate::hand) fn climb_finish(&mut self) {
        let t = *self.tb();
        for i in (0..usize::from(t.sunk_len)).rev() {
            self.finish.push(Seat::new(usize::from(t.sunk[i])));
        }
        self.stage = Stage::Over;
        self.top = None;
        self.events.push(Event::HandOver);
    }

    /// Too many passes in a row: the players still holding cards take the
    /// places left in an order drawn at random (`daihu.c`,
    /// `number_renzoku_pass>=20`).
    pub(in crate::hand) fn climb_stalemate(&mut self) {
        let left = self.holding;
        self.events.push(Event::Effect(Effect::Stalemate { left }));
        let mut order: ArrayVec<Seat, MAX_PLAYERS> = left.iter().collect();
        let t = *self.tb();
        let forced: ArrayVec<Seat, MAX_PLAYERS> = (0..usize::from(t.forced_len))
            .map(|i| Seat::new(usize::from(t.forced[i])))
            .collect();
        let mut forced_set = Seats::NONE;
        for &s in &forced {
            forced_set.insert(s);
        }
        if forced.len() == order.len() && forced_set == left {
            order = forced;
        } else {
            let mut rng = DealRng::new(crate::Seed::from(self.tb().chance));
            rng.shuffle(&mut order);
        }
        for seat in order {
            self.holding.remove(seat);
            self.finish.push(seat);
            self.events.push(Event::WentOut {
                seat,
                place: self.finish.len() as u8 - 1,
            });
        }
        self.active = 0;
        self.climb_finish();
    }
}
