//! What the full-screen game shows and what each key does. No terminal
//! here: the loop in [`super::run`] feeds keys and ticks, and tests do the
//! same by hand.

use std::time::{Duration, Instant};

use dalmuti_core::{Action, Card, Cards, Decision, Seat, Set, Title, Variant};
use dalmuti_i18n::Lang;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::plain::hand_title;
use crate::session::{Session, Thinker};
use crate::tr::Tr;
use crate::words::{self, say};

mod keys;
mod selection;

/// How the screen may look: colours, and the crown and straw hat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Colours; without them only bold, underline and reverse set things
    /// apart (`NO_COLOR`).
    pub color: bool,
    /// The crown 👑 and the straw hat 👒; else words in brackets.
    pub emoji: bool,
}

impl Theme {
    /// From the environment: no colours when `NO_COLOR` is set and not
    /// empty (no-color.org); no emoji on the Linux console or a dumb
    /// terminal, which cannot draw them.
    pub fn from_env() -> Theme {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let term = std::env::var("TERM").unwrap_or_default();
        Theme {
            color: !no_color,
            emoji: !matches!(term.as_str(), "linux" | "dumb" | "vt100" | "vt220"),
        }
    }
}

/// How often the thinking spinner turns.
pub(super) const THINKING_FRAME: Duration = Duration::from_millis(100);

/// How often the loop looks for a thinking bot's answer (and redraws the
/// spinner): a human does not see the difference, a core does not feel it.
const THINKING_POLL: Duration = Duration::from_millis(50);

/// How a message reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Something that happened because of you.
    Note,
    /// The hint.
    Hint,
    /// Why a choice was refused.
    Refusal,
}

/// The line under the prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// How it reads.
    pub tone: Tone,
    /// The words.
    pub text: String,
}

/// A question about the set you chose, asked in a dialog before it is
/// played (Corporate Shuffle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Whom the Twirling Wedgie in `set` makes pass for the rest of the
    /// trick: one of `targets`, the other players who still hold cards.
    Target {
        /// The set, naming no one yet.
        set: Set,
        /// The players it may name, in seat order.
        targets: Vec<Seat>,
        /// The one under the cursor.
        at: usize,
    },
    /// What `dogberts` Dogberts played alone are worth: one of `values`,
    /// those that top the table, best first.
    Value {
        /// How many Dogberts.
        dogberts: u8,
        /// The values they may be played as.
        values: Vec<u8>,
        /// The one under the cursor.
        at: usize,
    },
}

/// The full-screen game.
pub struct App<'s> {
    pub(super) session: &'s mut Session,
    pub(super) theme: Theme,
    delay: Duration,
    /// When the next bot may act.
    next_bot: Instant,
    /// The game's log so far, one entry per sentence.
    pub(super) log: Vec<String>,
    /// How many lines the log is scrolled up from its end.
    pub(super) scroll: usize,
    /// The help screen, when open, with its scroll.
    pub(super) help: Option<u16>,
    /// What the last key did, or why it did nothing.
    pub(super) message: Option<Message>,
    /// The kind of card under the cursor in your hand.
    pub(super) cursor: Option<Card>,
    /// How many of the cursor's kind are in the set to play.
    pub(super) count: u8,
    /// How many wild cards (Jesters, Dogberts) go with them.
    pub(super) wilds: u8,
    /// Whether the Twirling Wedgie goes with the cursor's 6s.
    pub(super) wedgie: bool,
    /// The dialog open over the set to play, if any.
    pub(super) choice: Option<Choice>,
    /// The Wedgie target and the Dogberts' value the hint chose, to start
    /// the dialogs on.
    hinted_target: Option<Seat>,
    hinted_value: Option<u8>,
    /// The cards chosen as a tax gift.
    pub(super) picked: Cards,
    /// The Merchant to offer an exchange to.
    pub(super) partner: Option<Seat>,
    /// The decision the selection was made for.
    decision: Option<Decision>,
    /// President and Daifugō: which of the legal actions is chosen (their
    /// plays are picked from the list: a Joker's role is part of a play).
    pub(super) pick: usize,
    /// The final standings are on screen.
    pub(super) standings: bool,
    quit: bool,
}

