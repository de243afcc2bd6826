//! A table against bots with no server: the table's fold
//! ([`TableState`]) run by a driver of its own, which plays the bots,
//! keeps the pauses and the next deal, and tells the one person at the
//! table what the server would tell them, in the server's own messages
//! ([`ServerMsg`], built by [`TableState::told`]). No rule is written
//! here: the engine checks every move, and the page chooses among the
//! `legal` actions its STATE lists, as online.
//!
//! The driver has no clock of its own: every request says what time it is
//! (`now`, in milliseconds), and every reply says when to wake it next
//! ([`Reply::wake_ms`]), so its tests run in no time.

use dalmuti_bots::{Bot, HeuristicBot, Level};
use dalmuti_core::{Action, Decision, Rules, Seed, Viewer};
use dalmuti_table::TableError;
use dalmuti_table::error::{BadRequest, Conflict};
use dalmuti_table::fairness::FairRecord;
use dalmuti_table::ids::TableId;
use dalmuti_table::names::PlayerName;
use dalmuti_table::protocol::{ClientMsg, ErrorKind, Refused, Replay, ServerMsg, StateKind};
use dalmuti_table::row::TableRow;
use dalmuti_table::state::{Live, Stored, TableState, hash_hex};
use dalmuti_table::token::SeatToken;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How long things take at an offline table, in milliseconds: the
/// server's own pauses by default (`dalmuti serve`'s `--bot-delay`,
/// `--hand-pause` and `--setup-pause`), so that a game feels the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pace {
    /// The pause before each bot's move, so the player can follow it.
    pub bot_delay_ms: u64,
    /// The pause between a hand's end and the next deal.
    pub hand_pause_ms: u64,
    /// The "look at your cards" pause of each hand's setup.
    pub setup_pause_ms: u64,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace {
            bot_delay_ms: 700,
            hand_pause_ms: 6000,
            setup_pause_ms: 6000,
        }
    }
}

/// The game a player asks for: their name, the table's size, the bots'
/// level and the rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// The player's name at the table.
    pub name: PlayerName,
    /// How many seats, the player's included (the rest are bots).
    pub seats: usize,
    /// The bots' level: `easy`, `normal`, `hard` or `expert`.
    pub level: String,
    /// The rules (the game of the family and its options).
    #[serde(default)]
    pub rules: Rules,
    /// The pauses.
    #[serde(default)]
    pub pace: Pace,
}

/// What the browser keeps of a game (in IndexedDB) to take it up again
/// after a reload: the setup, the table's id and its log. The seat's
/// token is not in it (its hash is, in the log), as on the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    /// The game asked for.
    pub setup: Setup,
    /// The table's id (the page's address names it).
    pub id: TableId,
    /// Every event, in order.
    pub events: Vec<Stored>,
}

/// A request from the page's worker to the engine.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Request {
    /// A new game: the person seated, the bots beside them, the seats
    /// drawn and the first hand dealt.
    New {
        /// The game asked for.
        setup: Setup,
        /// The time now, in milliseconds.
        now: u64,
    },
    /// A game kept in the browser, taken up again.
    Resume {
        /// What was kept.
        saved: Saved,
        /// The time now, in milliseconds.
        now: u64,
    },
    /// A message the page would send the server's socket
    /// (`docs/PROTOCOL.md`: `hello`, `act`, `place`, `chat`), as sent.
    Client {
        /// The message's text.
        text: String,
        /// The time now, in milliseconds.
        now: u64,
    },
    /// Time passed: whatever is due (a bot's move, the end of the setup
    /// pause, the next deal) happens.
    Wake {
        /// The time now, in milliseconds.
        now: u64,
    },
    /// The record of the finished game, for `dalmuti check`.
    Record,
    /// The replay of the finished game.
    Replay,
}

