//! An action applied: checked against the rules, then the hand moves on
//! (taxes, the revolution, the merchants, plays, passes, tricks, going
//! out).

use super::*;

impl Hand {
    /// Applies `action` for `seat`, or refuses it with the reason and leaves
    /// the hand unchanged.
    // Inlined with the play path, so that a caller that has just chosen the
    // action (`worst_legal`, a bot) hands it over in registers and the
    // branch on play or pass is taken once. Always: left to itself, the
    // compiler keeps it out of line in builds without link-time
    // optimisation (`dalmuti sim`: a quarter of a greedy hand's time).
    #[inline(always)]
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<(), Box<IllegalAction>> {
        if self.rules.variant.is_suited() {
            return self.apply_climbing(seat, action);
        }
        let done = if self.stage == Stage::Play && seat == self.turn {
            match action {
                Action::Play(set) => self.play(seat, set),
                Action::Pass => self.pass(seat),
                _ => Err(self.not_a_play()),
            }
        } else {
            self.apply_outside_play(seat, action)
        };
        // The error is boxed so that the result of a legal action fits in a
        // register: refusals are rare, legal actions are the hot path.
        done.map_err(|reason| refused(seat, action, reason))
    }

    // President and Daifugō, out of Dalmuti's play path.
    #[inline(never)]
    fn apply_climbing(&mut self, seat: Seat, action: Action) -> Result<(), Box<IllegalAction>> {
        if seat.index() >= self.players() {
            return Err(refused(seat, action, Illegal::NotToAct));
        }
        self.climb_apply(seat, action)
            .map_err(|reason| refused(seat, action, reason))
    }

    #[cold]
    #[inline(never)]
    pub(super) fn not_a_play(&self) -> Illegal {
        Illegal::WrongDecision(self.decision(self.turn).expect("to act"))
    }

    // Kept out of line so the play path stays small.
    #[inline(never)]
    pub(super) fn apply_outside_play(&mut self, seat: Seat, action: Action) -> Result<(), Illegal> {
        if self.stage == Stage::Over {
            return Err(Illegal::HandOver);
        }
        let decision = self.decision(seat).ok_or(Illegal::NotToAct)?;
        if action == Action::CallRevolution {
            let offer = self.revolution_offer(seat).ok_or(Illegal::NoRevolution)?;
            self.call_revolution(seat, offer.greater);
            return Ok(());
        }
        let own_choice = !self.setup_done(seat);
        match (decision, action) {
            (Decision::Ready, Action::Ready) => {}
            (Decision::Tax { count, .. }, Action::GiveTax(gift)) => {
                self.choose_tax(seat, count, gift)?
            }
            (Decision::ExchangeOffer, Action::DeclineExchange) => {
                self.exchange = Exchange::Declined;
                // The log must not depend on the order in which setup
                // choices are made: a record keeps the choices, not their
                // order, and its replay must be the same hand. So a
                // declined exchange goes before a holder's keeping quiet
                // (the only other event of the setup), whoever chose first.
                let at = self
                    .events
                    .iter()
                    .position(|e| matches!(e, Event::RevolutionDeclined { .. }))
                    .unwrap_or(self.events.len());
                self.events.insert(at, Event::ExchangeDeclined { seat });
            }
            (Decision::ExchangeOffer, Action::OfferExchange { partner, card }) => {
                let n = self.players();
                if partner == seat || partner.index() >= n || !is_merchant(partner, n) {
                    return Err(Illegal::NotAMerchant(partner));
                }
                if self.held[seat].count(card) == 0 {
                    return Err(Illegal::NotHeld(Cards::one(card)));
                }
                self.exchange = Exchange::AwaitingAnswer { partner, card };
            }
            (Decision::ExchangeAnswer { from }, Action::AnswerExchange(returned)) => {
                let Exchange::AwaitingAnswer { partner, card } = self.exchange else {
                    unreachable!("an answer is only asked for after an offer")
                };
                if self.held[seat].count(returned) == 0 {
                    return Err(Illegal::NotHeld(Cards::one(returned)));
                }
                self.exchange = Exchange::Answered(MerchantTrade {
                    offerer: from,
                    partner,
                    offered: card,
                    returned,
                });
            }
            (decision, _) => return Err(Illegal::WrongDecision(decision)),
        }
        // Making one's own setup choice keeps quiet about the Jesters: only
        // the omniscient log says so (views show it to the holder alone).
        if own_choice {
            self.chosen.insert(seat);
            if self.revolution_holder == Some(seat) {
                self.events.push(Event::RevolutionDeclined { seat });
            }
        }
        self.setup_maybe_done();
        Ok(())
    }

