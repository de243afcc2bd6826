//! A game between one human and bots: the driver that the plain line mode
//! and the full-screen interface both stand on.
//!
//! A [`Session`] owns the [`Game`] and never lets the human's side see more
//! than the human's [`View`]: the table, the log and the hints all come from
//! it. The interface loops:
//!
//! 1. show [`Session::take_news`] (what happened since it last looked);
//! 2. if [`Session::step_bots`] returns a [`Step`], show its lines (after a
//!    delay, so a human can follow) and loop;
//!
//!    or, to keep answering keys while a bot thinks (the full screen): let
//!    it think on another thread with [`Session::think`], show
//!    [`Session::thinker`] meanwhile, and once [`Session::bot_answered`],
//!    [`Session::play_answer`] gives its [`Step`];
//! 3. else if [`Session::decision`] is `Some`, ask the human and
//!    [`Session::act`];
//! 4. else the hand is over: show [`Session::hand_end`], then
//!    [`Session::next_hand`] unless [`Session::is_game_over`].

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, TryRecvError};
use std::time::Instant;

use dalmuti_bots::{BotFault, HeuristicBot, Level, fallback};
use dalmuti_core::{
    Action, ActionList, Cards, Decision, Event, Game, IllegalAction, PlayerId, Revolution,
    RevolutionOffer, Rules, Seat, Seen, Set, TableError, Title, Variant, View, Viewer,
};
use dalmuti_i18n::Lang;

use super::config::Config;
use super::save::{self, SaveError};
use crate::narrate;
use crate::tr::Tr;

mod notes;
mod worker;
use notes::{Note, NoteWhat};
use worker::{Answer, Job, Pending, SeatedBot, Worker};

/// The level whose bot gives the human's hints (`h`, `hint`): the help
/// names it, so that a hint reads as "what a normal bot would do".
pub const HINT_LEVEL: Level = Level::Normal;

/// Who is thinking now, as the human may know it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thinker {
    /// Their name, when the human's view shows them to act (in play, the
    /// player whose turn it is); `None` while the hand is set up, when who
    /// is still choosing stays secret (it could tell who holds both
    /// Jesters). Never what they are choosing.
    pub name: Option<String>,
    /// When they started.
    pub since: Instant,
    /// Whether their answer is in, waiting to be shown.
    pub answered: bool,
}

/// Why a session could not start.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The table could not be seated or dealt.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A bot could not be built (an external program would not start).
    #[error("{name}'s bot ({spec}) cannot start: {reason}")]
    Bot {
        /// The bot's name at the table.
        name: String,
        /// Its spec as written.
        spec: String,
        /// Why.
        reason: String,
    },
}

/// What one bot did, as the human may know it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The bot's player.
    pub player: PlayerId,
    /// Its seat of play when it acted.
    pub seat: Seat,
    /// The decision it answered.
    pub decision: Decision,
    /// What the human may now see, in plain words: the new lines of the
    /// hand's log, or a note for a choice that stays secret for now (a tax
    /// gift, a merchant offer).
    pub lines: Vec<String>,
    /// Set when the bot failed to answer and the safe choice was made for
    /// it.
    pub fault: Option<String>,
}

/// One seat at the table, as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatInfo {
    /// The seat of play (0 is the Greater Dalmuti).
    pub seat: Seat,
    /// Who sits there.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// Their title this hand.
    pub title: Title,
    /// Cards they hold.
    pub cards: u32,
    /// Their finishing place (0 = first out), once out.
    pub out: Option<usize>,
    /// Whether they have a decision to make now.
    pub to_act: bool,
    /// Whether the Twirling Wedgie makes them pass for the rest of this
    /// trick (Corporate Shuffle).
    pub wedged: bool,
    /// Whether this is the human.
    pub is_me: bool,
    /// Their points so far, when the game is scored.
    pub total: Option<u32>,
}