/// The engine's answer to one [`Request`].
#[derive(Clone, Debug, Default, Serialize)]
pub struct Reply {
    /// The messages the server would have sent the page, in order.
    pub sent: Vec<ServerMsg>,
    /// When to wake the engine next ([`Request::Wake`]), in milliseconds
    /// from now; none while it waits for the player (or the game is over).
    pub wake_ms: Option<u64>,
    /// The game to keep, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved: Option<Saved>,
    /// A new game's seat token, for the page to keep as it keeps one the
    /// server gives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<SeatToken>,
    /// A new game's table id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<TableId>,
    /// The record asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<FairRecord>,
    /// The replay asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<Replay>,
    /// Why a request was refused as a whole (unreadable, or no game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Reply {
    fn refused(error: impl Into<String>) -> Reply {
        Reply {
            error: Some(error.into()),
            ..Reply::default()
        }
    }
}

/// Where the fresh randomness comes from: the system's source in the
/// browser and the binary, a fixed sequence in tests.
pub type Entropy = Box<dyn FnMut() -> Seed + Send>;

/// The engine of one offline table, driven by requests.
pub struct Offline {
    entropy: Entropy,
    game: Option<Table>,
}

/// A table being played, and what the driver keeps beyond its log.
struct Table {
    setup: Setup,
    state: TableState,
    /// The bot playing each lobby seat (none for the person).
    bots: Vec<Option<Box<dyn Bot>>>,
    /// When the setup pause ends, while a hand is set up.
    setup_until: Option<u64>,
    /// When the next bot moves.
    bot_at: Option<u64>,
    /// When the next hand is dealt.
    deal_at: Option<u64>,
}

impl Offline {
    /// An engine with no game yet, its randomness from `entropy`.
    pub fn new(entropy: Entropy) -> Offline {
        Offline {
            entropy,
            game: None,
        }
    }

    /// Answers a request given as JSON text; an unreadable one is refused
    /// with what is wrong and where.
    pub fn handle_text(&mut self, text: &str) -> Reply {
        match serde_json::from_str::<Request>(text) {
            Ok(request) => self.handle(request),
            Err(e) => Reply::refused(format!("the engine cannot read this request: {e}")),
        }
    }

    /// Answers a request.
    pub fn handle(&mut self, request: Request) -> Reply {
        match request {
            Request::New { setup, now } => self.new_game(setup, now),
            Request::Resume { saved, now } => self.resume(saved, now),
            Request::Client { text, now } => self.with_game(|table, _| table.client(&text, now)),
            Request::Wake { now } => self.with_game(|table, entropy| table.wake(now, entropy)),
            Request::Record => self.with_game(|table, _| match table.state.record() {
                Ok(record) => Reply {
                    record: Some(record),
                    ..Reply::default()
                },
                Err(e) => Reply::refused(e.to_string()),
            }),
            Request::Replay => self.with_game(|table, _| match table.state.replay() {
                Ok(replay) => Reply {
                    replay: Some(replay),
                    ..Reply::default()
                },
                Err(e) => Reply::refused(e.to_string()),
            }),
        }
    }

    fn with_game(&mut self, f: impl FnOnce(&mut Table, &mut Entropy) -> Reply) -> Reply {
        match &mut self.game {
            Some(table) => f(table, &mut self.entropy),
            None => Reply::refused("no game: start one, or resume the one kept"),
        }
    }

    fn new_game(&mut self, setup: Setup, now: u64) -> Reply {
        let id = TableId::new();
        let token = SeatToken::new();
        let table = match Table::seated(setup, id.clone(), &token, &mut self.entropy) {
            Ok(table) => table,
            Err(e) => return Reply::refused(e.to_string()),
        };
        let table = self.game.insert(table);
        let mut reply = table.wake(now, &mut self.entropy);
        reply.saved = Some(table.saved());
        reply.token = Some(token);
        reply.id = Some(id);
        reply
    }

    fn resume(&mut self, saved: Saved, now: u64) -> Reply {
        match Table::resumed(saved) {
            Ok(table) => {
                let table = self.game.insert(table);
                table.wake(now, &mut self.entropy)
            }
            Err(e) => Reply::refused(format!("the game kept in this browser cannot be read: {e}")),
        }
    }
}

