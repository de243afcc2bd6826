//! The keys of each decision: moving the cursor, choosing ranks and
//! counts, playing, and answering the dialogs.

use super::*;

impl App<'_> {
    /// President and Daifugō: ←/→ go through the legal actions (passing
    /// aside), Enter takes the one shown, p passes.
    pub(in crate::tui) fn pack_key(&mut self, code: KeyCode) {
        let legal = self.session.legal();
        let choices: Vec<usize> = (0..legal.len())
            .filter(|&i| legal[i] != Action::Pass)
            .collect();
        let at = choices.iter().position(|&i| i == self.pick).unwrap_or(0);
        match code {
            KeyCode::Left | KeyCode::Up if !choices.is_empty() => {
                self.pick = choices[(at + choices.len() - 1) % choices.len()];
            }
            KeyCode::Right | KeyCode::Down if !choices.is_empty() => {
                self.pick = choices[(at + 1) % choices.len()];
            }
            KeyCode::Home if !choices.is_empty() => self.pick = choices[0],
            KeyCode::End if !choices.is_empty() => self.pick = choices[choices.len() - 1],
            KeyCode::Enter => match choices.get(at) {
                Some(&i) if choices.contains(&self.pick) => {
                    let action = legal[i];
                    self.act(action);
                }
                _ => {
                    let text = self.tr().t("hint.pass", &[]);
                    self.say(Tone::Note, text);
                }
            },
            KeyCode::Char('p' | 'P') if legal.contains(&Action::Pass) => {
                self.act(Action::Pass);
            }
            _ => {}
        }
    }

    /// Chooses `action` among the legal ones (a hint).
    pub(in crate::tui) fn pick_action(&mut self, action: Action) {
        if let Some(i) = self.session.legal().iter().position(|&a| a == action) {
            self.pick = i;
        }
    }

    /// Left and right: the kind under the cursor. Returns whether it moved.
    pub(in crate::tui) fn move_cursor(&mut self, code: KeyCode) -> bool {
        let kinds = self.kinds();
        if kinds.is_empty() {
            return false;
        }
        let at = self
            .cursor
            .and_then(|c| kinds.iter().position(|&(k, _)| k == c))
            .unwrap_or(0);
        let to = match code {
            KeyCode::Left => at.saturating_sub(1),
            KeyCode::Right => (at + 1).min(kinds.len() - 1),
            KeyCode::Home => 0,
            KeyCode::End => kinds.len() - 1,
            _ => return false,
        };
        self.cursor = Some(kinds[to].0);
        true
    }

    /// A number key: the rank of that number (0 is 10, - is 11, = is 12:
    /// the keyboard's top row). Corporate Shuffle's numbers end at 10.
    pub(in crate::tui) fn rank_key(&mut self, code: KeyCode) -> bool {
        let number = match code {
            KeyCode::Char(c @ '1'..='9') => c as u8 - b'0',
            KeyCode::Char('0') => 10,
            KeyCode::Char('-') if self.variant() == Variant::Dalmuti => 11,
            KeyCode::Char('=') if self.variant() == Variant::Dalmuti => 12,
            _ => return false,
        };
        let Some(card) = Card::from_index(number.into()) else {
            return false;
        };
        if self.held(card) == 0 {
            let text = self.tr().t(
                "tui.hold-none",
                &[
                    ("names", &self.tr().cards(card)),
                    ("card", &card.to_string()),
                ],
            );
            self.say(Tone::Refusal, text);
        } else {
            self.cursor = Some(card);
            self.message = None;
        }
        true
    }

    pub(in crate::tui) fn play_key(&mut self, code: KeyCode, decision: &Decision) {
        if self.move_cursor(code) || self.rank_key(code) {
            self.fit_count();
            return;
        }
        let Some(card) = self.cursor else { return };
        let held = self.held(card);
        let variant = self.variant();
        let tr = self.tr();
        match code {
            KeyCode::Up | KeyCode::Char('+') => {
                if self.count < held {
                    self.count += 1;
                } else {
                    let cards = tr.count_of(held.into(), card);
                    self.say(Tone::Refusal, tr.t("tui.hold-only", &[("cards", &cards)]));
                }
            }
            KeyCode::Down if self.count > 1 => self.count -= 1,
            // j in Dalmuti, d in Corporate Shuffle; either works in both.
            KeyCode::Char('j' | 'J' | 'd' | 'D') => {
                let wild = variant.wild();
                let jokers = self.held(wild);
                if jokers == 0 {
                    self.say(
                        Tone::Refusal,
                        tr.t("tui.hold-no-wild", &[("wild", &tr.wild())]),
                    );
                } else if card.is_wild() {
                    self.count = if self.count >= jokers {
                        1
                    } else {
                        self.count + 1
                    };
                } else if goes_alone(card) {
                    let text = tr.t(
                        "tui.alone",
                        &[("name", &tr.card(card)), ("card", &card.to_string())],
                    );
                    self.say(Tone::Refusal, text);
                } else {
                    self.wilds = (self.wilds + 1) % (jokers + 1);
                }
            }
            KeyCode::Char('t' | 'T') if variant == Variant::CorporateShuffle => {
                self.wedgie_key(card, decision);
            }
            KeyCode::Enter => self.enter_play(),
            KeyCode::Char('p') | KeyCode::Char('P') => {
                self.act(Action::Pass);
            }
            KeyCode::Char('y') | KeyCode::Char('n') => {
                self.say(Tone::Refusal, words::wrong_decision(decision, tr));
            }
            _ => {}
        }
    }

    /// `t`: the Twirling Wedgie joins your 6s, or leaves them.
    pub(in crate::tui) fn wedgie_key(&mut self, card: Card, decision: &Decision) {
        let six = Self::six();
        let tr = self.tr();
        let sixes = tr.cards(six);
        if self.held(Card::TWIRLING_WEDGIE) == 0 {
            self.say(Tone::Refusal, say(tr, "tui.no-wedgie", &[]));
        } else if card == Card::TWIRLING_WEDGIE {
            self.say(
                Tone::Note,
                say(tr, "tui.wedgie-chosen", &[("sixes", &sixes)]),
            );
        } else if card != six {
            self.say(
                Tone::Refusal,
                say(tr, "tui.wedgie-joins", &[("sixes", &sixes)]),
            );
        } else {
            self.wedgie = !self.wedgie;
            // Keep a follow's set the size of the one on the table.
            if let Decision::Follow { top, .. } = decision
                && self.wedgie
                && self.count + self.wilds + 1 > top.size()
            {
                if self.wilds > 0 {
                    self.wilds -= 1;
                } else if self.count > 1 {
                    self.count -= 1;
                }
            }
        }
    }

    /// Enter on a set to play: plays it, or first asks what it needs (whom
    /// the Wedgie names, what Dogberts alone are worth).
    pub(in crate::tui) fn enter_play(&mut self) {
        let cards = self.selected_cards();
        if cards.is_empty() {
            self.say(Tone::Refusal, self.tr().t("tui.choose-first", &[]));
            return;
        }
        if let Some(dogberts) = self.dogberts_alone() {
            let values = self.session.dogbert_values(dogberts);
            if values.is_empty() {
                // Even the best value is refused: the engine says why
                // (the size, or what is on the table).
                if let Some(best) = Set::dogberts_as(dogberts, 1) {
                    self.act(Action::Play(best));
                }
                return;
            }
            let at = self
                .hinted_value
                .and_then(|v| values.iter().position(|&x| x == v))
                .unwrap_or(0);
            self.message = None;
            self.choice = Some(Choice::Value {
                dogberts,
                values,
                at,
            });
            return;
        }
        let set = match Set::from_cards(&cards) {
            Ok(set) => set,
            Err(e) => {
                let text = words::not_a_set(&cards, &e, self.tr());
                self.say(Tone::Refusal, text);
                return;
            }
        };
        if !set.holds_wedgie() {
            self.act(Action::Play(set));
            return;
        }
        let targets = self.session.wedgie_targets(&set);
        match targets[..] {
            // Not playable now: the engine says why.
            [] => {
                self.act(Action::Play(set));
            }
            // The play ends the hand: the Wedgie names no one.
            [None] => {
                self.act(Action::Play(set));
            }
            _ => {
                let targets: Vec<Seat> = targets.into_iter().flatten().collect();
                let at = self
                    .hinted_target
                    .and_then(|t| targets.iter().position(|&x| x == t))
                    .unwrap_or(0);
                self.message = None;
                self.choice = Some(Choice::Target { set, targets, at });
            }
        }
    }

    /// A key in the Wedgie's or the Dogberts' dialog.
    pub(in crate::tui) fn choice_key(&mut self, code: KeyCode) {
        let Some(choice) = self.choice.clone() else {
            return;
        };
        let (at, len) = match &choice {
            Choice::Target { at, targets, .. } => (*at, targets.len()),
            Choice::Value { at, values, .. } => (*at, values.len()),
        };
        let len = len.max(1);
        match code {
            KeyCode::Up | KeyCode::Left => self.choose((at + len - 1) % len),
            KeyCode::Down | KeyCode::Right | KeyCode::Tab => self.choose((at + 1) % len),
            KeyCode::Home => self.choose(0),
            KeyCode::End => self.choose(len - 1),
            KeyCode::Esc | KeyCode::Backspace => {
                self.choice = None;
                self.say(Tone::Note, self.tr().t("tui.not-played", &[]));
            }
            KeyCode::Enter => {
                let set = match choice {
                    Choice::Target { set, targets, at } => {
                        set.with_target(targets.get(at).copied()).ok()
                    }
                    Choice::Value {
                        dogberts,
                        values,
                        at,
                    } => values.get(at).and_then(|&v| Set::dogberts_as(dogberts, v)),
                };
                self.choice = None;
                if let Some(set) = set {
                    self.act(Action::Play(set));
                }
            }
            // A value by its number (0 is 10), or a player by seat number.
            KeyCode::Char(c @ '0'..='9') => {
                let number = match c {
                    '0' => 10,
                    c => c as u8 - b'0',
                };
                let found = match &choice {
                    Choice::Value { values, .. } => values.iter().position(|&v| v == number),
                    Choice::Target { targets, .. } => targets
                        .iter()
                        .position(|&s| usize::from(number) == words::seat_number(s)),
                };
                match (found, &choice) {
                    (Some(i), _) => {
                        self.choose(i);
                        self.message = None;
                    }
                    (None, Choice::Value { values, .. }) => {
                        let tr = self.tr();
                        let values: Vec<String> = values.iter().map(u8::to_string).collect();
                        let text = tr.t(
                            "tui.not-value",
                            &[
                                ("number", &number.to_string()),
                                ("values", &tr.list(&values, "list.or")),
                            ],
                        );
                        self.say(Tone::Refusal, text);
                    }
                    (None, Choice::Target { .. }) => {
                        let text = self
                            .tr()
                            .t("tui.not-target", &[("number", &number.to_string())]);
                        self.say(Tone::Refusal, text);
                    }
                }
            }
            _ => {}
        }
    }

    /// Moves the open dialog's cursor.
    pub(in crate::tui) fn choose(&mut self, to: usize) {
        if let Some(Choice::Target { at, .. } | Choice::Value { at, .. }) = &mut self.choice {
            *at = to;
        }
    }

    pub(in crate::tui) fn revolution_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Char('y') | KeyCode::Char('r') => {
                self.act(Action::CallRevolution);
            }
            KeyCode::Char('n') | KeyCode::Esc => {
                self.act(Action::Ready);
            }
            KeyCode::Enter => self.say(Tone::Refusal, say(self.tr(), "tui.press-r", &[])),
            code => {
                self.move_cursor(code);
            }
        }
    }

    pub(in crate::tui) fn tax_key(&mut self, code: KeyCode, needed: u8) {
        if self.move_cursor(code) || self.rank_key(code) {
            return;
        }
        let Some(card) = self.cursor else { return };
        match code {
            KeyCode::Up | KeyCode::Char(' ') | KeyCode::Char('+') => {
                let tr = self.tr();
                if self.picked.len() >= needed.into() {
                    self.say(Tone::Refusal, tr.n("tui.gift-full", needed.into(), &[]));
                } else if self.picked.count(card) >= self.held(card) {
                    let cards = tr.count_of(self.held(card).into(), card);
                    self.say(Tone::Refusal, tr.t("tui.hold-only", &[("cards", &cards)]));
                } else {
                    self.picked.add(card, 1);
                    self.message = None;
                }
            }
            KeyCode::Down | KeyCode::Backspace | KeyCode::Char('_') => {
                self.picked.remove(card, 1);
            }
            KeyCode::Enter => {
                self.act(Action::GiveTax(self.picked));
            }
            _ => {}
        }
    }

    pub(in crate::tui) fn offer_key(&mut self, code: KeyCode) {
        if self.move_cursor(code) || self.rank_key(code) {
            return;
        }
        match code {
            KeyCode::Up | KeyCode::Down | KeyCode::Tab => {
                let merchants = self.merchants();
                if merchants.is_empty() {
                    return;
                }
                let at = self
                    .partner
                    .and_then(|p| merchants.iter().position(|&m| m == p))
                    .unwrap_or(0);
                let to = if code == KeyCode::Up {
                    (at + merchants.len() - 1) % merchants.len()
                } else {
                    (at + 1) % merchants.len()
                };
                self.partner = Some(merchants[to]);
            }
            KeyCode::Enter => match (self.partner, self.cursor) {
                (Some(partner), Some(card)) => {
                    self.act(Action::OfferExchange { partner, card });
                }
                _ => {
                    let text = say(self.tr(), "tui.choose-merchant", &[]);
                    self.say(Tone::Refusal, text);
                }
            },
            KeyCode::Char('n') | KeyCode::Char('x') | KeyCode::Esc => {
                self.act(Action::DeclineExchange);
            }
            _ => {}
        }
    }

    pub(in crate::tui) fn answer_key(&mut self, code: KeyCode) {
        if self.move_cursor(code) || self.rank_key(code) {
            return;
        }
        if code == KeyCode::Enter
            && let Some(card) = self.cursor
        {
            self.act(Action::AnswerExchange(card));
        }
    }
}