/// The set on the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableTop {
    /// Who played it.
    pub by: Seat,
    /// Their name ("you" for the human).
    pub name: String,
    /// The set.
    pub set: Set,
    /// Who has passed on it, in order ("you" for the human).
    pub passed: Vec<String>,
}

/// One player's result in a finished hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The player.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// Whether this is the human.
    pub is_me: bool,
    /// Their title in the hand just played.
    pub was: Title,
    /// Their title in the next hand.
    pub becomes: Title,
    /// Points scored this hand, when scored.
    pub points: Option<u32>,
    /// Points so far, when scored.
    pub total: Option<u32>,
}

/// What a finished hand gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandEnd {
    /// The hand's number, from 1.
    pub number: usize,
    /// A revolution called in it.
    pub revolution: Option<Revolution>,
    /// Everyone in finishing order.
    pub places: Vec<Place>,
    /// The next hand's seating, Greater Dalmuti first.
    pub next_seating: Vec<String>,
    /// Whether that was the game's last hand.
    pub game_over: bool,
}

/// A player's place in the game so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// 1 for the leaders; tied players share a place.
    pub place: usize,
    /// The name.
    pub name: String,
    /// Whether this is the human.
    pub is_me: bool,
    /// Points, when the game is scored.
    pub points: Option<u32>,
    /// Hands finished first.
    pub firsts: usize,
    /// Hands finished last.
    pub lasts: usize,
}

/// A game between the human and bots.
pub struct Session {
    game: Game,
    me: PlayerId,
    bots: Vec<SeatedBot>,
    /// The thread bots think on, started by the first [`Session::think`].
    worker: Option<Worker>,
    /// The decision a bot is making there, if any.
    pending: Option<Pending>,
    seed_text: String,
    /// Log entries of the current hand already handed out by `take_news`.
    told: usize,
    /// The language everything is said in.
    lang: Lang,
    /// Whether the human has made a move: a game quit before it is not
    /// worth a record.
    moved: bool,
    /// The log's lines that no event tells, with where they fell.
    notes: Vec<Note>,
}

