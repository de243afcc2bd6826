//! What the full-screen game shows and what each key does. No terminal
//! here: the loop in [`super::run`] feeds keys and ticks, and tests do the
//! same by hand.

use std::time::{Duration, Instant};

use dalmuti_core::{Action, Card, Cards, Decision, Seat, Set, Title, Variant};
use dalmuti_i18n::Lang;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::plain::hand_number;
use crate::session::{Session, Thinker};
use crate::tr::Tr;
use crate::words::{self, say};

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
        let s = &*self.session;
        let mut lines = vec![format!("── {} ──", hand_number(s))];
        let view = s.view();
        if view.is_first_hand() && view.rules().first_deal_revolution {
            lines.push(say(s.tr(), "first-deal", &[]));
        }
        lines.push(words::hand_line(s));
        self.log.extend(lines);
        self.decision = None;
        self.sync();
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
        // Dealt both Jesters (Dogberts): r calls the revolution in place of
        // any setup choice.
        if key.code == KeyCode::Char('r') && self.session.revolution_offer().is_some() {
            self.act(Action::CallRevolution);
            return;
        }
        match decision {
            Decision::Ready => self.revolution_key(key.code),
            Decision::Tax { count, .. } => self.tax_key(key.code, count),
            Decision::ExchangeOffer => self.offer_key(key.code),
            Decision::ExchangeAnswer { .. } => self.answer_key(key.code),
            Decision::Lead | Decision::Follow { .. } => self.play_key(key.code, &decision),
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
        let decision = self.decision;
        if let Err(e) = self.session.act(action) {
            let text = words::refusal(self.session, &e.reason);
            self.say(Tone::Refusal, text);
            return false;
        }
        self.message = None;
        self.scroll = 0;
        let news = self.session.take_news();
        if news.is_empty() {
            let tr = self.tr();
            let done = tr.v("setup-done", &[]);
            let note = match (decision, action) {
                (Some(Decision::Tax { to, .. }), Action::GiveTax(cards)) => tr.t(
                    "tui.note.tax",
                    &[
                        ("words", &tr.cards_words(&cards)),
                        ("cards", &cards.to_string()),
                        ("name", self.session.name_at(to)),
                        ("done", &done),
                    ],
                ),
                (_, Action::OfferExchange { partner, card }) => say(
                    tr,
                    "tui.note.offer",
                    &[
                        ("card", &tr.count_of(1, card)),
                        ("token", &card.to_string()),
                        ("name", self.session.name_at(partner)),
                    ],
                ),
                (_, Action::AnswerExchange(card)) => tr.t(
                    "tui.note.answer",
                    &[
                        ("card", &tr.count_of(1, card)),
                        ("token", &card.to_string()),
                        ("done", &done),
                    ],
                ),
                _ => String::new(),
            };
            if !note.is_empty() {
                self.log.push(note);
            }
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
        };
        self.say(Tone::Hint, text);
    }

    // ----- the selection -----

    /// The kinds of card in your hand, best first, wild cards last.
    pub(super) fn kinds(&self) -> Vec<(Card, u8)> {
        self.session.my_cards().kinds().collect()
    }

    fn held(&self, card: Card) -> u8 {
        self.session.my_cards().count(card)
    }

    fn variant(&self) -> Variant {
        self.session.variant()
    }

    /// The 6 that the Twirling Wedgie joins.
    fn six() -> Card {
        Card::from_index(6).expect("a numbered card")
    }

    /// A selection that suits a new decision: for a follow, the worst rank
    /// that could top, already the right size; for a lead, all of your
    /// worst numbered rank.
    fn fresh_selection(&mut self) {
        self.picked = Cards::EMPTY;
        self.wilds = 0;
        self.wedgie = false;
        self.choice = None;
        self.hinted_target = None;
        self.hinted_value = None;
        self.partner = None;
        match self.decision {
            Some(Decision::Follow { .. }) => {
                let first = self.session.legal().iter().find_map(|a| match a {
                    Action::Play(set) => Some(*set),
                    _ => None,
                });
                match first {
                    Some(set) => self.select_set(&set),
                    None => {
                        self.cursor = self.worst_numbered();
                        self.fit_count();
                    }
                }
            }
            Some(Decision::Lead) => {
                self.cursor = self.worst_numbered();
                self.fit_count();
            }
            Some(Decision::ExchangeOffer) => {
                self.partner = self.merchants().first().copied();
                self.cursor = self.worst_numbered();
            }
            _ => {
                if self.cursor.is_none() {
                    self.cursor = self.worst_numbered();
                }
            }
        }
    }

    fn worst_numbered(&self) -> Option<Card> {
        let kinds = self.kinds();
        kinds
            .iter()
            .rev()
            .find(|(c, _)| !c.is_wild())
            .or(kinds.last())
            .map(|&(c, _)| c)
    }

    /// Keeps the cursor on a card you hold and the counts within your hand.
    fn fit_cursor(&mut self) {
        let held = self.session.my_cards();
        if self.cursor.is_none_or(|c| held.count(c) == 0) {
            self.cursor = self.worst_numbered();
            self.fit_count();
        }
        if let Some(c) = self.cursor {
            self.count = self.count.clamp(1, held.count(c).max(1));
        }
        self.wilds = self.wilds.min(held.wilds());
        self.wedgie &= held.count(Card::TWIRLING_WEDGIE) > 0;
        if !held.contains(&self.picked) {
            self.picked = Cards::EMPTY;
        }
    }

    /// After the cursor moves: for a follow, the size of the set on the
    /// table, topped up with wild cards; for a lead, all the copies.
    fn fit_count(&mut self) {
        let Some(card) = self.cursor else { return };
        let held = self.held(card);
        let jokers = self.held(self.variant().wild());
        self.wedgie = false;
        match self.decision {
            Some(Decision::Follow { top, .. }) => {
                let size = top.size();
                self.count = size.min(held).max(1);
                self.wilds = if card.is_wild() || goes_alone(card) {
                    0
                } else {
                    size.saturating_sub(self.count).min(jokers)
                };
            }
            _ => {
                self.count = held.max(1);
                self.wilds = 0;
            }
        }
    }

    fn select_set(&mut self, set: &Set) {
        self.hinted_target = set.wedgie_target();
        self.hinted_value = set.declared();
        self.wedgie = false;
        if set.holds_wedgie() && set.naturals() > 0 {
            self.cursor = Some(Self::six());
            self.count = set.naturals();
            self.wedgie = true;
            self.wilds = set.wilds();
        } else if set.holds_wedgie() {
            self.cursor = Some(Card::TWIRLING_WEDGIE);
            self.count = 1;
            self.wilds = set.wilds();
        } else if set.naturals() > 0 {
            self.cursor = Some(set.face());
            self.count = set.naturals();
            self.wilds = set.wilds();
        } else {
            self.cursor = Some(set.wild());
            self.count = set.wilds();
            self.wilds = 0;
        }
    }

    /// The cards chosen to play.
    pub(super) fn selected_cards(&self) -> Cards {
        let Some(card) = self.cursor else {
            return Cards::EMPTY;
        };
        let mut cards = Cards::EMPTY;
        cards.add(card, self.count);
        if !card.is_wild() {
            cards.add(self.variant().wild(), self.wilds);
        }
        if self.wedgie && card == Self::six() {
            cards.add(Card::TWIRLING_WEDGIE, 1);
        }
        cards
    }

    /// Whether the cards chosen are wild cards of Corporate Shuffle alone,
    /// whose value is asked before they are played.
    fn dogberts_alone(&self) -> Option<u8> {
        let cards = self.selected_cards();
        let n = cards.count(Card::DOGBERT);
        (n > 0 && u32::from(n) == cards.len()).then_some(n)
    }

    /// The other Merchants, who may be offered an exchange.
    pub(super) fn merchants(&self) -> Vec<Seat> {
        let n = self.session.players();
        Seat::all(n)
            .filter(|&s| matches!(s.title(n), Title::Merchant { class } if class > 1))
            .collect()
    }

    /// Left and right: the kind under the cursor. Returns whether it moved.
    fn move_cursor(&mut self, code: KeyCode) -> bool {
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
    fn rank_key(&mut self, code: KeyCode) -> bool {
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

    fn play_key(&mut self, code: KeyCode, decision: &Decision) {
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
    fn wedgie_key(&mut self, card: Card, decision: &Decision) {
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
    fn enter_play(&mut self) {
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
    fn choice_key(&mut self, code: KeyCode) {
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
    fn choose(&mut self, to: usize) {
        if let Some(Choice::Target { at, .. } | Choice::Value { at, .. }) = &mut self.choice {
            *at = to;
        }
    }

    fn revolution_key(&mut self, code: KeyCode) {
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

    fn tax_key(&mut self, code: KeyCode, needed: u8) {
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

    fn offer_key(&mut self, code: KeyCode) {
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

    fn answer_key(&mut self, code: KeyCode) {
        if self.move_cursor(code) || self.rank_key(code) {
            return;
        }
        if code == KeyCode::Enter
            && let Some(card) = self.cursor
        {
            self.act(Action::AnswerExchange(card));
        }
    }

    // ----- words for the screen -----

    /// The selection in words, for the line under your hand.
    pub(super) fn selection_words(&self) -> Option<String> {
        let decision = self.decision?;
        let s = &*self.session;
        let tr = self.tr();
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
            Decision::Ready => return None,
        })
    }

    /// The cards of your hand that the selection uses, by kind.
    pub(super) fn chosen(&self) -> Cards {
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
