//! The plain line mode: the game as lines of text, one command per line.
//! Friendly to screen readers and to scripts: every question is one line
//! starting with `> ` and the decision's keyword (`> lead:`, `> follow:`,
//! `> tax:`, `> revolution:`, `> exchange:`, `> answer:`, `> next:`, the
//! same in both games), and every refusal is one sentence saying why.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use dalmuti_core::{Action, Cards, Decision, PlayerId, Seat, Set};
use dalmuti_i18n::Lang;

use super::command::{self, Command, Play};
use super::session::{HandEnd, Session};
use super::words::{self, say};
use crate::tr::Tr;

/// How the plain mode behaves.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Wait this long before showing each bot action (a terminal only).
    pub delay: Option<Duration>,
    /// A note printed first.
    pub note: Option<String>,
}

/// How a plain session ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The set number of hands was played.
    Finished,
    /// The player typed `quit`.
    Quit,
    /// Standard input ended.
    EndOfInput,
}

/// What to do after a line.
enum Flow {
    Go,
    Stop(Ending),
}

/// Plays `session` reading commands from `input` and writing to `out`,
/// until the game is over, the player quits or the input ends. Saving is
/// the caller's: it happens however the game ends.
pub fn run<R: BufRead, W: Write>(
    session: &mut Session,
    input: R,
    out: W,
    options: &Options,
) -> io::Result<Ending> {
    let mut plain = Plain {
        session,
        input,
        out,
        delay: options.delay,
        shown: false,
        seating: Vec::new(),
        dealt: None,
    };
    if let Some(note) = &options.note {
        plain.say(note)?;
    }
    plain.intro()?;
    plain.start_hand()?;
    plain.play()
}

struct Plain<'s, R, W> {
    session: &'s mut Session,
    input: R,
    out: W,
    delay: Option<Duration>,
    /// Whether the situation was shown for the decision at hand.
    shown: bool,
    /// The seating last shown, to show it again when a greater revolution
    /// changes it.
    seating: Vec<PlayerId>,
    /// The hand as shown at the deal, until the first decision: shown
    /// again there only if it changed (taxes), not twice in a row.
    dealt: Option<String>,
}