impl Session {
    /// Seats the table (the seating draw) and deals the first hand.
    pub fn new(config: &Config) -> Result<Session, SessionError> {
        let mut names = vec![config.name.clone()];
        names.extend(config.bots.iter().map(|b| b.name.clone()));
        let game = Game::new(config.rules, names, config.seed)?;
        let me = game
            .player_named(&config.name)
            .ok_or_else(|| TableError::UnknownPlayer(config.name.clone()))?;
        let base = u64::from_le_bytes(config.seed.0[..8].try_into().unwrap_or([0; 8]));
        let mut bots = Vec::with_capacity(config.bots.len());
        for (i, b) in config.bots.iter().enumerate() {
            let player = game
                .player_named(&b.name)
                .ok_or_else(|| TableError::UnknownPlayer(b.name.clone()))?;
            let seed = base.wrapping_add((i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let bot = b.spec.build(seed).map_err(|e| SessionError::Bot {
                name: b.name.clone(),
                spec: b.spec.to_string(),
                reason: e.to_string(),
            })?;
            bots.push(SeatedBot {
                player,
                bot: Some(bot),
                spec: b.spec.to_string(),
                seed,
            });
        }
        let mut session = Session {
            game,
            me,
            bots,
            worker: None,
            pending: None,
            seed_text: config.seed_text(),
            told: 0,
            lang: config.lang,
            moved: false,
            notes: Vec::new(),
        };
        session.ready_when_nothing_to_choose();
        Ok(session)
    }

    /// Says ready for the human when that is all there is to choose: every
    /// hand starts with it, and at a table of bots there is nobody to keep
    /// waiting. A human dealt both Jesters is asked instead (saying ready
    /// then keeps quiet).
    fn ready_when_nothing_to_choose(&mut self) {
        if self.decision() == Some(Decision::Ready) && self.revolution_offer().is_none() {
            let seat = self.my_seat();
            self.game
                .apply(seat, Action::Ready)
                .expect("saying ready is the human's legal action");
        }
    }

    // ----- the language -----

    /// The language the game speaks.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Speaks another language from now on.
    pub fn set_lang(&mut self, lang: Lang) {
        self.lang = lang;
    }

    /// The game's words in the session's language.
    pub fn tr(&self) -> Tr {
        Tr::new(self.lang, self.variant())
    }

    /// The message `key` about `other`, or `key.you` when `other` is the
    /// human (languages inflect "you"); `{other}` is their name.
    pub fn about(&self, key: &str, other: Seat, args: &[(&str, &str)]) -> String {
        let name = self.name_at(other).to_string();
        let key = if other == self.my_seat() {
            format!("{key}.you")
        } else {
            key.to_string()
        };
        let mut all = vec![("other", name.as_str())];
        all.extend_from_slice(args);
        self.tr().t(&key, &all)
    }

    // ----- the table -----

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        self.game.rules()
    }

    /// The game played: its cards' names, titles and words.
    pub fn variant(&self) -> Variant {
        self.game.rules().variant
    }

    /// The seed, as `--seed` takes it.
    pub fn seed_text(&self) -> &str {
        &self.seed_text
    }

    /// The human.
    pub fn me(&self) -> PlayerId {
        self.me
    }

    /// A player's name.
    pub fn name(&self, player: PlayerId) -> &str {
        self.game.name(player)
    }

    /// The name of the player at a seat of play in the current hand.
    pub fn name_at(&self, seat: Seat) -> &str {
        self.game.name(self.game.player_at(seat))
    }

    /// The bots, in order of arrival: (name, bot spec).
    pub fn lineup(&self) -> Vec<(String, String)> {
        self.bots
            .iter()
            .map(|b| (self.name(b.player).to_string(), b.spec.clone()))
            .collect()
    }

    /// The bots, in order of arrival, as "Amity (hard)": a level in the
    /// session's language, any other bot by its spec.
    pub fn lineup_words(&self) -> Vec<String> {
        let tr = self.tr();
        self.lineup()
            .into_iter()
            .map(|(name, spec)| {
                let what = match spec.parse::<dalmuti_bots::Level>() {
                    Ok(level) => tr.t(&format!("level.{level}"), &[]),
                    Err(_) => spec,
                };
                format!("{name} ({what})")
            })
            .collect()
    }

    /// How many players sit at the table.
    pub fn players(&self) -> usize {
        self.game.hand().players()
    }

    /// The human's seat of play in the current hand.
    pub fn my_seat(&self) -> Seat {
        self.game
            .seat_of(self.me)
            .expect("the human sits at every hand: nobody leaves this table")
    }

    /// What the human may see of the current hand (with the totals when
    /// scored). Everything shown to the human comes from here.
    pub fn view(&self) -> View<'_> {
        self.game.view(Viewer::Seat(self.my_seat()))
    }

    /// The human's cards.
    pub fn my_cards(&self) -> Cards {
        self.view().cards().unwrap_or(Cards::EMPTY)
    }

    /// Every seat, in order, as everyone sees it.
    pub fn table(&self) -> Vec<SeatInfo> {
        let view = self.view();
        let to_act = view.to_act();
        let holding = view.holding();
        let scores = view.scores();
        Seat::all(view.players())
            .map(|seat| {
                let player = self.game.player_at(seat);
                SeatInfo {
                    seat,
                    player,
                    name: self.name(player).to_string(),
                    title: view.title(seat),
                    cards: view.card_count(seat),
                    out: (!holding.contains(seat))
                        .then(|| view.finish_order().iter().position(|&s| s == seat))
                        .flatten(),
                    to_act: to_act.contains(seat),
                    wedged: view.wedged() == Some(seat),
                    is_me: player == self.me,
                    total: scores.and_then(|s| s.get(seat.index()).copied()),
                }
            })
            .collect()
    }