    pub(super) fn call_revolution(&mut self, seat: Seat, greater: bool) {
        let n = self.players();
        let by = if greater {
            // Everyone trades seats with their opposite; the cards go too.
            self.dealt.reverse(n);
            self.held.reverse(n);
            self.sizes.reverse(n);
            Seat::GREATER_DALMUTI
        } else {
            seat
        };
        self.revolution_holder = Some(by);
        self.revolution = Some(Revolution { by, greater });
        // No taxes, so no exchange: every setup choice made so far is void
        // (no card has moved yet).
        self.greater_tax = Gift::NotDue;
        self.lesser_tax = Gift::NotDue;
        self.exchange = Exchange::NotDue;
        self.chosen = Seats::NONE;
        // A declined exchange is void too: the log (and so the record) keeps
        // no trace of a choice that never took effect.
        self.events
            .retain(|e| !matches!(e, Event::ExchangeDeclined { .. }));
        self.events
            .push(Event::RevolutionCalled { seat: by, greater });
        self.begin_play();
    }

    pub(super) fn choose_tax(
        &mut self,
        dalmuti: Seat,
        count: u8,
        gift: Cards,
    ) -> Result<(), Illegal> {
        if gift.len() != u32::from(count) {
            return Err(Illegal::TaxCount {
                needed: count,
                given: gift.len(),
            });
        }
        if !self.held[dalmuti].contains(&gift) {
            return Err(Illegal::NotHeld(gift.missing_from(&self.held[dalmuti])));
        }
        if dalmuti == Seat::GREATER_DALMUTI {
            self.greater_tax = Gift::Chosen(gift);
        } else {
            self.lesser_tax = Gift::Chosen(gift);
        }
        Ok(())
    }

    /// Once every setup choice is made, the taxes and the merchant exchange
    /// happen together, and play begins.
    pub(super) fn setup_maybe_done(&mut self) {
        if !self.to_act().is_empty() {
            return;
        }
        // Every choice was made from the hands as dealt; now all the cards
        // change hands at once.
        let n = self.players();
        for dalmuti in [Seat::GREATER_DALMUTI, Seat::new(1)] {
            let slot = if dalmuti == Seat::GREATER_DALMUTI {
                &mut self.greater_tax
            } else {
                &mut self.lesser_tax
            };
            let Gift::Chosen(gift) = *slot else {
                continue;
            };
            let peon = dalmuti.opposite(n);
            let tribute = self.held[peon].best(gift.len());
            let payment = TaxPayment {
                dalmuti,
                peon,
                gift,
                tribute,
            };
            *slot = Gift::Paid(payment);
            self.held[dalmuti].remove_all(&gift);
            self.held[peon].remove_all(&tribute);
            self.held[dalmuti].add_all(&tribute);
            self.held[peon].add_all(&gift);
            self.events.push(Event::TaxPaid(payment));
        }
        if let Exchange::Answered(trade) = self.exchange {
            let (from, to) = (trade.offerer, trade.partner);
            self.held[from].remove(trade.offered, 1);
            self.held[to].add(trade.offered, 1);
            self.held[to].remove(trade.returned, 1);
            self.held[from].add(trade.returned, 1);
            self.exchange = Exchange::Done(trade);
            self.events.push(Event::MerchantExchange(trade));
        }
        self.begin_play();
    }

    // Always inlined into `apply`, for the same reason as `apply` itself.
    #[inline(always)]
    pub(super) fn play(&mut self, seat: Seat, set: Set) -> Result<(), Illegal> {
        if let Some((_, top)) = self.top
            && !set.tops(&top)
        {
            return Err(not_topping(set, top));
        }
        let held = &self.held[seat];
        // Without naturals, the face is the wild card itself: the second
        // test is then the first again, and removing no naturals is free.
        let has = held.count_kind(set.kind_wild()) >= set.wilds()
            && held.count_kind(set.kind_face()) >= set.naturals()
            && (!set.holds_wedgie() || held.count_kind(Card::TWIRLING_WEDGIE) > 0);
        if !has {
            return Err(Illegal::NotHeld(set.cards().missing_from(held)));
        }
        if set.holds_wedgie() {
            self.check_wedgie(seat, set)?;
        }
        let held = &mut self.held[seat];
        let face = set.kind_face();
        self.masks[seat].take(face, held.count_kind(face), set.naturals());
        held.take(face, set.naturals());
        held.take(set.kind_wild(), set.wilds());
        if set.holds_wedgie() {
            held.take(Card::TWIRLING_WEDGIE, 1);
        }
        let left = &mut self.sizes[seat];
        *left -= set.size();
        let out = *left == 0;
        self.events.push(Event::Played { seat, set });
        self.top = Some((seat, set));
        self.passes = 0;
        if set.is_special() || self.ratbert != RatbertTrick::Absent {
            self.special_play(set);
        }
        if out {
            self.go_out(seat);
            if self.stage == Stage::Over {
                // C7: a hand that ends mid-trick ends with it; nobody takes
                // Ratbert back.
                return Ok(());
            }
        }
        // A wedged player is skipped like one who is out, until the trick
        // ends (C6); the trick ends at once after the World Ruler, or when
        // nobody is left to answer.
        let answering = self.holding.without(self.wedged).without(Seats::only(seat));
        if set.is_world_ruler() || answering.is_empty() {
            self.end_trick(seat);
        } else {
            self.answering = answering;
            // `holding` less the player if still in, less the wedged: the
            // size of `answering` without a population count.
            self.passes_to_win = self.active - u8::from(!out) - u8::from(!self.wedged.is_empty());
            self.turn = answering.next_after(seat).expect("not empty");
        }
        Ok(())
    }