/// The most seats an offline table has: a phone's screen, and the bots'
/// thinking, are for small tables.
pub const MAX_OFFLINE_SEATS: usize = 8;

impl Table {
    /// The person seated with `token`, the bots beside them, the game
    /// started and its first hand dealt.
    fn seated(
        setup: Setup,
        id: TableId,
        token: &SeatToken,
        entropy: &mut Entropy,
    ) -> Result<Table, TableError> {
        let level = Level::from_name_or_alias(&setup.level).map_err(BadRequest::Level)?;
        if setup.seats > MAX_OFFLINE_SEATS {
            let (seats, most) = (setup.seats, MAX_OFFLINE_SEATS);
            return Err(BadRequest::OfflineSeats { seats, most }.into());
        }
        let mut events = vec![Stored::Seat {
            name: setup.name.clone(),
            hash: Some(hash_hex(&token.hash())),
            bot: None,
            player: None,
            from: None,
        }];
        let mut n = 0;
        while events.len() < setup.seats {
            n += 1;
            let name = PlayerName::new(&format!("{} bot {n}", level.name()))?;
            if name == setup.name {
                continue;
            }
            events.push(Stored::Seat {
                name,
                hash: None,
                bot: Some(level.name().to_string()),
                player: None,
                from: None,
            });
        }
        events.push(Stored::Start {
            draw_seed: entropy(),
        });
        events.push(Stored::Deal {
            seed: entropy(),
            at: None,
        });
        Table::resumed(Saved { setup, id, events })
    }