    /// The set on the table, who played it and who passed on it since.
    pub fn top(&self) -> Option<TableTop> {
        let view = self.view();
        let (by, set) = view.top()?;
        let mut passed = Vec::new();
        for entry in view.log() {
            match entry {
                Seen::Event(Event::Played { .. } | Event::RoundWon { .. }) => passed.clear(),
                Seen::Event(Event::Passed { seat }) => passed.push(self.who(seat)),
                _ => {}
            }
        }
        Some(TableTop {
            by,
            name: self.who(by),
            set,
            passed,
        })
    }

    /// A seat's player by name, or "you".
    fn who(&self, seat: Seat) -> String {
        if seat == self.my_seat() {
            self.tr().you()
        } else {
            self.name_at(seat).to_string()
        }
    }

    /// The seating draw in words, when one was made.
    pub fn draw_lines(&self) -> Vec<String> {
        let Some(rounds) = self.game.draw() else {
            return Vec::new();
        };
        let ids: Vec<PlayerId> = self.game.players().collect();
        let tr = self.tr();
        rounds
            .iter()
            .enumerate()
            .map(|(i, round)| {
                let draws: Vec<String> = round
                    .iter()
                    .filter_map(|&(p, card)| {
                        let id = *ids.get(p)?;
                        let card = tr.count_of(1, card);
                        Some(if id == self.me {
                            tr.t("draw.you", &[("card", &card)])
                        } else {
                            tr.t("draw.other", &[("name", self.name(id)), ("card", &card)])
                        })
                    })
                    .collect();
                let key = if i == 0 { "draw.first" } else { "draw.again" };
                tr.t(key, &[("draws", &tr.join(&draws))])
            })
            .collect()
    }

    // ----- decisions -----

    /// The human's pending decision, if the game waits for the human. During
    /// taxes the bots may still have theirs to make too.
    pub fn decision(&self) -> Option<Decision> {
        self.view().decision()
    }

    /// The human's legal actions, worst first (empty when nothing to decide).
    pub fn legal(&self) -> ActionList {
        self.view().legal_actions()
    }

    /// The revolution the human may call: only when dealt both Jesters (or
    /// Dogberts), while the hand is set up, in place of their setup choice.
    pub fn revolution_offer(&self) -> Option<RevolutionOffer> {
        self.view().revolution_offer()
    }

    /// The Wedgie targets the human may name when playing `set` now (its
    /// own target, if any, is ignored), in seat order: `[None]` when this
    /// play ends the hand and so names no one; empty when `set` cannot be
    /// played now or holds no Wedgie.
    pub fn wedgie_targets(&self, set: &Set) -> Vec<Option<Seat>> {
        if !set.holds_wedgie() {
            return Vec::new();
        }
        let bare = set.with_target(None).ok();
        let mut targets: Vec<Option<Seat>> = self
            .legal()
            .iter()
            .filter_map(|a| match a {
                Action::Play(s) if s.with_target(None).ok() == bare => Some(s.wedgie_target()),
                _ => None,
            })
            .collect();
        targets.sort_by_key(|t| t.map(Seat::index));
        targets
    }

    /// The values, best (lowest) first, that `dogberts` Dogberts alone may
    /// be declared as now: those that top the table, or all of 1 to 10 on a
    /// lead. Empty when no such play is legal.
    pub fn dogbert_values(&self, dogberts: u8) -> Vec<u8> {
        let mut values: Vec<u8> = self
            .legal()
            .iter()
            .filter_map(|a| match a {
                Action::Play(s) if s.size() == dogberts => s.declared(),
                _ => None,
            })
            .collect();
        values.sort_unstable();
        values
    }

    fn next_bot_seat(&self) -> Option<Seat> {
        let me = self.my_seat();
        self.game.hand().to_act().iter().find(|&s| s != me)
    }

