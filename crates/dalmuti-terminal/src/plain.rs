//! The plain line mode: the game as lines of text, one command per line.
//! Friendly to screen readers and to scripts: every question is one line
//! starting with `> ` and the decision's keyword (`> lead:`, `> follow:`,
//! `> tax:`, `> revolution:`, `> exchange:`, `> answer:`, `> next:`, the
//! same in both games), and every refusal is one sentence saying why.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use dalmuti_core::{Action, Cards, Decision, PlayerId, Seat, Set, Variant};

use super::command::{self, Command, Play};
use super::session::{HandEnd, Session};
use super::words;

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
                let header = format!(
                    "The seats after the greater {}, from 1:",
                    self.session.variant().words().revolution
                );
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
                self.say("The game cannot go on: nobody has a decision to make.")?;
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

    fn intro(&mut self) -> io::Result<()> {
        let s = &*self.session;
        let bots: Vec<String> = s
            .lineup()
            .iter()
            .map(|(name, spec)| format!("{name} ({spec})"))
            .collect();
        let rules = s.rules();
        let options = words::optional_rules(rules);
        let length = match rules.hands {
            Some(1) => "one hand".to_string(),
            Some(h) => format!("{h} hands"),
            None => "as many hands as you like".to_string(),
        };
        let lines = vec![
            format!(
                "{}: {} against {}.",
                rules.variant.words().game,
                you(s.name(s.me())),
                bots.join(", ")
            ),
            format!(
                "Seed {0} (play these deals again with --seed {0}).",
                s.seed_text()
            ),
            format!(
                "Rules: {}; {length}.",
                if options.is_empty() {
                    "the basic game".to_string()
                } else {
                    options.join(", ")
                }
            ),
            "Type help for the rules in short and the commands.".to_string(),
        ];
        for line in lines.into_iter().chain(s.draw_lines()) {
            self.say(line)?;
        }
        Ok(())
    }

    fn start_hand(&mut self) -> io::Result<()> {
        let s = &*self.session;
        let of = s
            .rules()
            .hands
            .map(|h| format!(" of {h}"))
            .unwrap_or_default();
        let mut lines = vec![String::new(), format!("== Hand {}{of} ==", s.hand_number())];
        lines.extend(self.table_lines(&table_header(s.variant())));
        self.seating = self.current_seating();
        let view = s.view();
        if view.is_first_hand() && view.rules().first_deal_revolution {
            lines.push(first_deal(s.variant()));
        }
        lines.push(words::hand_line(s));
        for line in lines {
            self.say(line)?;
        }
        self.shown = false;
        Ok(())
    }

    fn current_seating(&self) -> Vec<PlayerId> {
        self.session.table().iter().map(|s| s.player).collect()
    }

    fn table_lines(&self, header: &str) -> Vec<String> {
        let exchange = self.session.rules().merchant_exchange;
        let variant = self.session.variant();
        let mut lines = vec![header.to_string()];
        for info in self.session.table() {
            lines.push(format!("  {}", words::seat_line(&info, variant, exchange)));
        }
        lines
    }

    fn situation(&mut self, decision: &Decision) -> io::Result<()> {
        let s = &*self.session;
        let mut lines = vec![words::counts_line(s)];
        if matches!(decision, Decision::Lead | Decision::Follow { .. }) {
            lines.push(words::top_line(s));
        }
        lines.push(words::hand_line(s));
        lines.push(words::explain(s, decision));
        for line in lines {
            self.say(line)?;
        }
        Ok(())
    }

    fn standings(&mut self, title: &str) -> io::Result<()> {
        self.say(title)?;
        for row in self.session.standings() {
            let you = if row.is_me { mark(&row.name) } else { "" };
            let points = row
                .points
                .map(|p| format!("{p} point{}, ", if p == 1 { "" } else { "s" }))
                .unwrap_or_default();
            self.say(format!(
                "  {}. {}{you}: {points}first in {} hand{}, last in {}",
                row.place,
                row.name,
                row.firsts,
                if row.firsts == 1 { "" } else { "s" },
                row.lasts
            ))?;
        }
        Ok(())
    }

    fn help(&mut self) -> io::Result<()> {
        let help = match self.session.variant() {
            Variant::Dalmuti => HELP,
            Variant::CorporateShuffle => HELP_CORPORATE,
        };
        for line in help.lines() {
            self.say(line)?;
        }
        Ok(())
    }

    fn log(&mut self) -> io::Result<()> {
        let log = self.session.log();
        self.say(format!("Hand {} so far:", self.session.hand_number()))?;
        if log.is_empty() {
            self.say("  Nothing has happened yet.")?;
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
                for line in self.table_lines(&table_header(self.session.variant())) {
                    self.say(line)?;
                }
            }
            Command::Log => self.log()?,
            Command::Score => self.standings("Standings:")?,
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
            self.standings("Final standings:")?;
            return Ok(Flow::Stop(Ending::Finished));
        }
        let prompt = format!(
            "> next: press Enter or type \"next\" for hand {}, or \"quit\" to stop",
            self.session.hand_number() + 1
        );
        loop {
            let Some(line) = self.ask(&prompt)? else {
                return Ok(Flow::Stop(Ending::EndOfInput));
            };
            match command::parse(&line, self.session.variant()) {
                Ok(Command::Empty | Command::Next) => break,
                Ok(Command::Quit) => return Ok(Flow::Stop(Ending::Quit)),
                Ok(c) if self.show(&c)? => {}
                Ok(_) => self.say(
                    "The hand is over: press Enter (or type next) for the next hand, or quit.",
                )?,
                Err(message) => self.say(message)?,
            }
        }
        if let Err(e) = self.session.next_hand() {
            self.say(format!("No next hand: {e}."))?;
            return Ok(Flow::Stop(Ending::Finished));
        }
        self.start_hand()?;
        Ok(Flow::Go)
    }

    fn hand_end(&mut self, end: &HandEnd) -> io::Result<()> {
        let mut lines = vec![
            String::new(),
            format!("Hand {} is over. Finishing order:", end.number),
        ];
        for (i, place) in end.places.iter().enumerate() {
            let you = if place.is_me { mark(&place.name) } else { "" };
            let points = match (place.points, place.total) {
                (Some(p), Some(t)) => format!(", +{p} (total {t})"),
                _ => String::new(),
            };
            let variant = self.session.variant();
            lines.push(format!(
                "  {}. {}{you}, was {}, becomes {}{points}",
                i + 1,
                place.name,
                variant.title_name(place.was),
                words::title(place.becomes, variant, false)
            ));
        }
        if !end.game_over {
            lines.push(format!(
                "Seating for the next hand: {}.",
                end.next_seating.join(", ")
            ));
        } else {
            lines.push(format!(
                "The game is over: {} hand{} played.",
                end.number,
                if end.number == 1 { "" } else { "s" }
            ));
        }
        for line in lines {
            self.say(line)?;
        }
        Ok(())
    }

    // ----- the human's decisions -----

    fn decide(&mut self, decision: &Decision, line: &str) -> io::Result<Flow> {
        let variant = self.session.variant();
        let command = match command::parse(line, variant) {
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
                let line = match self.session.hint() {
                    Some(a) => format!(
                        "hint: {} ({})",
                        words::command(self.session, &a),
                        words::action(self.session, &a)
                    ),
                    None => "hint: nothing to decide now".to_string(),
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
                self.say(format!(
                    "The hand is not over yet. {}",
                    words::wrong_decision(decision, variant)
                        .replace("That is not the decision now: ", "Now ")
                ))?;
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
        let variant = self.session.variant();
        let wrong = || words::wrong_decision(decision, variant);
        let action = match command {
            Command::Cards(play) => match decision {
                Decision::Lead | Decision::Follow { .. } => Action::Play(self.set(&play)?),
                _ if play.value.is_some() || play.target.is_some() => return Err(wrong()),
                Decision::Tax { .. } => Action::GiveTax(play.cards),
                Decision::ExchangeAnswer { .. } => Action::AnswerExchange(single(&play.cards)?),
                _ => return Err(wrong()),
            },
            Command::Play(play) => Action::Play(self.set(&play)?),
            Command::Give(cards) => Action::GiveTax(cards),
            Command::Pass => Action::Pass,
            Command::Revolution => {
                if self.session.revolution_offer().is_none() {
                    return Err(words::no_revolution(variant));
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
            Action::OfferExchange { card, .. } | Action::AnswerExchange(card) => Cards::one(card),
            _ => Cards::EMPTY,
        };
        let held = self.session.my_cards();
        if !held.contains(&wanted) {
            return Err(words::not_held(&held, &wanted, variant));
        }
        Ok(action)
    }

    /// The set a typed play makes, with its Wedgie's target, or why it is
    /// not one.
    fn set(&self, play: &Play) -> Result<Set, String> {
        let variant = self.session.variant();
        let set = Set::from_cards_as(&play.cards, play.value)
            .map_err(|e| words::not_a_set(&play.cards, &e, variant))?;
        let Some(typed) = &play.target else {
            return Ok(set);
        };
        if !set.holds_wedgie() {
            return Err(
                "Only a set holding the Twirling Wedgie (T) names a player with \"wedgie\"."
                    .to_string(),
            );
        }
        let target = self.seat_named(typed)?;
        set.with_target(Some(target))
            .map_err(|e| words::not_a_set(&play.cards, &e, variant))
    }

    /// A player typed as a seat number or a name: a merchant exchange
    /// partner, or whom the Twirling Wedgie names.
    fn seat_named(&self, typed: &str) -> Result<Seat, String> {
        let n = self.session.players();
        if let Ok(number) = typed.parse::<usize>() {
            if (1..=n).contains(&number) {
                return Ok(Seat::new(number - 1));
            }
            return Err(format!("There is no seat {number}: seats are 1 to {n}."));
        }
        self.session
            .table()
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(typed))
            .map(|s| s.seat)
            .ok_or_else(|| {
                format!(
                    "Nobody called \"{typed}\" sits here: give a seat number (1 to {n}) or a name."
                )
            })
    }

    fn act(&mut self, decision: &Decision, action: Action) -> io::Result<()> {
        if let Err(e) = self.session.act(action) {
            let message = words::refusal(self.session, &e.reason);
            return self.say(message);
        }
        self.shown = false;
        let news = self.session.take_news();
        let variant = self.session.variant();
        if news.is_empty() {
            let note = match (decision, action) {
                (Decision::Tax { .. }, Action::GiveTax(cards)) => format!(
                    "You will give {}: the cards change hands once {}.",
                    dalmuti_core::narrate::cards_words(&cards, variant),
                    words::setup_done(variant)
                ),
                (_, Action::OfferExchange { partner, card }) => format!(
                    "You offer {} to {}, blind; the cards change hands once they answer and the \
                     {} are chosen.",
                    dalmuti_core::narrate::count_of(1, card, variant),
                    self.session.name_at(partner),
                    variant.words().taxes
                ),
                (_, Action::AnswerExchange(card)) => format!(
                    "You will give back {}: the cards change hands once {}.",
                    dalmuti_core::narrate::count_of(1, card, variant),
                    words::setup_done(variant)
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

/// The human in the intro: "you", or "you (Ada)".
fn you(name: &str) -> String {
    if name.eq_ignore_ascii_case("you") {
        "you".to_string()
    } else {
        format!("you ({name})")
    }
}

/// " (you)" after the human's name, unless the name says it already.
fn mark(name: &str) -> &'static str {
    if name.eq_ignore_ascii_case("you") {
        ""
    } else {
        " (you)"
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
    )
}

fn single(cards: &Cards) -> Result<dalmuti_core::Card, String> {
    match cards.iter().collect::<Vec<_>>()[..] {
        [card] => Ok(card),
        _ => Err("Give back exactly one card, for example: answer 9".to_string()),
    }
}

/// The table's heading.
fn table_header(variant: Variant) -> String {
    format!(
        "Table (seats from 1, the {} first):",
        words::top_title(variant)
    )
}

/// The first hand's note under the first-deal revolution rule.
fn first_deal(variant: Variant) -> String {
    let words = variant.words();
    format!(
        "First-deal {}: no {} this hand.",
        words.revolution, words.taxes
    )
}

/// The rules in short, and the commands.
const HELP: &str = "\
The Great Dalmuti in short:
  Be the first to get rid of your cards. The first out is the next hand's
  Greater Dalmuti, the last out its Greater Peon.
  Cards: 1 Dalmuti (the best) to 12 Peasant (the worst); rank n has n
  copies. The two Jesters (J) are wild: with other cards they take their
  rank; alone they rank 13, below a Peasant.
  A round: the leader plays any set (cards of one rank, Jesters allowed).
  The next players, in turn, either top it (the same number of cards of a
  better, lower rank) or pass; passing once does not stop you later in the
  round. When everyone else has passed, whoever played last leads again.
  Taxes: the Greater Peon gives their two best cards to the Greater
  Dalmuti, who gives back any two; the Lesser Peon and the Lesser Dalmuti
  trade one card the same way.
  Revolution: whoever is dealt both Jesters may call one: no taxes. Called
  by the Greater Peon, it is a greater revolution: everyone swaps places
  with their opposite for the hand.
Commands (any case):
  play 6 6 J        play a set (or just: 6 6 J)
  pass              pass
  revolution / no   call a revolution, or decline it
  give 10 10        your tax gift, as a Dalmuti
  offer 4 7         merchant exchange: offer a 7 to the Merchant at seat 4
  decline           make no merchant exchange
  answer 9          merchant exchange: the card you give back
  hint              what the heuristic bot would do in your place
  legal             every legal move
  hand, table, log, score
  help, quit        quit saves the game as a record
Cards are 1 to 12 and J; seats are numbered from 1, the Greater Dalmuti.";

/// Corporate Shuffle in short, and the commands.
const HELP_CORPORATE: &str = "\
Corporate Shuffle in short:
  Be the first to get rid of your cards. The first out is the next hand's
  Big Boss, the last out its Junior Intern.
  Cards: 1 CEO (the best) to 10 Engineer (the worst); value n has n
  copies. Two Dogberts (D) are wild: with other cards they take their
  value; alone (one or both) they play as a value you name, 1 to 10.
  Specials: Dogbert, World Ruler (0) beats everything, goes alone where one
  card may be played, and wins the trick at once. The Twirling Wedgie (T)
  is a 6, alone or with 6s and Dogberts: name another player who still
  holds cards, who must pass for the rest of the trick. Ratbert (R) is
  worth 11, goes alone and only leads; whoever wins its trick takes it
  back, unless it was the trick's only card or they went out.
  A round: the leader plays any set (cards of one value, Dogberts
  allowed). The next players, in turn, either top it (the same number of
  cards of a better, lower value) or pass; passing once does not stop you
  later in the round. When everyone else has passed, whoever played last
  leads again.
  Executive bonuses: the Junior Intern gives their two best cards to the
  Big Boss, who gives back any two; the Senior Intern and the Little Boss
  trade one card the same way.
  Corporate takeover: whoever is dealt both Dogberts may call one: no
  executive bonuses. Called by the Junior Intern, it is a greater
  takeover: everyone swaps places with their opposite for the hand.
Commands (any case):
  play 6 6 D        play a set (or just: 6 6 D)
  play D D as 3     Dogberts alone, played as 3s (Consultants)
  play 6 T wedgie Wally
                    the Twirling Wedgie: Wally (or a seat number) passes
                    for the rest of the trick
  pass              pass
  takeover / no     call a corporate takeover, or decline it
  give 10 10        your gift in the executive bonuses, as a Boss
  offer 4 7         Worker exchange: offer a 7 to the Worker at seat 4
  decline           make no Worker exchange
  answer 9          Worker exchange: the card you give back
  hint              what the heuristic bot would do in your place
  legal             every legal move
  hand, table, log, score
  help, quit        quit saves the game as a record
Cards are 0, 1 to 10, T, R and D; seats are numbered from 1, the Big Boss.";

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
            hands: Some(1),
            speed: 0,
            plain: true,
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