    /// The table its log leaves, its bots built again.
    fn resumed(saved: Saved) -> Result<Table, TableError> {
        let Saved { setup, id, events } = saved;
        let row = TableRow {
            id,
            name: String::new(),
            seats: setup.seats,
            rules: setup.rules,
            ..TableRow::default()
        };
        let state = TableState::replayed(row, events)?;
        if state.seats.iter().filter(|s| s.bot.is_none()).count() != 1 {
            return Err(TableError::Storage(
                "an offline table has exactly one person at it".into(),
            ));
        }
        let bots = state
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| s.bot.as_deref().map(|spec| build(spec, i as u64)))
            .collect();
        Ok(Table {
            setup,
            state,
            bots,
            setup_until: None,
            bot_at: None,
            deal_at: None,
        })
    }

    fn saved(&self) -> Saved {
        Saved {
            setup: self.setup.clone(),
            id: self.state.row.id.clone(),
            events: self.state.events.clone(),
        }
    }

    /// The person's lobby seat.
    fn you(&self) -> usize {
        self.state.host().expect("an offline table has its person")
    }

    fn live(&self, now: u64) -> Live {
        let n = self.state.seats.len();
        Live {
            connected: vec![true; n],
            away: vec![false; n],
            deadline_ms: vec![None; n],
            setup_ms: self
                .setup_until
                .filter(|_| self.state.in_setup())
                .map(|t| t.saturating_sub(now)),
            next_deal_ms: self.deal_at.map(|t| t.saturating_sub(now)),
            place: None,
            program_port: None,
        }
    }

    /// A message from the page, answered as the server answers it.
    fn client(&mut self, text: &str, now: u64) -> Reply {
        let you = self.you();
        let msg = match ClientMsg::parse(text) {
            Ok(msg) => msg,
            Err(Refused { reason, action }) => {
                let reason = reason.to_string();
                let mut sent = vec![ServerMsg::error(
                    self.state.v(),
                    ErrorKind::BadRequest,
                    reason.clone(),
                )];
                if action {
                    let live = self.live(now);
                    sent.push(
                        self.state
                            .resync(reason, ErrorKind::BadRequest, Some(you), &live),
                    );
                }
                return self.replied(sent, now, false);
            }
        };
        match msg {
            ClientMsg::Hello { token, v, .. } => {
                let known = token
                    .as_ref()
                    .is_some_and(|t| self.state.seat_of_token(t) == Ok(you));
                let who = known.then_some(you);
                let live = self.live(now);
                let first = self
                    .state
                    .greeting(v, u64::MAX, who, &live, Vec::new(), Vec::new());
                self.replied(vec![first], now, false)
            }
            ClientMsg::Act { v, action } => self.act(v, action, now),
            ClientMsg::Place { .. } => self.refusal(Conflict::OfflinePlace.into(), now),
            ClientMsg::Chat(_) => self.refusal(Conflict::OfflineChat.into(), now),
        }
    }

    /// The person's move, chosen at event `v`.
    fn act(&mut self, v: u64, action: Action, now: u64) -> Reply {
        if !self.state.is_current(v) {
            let reason = format!(
                "the action was chosen at event {v} but the table is at event {}: choose again",
                self.state.v()
            );
            return self.refused_act(reason, ErrorKind::Stale, now);
        }
        if action == Action::Ready {
            return self.refused_act(
                "no need to say ready: everyone is made ready together when the \
                 look-at-your-cards pause ends (setup_ms)"
                    .into(),
                ErrorKind::Conflict,
                now,
            );
        }
        let player = self.state.seats[self.you()].name.clone();
        let mut sent = Vec::new();
        match self.commit(
            Stored::Act {
                player,
                action,
                auto: false,
            },
            now,
            &mut sent,
        ) {
            Ok(()) => {
                if self.setup_until.is_some_and(|t| now >= t) {
                    self.end_setup(now, &mut sent);
                }
                self.replied(sent, now, true)
            }
            Err(e) => self.refused_act(e.to_string(), e.kind(), now),
        }
    }

    /// A refused move: the refusal, then the table as it is.
    fn refused_act(&mut self, reason: String, kind: ErrorKind, now: u64) -> Reply {
        let live = self.live(now);
        let sent = vec![
            ServerMsg::error(self.state.v(), kind, reason.clone()),
            self.state.resync(reason, kind, Some(self.you()), &live),
        ];
        self.replied(sent, now, false)
    }

    fn refusal(&mut self, e: TableError, now: u64) -> Reply {
        let sent = vec![ServerMsg::error(self.state.v(), e.kind(), e.to_string())];
        self.replied(sent, now, false)
    }

    /// Applies an event and tells the person of it.
    fn commit(
        &mut self,
        event: Stored,
        now: u64,
        sent: &mut Vec<ServerMsg>,
    ) -> Result<(), TableError> {
        self.state.apply(event)?;
        self.schedule(now);
        let live = self.live(now);
        sent.push(self.state.told(
            StateKind::Event,
            Some(self.state.v()),
            Some(self.you()),
            &live,
        ));
        Ok(())
    }

    /// Sets the timers the state calls for (as the server's actor does).
    fn schedule(&mut self, now: u64) {
        if !self.state.in_setup() {
            self.setup_until = None;
        } else if self.setup_until.is_none() {
            self.setup_until = Some(now + self.setup.pace.setup_pause_ms);
        }
        if !self.state.deal_due() {
            self.deal_at = None;
        } else if self.deal_at.is_none() {
            self.deal_at = Some(now + self.setup.pace.hand_pause_ms);
        }
        if self.bot_due(now).is_none() {
            self.bot_at = None;
        } else if self.bot_at.is_none() {
            self.bot_at = Some(now + self.setup.pace.bot_delay_ms);
        }
    }

    /// The first bot with a decision it may make now. While the setup
    /// pause runs, nobody decides (the bots' setup choices are made when
    /// it ends, as the server tells them: all at once, in seat order).
    fn bot_due(&self, now: u64) -> Option<usize> {
        if self.setup_until.is_some_and(|t| now < t) {
            return None;
        }
        self.state
            .to_act()
            .into_iter()
            .find(|&i| self.bots[i].is_some())
    }

    /// Whatever is due by `now`: the end of the setup pause (the bots'
    /// setup choices, then the person made ready), a bot's move, the next
    /// deal.
    fn wake(&mut self, now: u64, entropy: &mut Entropy) -> Reply {
        let before = self.state.v();
        let mut sent = Vec::new();
        self.schedule(now);
        if self.setup_until.is_some_and(|t| now >= t) && self.state.in_setup() {
            self.end_setup(now, &mut sent);
        } else if self.bot_at.is_some_and(|t| now >= t) {
            self.bot_at = None;
            if let Some(i) = self.bot_due(now) {
                self.bot_moves(i, now, &mut sent);
            }
        } else if self.deal_at.is_some_and(|t| now >= t) {
            self.deal_at = None;
            let deal = Stored::Deal {
                seed: entropy(),
                at: None,
            };
            let _ = self.commit(deal, now, &mut sent);
        }
        let changed = self.state.v() != before;
        self.replied(sent, now, changed)
    }

    /// The setup pause is over: every bot's setup choice in seat order,
    /// the person made ready if that is all they have to do, and the bots
    /// that only say ready.
    fn end_setup(&mut self, now: u64, sent: &mut Vec<ServerMsg>) {
        let you = self.you();
        // Until the hand is played or waits for the person's own choice
        // (a tax to give, a revolution to call or not).
        while self.state.in_setup() {
            if self.state.decision_of(you) == Some(Decision::Ready) {
                let player = self.state.seats[you].name.clone();
                let ready = Stored::Act {
                    player,
                    action: Action::Ready,
                    auto: true,
                };
                if self.commit(ready, now, sent).is_err() {
                    break;
                }
                continue;
            }
            let Some(i) = self
                .state
                .to_act()
                .into_iter()
                .find(|&i| self.bots[i].is_some())
            else {
                break;
            };
            if !self.bot_moves(i, now, sent) {
                break;
            }
        }
    }

    /// Lobby seat `i`'s bot decides and its move is applied; false if
    /// nothing could be applied.
    fn bot_moves(&mut self, i: usize, now: u64, sent: &mut Vec<ServerMsg>) -> bool {
        let Some(seat) = self.state.game_seat(i) else {
            return false;
        };
        let Some(game) = self.state.game.as_ref() else {
            return false;
        };
        let view = game.view(Viewer::Seat(seat));
        let legal = view.legal_actions();
        if legal.is_empty() {
            return false;
        }
        let bot = self.bots[i].get_or_insert_with(|| Box::new(HeuristicBot::new(i as u64)));
        // A bot that answers nothing usable plays the fallback: the table
        // never waits on a bot.
        let action = bot
            .decide(&view, &legal)
            .ok()
            .filter(|a| legal.contains(a))
            .unwrap_or_else(|| dalmuti_bots::fallback(&legal));
        let player = self.state.seats[i].name.clone();
        let act = Stored::Act {
            player,
            action,
            auto: false,
        };
        self.commit(act, now, sent).is_ok()
    }

    /// The reply with the messages sent, when to wake next, and the game
    /// to keep if it changed.
    fn replied(&mut self, sent: Vec<ServerMsg>, now: u64, changed: bool) -> Reply {
        self.schedule(now);
        // A setup pause already over wakes nobody: what it held waits for
        // the person's own setup choice (see `act`).
        let setup = self.setup_until.filter(|&t| t > now);
        let wake_ms = [setup, self.bot_at, self.deal_at]
            .into_iter()
            .flatten()
            .min()
            .map(|t| t.saturating_sub(now));
        Reply {
            sent,
            wake_ms,
            saved: changed.then(|| self.saved()),
            ..Reply::default()
        }
    }
}

/// The most a bot thinks over one decision in the browser: the levels'
/// budgets of moves are the server's, so a bot plays as strongly as it
/// does online wherever the device spends them sooner; a slow phone plays
/// a little weaker rather than keep its player waiting
/// (docs/PERFORMANCE.md, "The offline engine").
pub const THINKING_CAP: Duration = Duration::from_millis(300);

/// A level's bot from its stored spec, seeded by `seed`, its thinking
/// capped ([`THINKING_CAP`]); the heuristic if the level's spec does not
/// build (a mistake the bots' tests catch).
fn build(spec: &str, seed: u64) -> Box<dyn Bot> {
    Level::from_stored(spec)
        .build_capped(seed, THINKING_CAP)
        .unwrap_or_else(|_| Box::new(HeuristicBot::new(seed)))
}