    /// Whether a bot has a decision to make now. The session is the
    /// referee at this table, so it knows; what the human is shown of it
    /// comes from the human's view ([`Session::table`]), which while the
    /// hand is set up names nobody.
    pub fn bots_to_act(&self) -> bool {
        self.next_bot_seat().is_some()
    }

    /// Lets the next bot with a decision make it, and says what the human
    /// may see of it. `None` when no bot has anything to decide (the human
    /// is to act, or the hand is over). Setup choices are simultaneous:
    /// bots make theirs while the human's is pending, and no card moves
    /// until every choice is made. A bot that only says ready is no step of
    /// its own: nothing about it is shown, whatever its cards.
    ///
    /// The bot thinks on the caller's thread, which waits for it (and for
    /// a decision already handed to [`Session::think`]).
    pub fn step_bots(&mut self) -> Option<Step> {
        loop {
            if let Some(pending) = &mut self.pending {
                if pending.answer.is_none() {
                    // Wait for the worker: it holds the bot.
                    let answer = self.worker.as_ref().and_then(|w| w.answers.recv().ok());
                    self.take_answer(answer);
                }
                match self.play_answer() {
                    Some(step) => return Some(step),
                    None => continue,
                }
            }
            let seat = self.next_bot_seat()?;
            let player = self.game.player_at(seat);
            let view = self.game.view(Viewer::Seat(seat));
            let decision = view.decision()?;
            let legal = view.legal_actions();
            let seated = self.bots.iter_mut().find(|b| b.player == player)?;
            let bot = seated
                .bot
                .get_or_insert_with(|| Box::new(HeuristicBot::new(seated.seed)));
            let decided = bot.decide(&view, &legal);
            if let Some(step) = self.apply_bot(seat, decision, decided) {
                return Some(step);
            }
        }
    }

    /// Hands the next bot's decision to the worker thread, unless a bot
    /// is thinking already; returns whether one is (or has answered and
    /// waits to be played). The bot decides from a copy of the game,
    /// seeing its own seat's view only, while the session goes on
    /// answering the human: the screen, the help, the language, even the
    /// human's own setup choice, which does not wait for the bots'.
    pub fn think(&mut self) -> bool {
        if self.pending.is_some() {
            return true;
        }
        let Some(seat) = self.next_bot_seat() else {
            return false;
        };
        let player = self.game.player_at(seat);
        let Some(decision) = self.game.view(Viewer::Seat(seat)).decision() else {
            return false;
        };
        if self.worker.is_none() {
            self.worker = Worker::start();
        }
        let Some(worker) = &self.worker else {
            return false;
        };
        let Some(seated) = self.bots.iter_mut().find(|b| b.player == player) else {
            return false;
        };
        let bot = seated
            .bot
            .take()
            .unwrap_or_else(|| Box::new(HeuristicBot::new(seated.seed)));
        let job = Job {
            bot,
            game: self.game.clone(),
            seat,
        };
        if let Err(mpsc::SendError(job)) = worker.jobs.send(job) {
            // The worker is gone (a bot panicked in it): the bot goes back
            // to its seat, and the next call starts a new worker.
            seated.bot = Some(job.bot);
            self.worker = None;
            return false;
        }
        self.pending = Some(Pending {
            player,
            seat,
            decision,
            hand: self.hand_number(),
            since: Instant::now(),
            answer: None,
        });
        true
    }

    /// Whether the thinking bot has answered (its answer then waits for
    /// [`Session::play_answer`]); never waits.
    pub fn bot_answered(&mut self) -> bool {
        let Some(pending) = &self.pending else {
            return false;
        };
        if pending.answer.is_some() {
            return true;
        }
        let answer = match self.worker.as_ref().map(|w| w.answers.try_recv()) {
            Some(Ok(answer)) => Some(answer),
            Some(Err(TryRecvError::Empty)) => return false,
            // The worker ended without answering (the bot panicked).
            Some(Err(TryRecvError::Disconnected)) | None => None,
        };
        self.take_answer(answer);
        true
    }