impl<'s> App<'s> {
    /// The game on screen, from the session's start; bots wait `delay`
    /// between steps.
    pub fn new(session: &'s mut Session, theme: Theme, delay: Duration) -> App<'s> {
        let mut app = App {
            session,
            theme,
            delay,
            next_bot: Instant::now() + delay,
            log: Vec::new(),
            scroll: 0,
            help: None,
            message: None,
            cursor: None,
            count: 0,
            wilds: 0,
            wedgie: false,
            choice: None,
            hinted_target: None,
            hinted_value: None,
            picked: Cards::EMPTY,
            partner: None,
            decision: None,
            pick: 0,
            standings: false,
            quit: false,
        };
        app.intro();
        app.start_hand();
        app
    }

    /// Whether the player has quit (or left the final standings).
    pub fn is_done(&self) -> bool {
        self.quit
    }

    /// The session played.
    pub fn session(&self) -> &Session {
        self.session
    }

    /// The line under the prompt, if any.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// The log so far.
    pub fn log(&self) -> &[String] {
        &self.log
    }

    // ----- bots and time -----

    /// Whether a bot has a decision to make now (and the help screen is not
    /// open: the table waits while you read).
    pub fn bots_pending(&self) -> bool {
        self.help.is_none() && !self.session.is_hand_over() && self.session.bots_to_act()
    }

    /// How long the loop may wait for a key before [`App::tick`] is due;
    /// `None` when no bot is to act. While a bot thinks, a short while: the
    /// spinner turns and the answer is looked for.
    pub fn bot_wait(&self, now: Instant) -> Option<Duration> {
        if !self.bots_pending() {
            return None;
        }
        let until_next = self.next_bot.saturating_duration_since(now);
        Some(match self.session.thinker() {
            Some(t) if t.answered => until_next,
            // Not answered yet: look again soon, whatever the delay.
            Some(_) => THINKING_POLL,
            None => until_next,
        })
    }

    /// Lets the bots go on: the next one starts thinking on its own thread
    /// (while the screen waits out the delay), and a bot's answer is played
    /// once it has come and its time has come. Never waits for a bot.
    pub fn tick(&mut self, now: Instant) {
        // The help holds the table: an answer that comes meanwhile waits.
        while self.bots_pending() {
            if !self.session.think() {
                // No thread to think on: the bot thinks here, as in plain
                // mode, holding the screen meanwhile.
                if now >= self.next_bot && self.step() {
                    self.next_bot = now + self.delay;
                }
                return;
            }
            if !self.session.bot_answered() || now < self.next_bot {
                return;
            }
            match self.session.play_answer() {
                Some(step) => {
                    self.log.extend(step.lines);
                    self.sync();
                    self.next_bot = now + self.delay;
                }
                // Nothing to show (a bot said ready): the next bot may
                // start at once.
                None => self.sync(),
            }
        }
    }

    /// The bot thinking now, as the screen shows it: who (unless the hand
    /// is being set up, when that stays secret) and for how long, never
    /// what. `None` while no bot keeps the table waiting: nobody thinks, or
    /// the answer is in and only the delay is left.
    pub fn thinking(&self) -> Option<Thinker> {
        self.session.thinker().filter(|t| !t.answered)
    }

    /// Lets the next bot act now; `false` if no bot had anything to do.
    pub fn step(&mut self) -> bool {
        match self.session.step_bots() {
            Some(step) => {
                self.log.extend(step.lines);
                self.sync();
                true
            }
            None => false,
        }
    }

    /// Lets every bot act until the human is asked or the hand is over.
    pub fn settle(&mut self) {
        while self.bots_pending() && self.step() {}
    }

    // ----- the log -----

    fn intro(&mut self) {
        let s = &*self.session;
        let tr = s.tr();
        let bots = s.lineup_words();
        let mut lines = vec![
            tr.t(
                "tui.intro",
                &[("game", &tr.game()), ("bots", &tr.join(&bots))],
            ),
            tr.t("tui.seed", &[("seed", s.seed_text())]),
        ];
        lines.extend(s.draw_lines());
        self.log.extend(lines);
    }

    fn start_hand(&mut self) {
        let lines = self.hand_opening(self.session.hand_number() - 1);
        self.log.extend(lines);
        self.decision = None;
        self.sync();
    }

    /// What the log says as hand `index` (from 0) is dealt: its number,
    /// a first-deal revolution, the human's cards.
    fn hand_opening(&self, index: usize) -> Vec<String> {
        let s = &*self.session;
        let mut lines = vec![format!("── {} ──", hand_title(s, index + 1))];
        if index == 0 && s.rules().first_deal_revolution {
            lines.push(say(s.tr(), "first-deal", &[]));
        }
        if let Some(cards) = s.dealt_in(index) {
            lines.push(words::cards_line(&cards, s.tr()));
        }
        lines
    }

    /// The whole log told again in the session's language (after `L`):
    /// every hand as the human saw it, the notes of secret setup choices
    /// (a bot's, the human's own) and of bots' faults where they fell.
    fn tell_again(&mut self) {
        self.log.clear();
        self.intro();
        for index in 0..self.session.hand_number() {
            let mut lines = self.hand_opening(index);
            lines.extend(self.session.hand_told(index));
            self.log.extend(lines);
        }
    }

    /// Takes the session's news into the log and, when the decision has
    /// changed, sets a fresh selection for it.
    fn sync(&mut self) {
        let news = self.session.take_news();
        self.log.extend(news);
        let decision = self.session.decision();
        if decision != self.decision {
            self.decision = decision;
            self.fresh_selection();
        }
        self.fit_cursor();
    }

    // ----- keys -----

    /// Answers one key.
    pub fn on_key(&mut self, key: KeyEvent) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if key.code == KeyCode::Char('q') || (ctrl && key.code == KeyCode::Char('c')) {
            self.quit = true;
            return;
        }
        if matches!(key.code, KeyCode::Char('L' | 'l')) {
            self.next_lang();
            return;
        }
        if let Some(offset) = self.help {
            self.help = match key.code {
                KeyCode::Up | KeyCode::Char('k') => Some(offset.saturating_sub(1)),
                KeyCode::Down | KeyCode::Char('j') => Some(offset.saturating_add(1)),
                KeyCode::PageUp => Some(offset.saturating_sub(10)),
                KeyCode::PageDown | KeyCode::Char(' ') => Some(offset.saturating_add(10)),
                KeyCode::Home => Some(0),
                _ => None,
            };
            // Bots waited while the help was open: give the player a moment.
            self.next_bot = Instant::now() + self.delay;
            return;
        }
        match key.code {
            KeyCode::Char('?') | KeyCode::F(1) => {
                self.help = Some(0);
                return;
            }
            KeyCode::PageUp => {
                self.scroll = self.scroll.saturating_add(5).min(self.log_lines_max());
                return;
            }
            KeyCode::PageDown => {
                self.scroll = self.scroll.saturating_sub(5);
                return;
            }
            _ => {}
        }
        if self.standings {
            if matches!(key.code, KeyCode::Enter | KeyCode::Esc | KeyCode::Char(' ')) {
                self.quit = true;
            }
            return;
        }
        if self.session.is_hand_over() {
            if matches!(
                key.code,
                KeyCode::Enter | KeyCode::Char(' ') | KeyCode::Char('n')
            ) {
                self.next_hand();
            }
            return;
        }
        let Some(decision) = self.session.decision() else {
            if !matches!(key.code, KeyCode::Left | KeyCode::Right) {
                let text = self.tr().t("tui.wait", &[("who", &self.waiting_for())]);
                self.say(Tone::Note, text);
            }
            self.move_cursor(key.code);
            return;
        };
        if self.choice.is_some() {
            self.choice_key(key.code);
            return;
        }
        if key.code == KeyCode::Char('h') {
            self.hint();
            return;
        }
        // Dealt both Jesters (Dogberts): r (or y, as the help says) calls
        // the revolution in place of any setup choice, the tax gift too.
        if matches!(key.code, KeyCode::Char('r' | 'y')) && self.session.revolution_offer().is_some()
        {
            self.act(Action::CallRevolution);
            return;
        }
        if self.variant().is_suited() {
            self.pack_key(key.code);
            return;
        }
        match decision {
            Decision::Ready => self.revolution_key(key.code),
            Decision::Tax { count, .. } => self.tax_key(key.code, count),
            Decision::ExchangeOffer => self.offer_key(key.code),
            Decision::ExchangeAnswer { .. } => self.answer_key(key.code),
            Decision::Lead | Decision::Follow { .. } => self.play_key(key.code, &decision),
            // Decisions of the pack's games, chosen from the legal list.
            Decision::Give { .. } | Decision::Discard { .. } => self.pack_key(key.code),
        }
    }

