//! One hand of a record read into the game: its deal, setup and plays,
//! each checked by the engine as it is applied.

use super::doc::{Declined, HandIn, JoinIn, Line, OfferIn};
use super::*;

/// Reads one hand into the game.
pub(super) struct HandReader<'g> {
    pub(super) game: &'g mut Game,
    pub(super) index: usize,
    pub(super) last: bool,
}

impl HandReader<'_> {
    fn fault(&self, message: impl Into<String>) -> ReadError {
        ReadError::Invalid(Fault {
            hand: Some(self.index),
            play: None,
            message: message.into(),
        })
    }

    fn play_fault(&self, play: usize, message: impl Into<String>) -> ReadError {
        ReadError::Invalid(Fault {
            hand: Some(self.index),
            play: Some(play),
            message: message.into(),
        })
    }

    fn name(&self, seat: Seat) -> String {
        show(self.game.name(self.game.player_at(seat)))
    }

    /// The seat of play of a named player of the current hand.
    fn seat(&self, name: &str) -> Result<Seat, String> {
        self.game
            .player_named(name)
            .and_then(|p| self.game.seat_of(p))
            .ok_or_else(|| format!("{} is not seated in this hand", show(name)))
    }

    fn table_error(&self, e: TableError) -> ReadError {
        let message = match e {
            TableError::BadDeal(BadDeal::Share {
                seat,
                expected,
                got,
            }) => {
                let name = self.game.next_seating()[seat.index()];
                format!(
                    "{} should be dealt {expected} cards, not {got}",
                    show(self.game.name(name))
                )
            }
            e => e.to_string(),
        };
        self.fault(message)
    }

    /// Reads the hand from its text in the record.
    pub(super) fn read(mut self, text: &str) -> Result<HandRecord, ReadError> {
        let Obj(hand) = doc::read_part::<Obj<HandIn>>(text)
            .map_err(|(path, words)| self.fault(at(&path, &words)))?;
        let mut out = HandRecord::default();
        self.read_table_changes(hand.leave, hand.join, &mut out)?;
        self.read_deal(hand.seating, hand.deal, &mut out)?;
        let stalemate = self.read_stalemate(hand.stalemate, &mut out)?;

        let plays = match hand.plays {
            Some(plays) => plays,
            None if self.last => Vec::new(),
            None => return Err(self.fault("the hand has no plays")),
        };
        self.read_declined(hand.declined, &mut out)?;
        // A hand saved in progress may stop while it is set up; otherwise
        // every setup choice was made: a missing revolution was declined, a
        // missing exchange let go, and everyone else said ready.
        let setup_over = !plays.is_empty() || !self.last;
        self.read_revolution(hand.revolution, &mut out)?;
        // The setup choices are simultaneous: one may be recorded while
        // another is still being made.
        self.read_tax(hand.tax, setup_over, &mut out)?;
        if let Some(Obj(offer)) = hand.merchant_offer {
            if hand.merchant_exchange.is_some() || out.declined_exchange {
                return Err(self.fault("merchant_offer is only for an exchange still unanswered"));
            }
            self.read_offer(offer, &mut out)?;
        } else {
            self.read_exchange(
                hand.merchant_exchange,
                out.declined_exchange || setup_over,
                &mut out,
            )?;
        }
        self.say_ready(hand.ready, setup_over, &mut out)?;
        if !plays.is_empty()
            && self.game.hand().stage() != Stage::Play
            && self.game.hand().stage() != Stage::Over
        {
            return Err(self.fault("plays begin before the taxes are settled"));
        }
        out.plays.reserve(plays.len());
        for (j, line) in plays.iter().enumerate() {
            out.plays.push(self.read_play(j, line)?);
        }
        self.check_stalemate(stalemate.as_deref())?;
        if !self.last && self.game.hand().stage() != Stage::Over {
            return Err(self.fault("the hand stops before its end, but another hand follows"));
        }
        Ok(out)
    }

    fn read_table_changes(
        &mut self,
        leave: Option<Vec<String>>,
        join: Option<Vec<Obj<JoinIn>>>,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        if self.index == 0 && (leave.is_some() || join.is_some()) {
            return Err(self.fault(
                "no one can leave or join before the first hand: the seating says who plays it",
            ));
        }
        for name in leave.unwrap_or_default() {
            self.game.leave(&name).map_err(|e| self.table_error(e))?;
            out.leave.push(name);
        }
        for Obj(JoinIn { name, seat }) in join.unwrap_or_default() {
            let seat = usize::try_from(seat).unwrap_or(usize::MAX);
            self.game
                .join(&name, seat)
                .map_err(|e| self.table_error(e))?;
            out.join.push((name, seat));
        }
        Ok(())
    }

    /// The places of a stalemate (President, Daifugō), given to the hand
    /// before its plays so that the replay deals them out alike.
    fn read_stalemate(
        &mut self,
        names: Option<Vec<String>>,
        out: &mut HandRecord,
    ) -> Result<Option<Vec<Seat>>, ReadError> {
        let Some(names) = names else {
            return Ok(None);
        };
        if !self.game.rules().variant.is_suited() {
            return Err(self.fault("stalemate is for President and Daifugō only"));
        }
        let mut seats = Vec::with_capacity(names.len());
        for name in &names {
            let seat = self.seat(name).map_err(|m| self.fault(m))?;
            if seats.contains(&seat) {
                return Err(self.fault(format!("{} is twice in the stalemate", show(name))));
            }
            seats.push(seat);
        }
        self.game.hand_mut().set_stalemate_places(&seats);
        out.stalemate = Some(names);
        Ok(Some(seats))
    }

    /// A game that ended in a stalemate gives its places as recorded.
    fn check_stalemate(&self, given: Option<&[Seat]>) -> Result<(), ReadError> {
        let hand = self.game.hand();
        let at = hand.events().iter().position(|e| {
            matches!(
                e,
                crate::Event::Effect(crate::event::Effect::Stalemate { .. })
            )
        });
        match (at, given) {
            (None, None) => Ok(()),
            (None, Some(_)) => Err(self.fault(
                "the record gives a stalemate's places, but its plays never pass so many times in a row",
            )),
            (Some(_), None) => Err(self.fault(
                "the game ended in a stalemate: the record must give the places drawn (stalemate)",
            )),
            (Some(at), Some(given)) => {
                let drawn: Vec<Seat> = hand.events()[at..]
                    .iter()
                    .filter_map(|e| match *e {
                        crate::Event::WentOut { seat, .. } => Some(seat),
                        _ => None,
                    })
                    .collect();
                if drawn == given {
                    Ok(())
                } else {
                    let names: Vec<String> = drawn.iter().map(|&s| self.name(s)).collect();
                    Err(self.fault(format!(
                        "the stalemate should list exactly those still holding cards: {}",
                        names.join(", ")
                    )))
                }
            }
        }
    }

    /// The hand's `deal`: the cards of each of `seated`, in their order,
    /// and no one else's (`whose` says where they sit: this "hand" or this
    /// "game"), also written to `out`.
    fn read_dealt(
        &self,
        deal: Option<Names<String>>,
        seated: &[String],
        whose: &str,
        out: &mut HandRecord,
    ) -> Result<Vec<Cards>, ReadError> {
        let Some(deal) = deal else {
            return Err(self.fault("the hand has no deal"));
        };
        if let Some(stranger) = deal.keys().find(|k| !seated.contains(k)) {
            return Err(self.fault(format!(
                "the deal gives cards to {}, who is not seated in this {whose}",
                show(stranger)
            )));
        }
        let mut dealt = Vec::with_capacity(seated.len());
        for name in seated {
            let Some(text) = deal.get(name) else {
                return Err(self.fault(format!("the deal has no cards for {}", show(name))));
            };
            let cards = text
                .parse::<Cards>()
                .map_err(|e| self.fault(format!("the deal of {}: {e}", show(name))))?;
            dealt.push(cards);
            out.deal.push((name.clone(), cards));
        }
        Ok(dealt)
    }

    fn read_deal(
        &mut self,
        seating: Option<Vec<String>>,
        deal: Option<Names<String>>,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        if self.game.rules().variant.is_suited() {
            return self.read_suited_deal(seating, deal, out);
        }
        let seated: Vec<String> = self
            .game
            .next_seating()
            .iter()
            .map(|&p| self.game.name(p).to_string())
            .collect();
        let dealt = self.read_dealt(deal, &seated, "hand", out)?;
        self.game
            .next_hand_with(&dealt)
            .map_err(|e| self.table_error(e))
    }

    /// A game of President or Daifugō: the seats drawn again (`seating`,
    /// when they were), then the deal in seat order.
    fn read_suited_deal(
        &mut self,
        listed: Option<Vec<String>>,
        deal: Option<Names<String>>,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        let seating: Vec<crate::game::PlayerId> = match listed {
            None => self.game.next_seating().to_vec(),
            Some(names) => {
                let mut ids = Vec::with_capacity(names.len());
                for name in &names {
                    let id = self
                        .game
                        .player_named(name)
                        .ok_or_else(|| self.fault(format!("{} is not at the table", show(name))))?;
                    ids.push(id);
                }
                out.seating = Some(names);
                ids
            }
        };
        let seated: Vec<String> = seating
            .iter()
            .map(|&p| self.game.name(p).to_string())
            .collect();
        let dealt = self.read_dealt(deal, &seated, "game", out)?;
        self.game
            .next_hand_seated(&seating, &dealt, 0)
            .map_err(|e| match e {
                TableError::BadDeal(BadDeal::Share {
                    seat,
                    expected,
                    got,
                }) => self.fault(format!(
                    "{} should be dealt {expected} cards, not {got} (the deal starts at the top class, \
                     or anywhere in a game without classes)",
                    show(&seated[seat.index()])
                )),
                e => self.fault(e.to_string()),
            })
    }

    /// The project's `declined` field: decisions declined, written so that
    /// a game saved right after one replays exactly.
    fn read_declined(
        &mut self,
        declined: Option<Vec<Declined>>,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        for word in declined.unwrap_or_default() {
            match word {
                Declined::Revolution => out.declined_revolution = true,
                Declined::MerchantExchange => out.declined_exchange = true,
            }
        }
        if out.declined_revolution && self.game.hand().revolution_holder().is_none() {
            return Err(self.fault("no one was dealt both Jesters, so no revolution was declined"));
        }
        Ok(())
    }

    /// Says ready for the players whose setup choice is only that: those the
    /// record lists as ready (a hand saved while set up), the holder of both
    /// Jesters when it says they kept quiet, and everyone once the setup is
    /// over.
    fn say_ready(
        &mut self,
        listed: Option<Vec<String>>,
        setup_over: bool,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        if let Some(names) = listed {
            for name in names {
                let seat = self.seat(&name).map_err(|m| self.fault(m))?;
                if self.game.hand().said_ready().contains(seat) {
                    // Already, as the partner of the merchant exchange.
                    out.ready.push(name);
                    continue;
                }
                if self.game.hand().decision(seat) != Some(Decision::Ready) {
                    return Err(self.fault(format!(
                        "{} has no reason to say ready: only players without another setup choice do, once",
                        show(&name)
                    )));
                }
                out.ready.push(name);
                self.ready(seat)?;
            }
        }
        let hand = self.game.hand();
        if hand.stage() != Stage::Setup {
            return Ok(());
        }
        let holder = hand.revolution_holder();
        let declined = out.declined_revolution;
        let ready: Vec<Seat> = hand
            .to_act()
            .iter()
            .filter(|&s| hand.decision(s) == Some(Decision::Ready))
            .filter(|&s| setup_over || (declined && Some(s) == holder))
            .collect();
        for seat in ready {
            self.ready(seat)?;
        }
        if let Some(holder) =
            holder.filter(|&h| declined && self.game.hand().revolution_offer(h).is_some())
        {
            return Err(self.fault(format!(
                "the revolution was declined, but the record has no setup choice of {}, \
                 who was dealt both Jesters",
                self.name(holder)
            )));
        }
        Ok(())
    }

    fn ready(&mut self, seat: Seat) -> Result<(), ReadError> {
        self.game
            .apply(seat, Action::Ready)
            .map_err(|e| self.fault(e.reason.to_string()))
    }

    fn read_offer(&mut self, offer: OfferIn, out: &mut HandRecord) -> Result<(), ReadError> {
        let offerer = Seat::new(2);
        if self.game.hand().decision(offerer) != Some(Decision::ExchangeOffer) {
            return Err(self.fault("no merchant exchange can be offered in this hand"));
        }
        let OfferIn { from, to, card } = offer;
        let (from, to) = (from.as_str(), to.as_str());
        let card = read_card(&card).map_err(|e| self.fault(format!("merchant_offer card: {e}")))?;
        if self.seat(from).ok() != Some(offerer) {
            return Err(self.fault(format!(
                "the highest Merchant, {}, makes the merchant offer",
                self.name(offerer)
            )));
        }
        let partner = self.seat(to).map_err(|m| self.fault(m))?;
        self.game
            .apply(offerer, Action::OfferExchange { partner, card })
            .map_err(|e| self.fault(format!("{}: {}", show(from), e.reason)))?;
        out.merchant_offer = Some((from.to_string(), to.to_string(), card));
        Ok(())
    }

    fn read_revolution(
        &mut self,
        caller: Option<String>,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        if caller.is_some() && out.declined_revolution {
            return Err(self.fault("a revolution cannot be both called and declined"));
        }
        let Some(name) = caller else {
            return Ok(());
        };
        let seat = self.seat(&name).map_err(|m| self.fault(m))?;
        if self.game.hand().revolution_offer(seat).is_none() {
            return Err(self.fault(format!(
                "{} was not dealt both Jesters, so cannot call a revolution",
                show(&name)
            )));
        }
        self.game
            .apply(seat, Action::CallRevolution)
            .map_err(|e| self.fault(e.reason.to_string()))?;
        out.revolution = Some(name);
        Ok(())
    }

    fn read_tax(
        &mut self,
        gifts: Option<Names<String>>,
        more: bool,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        let hand = self.game.hand();
        let due = hand.stage() == Stage::Setup
            && hand
                .to_act()
                .iter()
                .any(|s| matches!(hand.decision(s), Some(Decision::Tax { .. })));
        let Some(gifts) = gifts else {
            if due && more {
                return Err(self.fault("taxes are collected this hand, but the record has no tax"));
            }
            return Ok(());
        };
        if !due {
            let why = if hand.revolution().is_some() {
                "no taxes are collected after a revolution"
            } else if hand.is_first() && hand.rules().first_deal_revolution {
                "no taxes are collected in the first hand under the first-deal revolution"
            } else {
                "no taxes are collected in this hand"
            };
            return Err(self.fault(why));
        }
        let mut paid = Vec::with_capacity(2);
        for (name, cards) in gifts {
            let seat = self.seat(&name).map_err(|m| self.fault(m))?;
            let Some(Decision::Tax { count, .. }) = self.game.hand().decision(seat) else {
                return Err(self.fault(format!(
                    "{} is not a Dalmuti of this hand, so gives no tax",
                    show(&name)
                )));
            };
            let cards: Cards = cards
                .parse()
                .map_err(|e| self.fault(format!("the tax of {}: {e}", show(&name))))?;
            if cards.len() != u32::from(count) {
                return Err(self.fault(format!(
                    "{} must give exactly {count} card(s) in tax, not {}",
                    show(&name),
                    cards.len()
                )));
            }
            let suited = self.game.rules().variant.is_suited();
            if suited && !self.game.hand().held(seat).contains(&cards) {
                return Err(self.fault(format!(
                    "{} does not hold {cards} after the exchange's tribute, so cannot give it back",
                    show(&name)
                )));
            }
            if !suited && !self.game.hand().dealt(seat).contains(&cards) {
                return Err(self.fault(format!(
                    "{} was not dealt {cards}, so cannot give it in tax",
                    show(&name)
                )));
            }
            paid.push((seat, name, cards));
        }
        // Simultaneous gifts: the engine settles them in a fixed order once
        // all are chosen, so the order they are applied in does not matter.
        for (seat, name, cards) in paid {
            self.game
                .apply(seat, Action::GiveTax(cards))
                .map_err(|e| self.fault(e.reason.to_string()))?;
            out.tax.get_or_insert_with(Vec::new).push((name, cards));
        }
        let hand = self.game.hand();
        if let Some(missing) = hand
            .to_act()
            .iter()
            .find(|&s| matches!(hand.decision(s), Some(Decision::Tax { .. })))
        {
            if more {
                return Err(self.fault(format!(
                    "the tax names no gift from {}, a Dalmuti of this hand",
                    self.name(missing)
                )));
            }
        }
        Ok(())
    }

    fn read_exchange(
        &mut self,
        sides_given: Option<Names<String>>,
        more: bool,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        let offerer = Seat::new(2);
        let awaiting = self.game.hand().decision(offerer) == Some(Decision::ExchangeOffer);
        if out.declined_exchange && sides_given.is_some() {
            return Err(self.fault("a merchant exchange cannot be both made and declined"));
        }
        if out.declined_exchange && !awaiting {
            return Err(self.fault("no merchant exchange could be offered, so none was declined"));
        }
        let Some(entries) = sides_given else {
            if awaiting && more {
                self.game
                    .apply(offerer, Action::DeclineExchange)
                    .map_err(|e| self.fault(e.reason.to_string()))?;
            }
            return Ok(());
        };
        if !awaiting {
            let hand = self.game.hand();
            let why = if !hand.rules().merchant_exchange {
                "the merchant exchange rule is off"
            } else if !hand.taxed() {
                "there is no merchant exchange when no taxes are collected"
            } else {
                "a merchant exchange needs at least two Merchants (six players)"
            };
            return Err(self.fault(why));
        }
        if entries.len() != 2 {
            return Err(self.fault(
                "merchant_exchange should name exactly two players and the card each gives",
            ));
        }
        let mut sides = Vec::with_capacity(2);
        for (name, card) in entries {
            let seat = self.seat(&name).map_err(|m| self.fault(m))?;
            let card = read_card(&card)
                .map_err(|e| self.fault(format!("{}'s exchange card: {e}", show(&name))))?;
            sides.push((seat, name, card));
        }
        sides.sort_by_key(|s| s.0);
        let [
            (first, first_name, offered),
            (partner, partner_name, returned),
        ] = <[_; 2]>::try_from(sides).expect("two entries");
        if first != offerer {
            return Err(self.fault(format!(
                "the highest Merchant, {}, must be one of the two in the exchange",
                self.name(offerer)
            )));
        }
        let apply = |game: &mut Game, seat, action| game.apply(seat, action);
        apply(
            self.game,
            offerer,
            Action::OfferExchange {
                partner,
                card: offered,
            },
        )
        .map_err(|e| {
            self.fault(match e.reason {
                Illegal::NotHeld(_) => format!("{} was not dealt {offered}", show(&first_name)),
                Illegal::NotAMerchant(_) => format!(
                    "{} is not a Merchant, so cannot take part in the exchange",
                    show(&partner_name)
                ),
                r => r.to_string(),
            })
        })?;
        // The partner answers after its own setup choice: saying ready.
        if self.game.hand().decision(partner) == Some(Decision::Ready) {
            self.ready(partner)?;
        }
        apply(self.game, partner, Action::AnswerExchange(returned)).map_err(|e| {
            self.fault(match e.reason {
                Illegal::NotHeld(_) => format!("{} was not dealt {returned}", show(&partner_name)),
                r => r.to_string(),
            })
        })?;
        out.merchant_exchange = Some([(first_name, offered), (partner_name, returned)]);
        Ok(())
    }

    fn read_play(&mut self, j: usize, line: &Line) -> Result<PlayRecord, ReadError> {
        let bad = || {
            self.play_fault(
                j,
                "a play should be a string \"Name: cards\" or \"Name: pass\"",
            )
        };
        let Line(Ok(text)) = line else {
            return Err(bad());
        };
        let text: &str = text;
        // A name may contain ": ", and so may a Wedgie's target after the
        // cards: the player is the longest seated name before a ": ", or
        // failing that the text before the last one.
        let splits: Vec<usize> = text.match_indices(": ").map(|(i, _)| i).collect();
        let at = splits
            .iter()
            .rev()
            .copied()
            .find(|&i| self.seat(&text[..i]).is_ok())
            .or_else(|| splits.last().copied())
            .ok_or_else(bad)?;
        let (name, what) = (&text[..at], &text[at + 2..]);
        let seat = self.seat(name).map_err(|m| self.play_fault(j, m))?;
        let hand = self.game.hand();
        if hand.stage() == Stage::Over {
            return Err(self.play_fault(j, "the hand is already over: no play may follow"));
        }
        if let Some((kind, cards)) = what
            .strip_prefix("give ")
            .map(|c| ("give", c))
            .or_else(|| what.strip_prefix("discard ").map(|c| ("discard", c)))
        {
            return self.read_settled(j, name, seat, kind, cards);
        }
        // The rest after the word `wedgie` is the target's name.
        let (cards, wedgie) = match what.split_once(" wedgie ") {
            Some((cards, target)) => (cards, Some(target)),
            None => (what, None),
        };
        let set = if what == "pass" {
            None
        } else {
            let set = cards
                .parse::<Set>()
                .map_err(|e| self.play_fault(j, e.to_string()))?;
            let target = match wedgie {
                Some(target) => Some(self.seat(target).map_err(|m| {
                    self.play_fault(j, format!("the Twirling Wedgie's target: {m}"))
                })?),
                None => None,
            };
            Some(
                set.with_target(target)
                    .map_err(|e| self.play_fault(j, e.to_string()))?,
            )
        };
        if hand.turn() != seat {
            return Err(self.play_fault(
                j,
                format!(
                    "it is {}'s turn, not {}'s",
                    self.name(hand.turn()),
                    show(name)
                ),
            ));
        }
        let action = set.map_or(Action::Pass, Action::Play);
        self.game.apply(seat, action).map_err(|e| {
            let who = show(name);
            self.play_fault(
                j,
                match e.reason {
                    Illegal::NotHeld(missing) => format!(
                        "{who} does not hold {} (missing {missing})",
                        set.expect("a play")
                    ),
                    Illegal::MustLead => format!("{who} leads this round and cannot pass"),
                    Illegal::WrongSize { top, played } => {
                        format!(
                            "{who} must play {} card(s) to top {top}, not {played}",
                            top.size()
                        )
                    }
                    Illegal::DoesNotTop { top, played } => {
                        format!("{who}'s {played} does not top {top}")
                    }
                    r => format!("{who}: {r}"),
                },
            )
        })?;
        Ok(PlayRecord {
            player: name.to_string(),
            set,
            wedgie: wedgie.map(str::to_string),
            settled: None,
        })
    }

    /// A line of cards given on (7-pass) or discarded (10-discard) after a
    /// play: each card is one action of the player's.
    fn read_settled(
        &mut self,
        j: usize,
        name: &str,
        seat: Seat,
        kind: &str,
        cards: &str,
    ) -> Result<PlayRecord, ReadError> {
        let who = show(name);
        let cards: Cards = cards
            .parse()
            .map_err(|e: crate::BadCard| self.play_fault(j, e.to_string()))?;
        if cards.is_empty() {
            return Err(self.play_fault(j, format!("{who} {kind}s no card")));
        }
        let hand = self.game.hand();
        let owed = hand.decision(seat);
        let due = match (kind, owed) {
            ("give", Some(Decision::Give { left, .. }))
            | ("discard", Some(Decision::Discard { left })) => u32::from(left),
            _ => {
                return Err(self.play_fault(
                    j,
                    format!(
                        "{who} has no card to {kind} now (a player {kind}s only after playing {})",
                        if kind == "give" {
                            "7s under the 7-pass"
                        } else {
                            "10s under the 10-discard"
                        }
                    ),
                ));
            }
        };
        if cards.len() > due {
            return Err(self.play_fault(
                j,
                format!("{who} {kind}s {} cards, but owes {due}", cards.len()),
            ));
        }
        for card in cards.iter() {
            let action = if kind == "give" {
                Action::Give(card)
            } else {
                Action::Discard(card)
            };
            self.game.apply(seat, action).map_err(|e| {
                self.play_fault(
                    j,
                    match e.reason {
                        Illegal::NotHeld(_) => format!("{who} does not hold {card} to {kind}"),
                        r => format!("{who}: {r}"),
                    },
                )
            })?;
        }
        Ok(PlayRecord {
            player: name.to_string(),
            set: None,
            wedgie: None,
            settled: Some(if kind == "give" {
                super::super::Settled::Give(cards)
            } else {
                super::super::Settled::Discard(cards)
            }),
        })
    }
}