    /// Keeps the worker's answer for [`Session::play_answer`]; `None` when
    /// the worker died with the bot, which is then replaced by the
    /// heuristic bot and its decision made safely.
    fn take_answer(&mut self, answer: Option<Answer>) {
        let Some(pending) = &mut self.pending else {
            return;
        };
        let answer = answer.unwrap_or_else(|| {
            self.worker = None;
            let seed = self
                .bots
                .iter()
                .find(|b| b.player == pending.player)
                .map_or(0, |b| b.seed);
            Answer {
                bot: Box::new(HeuristicBot::new(seed)),
                decided: Err(BotFault::Crashed("stopped while thinking".into())),
            }
        });
        pending.answer = Some(answer);
    }

    /// Who is thinking now, as the human may know it: see [`Thinker`].
    pub fn thinker(&self) -> Option<Thinker> {
        let pending = self.pending.as_ref()?;
        let named =
            pending.hand == self.hand_number() && self.view().to_act().contains(pending.seat);
        Some(Thinker {
            name: named.then(|| self.name(pending.player).to_string()),
            since: pending.since,
            answered: pending.answer.is_some(),
        })
    }

    /// Plays the answer of the bot that thought on the worker thread, once
    /// [`Session::bot_answered`], and says what the human may see of it,
    /// as [`Session::step_bots`] does. `None` when nothing is shown: no
    /// answer yet, a bot that only said ready, or an answer to a decision
    /// that is no longer asked (the human called a revolution meanwhile),
    /// which is dropped; [`Session::think`] then asks again.
    pub fn play_answer(&mut self) -> Option<Step> {
        if self.pending.as_ref().is_none_or(|p| p.answer.is_none()) {
            return None;
        }
        let pending = self.pending.take()?;
        let answer = pending.answer?;
        if let Some(seated) = self.bots.iter_mut().find(|b| b.player == pending.player) {
            seated.bot = Some(answer.bot);
        }
        let still_asked = pending.hand == self.hand_number()
            && self.game.player_at(pending.seat) == pending.player
            && self.game.view(Viewer::Seat(pending.seat)).decision() == Some(pending.decision);
        if !still_asked {
            return None;
        }
        self.apply_bot(pending.seat, pending.decision, answer.decided)
    }

    /// Plays a bot's answer (or the safe choice, if it failed or chose an
    /// illegal action) and says what the human may see of it; `None` for a
    /// bot that only said ready.
    fn apply_bot(
        &mut self,
        seat: Seat,
        decision: Decision,
        decided: Result<Action, BotFault>,
    ) -> Option<Step> {
        let player = self.game.player_at(seat);
        let legal = self.game.view(Viewer::Seat(seat)).legal_actions();
        let (action, fault) = match decided {
            Ok(a) if legal.contains(&a) => (a, None),
            Ok(a) => (
                fallback(&legal),
                Some(format!("answered an illegal action ({a})")),
            ),
            Err(f) => (fallback(&legal), Some(f.to_string())),
        };
        self.game
            .apply(seat, action)
            .expect("the engine accepts its own legal actions");
        let mut lines = Vec::new();
        if let Some(f) = &fault {
            lines.push(self.note(NoteWhat::BotFault {
                player,
                fault: f.clone(),
            }));
        }
        let news = self.take_news();
        if news.is_empty() && lines.is_empty() && action == Action::Ready {
            return None;
        }
        if news.is_empty() {
            let choice = self.bot_choice(player, decision, action);
            lines.push(self.note(choice));
        }
        lines.extend(news);
        Some(Step {
            player,
            seat,
            decision,
            lines,
            fault,
        })
    }