    /// The most the log may be scrolled: a generous bound, the exact one
    /// depends on the width.
    fn log_lines_max(&self) -> usize {
        self.log.len() * 4
    }

    /// The game's words in the language spoken now.
    pub(super) fn tr(&self) -> Tr {
        self.session.tr()
    }

    /// L: the next language, in the order of [`Lang::ALL`]. What is said
    /// from now on is in that language; the log's earlier lines stay as
    /// they were written.
    fn next_lang(&mut self) {
        let at = Lang::ALL
            .iter()
            .position(|&l| l == self.session.lang())
            .unwrap_or(0);
        let lang = Lang::ALL[(at + 1) % Lang::ALL.len()];
        self.session.set_lang(lang);
        self.tell_again();
        let text = self.tr().t("lang.set", &[("name", lang.native_name())]);
        self.say(Tone::Note, text);
    }

    /// Who the table waits for, in words.
    pub(super) fn waiting_for(&self) -> String {
        // While the hand is set up, who is still choosing stays secret.
        let view = self.session.view();
        let tr = self.tr();
        if let Some(ready) = view.ready_count() {
            return tr.t(
                "waiting.ready",
                &[
                    ("ready", &ready.to_string()),
                    ("n", &view.players().to_string()),
                ],
            );
        }
        let names: Vec<String> = self
            .session
            .table()
            .iter()
            .filter(|s| s.to_act && !s.is_me)
            .map(|s| s.name.clone())
            .collect();
        match names.len() {
            0 => tr.t("waiting.nobody", &[]),
            1 => tr.t("waiting.one", &[("name", &names[0])]),
            _ => tr.t("waiting.many", &[("names", &tr.join(&names))]),
        }
    }

    fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.message = Some(Message {
            tone,
            text: text.into(),
        });
    }

    fn next_hand(&mut self) {
        if self.session.is_game_over() {
            self.standings = true;
            return;
        }
        match self.session.next_hand() {
            Ok(()) => {
                self.message = None;
                self.scroll = 0;
                self.start_hand();
                self.next_bot = Instant::now() + self.delay;
            }
            Err(e) => {
                let text = self.tr().t("no-next-hand", &[("why", &e.to_string())]);
                self.say(Tone::Refusal, text);
                self.standings = true;
            }
        }
    }

    /// Makes the human's move, or says why the engine refuses it (and
    /// nothing changes).
    fn act(&mut self, action: Action) -> bool {
        if let Err(e) = self.session.act(action) {
            let text = words::refusal(self.session, &e.reason);
            self.say(Tone::Refusal, text);
            return false;
        }
        self.message = None;
        self.scroll = 0;
        let news = self.session.take_news();
        if news.is_empty()
            && let Some(note) = self.session.my_note()
        {
            self.log.push(note);
        }
        self.log.extend(news);
        self.next_bot = Instant::now() + self.delay;
        self.sync();
        true
    }

    fn hint(&mut self) {
        let tr = self.tr();
        let Some(action) = self.session.hint() else {
            self.say(Tone::Hint, tr.t("hint.none", &[]));
            return;
        };
        let what = words::action(self.session, &action);
        let text = match action {
            Action::CallRevolution => say(tr, "hint.revolution", &[]),
            Action::Ready => say(tr, "hint.ready", &[]),
            Action::Pass => tr.t("hint.pass", &[]),
            Action::DeclineExchange => say(tr, "hint.decline", &[]),
            Action::Play(set) if self.variant().is_suited() => {
                self.pick_action(action);
                tr.t(
                    "hint.play",
                    &[
                        ("what", &what),
                        ("set", &set.to_string()),
                        ("then", &tr.t("hint.then.enter", &[])),
                    ],
                )
            }
            Action::GiveTax(cards) if self.variant().is_suited() => {
                self.pick_action(action);
                tr.t(
                    "hint.give",
                    &[("what", &what), ("cards", &cards.to_string())],
                )
            }
            Action::Play(set) => {
                self.select_set(&set);
                let then = if set.wedgie_target().is_some() || set.declared().is_some() {
                    tr.t("hint.then.dialog", &[])
                } else {
                    tr.t("hint.then.enter", &[])
                };
                tr.t(
                    "hint.play",
                    &[("what", &what), ("set", &set.to_string()), ("then", &then)],
                )
            }
            Action::GiveTax(cards) => {
                self.picked = cards;
                tr.t(
                    "hint.give",
                    &[("what", &what), ("cards", &cards.to_string())],
                )
            }
            Action::OfferExchange { partner, card } => {
                self.partner = Some(partner);
                self.cursor = Some(card);
                tr.t("hint.offer", &[("what", &what)])
            }
            Action::AnswerExchange(card) => {
                self.cursor = Some(card);
                tr.t("hint.answer", &[("what", &what)])
            }
            Action::Give(card) | Action::Discard(card) => {
                self.pick_action(action);
                let key = if matches!(action, Action::Give(_)) {
                    "hint.give"
                } else {
                    "hint.discard"
                };
                tr.t(key, &[("what", &what), ("cards", &card.to_string())])
            }
        };
        self.say(Tone::Hint, text);
    }

    // ----- words for the screen -----

    /// The selection in words, for the line under your hand.
    pub(super) fn selection_words(&self) -> Option<String> {
        let decision = self.decision?;
        let s = &*self.session;
        let tr = self.tr();
        if self.variant().is_suited() {
            let legal = s.legal();
            let action = legal.get(self.pick.min(legal.len().saturating_sub(1)))?;
            let (words, cards) = match *action {
                Action::Play(set) => (tr.set_words(&set), set.to_string()),
                Action::GiveTax(cards) => (tr.cards_words(&cards), cards.to_string()),
                Action::Give(card) | Action::Discard(card) => {
                    (tr.count_of(1, card), card.to_string())
                }
                Action::Pass => return Some(tr.t("hint.pass", &[])),
                _ => return None,
            };
            return Some(tr.t(
                "sel.set",
                &[
                    ("words", &words),
                    ("cards", &cards),
                    ("then", &tr.t("sel.plays", &[])),
                ],
            ));
        }
        Some(match decision {
            Decision::Lead | Decision::Follow { .. } => {
                let cards = self.selected_cards();
                let (words, then) = if let Some(n) = self.dogberts_alone() {
                    let then = match (s.dogbert_values(n).is_empty(), n) {
                        (true, _) => "sel.cannot",
                        (false, 1) => "sel.value.one",
                        (false, _) => "sel.value",
                    };
                    (tr.count_of(n.into(), Card::DOGBERT), then)
                } else {
                    match Set::from_cards(&cards) {
                        Ok(set) if set.holds_wedgie() => {
                            let then = match s.wedgie_targets(&set)[..] {
                                [] => "sel.cannot",
                                [None] => "sel.wedgie-ends",
                                _ => "sel.wedgie",
                            };
                            (tr.set_words(&set), then)
                        }
                        Ok(set) => {
                            let then = if s.legal().contains(&Action::Play(set)) {
                                "sel.plays"
                            } else {
                                "sel.cannot"
                            };
                            (tr.set_words(&set), then)
                        }
                        Err(_) if cards.is_empty() => return Some(tr.t("sel.nothing", &[])),
                        Err(_) => (tr.cards_words(&cards), "sel.not-a-set"),
                    }
                };
                tr.t(
                    "sel.set",
                    &[
                        ("words", &words),
                        ("cards", &cards.to_string()),
                        ("then", &tr.t(then, &[])),
                    ],
                )
            }
            Decision::Tax { to, count } if self.picked.is_empty() => tr.t(
                "sel.gift.none",
                &[("name", s.name_at(to)), ("n", &count.to_string())],
            ),
            Decision::Tax { to, count } => tr.t(
                "sel.gift",
                &[
                    ("name", s.name_at(to)),
                    ("words", &tr.cards_words(&self.picked)),
                    ("cards", &self.picked.to_string()),
                    ("chosen", &self.picked.len().to_string()),
                    ("n", &count.to_string()),
                ],
            ),
            Decision::ExchangeOffer => match (self.partner, self.cursor) {
                (Some(p), Some(card)) => tr.t(
                    "sel.offer",
                    &[
                        ("card", &tr.count_of(1, card)),
                        ("token", &card.to_string()),
                        ("name", s.name_at(p)),
                        ("seat", &words::seat_number(p).to_string()),
                    ],
                ),
                _ => tr.t("sel.none", &[]),
            },
            Decision::ExchangeAnswer { from } => match self.cursor {
                Some(card) => tr.t(
                    "sel.answer",
                    &[
                        ("card", &tr.count_of(1, card)),
                        ("token", &card.to_string()),
                        ("name", s.name_at(from)),
                    ],
                ),
                None => tr.t("sel.none", &[]),
            },
            Decision::Ready | Decision::Give { .. } | Decision::Discard { .. } => return None,
        })
    }

    /// The cards of your hand that the selection uses, by kind.
    pub(super) fn chosen(&self) -> Cards {
        if self.variant().is_suited() {
            let legal = self.session.legal();
            return match legal.get(self.pick) {
                Some(Action::Play(set)) => set.cards(),
                Some(Action::GiveTax(cards)) => *cards,
                Some(Action::Give(card) | Action::Discard(card)) => Cards::one(*card),
                _ => Cards::EMPTY,
            };
        }
        match self.decision {
            Some(Decision::Lead | Decision::Follow { .. }) => self.selected_cards(),
            Some(Decision::Tax { .. }) => self.picked,
            Some(Decision::ExchangeOffer | Decision::ExchangeAnswer { .. }) => {
                self.cursor.map(Cards::one).unwrap_or_default()
            }
            _ => Cards::EMPTY,
        }
    }
}

/// Whether a card is played only alone: the World Ruler and Ratbert.
fn goes_alone(card: Card) -> bool {
    card == Card::WORLD_RULER || card == Card::RATBERT
}