    /// The Twirling Wedgie names another player who still holds cards,
    /// unless its play ends the hand (C5).
    pub(super) fn check_wedgie(&self, seat: Seat, set: Set) -> Result<(), Illegal> {
        let ends_hand = self.sizes[seat] == set.size() && self.active == 2;
        match set.wedgie_target() {
            None if ends_hand => Ok(()),
            None => Err(Illegal::WedgieNeedsTarget),
            Some(_) if ends_hand => Err(Illegal::WedgieEndsHand),
            Some(t) if t == seat || !self.holding.contains(t) => Err(Illegal::WedgieTarget(t)),
            Some(_) => Ok(()),
        }
    }

    /// The bookkeeping of Corporate Shuffle's specials, kept off the path
    /// of ordinary plays.
    #[inline(never)]
    pub(super) fn special_play(&mut self, set: Set) {
        if set.is_ratbert() {
            self.ratbert = RatbertTrick::Alone;
        } else if self.ratbert == RatbertTrick::Alone {
            self.ratbert = RatbertTrick::Topped;
        }
        if let Some(target) = set.wedgie_target() {
            self.wedged = Seats::only(target);
        }
    }

    /// The trick is won by `by`, who played its last set: they lead the next
    /// one, or if out the next player clockwise who holds cards; and if the
    /// trick held Ratbert and was topped since, they take Ratbert back.
    // Out of line, like `go_out`: once in several decisions, and inlined
    // into every caller of `apply` it would only lengthen the play path.
    #[inline(never)]
    pub(super) fn end_trick(&mut self, by: Seat) {
        let winner_holds = self.holding.contains(by);
        let leader = if winner_holds {
            by
        } else {
            self.holding.next_after(by).expect("two players hold cards")
        };
        self.events.push(Event::RoundWon { seat: by, leader });
        if self.ratbert == RatbertTrick::Topped && winner_holds {
            // Ratbert is no numbered rank: the masks do not change.
            self.held[by].add(Card::RATBERT, 1);
            self.sizes[by] += 1;
            self.events.push(Event::RatbertTaken { seat: by });
        }
        self.ratbert = RatbertTrick::Absent;
        self.wedged = Seats::NONE;
        self.top = None;
        self.passes = 0;
        self.turn = leader;
    }

    #[inline(never)]
    pub(super) fn go_out(&mut self, seat: Seat) {
        self.holding.remove(seat);
        self.active -= 1;
        self.finish.push(seat);
        self.events.push(Event::WentOut {
            seat,
            place: self.finish.len() as u8 - 1,
        });
        if self.active == 1 {
            let last = self.holding.first_seat().expect("one player left");
            self.finish.push(last);
            self.stage = Stage::Over;
            self.events.push(Event::HandOver);
        }
    }

    #[inline(always)]
    pub(super) fn pass(&mut self, seat: Seat) -> Result<(), Illegal> {
        let Some((by, _)) = self.top else {
            return Err(Illegal::MustLead);
        };
        self.events.push(Event::Passed { seat });
        self.passes += 1;
        // Everyone answering the set must pass it in a row; the next to
        // answer is never its player, whom the trick returns to only when
        // it is won.
        if self.passes == self.passes_to_win {
            self.end_trick(by);
        } else {
            self.turn = self.answering.next_after(seat).expect("answering");
        }
        Ok(())
    }
}

/// A refused action, boxed: the play path's result stays in a register.
#[cold]
#[inline(never)]
pub(super) fn refused(seat: Seat, action: Action, reason: Illegal) -> Box<IllegalAction> {
    Box::new(IllegalAction {
        seat,
        action,
        reason,
    })
}

/// Why a set of the right kind does not top the set on the table.
#[cold]
#[inline(never)]
pub(super) fn not_topping(set: Set, top: Set) -> Illegal {
    if set.size() != top.size() {
        Illegal::WrongSize { top, played: set }
    } else {
        Illegal::DoesNotTop { top, played: set }
    }
}