    /// Seats `bot` in place of `player`'s (not while that bot thinks):
    /// tests put slow or scripted bots at the table this way.
    #[cfg(test)]
    pub(crate) fn seat_bot(&mut self, player: PlayerId, bot: Box<dyn dalmuti_bots::Bot>) {
        if let Some(seated) = self.bots.iter_mut().find(|b| b.player == player) {
            seated.bot = Some(bot);
        }
    }

    /// The human's action, or why it is refused (nothing changes then).
    /// A secret choice that shows nothing yet in the log is kept as a note
    /// ([`Session::my_note`]).
    pub fn act(&mut self, action: Action) -> Result<(), Box<IllegalAction>> {
        let seat = self.my_seat();
        let decision = self.decision();
        self.game.apply(seat, action)?;
        self.moved = true;
        if let Some(mine) = decision.and_then(|d| self.my_choice(d, action))
            && self.log().len() == self.told
        {
            self.note(NoteWhat::Mine(mine));
        }
        Ok(())
    }

    /// The note for the human's last move, when it was a secret choice
    /// that the log does not tell yet (a tax gift, an offer, a card given
    /// back): what the full-screen log shows for it.
    pub fn my_note(&self) -> Option<String> {
        let hand = self.hand_number().saturating_sub(1);
        self.notes
            .last()
            .filter(|n| n.hand == hand && n.at == self.told)
            .filter(|n| matches!(n.what, NoteWhat::Mine(_)))
            .map(|n| self.note_text(n))
    }

    /// Whether the human has made a move yet (saying ready for them when
    /// they had nothing to choose is not one).
    pub fn has_moved(&self) -> bool {
        self.moved
    }

    /// What a bot of [`HINT_LEVEL`] would do in the human's place, from the
    /// human's view only.
    pub fn hint(&self) -> Option<Action> {
        let view = self.view();
        let legal = view.legal_actions();
        if legal.is_empty() {
            return None;
        }
        let mut bot = HINT_LEVEL.build(0).expect("the hint's level builds");
        Some(match bot.decide(&view, &legal) {
            Ok(a) if legal.contains(&a) => a,
            _ => fallback(&legal),
        })
    }

    // ----- the log -----

    /// The current hand's log as the human may see it, one sentence per
    /// entry: other seats' tax and exchange cards never appear.
    pub fn log(&self) -> Vec<String> {
        let view = self.view();
        let name = |s: Seat| self.name_at(s).to_string();
        narrate::seen(
            view.log(),
            view.players(),
            self.tr(),
            Some(self.my_seat()),
            &name,
        )
    }

    /// Hand `index` (from 0; the current one is the last) as the human
    /// saw it (of the current hand, what [`Session::take_news`] handed
    /// out, with the notes of secret choices and bots' faults where they
    /// fell), told in the session's language now: what the full-screen
    /// game tells again when the language changes.
    pub fn hand_told(&self, index: usize) -> Vec<String> {
        let Some(log) = self.game.hands().get(index) else {
            return Vec::new();
        };
        let Some(seat) = log.seat_of(self.me) else {
            return Vec::new();
        };
        let view = View::new(&log.hand, Viewer::Seat(seat));
        let name = |s: Seat| self.game.name(log.player_at(s)).to_string();
        let mut told = narrate::seen(view.log(), log.hand.players(), self.tr(), Some(seat), &name);
        // Of the current hand, only what was handed out already: the rest
        // is news still to come, in its turn.
        if index + 1 == self.game.hands().len() {
            told.truncate(self.told);
        }
        self.with_notes(index, told)
    }

    /// The cards the human was dealt in hand `index` (from 0), if they
    /// played it.
    pub fn dealt_in(&self, index: usize) -> Option<Cards> {
        let log = self.game.hands().get(index)?;
        log.seat_of(self.me).map(|seat| log.hand.dealt(seat))
    }