impl<R: BufRead, W: Write> Plain<'_, R, W> {
    fn say(&mut self, line: impl AsRef<str>) -> io::Result<()> {
        writeln!(self.out, "{}", line.as_ref())
    }

    fn ask(&mut self, prompt: &str) -> io::Result<Option<String>> {
        self.say(prompt)?;
        self.out.flush()?;
        let mut bytes = Vec::new();
        if self.input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(None);
        }
        Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
    }

    fn play(&mut self) -> io::Result<Ending> {
        loop {
            for line in self.session.take_news() {
                self.say(line)?;
            }
            if self.seating != self.current_seating() {
                self.seating = self.current_seating();
                let header = say(self.tr(), "plain.seats-after-greater", &[]);
                for line in self.table_lines(&header) {
                    self.say(line)?;
                }
            }
            if self.session.is_hand_over() {
                if let Flow::Stop(ending) = self.between_hands()? {
                    return Ok(ending);
                }
                continue;
            }
            if let Some(step) = self.session.step_bots() {
                if let Some(delay) = self.delay {
                    self.out.flush()?;
                    std::thread::sleep(delay);
                }
                for line in step.lines {
                    self.say(line)?;
                }
                self.shown = false;
                continue;
            }
            let Some(decision) = self.session.decision() else {
                // Cannot happen: someone always has a decision in a hand.
                self.say(self.tr().t("plain.stuck", &[]))?;
                return Ok(Ending::Quit);
            };
            if !self.shown {
                self.situation(&decision)?;
                self.shown = true;
            }
            let prompt = words::prompt(self.session, &decision);
            let Some(line) = self.ask(&prompt)? else {
                return Ok(Ending::EndOfInput);
            };
            if let Flow::Stop(ending) = self.decide(&decision, &line)? {
                return Ok(ending);
            }
        }
    }

    // ----- what is shown -----

    fn tr(&self) -> Tr {
        self.session.tr()
    }

    fn intro(&mut self) -> io::Result<()> {
        let s = &*self.session;
        let tr = s.tr();
        let bots = s.lineup_words();
        let rules = s.rules();
        let options = words::optional_rules(rules, tr);
        let length = match rules.hands {
            Some(h) => tr.n("plain.length", h.into(), &[]),
            None => tr.t("plain.length.open", &[]),
        };
        let me = s.name(s.me());
        let you = if me.eq_ignore_ascii_case("you") {
            tr.t("plain.you", &[])
        } else {
            tr.t("plain.you.named", &[("name", me)])
        };
        let options = if options.is_empty() {
            tr.t("plain.basic-game", &[])
        } else {
            tr.join(&options)
        };
        let lines = vec![
            tr.t(
                "plain.intro",
                &[
                    ("game", &tr.game()),
                    ("you", &you),
                    ("bots", &tr.join(&bots)),
                ],
            ),
            tr.t("plain.seed", &[("seed", s.seed_text())]),
            tr.t("plain.rules", &[("options", &options), ("length", &length)]),
            tr.t("plain.type-help", &[]),
        ];
        for line in lines.into_iter().chain(s.draw_lines()) {
            self.say(line)?;
        }
        Ok(())
    }

    fn start_hand(&mut self) -> io::Result<()> {
        let s = &*self.session;
        let tr = s.tr();
        let mut lines = vec![String::new(), format!("== {} ==", hand_number(s))];
        let table_key = if tr.variant().is_suited() {
            "plain.table.pack"
        } else {
            "plain.table"
        };
        lines.extend(self.table_lines(&say(tr, table_key, &[])));
        self.seating = self.current_seating();
        let view = s.view();
        if view.is_first_hand() && view.rules().first_deal_revolution {
            lines.push(say(tr, "first-deal", &[]));
        }
        let hand = words::hand_line(s);
        lines.push(hand.clone());
        for line in lines {
            self.say(line)?;
        }
        self.dealt = Some(hand);
        self.shown = false;
        Ok(())
    }

    fn current_seating(&self) -> Vec<PlayerId> {
        self.session.table().iter().map(|s| s.player).collect()
    }

    fn table_lines(&self, header: &str) -> Vec<String> {
        let exchange = self.session.rules().merchant_exchange;
        let tr = self.tr();
        let mut lines = vec![header.to_string()];
        for info in self.session.table() {
            lines.push(format!("  {}", words::seat_line(&info, tr, exchange)));
        }
        lines
    }

    fn situation(&mut self, decision: &Decision) -> io::Result<()> {
        let s = &*self.session;
        let mut lines = vec![words::counts_line(s)];
        if matches!(decision, Decision::Lead | Decision::Follow { .. }) {
            lines.push(words::top_line(s));
        }
        let hand = words::hand_line(s);
        if self.dealt.take().as_ref() != Some(&hand) {
            lines.push(hand);
        }
        lines.push(words::explain(s, decision));
        for line in lines {
            self.say(line)?;
        }
        Ok(())
    }

    fn standings(&mut self, title: &str) -> io::Result<()> {
        let tr = self.tr();
        self.say(tr.t(title, &[]))?;
        for row in self.session.standings() {
            let points = row
                .points
                .map(|p| tr.n("plain.standing.points", p.into(), &[]))
                .unwrap_or_default();
            self.say(tr.n(
                "plain.standing",
                row.firsts as u64,
                &[
                    ("place", &row.place.to_string()),
                    ("name", &words::shown_name(&row.name, row.is_me, tr)),
                    ("you", &words::you_mark(&row.name, row.is_me, tr)),
                    ("points", &points),
                    ("lasts", &row.lasts.to_string()),
                ],
            ))?;
        }
        Ok(())
    }

    fn help(&mut self) -> io::Result<()> {
        let tr = self.tr();
        self.say(tr.t("help.in-short", &[("game", &tr.game())]) + ":")?;
        for paragraph in rules_in_short(tr, false).split("\n\n") {
            self.say(format!("  {paragraph}"))?;
        }
        self.say(tr.t("help.commands", &[]))?;
        for line in tr.v("help.commands", &[]).lines() {
            self.say(format!("  {line}"))?;
        }
        self.say(tr.v("help.cards", &[]))
    }

    fn log(&mut self) -> io::Result<()> {
        let log = self.session.log();
        let tr = self.tr();
        self.say(tr.t(
            "plain.log",
            &[("hand", &self.session.hand_number().to_string())],
        ))?;
        if log.is_empty() {
            self.say(format!("  {}", tr.t("plain.log.empty", &[])))?;
        }
        for line in log {
            self.say(format!("  {line}"))?;
        }
        Ok(())
    }

    /// The commands that only show something; `true` if `command` was one.
    fn show(&mut self, command: &Command) -> io::Result<bool> {
        match command {
            Command::Hand => self.say(words::hand_line(self.session))?,
            Command::Table => {
                let table_key = if self.tr().variant().is_suited() {
                    "plain.table.pack"
                } else {
                    "plain.table"
                };
                for line in self.table_lines(&say(self.tr(), table_key, &[])) {
                    self.say(line)?;
                }
            }
            Command::Log => self.log()?,
            Command::Score => self.standings("plain.standings")?,
            Command::Lang(code) => self.lang(code.as_deref())?,
            Command::Help => self.help()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    // ----- between hands -----

    fn between_hands(&mut self) -> io::Result<Flow> {
        if let Some(end) = self.session.hand_end() {
            self.hand_end(&end)?;
        }
        if self.session.is_game_over() {
            self.standings("plain.final-standings")?;
            return Ok(Flow::Stop(Ending::Finished));
        }
        loop {
            let prompt = format!(
                "> next: {}",
                self.tr().t(
                    "prompt.next",
                    &[("hand", &(self.session.hand_number() + 1).to_string())]
                )
            );
            let Some(line) = self.ask(&prompt)? else {
                return Ok(Flow::Stop(Ending::EndOfInput));
            };
            match command::parse(&line, self.tr()) {
                Ok(Command::Empty | Command::Next) => break,
                Ok(Command::Quit) => return Ok(Flow::Stop(Ending::Quit)),
                Ok(c) if self.show(&c)? => {}
                Ok(_) => self.say(self.tr().t("plain.hand-is-over", &[]))?,
                Err(message) => self.say(message)?,
            }
        }
        if let Err(e) = self.session.next_hand() {
            self.say(self.tr().t("no-next-hand", &[("why", &e.to_string())]))?;
            return Ok(Flow::Stop(Ending::Finished));
        }
        self.start_hand()?;
        Ok(Flow::Go)
    }

    fn hand_end(&mut self, end: &HandEnd) -> io::Result<()> {
        let tr = self.tr();
        let mut lines = vec![
            String::new(),
            tr.t("plain.hand-over", &[("hand", &end.number.to_string())]),
        ];
        for (i, place) in end.places.iter().enumerate() {
            let points = match (place.points, place.total) {
                (Some(p), Some(t)) => tr.t(
                    "plain.place.points",
                    &[("points", &p.to_string()), ("total", &t.to_string())],
                ),
                _ => String::new(),
            };
            lines.push(tr.t(
                "plain.place",
                &[
                    ("place", &(i + 1).to_string()),
                    ("name", &words::shown_name(&place.name, place.is_me, tr)),
                    ("you", &words::you_mark(&place.name, place.is_me, tr)),
                    ("was", &tr.title(place.was)),
                    ("becomes", &words::title(place.becomes, tr, false)),
                    ("points", &points),
                ],
            ));
        }
        if !end.game_over {
            lines.push(tr.t(
                "plain.next-seating",
                &[("names", &tr.join(&end.next_seating))],
            ));
        } else {
            lines.push(tr.n("game-over", end.number as u64, &[]));
        }
        for line in lines {
            self.say(line)?;
        }
        Ok(())
    }

    /// `lang` alone lists the languages; `lang de` speaks German from now
    /// on.
    fn lang(&mut self, code: Option<&str>) -> io::Result<()> {
        let list: Vec<String> = Lang::ALL
            .iter()
            .map(|l| format!("{} ({})", l.code(), l.native_name()))
            .collect();
        let list = self.tr().join(&list);
        match code.map(str::parse::<Lang>) {
            None => self.say(self.tr().t("lang.list", &[("list", &list)])),
            Some(Ok(lang)) => {
                self.session.set_lang(lang);
                self.say(self.tr().t("lang.set", &[("name", lang.native_name())]))
            }
            Some(Err(_)) => self.say(self.tr().t(
                "lang.unknown",
                &[("code", code.unwrap_or_default()), ("list", &list)],
            )),
        }
    }

    // ----- the human's decisions -----

    fn decide(&mut self, decision: &Decision, line: &str) -> io::Result<Flow> {
        let tr = self.tr();
        let command = match command::parse(line, tr) {
            Ok(c) => c,
            Err(message) => {
                self.say(message)?;
                return Ok(Flow::Go);
            }
        };
        if self.show(&command)? {
            return Ok(Flow::Go);
        }
        let action = match command {
            Command::Quit => return Ok(Flow::Stop(Ending::Quit)),
            Command::Empty => {
                self.shown = false;
                return Ok(Flow::Go);
            }
            Command::Hint => {
                // "hint: " stays as it is in every language: scripts read it.
                let line = match self.session.hint() {
                    Some(a) => format!(
                        "hint: {} ({})",
                        words::command(self.session, &a),
                        words::action(self.session, &a)
                    ),
                    None => format!("hint: {}", tr.t("plain.hint.none", &[])),
                };
                self.say(line)?;
                return Ok(Flow::Go);
            }
            Command::Legal => {
                let legal: Vec<String> = self
                    .session
                    .legal()
                    .iter()
                    .map(|a| words::command(self.session, a))
                    .collect();
                self.say(format!("legal: {}", legal.join("; ")))?;
                return Ok(Flow::Go);
            }
            Command::Next => {
                self.say(words::not_over_yet(decision, tr))?;
                return Ok(Flow::Go);
            }
            other => self.action(decision, other),
        };
        match action {
            Ok(action) => self.act(decision, action)?,
            Err(message) => self.say(message)?,
        }
        Ok(Flow::Go)
    }

    /// The action a command asks for, or why it cannot be one now.
    fn action(&self, decision: &Decision, command: Command) -> Result<Action, String> {
        let tr = self.tr();
        let wrong = || words::wrong_decision(decision, tr);
        let action = match command {
            Command::Cards(play) => match decision {
                Decision::Lead | Decision::Follow { .. } => Action::Play(self.set(&play)?),
                _ if play.value.is_some() || play.target.is_some() => return Err(wrong()),
                Decision::Tax { .. } => Action::GiveTax(play.cards),
                Decision::ExchangeAnswer { .. } => Action::AnswerExchange(single(&play.cards, tr)?),
                Decision::Give { .. } => Action::Give(single(&play.cards, tr)?),
                Decision::Discard { .. } => Action::Discard(single(&play.cards, tr)?),
                _ => return Err(wrong()),
            },
            Command::Play(play) => Action::Play(self.set(&play)?),
            Command::Give(cards) => match decision {
                Decision::Give { .. } => Action::Give(single(&cards, tr)?),
                _ => Action::GiveTax(cards),
            },
            Command::Pass => Action::Pass,
            Command::Revolution => {
                if self.session.revolution_offer().is_none() {
                    return Err(words::no_revolution(tr));
                }
                Action::CallRevolution
            }
            Command::Ready => Action::Ready,
            Command::Decline => match decision {
                Decision::Ready => Action::Ready,
                Decision::ExchangeOffer => Action::DeclineExchange,
                _ => return Err(wrong()),
            },
            Command::Offer { partner, card } => Action::OfferExchange {
                partner: self.seat_named(&partner)?,
                card,
            },
            Command::Answer(card) => Action::AnswerExchange(card),
            _ => return Err(wrong()),
        };
        if !fits(decision, &action) {
            return Err(wrong());
        }
        let wanted = match action {
            Action::Play(set) => set.cards(),
            Action::GiveTax(cards) => cards,
            Action::OfferExchange { card, .. }
            | Action::AnswerExchange(card)
            | Action::Give(card)
            | Action::Discard(card) => Cards::one(card),
            _ => Cards::EMPTY,
        };
        let held = self.session.my_cards();
        if !held.contains(&wanted) {
            return Err(words::not_held(&held, &wanted, tr));
        }
        Ok(action)
    }

    /// The set a typed play makes, with its Wedgie's target, or why it is
    /// not one.
    fn set(&self, play: &Play) -> Result<Set, String> {
        let tr = self.tr();
        if let Some(set) = play.suited {
            return Ok(set);
        }
        let set = Set::from_cards_as(&play.cards, play.value)
            .map_err(|e| words::not_a_set(&play.cards, &e, tr))?;
        let Some(typed) = &play.target else {
            return Ok(set);
        };
        if !set.holds_wedgie() {
            return Err(say(tr, "not-a-set.no-wedgie", &[]));
        }
        let target = self.seat_named(typed)?;
        set.with_target(Some(target))
            .map_err(|e| words::not_a_set(&play.cards, &e, tr))
    }

    /// A player typed as a seat number or a name: a merchant exchange
    /// partner, or whom the Twirling Wedgie names.
    fn seat_named(&self, typed: &str) -> Result<Seat, String> {
        let n = self.session.players();
        if let Ok(number) = typed.parse::<usize>() {
            if (1..=n).contains(&number) {
                return Ok(Seat::new(number - 1));
            }
            return Err(self.tr().t(
                "no-seat",
                &[("seat", &number.to_string()), ("n", &n.to_string())],
            ));
        }
        self.session
            .table()
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(typed))
            .map(|s| s.seat)
            .ok_or_else(|| {
                self.tr()
                    .t("no-such-name", &[("name", typed), ("n", &n.to_string())])
            })
    }

    fn act(&mut self, decision: &Decision, action: Action) -> io::Result<()> {
        if let Err(e) = self.session.act(action) {
            let message = words::refusal(self.session, &e.reason);
            return self.say(message);
        }
        self.shown = false;
        let news = self.session.take_news();
        let tr = self.tr();
        if news.is_empty() {
            let done = tr.v("setup-done", &[]);
            let note = match (decision, action) {
                (Decision::Tax { .. }, Action::GiveTax(cards)) => tr.t(
                    "plain.note.tax",
                    &[("cards", &tr.cards_words(&cards)), ("done", &done)],
                ),
                (_, Action::OfferExchange { partner, card }) => say(
                    tr,
                    "plain.note.offer",
                    &[
                        ("card", &tr.count_of(1, card)),
                        ("name", self.session.name_at(partner)),
                    ],
                ),
                (_, Action::AnswerExchange(card)) => tr.t(
                    "plain.note.answer",
                    &[("card", &tr.count_of(1, card)), ("done", &done)],
                ),
                _ => String::new(),
            };
            if !note.is_empty() {
                self.say(note)?;
            }
        }
        for line in news {
            self.say(line)?;
        }
        Ok(())
    }
}

/// Whether an action is the kind the decision asks for.
fn fits(decision: &Decision, action: &Action) -> bool {
    matches!(
        (decision, action),
        (Decision::Ready, Action::Ready)
            | (_, Action::CallRevolution)
            | (Decision::Tax { .. }, Action::GiveTax(_))
            | (
                Decision::ExchangeOffer,
                Action::OfferExchange { .. } | Action::DeclineExchange
            )
            | (Decision::ExchangeAnswer { .. }, Action::AnswerExchange(_))
            | (Decision::Lead, Action::Play(_))
            | (Decision::Follow { .. }, Action::Play(_) | Action::Pass)
            | (Decision::Give { .. }, Action::Give(_))
            | (Decision::Discard { .. }, Action::Discard(_))
    )
}

fn single(cards: &Cards, tr: Tr) -> Result<dalmuti_core::Card, String> {
    match cards.iter().collect::<Vec<_>>()[..] {
        [card] => Ok(card),
        _ => Err(tr.t("answer-one", &[])),
    }
}

/// "Hand 2 of 3", or "Hand 2" in a game of no set length.
pub fn hand_number(session: &Session) -> String {
    hand_title(session, session.hand_number())
}

/// "Hand `n` of 3" (or "Hand `n`" when the game has no set length).
pub fn hand_title(session: &Session, n: usize) -> String {
    let tr = session.tr();
    let hand = n.to_string();
    match session.rules().hands {
        Some(total) => tr.t(
            "hand.number.of",
            &[("hand", &hand), ("total", &total.to_string())],
        ),
        None => tr.t("hand.number", &[("hand", &hand)]),
    }
}