    /// The lines of [`Session::log`] not handed out before (the whole log
    /// after a new deal).
    pub fn take_news(&mut self) -> Vec<String> {
        let log = self.log();
        let news = log.get(self.told..).map(<[String]>::to_vec);
        self.told = log.len();
        news.unwrap_or_default()
    }

    // ----- hands and the game -----

    /// The current hand's number, from 1.
    pub fn hand_number(&self) -> usize {
        self.game.hands().len()
    }

    /// Whether the current hand is over.
    pub fn is_hand_over(&self) -> bool {
        self.game.is_between_hands()
    }

    /// Whether the set number of hands has been played.
    pub fn is_game_over(&self) -> bool {
        self.game.is_over()
    }

    /// The finished hand's results: finishing order, old and new titles,
    /// points, the next seating. `None` while the hand goes on.
    pub fn hand_end(&self) -> Option<HandEnd> {
        if !self.is_hand_over() {
            return None;
        }
        let log = self.game.hands().last()?;
        let n = log.hand.players();
        let next_n = self.game.next_seating().len();
        let points = log.hand.points();
        let scored = self.game.scored();
        let places = log
            .finishers()
            .enumerate()
            .filter_map(|(i, player)| {
                let seat = log.seat_of(player)?;
                Some(Place {
                    player,
                    name: self.name(player).to_string(),
                    is_me: player == self.me,
                    was: seat.title(n),
                    becomes: Seat::new(i.min(next_n.saturating_sub(1))).title(next_n),
                    points: points.map(|p| p[seat]),
                    total: scored.then(|| self.game.total(player)),
                })
            })
            .collect();
        Some(HandEnd {
            number: self.hand_number(),
            revolution: log.hand.revolution(),
            places,
            next_seating: self
                .game
                .next_seating()
                .iter()
                .map(|&p| crate::phrase::shown_name(self.name(p), p == self.me, self.tr()))
                .collect(),
            game_over: self.is_game_over(),
        })
    }

    /// Deals the next hand (refused while a hand is on or once the game is
    /// over).
    pub fn next_hand(&mut self) -> Result<(), TableError> {
        self.game.next_hand()?;
        self.told = 0;
        self.ready_when_nothing_to_choose();
        Ok(())
    }

    /// Everyone's place in the game so far: by points when scored, then by
    /// hands won, then by fewest hands lost.
    pub fn standings(&self) -> Vec<Standing> {
        let scored = self.game.scored();
        let finished: Vec<Vec<PlayerId>> = self
            .game
            .hands()
            .iter()
            .filter(|h| h.hand.stage() == dalmuti_core::Stage::Over)
            .map(|h| h.finishers().collect())
            .collect();
        let mut rows: Vec<Standing> = self
            .game
            .players()
            .map(|p| Standing {
                place: 0,
                name: self.name(p).to_string(),
                is_me: p == self.me,
                points: scored.then(|| self.game.total(p)),
                firsts: finished.iter().filter(|o| o.first() == Some(&p)).count(),
                lasts: finished.iter().filter(|o| o.last() == Some(&p)).count(),
            })
            .collect();
        let key = |s: &Standing| {
            (
                std::cmp::Reverse(s.points),
                std::cmp::Reverse(s.firsts),
                s.lasts,
            )
        };
        rows.sort_by_key(key);
        for i in 0..rows.len() {
            rows[i].place = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
                rows[i - 1].place
            } else {
                i + 1
            };
        }
        rows
    }

    // ----- the record -----

    /// Writes the game so far as a game record (`dalmuti-record/1`) into
    /// `dir` (created if needed), named by the date, time and seed, and
    /// returns its path.
    pub fn save_record(&self, dir: &Path) -> Result<PathBuf, SaveError> {
        let text = dalmuti_core::record::Record::from_game(&self.game).to_json_string();
        save::write_new(dir, &self.seed_text, &text)
    }
}

#[cfg(test)]
mod tests;