/// The rules in short, in paragraphs separated by blank lines; with
/// `emoji`, the crown and the straw hat after their titles.
pub fn rules_in_short(tr: Tr, emoji: bool) -> String {
    let (crown, hat) = if emoji { (" 👑", " 👒") } else { ("", "") };
    let key = format!("{}.rules", tr.variant().word());
    words::say(tr, &key, &[("crown", crown), ("hat", hat)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, PlayArgs};

    fn session(seed: u64) -> Session {
        session_of("dalmuti", seed)
    }

    fn session_of(variant: &str, seed: u64) -> Session {
        let config = Config::new(&PlayArgs {
            variant: variant.into(),
            players: Some(4),
            bots: "greedy".into(),
            name: "Ada".into(),
            seed: Some(seed.to_string()),
            stripped_deck: false,
            first_deal_revolution: false,
            merchant_exchange: false,
            scoring: "standard".into(),
            house: None,
            hands: Some(1),
            speed: 0,
            plain: true,
            lang: Some("en".into()),
        })
        .unwrap();
        Session::new(&config).unwrap()
    }

    fn transcript(seed: u64, input: &str) -> (String, Ending) {
        let mut s = session(seed);
        let mut out = Vec::new();
        let ending = run(&mut s, input.as_bytes(), &mut out, &Options::default()).unwrap();
        (String::from_utf8(out).unwrap(), ending)
    }

    #[test]
    fn the_input_ending_ends_the_game_quietly() {
        let (text, ending) = transcript(1, "");
        assert_eq!(ending, Ending::EndOfInput);
        assert!(text.contains("== Hand 1 of 1 =="), "{text}");
        assert!(text.lines().last().unwrap().starts_with("> "), "{text}");
    }

    /// The hand shown at the deal is not shown again, the same, at the
    /// first decision; a hand the taxes changed is.
    #[test]
    fn the_hand_is_not_shown_twice_in_a_row() {
        for seed in 0..8 {
            let (text, _) = transcript(seed, "");
            let hands: Vec<&str> = text
                .lines()
                .filter(|l| l.starts_with("Your hand ("))
                .collect();
            assert!(!hands.is_empty(), "{text}");
            assert!(
                hands.windows(2).all(|w| w[0] != w[1]),
                "seed {seed}: {text}"
            );
        }
    }

    #[test]
    fn garbage_gets_one_line_and_the_game_goes_on() {
        let input = "dance\n\u{0}\u{7f}zz\nplay 5 6\nhelp\nquit\n";
        let (text, ending) = transcript(2, input);
        assert_eq!(ending, Ending::Quit);
        assert!(text.contains("Unknown command \"dance\""), "{text}");
        assert!(text.contains("5 6 is not a set"), "{text}");
        assert!(text.contains("The Great Dalmuti in short"), "{text}");
    }

    #[test]
    fn hints_play_a_whole_hand() {
        // The game is deterministic: replay the commands so far, then answer
        // the question it stops at with the hint's command.
        let mut commands = String::new();
        for _ in 0..300 {
            let mut s = session(3);
            let mut out = Vec::new();
            let ending = run(&mut s, commands.as_bytes(), &mut out, &Options::default()).unwrap();
            if ending == Ending::Finished {
                let text = String::from_utf8(out).unwrap();
                assert!(text.contains("Final standings:"), "{text}");
                assert!(!text.contains("not the decision"), "{text}");
                return;
            }
            let hint = s.hint().map(|a| words::command(&s, &a)).unwrap_or_default();
            commands.push_str(&hint);
            commands.push('\n');
        }
        panic!("the hand did not end");
    }

    /// The first Corporate Shuffle game (from seed 0) that comes to a
    /// decision of the human's where `want` holds, when the human plays the
    /// hints: its seed, the commands that bring it there, and the session
    /// there.
    fn corporate_game_where(want: impl Fn(&Session) -> bool) -> (u64, String, Session) {
        for seed in 0..500 {
            let mut s = session_of("corporate-shuffle", seed);
            let mut commands = String::new();
            loop {
                while s.step_bots().is_some() {}
                if s.decision().is_none() {
                    break;
                }
                if want(&s) {
                    return (seed, commands, s);
                }
                let Some(hint) = s.hint() else { break };
                commands.push_str(&words::command(&s, &hint));
                commands.push('\n');
                s.act(hint).unwrap();
            }
        }
        panic!("no game comes there");
    }

    fn corporate_transcript(seed: u64, input: &str) -> String {
        let mut s = session_of("corporate-shuffle", seed);
        let mut out = Vec::new();
        run(&mut s, input.as_bytes(), &mut out, &Options::default()).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn corporate_shuffle_refusals_say_why_and_the_game_goes_on() {
        let holds = |s: &Session, card| s.my_cards().count(card) > 0;
        let (seed, mut input, s) = corporate_game_where(|s| {
            s.decision() == Some(Decision::Lead)
                && holds(s, dalmuti_core::Card::TWIRLING_WEDGIE)
                && holds(s, dalmuti_core::Card::DOGBERT)
        });
        let other = s
            .table()
            .into_iter()
            .find(|i| !i.is_me && i.cards > 0)
            .unwrap();
        let refused = [
            ("play D as 0", "Dogberts alone play as 1 to 10, not 0"),
            ("play D as 11", "Dogberts alone play as 1 to 10, not 11"),
            ("play D", "Dogberts alone play as a value you name, 1 to 10"),
            (
                "play 7 D as 3",
                "Only Dogberts alone are played \"as\" a value",
            ),
            (
                "play 0 0",
                "Dogbert, World Ruler (0) is played only alone, as a set of one",
            ),
            ("play R D", "Ratbert (R) is played only alone"),
            ("play 5 T", "is not a set: a set is cards of one value"),
            ("play T wedgie Ada", "The Twirling Wedgie cannot name you"),
            ("play T wedgie 1", "The Twirling Wedgie cannot name you"),
            ("play T wedgie Zed", "Nobody called \"zed\" sits here"),
            ("play T wedgie 9", "There is no seat 9: seats are 1 to 4."),
            ("play T", "The Twirling Wedgie must name another player"),
            (
                "play 7 wedgie Zed",
                "Only a set holding the Twirling Wedgie (T) names a player",
            ),
            ("play J", "\"j\" is not a card"),
            ("play 12", "\"12\" is not a card"),
        ];
        // Seat 1 is the human's only when the human is the Big Boss.
        let refused: Vec<_> = refused
            .into_iter()
            .filter(|(line, _)| *line != "play T wedgie 1" || s.my_seat().index() == 0)
            .collect();
        for (line, _) in &refused {
            input.push_str(line);
            input.push('\n');
        }
        input.push_str(&format!("legal\nplay T wedgie {}\nquit\n", other.name));
        let text = corporate_transcript(seed, &input);
        let lead = text
            .lines()
            .rev()
            .find(|l| l.starts_with("> lead:"))
            .unwrap();
        assert!(
            lead.contains("\"play D as VALUE\"") && lead.contains("\"play T wedgie NAME\""),
            "{lead}"
        );
        // Each refusal is one line, in order, and the same question follows.
        let mut rest = text.as_str();
        for (line, why) in &refused {
            let at = rest
                .find(why)
                .unwrap_or_else(|| panic!("{line}: no {why:?} in\n{text}"));
            let reply = &rest[at..];
            let (refusal, next) = reply.split_once('\n').unwrap();
            assert!(!refusal.starts_with("> "), "{refusal}");
            assert!(next.starts_with(lead), "{line}: {next}");
            rest = &reply[refusal.len()..];
        }
        let legal = text.lines().find(|l| l.starts_with("legal: ")).unwrap();
        assert!(legal.contains("play D as 1;"), "{legal}");
        assert!(
            legal.contains(&format!("play T wedgie {};", other.name)),
            "{legal}"
        );
        assert!(
            text.contains(&format!(
                "You lead the Twirling Wedgie: {} must pass for the rest of the trick.",
                other.name
            )),
            "{text}"
        );
    }

    #[test]
    fn corporate_shuffle_speaks_its_own_words() {
        let text = corporate_transcript(1, "help\nquit\n");
        assert!(
            text.starts_with("Corporate Shuffle: you (Ada) against Alice"),
            "{text}"
        );
        assert!(
            text.contains("Table (seats from 1, the Big Boss first):"),
            "{text}"
        );
        assert!(text.contains("Junior Intern"), "{text}");
        assert!(text.contains("Corporate Shuffle in short:"), "{text}");
        assert!(text.contains("play D D as 3"), "{text}");
        for word in [
            "Jester",
            "Dalmuti",
            "Peon",
            "Merchant",
            "taxes",
            "revolution",
        ] {
            assert!(!text.contains(word), "{word} in\n{text}");
        }
    }
}
