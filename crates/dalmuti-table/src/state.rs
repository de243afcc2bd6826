//! A table's state as a fold over its stored events: no I/O, no clock.
//!
//! Every change to a table is a [`Stored`] event. [`TableState::apply`]
//! checks an event against the state and applies it, or refuses it and
//! changes nothing; replaying a table's log through it rebuilds the table
//! exactly (the deal seeds are in the `deal` events).

use dalmuti_core::wire::Wire;
use dalmuti_core::{
    Action, Decision, Game, MAX_PLAYERS, MIN_PLAYERS, Rules, Seat, Seed, Stage, Viewer, join_seats,
};
use serde::{Deserialize, Serialize};

use crate::error::{BadRequest, Conflict, IllegalMove, TableError};
use crate::fairness::{FairRecord, Fairness, HandSeed, commitment};
use crate::ids::hex;
use crate::names::PlayerName;
use crate::protocol::{
    Described, HandResult, LobbyEntry, PlaceChoice, Placed, Rematch, Replay, ReplayFrame, Seen,
    State, Total,
};
use crate::row::TableRow;
use crate::token::{SeatToken, token_matches};

/// One accepted change, as written to the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stored {
    /// A seat taken before the start; `hash` is the SHA-256 of its token
    /// (hex), absent for a bot, which has its spec instead.
    Seat {
        /// The display name.
        name: PlayerName,
        /// The token's hash.
        hash: Option<String>,
        /// The bot spec.
        bot: Option<String>,
        /// The key of the player who kept this name and took the seat
        /// (the server's `players` module); absent for anyone else, and in logs
        /// written before players kept names.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// Where the seat was taken from ([`crate::origin::origin`]): a
        /// rated game counts only if its people took their seats from
        /// different places. Absent for a bot, and in logs written before
        /// it was kept.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<String>,
    },
    /// A seat freed before the start, or a newcomer who left before entering.
    Unseat {
        /// The display name.
        name: PlayerName,
    },
    /// The start: the players draw for seats from `draw_seed`.
    Start {
        /// The draw's seed (public).
        draw_seed: Seed,
    },
    /// A hand dealt from `seed` (secret until the hand is over).
    Deal {
        /// The hand's seed.
        seed: Seed,
        /// When it was dealt, in milliseconds since the Unix epoch: a node
        /// that takes the table over during the setup pause gives it only
        /// what is left of it (absent in logs written before it was kept).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<u64>,
    },
    /// An action by a player.
    Act {
        /// The player's name.
        player: PlayerName,
        /// The action, written as [`dalmuti_core::wire::encode_action`]
        /// writes it.
        #[serde(with = "dalmuti_core::wire::action")]
        action: Action,
        /// Chosen by the seat's stand-in bot or the turn timer.
        #[serde(default)]
        auto: bool,
    },
    /// A newcomer after the start, waiting for the hand to end.
    Waiting {
        /// The display name.
        name: PlayerName,
        /// The token's hash.
        hash: Option<String>,
        /// The bot spec.
        bot: Option<String>,
        /// The key of the player who kept this name and took the seat
        /// (the server's `players` module); absent for anyone else, and in logs
        /// written before players kept names.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// Where the seat was taken from ([`crate::origin::origin`]): a
        /// rated game counts only if its people took their seats from
        /// different places. Absent for a bot, and in logs written before
        /// it was kept.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<String>,
    },
    /// The player who kept the seat's name took it back from another
    /// device (the server's `players` module): the seat's token is a new one, whose
    /// hash this is; the old token plays it no more.
    Rekey {
        /// The seat's display name.
        name: PlayerName,
        /// The new token's hash.
        hash: String,
    },
    /// A player will leave when the current hand ends.
    Leaving {
        /// The display name.
        name: PlayerName,
    },
    /// A newcomer enters at `seat` (0-based, counted after the insertion).
    Join {
        /// The display name.
        name: PlayerName,
        /// The seat.
        seat: usize,
    },
    /// A player leaves, between hands.
    Leave {
        /// The display name.
        name: PlayerName,
    },
}

/// A lobby seat's action resolved once: the seat (its index in
/// [`TableState::seats`]) the game applies it as, and the event the log
/// keeps of it, by the seat's name ([`TableState::seat_action`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SeatAction {
    at: usize,
    event: Stored,
}

impl SeatAction {
    /// The lobby seat.
    pub fn at(&self) -> usize {
        self.at
    }

    /// The event the log keeps of it.
    pub fn event(&self) -> &Stored {
        &self.event
    }
}

/// A lobby seat.
#[derive(Clone, Debug)]
pub struct SeatState {
    /// The display name.
    pub name: PlayerName,
    /// The SHA-256 of the token; `None` for a bot.
    pub hash: Option<[u8; 32]>,
    /// The bot spec of a bot seat.
    pub bot: Option<String>,
    /// The key of the player who kept this name, if that player took it.
    pub player: Option<String>,
    /// Where the seat was taken from ([`crate::origin::origin`]), if known.
    pub from: Option<String>,
    /// A newcomer waiting for the next hand.
    pub waiting: bool,
    /// Leaves when the current hand ends.
    pub leaving: bool,
}

/// A table: its lobby, its game and its log.
#[derive(Clone, Debug)]
pub struct TableState {
    /// The stored row.
    pub row: TableRow,
    /// The rules in force.
    pub rules: Rules,
    /// The lobby, in order of arrival.
    pub seats: Vec<SeatState>,
    /// The game once started.
    pub game: Option<Game>,
    /// The seating draw's seed.
    pub draw_seed: Option<Seed>,
    /// Every hand's seed, in order.
    pub seeds: Vec<Seed>,
    /// Every hand's commitment (kept: every message carries them).
    pub commitments: Vec<String>,
    /// Every event, in order (event `v` is `events[v - 1]`).
    pub events: Vec<Stored>,
    /// The players who left the game before its end, in the order they
    /// left: a rated game places them below everyone who stayed.
    pub left: Vec<SeatState>,
    /// The number of the last event that changed the game or what a seat
    /// may decide ([`TableState::game_v`]).
    game_v: u64,
}

fn parse_hash(hash: &Option<String>) -> Result<Option<[u8; 32]>, TableError> {
    let Some(h) = hash else { return Ok(None) };
    let bad = || TableError::Storage("a token hash is 64 hex digits".into());
    if h.len() != 64 || !h.is_ascii() {
        return Err(bad());
    }
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&h[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
    }
    Ok(Some(out))
}

impl TableState {
    /// A new, empty table.
    pub fn new(row: TableRow) -> Result<TableState, TableError> {
        let rules: Rules = row.rules;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&row.seats) {
            return Err(BadRequest::Seats { seats: row.seats }.into());
        }
        // The variant's own table sizes (Corporate Shuffle seats at most 8)
        // bound the seats, so no join can later make the game unplayable.
        rules
            .check(row.seats)
            .map_err(|e| TableError::BadRequest(BadRequest::Rules(e)))?;
        Ok(TableState {
            row,
            rules,
            seats: Vec::new(),
            game: None,
            draw_seed: None,
            seeds: Vec::new(),
            commitments: Vec::new(),
            events: Vec::new(),
            left: Vec::new(),
            game_v: 0,
        })
    }

    /// The table as `events` left it, in order from the first: how a
    /// table goes back to what its log holds after a refused write,
    /// without reading the store again.
    pub fn replayed(
        row: TableRow,
        events: impl IntoIterator<Item = Stored>,
    ) -> Result<TableState, TableError> {
        let mut state = TableState::new(row)?;
        for event in events {
            state.apply(event)?;
        }
        Ok(state)
    }

    /// When the last hand was dealt (ms since the Unix epoch), if its log
    /// says.
    pub fn dealt_at(&self) -> Option<u64> {
        self.events.iter().rev().find_map(|e| match e {
            Stored::Deal { at, .. } => Some(*at),
            _ => None,
        })?
    }

    /// The table's event number: how many events it has.
    pub fn v(&self) -> u64 {
        self.events.len() as u64
    }

    /// The number of the last event that changed the game or what a seat
    /// may decide: an act chosen at any event from it on was chosen
    /// knowing everything it depends on. Events of the lobby alone (a seat
    /// taken back on another device, a newcomer waiting or giving up, a
    /// player saying they will leave after the hand) do not make others'
    /// moves stale: a player taking their seat back in a loop must not
    /// freeze the table (issue 40).
    pub fn game_v(&self) -> u64 {
        self.game_v
    }

    /// Whether a move chosen at event `v` is one the table can still take:
    /// chosen knowing every event that changed the game, and not past the
    /// log.
    pub fn is_current(&self, v: u64) -> bool {
        (self.game_v..=self.v()).contains(&v)
    }

    /// Whether the set number of hands has been played.
    pub fn is_over(&self) -> bool {
        self.game.as_ref().is_some_and(Game::is_over)
    }

    /// The lobby seat holding `token`; every hash is compared, in constant
    /// time, whatever matches.
    pub fn seat_of_token(&self, token: &SeatToken) -> Result<usize, TableError> {
        let mut found = None;
        for (i, seat) in self.seats.iter().enumerate() {
            if let Some(hash) = &seat.hash
                && token_matches(token, hash)
            {
                found = Some(i);
            }
        }
        found.ok_or(TableError::BadToken)
    }

    /// The host: the earliest-seated human still at the table.
    pub fn host(&self) -> Option<usize> {
        self.seats.iter().position(|s| s.bot.is_none())
    }

    /// The lobby seat with this name.
    pub fn seat_named(&self, name: &str) -> Option<usize> {
        self.seats.iter().position(|s| s.name == name)
    }

    /// Lobby seat `i`'s seat of play in the current hand.
    pub fn game_seat(&self, i: usize) -> Option<Seat> {
        let game = self.game.as_ref().filter(|g| !g.hands().is_empty())?;
        if self.seats[i].waiting {
            return None;
        }
        game.player_named(&self.seats[i].name)
            .and_then(|p| game.seat_of(p))
    }

    /// The lobby seat playing seat `seat` of the current hand.
    pub fn lobby_at(&self, seat: Seat) -> Option<usize> {
        let game = self.game.as_ref().filter(|g| !g.hands().is_empty())?;
        self.seat_named(game.name(game.player_at(seat)))
    }

    /// Lobby seats with a decision to make now. Omniscient (while the hand
    /// is set up, players are shown only how many are ready): for the actor,
    /// which plays bots and runs timers.
    pub fn to_act(&self) -> Vec<usize> {
        let Some(game) = self.game.as_ref().filter(|g| !g.hands().is_empty()) else {
            return Vec::new();
        };
        game.hand()
            .to_act()
            .iter()
            .filter_map(|s| self.lobby_at(s))
            .collect()
    }

    /// Lobby seat `i`'s decision now, if any.
    pub fn decision_of(&self, i: usize) -> Option<Decision> {
        let seat = self.game_seat(i)?;
        self.game.as_ref()?.hand().decision(seat)
    }

    /// Whether the current hand is being set up.
    pub fn in_setup(&self) -> bool {
        self.game
            .as_ref()
            .filter(|g| !g.hands().is_empty())
            .is_some_and(|g| g.hand().stage() == Stage::Setup)
    }

    /// Whether the current hand is over and another is due.
    pub fn deal_due(&self) -> bool {
        self.game
            .as_ref()
            .is_some_and(|g| g.is_between_hands() && !g.is_over())
    }

    /// The seats a newcomer may take at the next hand: the seating after
    /// the leaves and the joins so far.
    pub fn join_options(&self) -> Vec<usize> {
        self.game
            .as_ref()
            .map_or_else(Vec::new, |g| join_seats(g.next_seating().len()))
    }

    /// Seated players who stay for the next hand.
    fn staying(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| !s.waiting && !s.leaving)
            .count()
    }

    /// Checks `event` and applies it, or says why not and changes nothing.
    pub fn apply(&mut self, event: Stored) -> Result<(), TableError> {
        let conflict = |c: Conflict| Err(TableError::Conflict(c));
        let no_seat = |name: &PlayerName| BadRequest::NoSeatNamed {
            name: name.to_string(),
        };
        match &event {
            Stored::Seat {
                name,
                hash,
                bot,
                player,
                from,
            }
            | Stored::Waiting {
                name,
                hash,
                bot,
                player,
                from,
            } => {
                let waiting = matches!(event, Stored::Waiting { .. });
                let name = crate::names::check_name(name)?;
                let hash = parse_hash(hash)?;
                if waiting {
                    let Some(game) = &self.game else {
                        return conflict(Conflict::SeatInstead);
                    };
                    if !self.rules.join_and_leave {
                        return conflict(Conflict::ClosedToNewcomers);
                    }
                    if game.is_over() {
                        return conflict(Conflict::Over);
                    }
                    if game.player_named(&name).is_some() {
                        return conflict(Conflict::PlayedHere {
                            name: name.to_string(),
                        });
                    }
                } else if self.game.is_some() {
                    return conflict(Conflict::Started);
                }
                if self.seats.len() >= self.row.seats {
                    let seats = self.row.seats;
                    return conflict(Conflict::SeatsTaken { seats });
                }
                if self.seat_named(&name).is_some() {
                    return conflict(Conflict::NameTaken {
                        name: name.to_string(),
                    });
                }
                self.seats.push(SeatState {
                    name,
                    hash,
                    bot: bot.clone(),
                    player: player.clone(),
                    from: from.clone(),
                    waiting,
                    leaving: false,
                });
            }
            Stored::Unseat { name } => {
                let i = self.seat_named(name).ok_or_else(|| no_seat(name))?;
                if self.game.is_some() && !self.seats[i].waiting {
                    return conflict(Conflict::LeaveBetweenHands);
                }
                self.seats.remove(i);
            }
            Stored::Start { draw_seed } => {
                if self.game.is_some() {
                    return conflict(Conflict::AlreadyStarted);
                }
                if self.seats.len() < MIN_PLAYERS {
                    let seated = self.seats.len();
                    return conflict(Conflict::TooFew { seated });
                }
                let seed = *draw_seed;
                let names = self.seats.iter().map(|s| s.name.to_string()).collect();
                let game = Game::drawn(self.rules, names, seed).map_err(Conflict::Game)?;
                self.game = Some(game);
                self.draw_seed = Some(seed);
            }
            Stored::Deal { seed, .. } => {
                let seed = *seed;
                let game = self.game.as_mut().ok_or(Conflict::NotStarted)?;
                game.next_hand_from(seed).map_err(Conflict::Game)?;
                self.seeds.push(seed);
                self.commitments.push(commitment(&seed));
            }
            // A logged act (a log replayed, a choice held by name): its
            // seat by its name.
            Stored::Act { player, action, .. } => {
                let i = self.seat_named(player).ok_or_else(|| no_seat(player))?;
                self.play(i, *action)?;
            }
            Stored::Rekey { name, hash } => {
                let i = self.seat_named(name).ok_or_else(|| no_seat(name))?;
                if self.seats[i].player.is_none() {
                    return conflict(Conflict::NotKept);
                }
                self.seats[i].hash = parse_hash(&Some(hash.clone()))?;
            }
            Stored::Leaving { name } => {
                let i = self.seat_named(name).ok_or_else(|| no_seat(name))?;
                if self.game.is_none() || self.seats[i].waiting {
                    return conflict(Conflict::NotInGame);
                }
                if !self.rules.join_and_leave {
                    return conflict(Conflict::NoLeaving);
                }
                if self.is_over() {
                    return conflict(Conflict::Over);
                }
                if self.seats[i].leaving {
                    return conflict(Conflict::AlreadyLeaving);
                }
                if self.staying() <= MIN_PLAYERS {
                    return conflict(Conflict::LastPlayers);
                }
                self.seats[i].leaving = true;
            }
            Stored::Leave { name } => {
                let i = self
                    .seat_named(name)
                    .filter(|&i| self.seats[i].leaving)
                    .ok_or_else(|| Conflict::NotLeaving {
                        name: name.to_string(),
                    })?;
                let game = self.game.as_mut().ok_or(Conflict::NotStarted)?;
                game.leave(name).map_err(Conflict::Game)?;
                self.left.push(self.seats.remove(i));
            }
            Stored::Join { name, seat } => {
                let i = self
                    .seat_named(name)
                    .filter(|&i| self.seats[i].waiting)
                    .ok_or_else(|| Conflict::NotWaiting {
                        name: name.to_string(),
                    })?;
                let game = self.game.as_mut().ok_or(Conflict::NotStarted)?;
                game.join(name, *seat).map_err(Conflict::Game)?;
                self.seats[i].waiting = false;
            }
        }
        self.keep(event);
        Ok(())
    }

    /// Lobby seat `at`'s action, resolved once (from its token, its bot or
    /// its clock) and carried to the game as that seat: applied, or refused
    /// with nothing changed. The log keeps it by the seat's name
    /// ([`SeatAction::event`]).
    ///
    /// ```
    /// use dalmuti_core::{Action, Seed};
    /// use dalmuti_table::names::PlayerName;
    /// use dalmuti_table::row::TableRow;
    /// use dalmuti_table::state::{Stored, TableState};
    /// let row = TableRow { seats: 3, ..TableRow::default() };
    /// let mut table = TableState::new(row).unwrap();
    /// for name in ["Ann", "Bo", "Cy"] {
    ///     let name = PlayerName::new(name).unwrap();
    ///     table.apply(Stored::Seat { name, hash: None, bot: None, player: None, from: None }).unwrap();
    /// }
    /// table.apply(Stored::Start { draw_seed: Seed::from(1) }).unwrap();
    /// table.apply(Stored::Deal { seed: Seed::from(2), at: None }).unwrap();
    /// let ready = table.seat_action(0, Action::Ready, false);
    /// assert!(matches!(ready.event(), Stored::Act { player, .. } if player == "Ann"));
    /// let v = table.v();
    /// table.act(ready).unwrap();
    /// assert_eq!(table.v(), v + 1);
    /// ```
    pub fn act(&mut self, action: SeatAction) -> Result<(), TableError> {
        let Stored::Act { action: what, .. } = action.event else {
            unreachable!("a seat's action is an act")
        };
        self.play(action.at, what)?;
        self.keep(action.event);
        Ok(())
    }

    /// Lobby seat `at` does `action` in the game.
    fn play(&mut self, at: usize, action: Action) -> Result<(), TableError> {
        let seat = self.game_seat(at).ok_or_else(|| {
            TableError::Illegal(IllegalMove::NotInHand(self.seats[at].name.to_string()))
        })?;
        let game = self.game.as_mut().expect("a seat of play means a game");
        game.apply(seat, action).map_err(|e| TableError::from(*e))
    }

    /// Lobby seat `at`'s `action` (by its stand-in or its clock if
    /// `auto`), to give [`TableState::act`].
    ///
    /// # Panics
    /// If the table has no seat `at`: it is one the table just resolved.
    pub fn seat_action(&self, at: usize, action: Action, auto: bool) -> SeatAction {
        let player = self.seats[at].name.clone();
        SeatAction {
            at,
            event: Stored::Act {
                player,
                action,
                auto,
            },
        }
    }

    /// Keeps an applied event in the log.
    fn keep(&mut self, event: Stored) {
        let lobby_only = match &event {
            Stored::Rekey { .. } | Stored::Waiting { .. } | Stored::Leaving { .. } => true,
            // A newcomer giving up before they entered (after the start).
            Stored::Unseat { .. } => self.game.is_some(),
            _ => false,
        };
        self.events.push(event);
        if !lobby_only {
            self.game_v = self.v();
        }
    }

    /// The fairness data: the draw's seed, each hand's commitment, and its
    /// seed once that hand is over.
    pub fn fairness(&self) -> Fairness {
        let Some(game) = &self.game else {
            return Fairness::default();
        };
        let hands = game.hands();
        Fairness {
            draw_seed: self.draw_seed.map(|s| s.to_string()),
            hands: self
                .seeds
                .iter()
                .zip(hands)
                .enumerate()
                .map(|(k, (seed, log))| {
                    let over = k + 1 < hands.len() || game.is_between_hands();
                    HandSeed {
                        hand: k + 1,
                        players: log.hand.players(),
                        commitment: self.commitments[k].clone(),
                        seed: over.then(|| seed.to_string()),
                    }
                })
                .collect(),
        }
    }

    /// Event `v` (from 1) as lobby seat `who` (or a spectator) may know
    /// it; none if there is no such event.
    pub fn describe(&self, v: u64, who: Option<usize>) -> Option<Described> {
        let event = (v as usize)
            .checked_sub(1)
            .and_then(|i| self.events.get(i))?;
        Some(match event {
            Stored::Seat { name: n, bot, .. } => Described::Seat {
                name: n.clone(),
                bot: bot.clone(),
            },
            Stored::Waiting { name: n, bot, .. } => Described::Waiting {
                name: n.clone(),
                bot: bot.clone(),
            },
            Stored::Unseat { name: n } => Described::Unseat { name: n.clone() },
            Stored::Start { draw_seed } => {
                // Before any join, the game's players are in seating order.
                let seating =
                    self.game
                        .as_ref()
                        .map_or_else(Vec::new, |g| match g.hands().first() {
                            Some(h) => h
                                .dealt_seating
                                .iter()
                                .map(|&p| PlayerName::seated(g.name(p)))
                                .collect(),
                            None => g.players().map(|p| PlayerName::seated(g.name(p))).collect(),
                        });
                Described::Start {
                    draw_seed: *draw_seed,
                    seating,
                }
            }
            Stored::Deal { .. } => {
                // Which hand: count the deals up to this event.
                let hand = self.events[..v as usize]
                    .iter()
                    .filter(|e| matches!(e, Stored::Deal { .. }))
                    .count();
                Described::Deal {
                    hand,
                    commitment: self.commitments[hand - 1].clone(),
                }
            }
            Stored::Act {
                player,
                action,
                auto,
            } => {
                let mine = who.is_some_and(|i| &self.seats[i].name == player);
                // Saying ready is all anyone else learns of a setup choice
                // that could be keeping quiet about both Jesters: not even
                // who.
                if !mine && *action == Action::Ready {
                    return Some(Described::Ready);
                }
                Described::Act {
                    name: player.clone(),
                    action: if mine {
                        Seen::Shown(Wire(*action))
                    } else {
                        Seen::to_others(*action)
                    },
                    auto: *auto,
                }
            }
            // Nothing anyone at the table needs to know.
            Stored::Rekey { .. } => return None,
            Stored::Leaving { name: n } => Described::Leaving { name: n.clone() },
            Stored::Leave { name: n } => Described::Leave { name: n.clone() },
            Stored::Join { name: n, seat } => Described::Join {
                name: n.clone(),
                seat: *seat,
            },
        })
    }

    /// The STATE of `docs/PROTOCOL.md` for lobby seat `who` (a spectator
    /// if `None`), with what only the actor knows (`live`).
    pub fn state(&self, who: Option<usize>, live: &Live) -> State {
        let lobby = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| LobbyEntry {
                name: s.name.clone(),
                bot: s.bot.as_deref().map(|spec| bot_name(spec).to_string()),
                bot_n: s
                    .bot
                    .as_deref()
                    .and_then(|spec| crate::names::bot_number(bot_name(spec), &s.name)),
                connected: s.bot.is_some() || live.connected.get(i).copied().unwrap_or(false),
                away: live.away.get(i).copied().unwrap_or(false),
                waiting: s.waiting,
                leaving: s.leaving,
            })
            .collect();
        let name_of = |i: usize| self.seats[i].name.clone();
        let mut out = State {
            table: self.row.id.clone(),
            name: self.row.name.clone(),
            default_name: crate::names::DefaultTableName::of(&self.row.name),
            seats: self.row.seats,
            public: self.row.public,
            rules: self.rules,
            turn_seconds: self.row.turn_seconds,
            host: self.host().map(name_of),
            you: who.map(name_of),
            lobby,
            started: self.game.is_some(),
            game_over: self.is_over(),
            hand: 0,
            players: None,
            dealt: None,
            dealt_seat: None,
            view: None,
            decision: None,
            legal: None,
            deadline_ms: who.and_then(|i| live.deadline_ms.get(i).copied().flatten()),
            setup_ms: live.setup_ms,
            next_deal_ms: live.next_deal_ms,
            place: live
                .place
                .as_ref()
                .filter(|p| Some(p.chooser) == who)
                .map(|p| PlaceChoice {
                    name: p.newcomer.clone(),
                    seats: p.seats.clone(),
                }),
            program_port: live
                .program_port
                .filter(|_| who.is_some() && who == self.host()),
            totals: Vec::new(),
            fairness: self.fairness(),
            spectator_chat: self.row.spectator_chat,
            silenced: self.row.silenced.iter().map(|s| s.name.clone()).collect(),
            rematch: self.row.rematch.clone().map(|table| Rematch { table }),
            results: self.is_over().then(|| self.results()),
        };
        let Some(game) = &self.game else {
            return out;
        };
        out.totals = game
            .players()
            .map(|p| Total {
                name: PlayerName::seated(game.name(p)),
                total: game.total(p),
            })
            .collect();
        if game.hands().is_empty() {
            return out;
        }
        out.hand = game.hands().len();
        out.players = Some(
            Seat::all(game.hand().players())
                .map(|s| PlayerName::seated(game.name(game.player_at(s))))
                .collect(),
        );
        let seat = who.and_then(|i| self.game_seat(i));
        let view = game.view(seat.map_or(Viewer::Spectator, Viewer::Seat));
        if let Some(seat) = seat {
            out.decision = view.decision().map(Wire);
            // What the seat may send now, as bots are offered it: the
            // browser chooses among these rather than knowing the rules.
            // Never "ready": the table says that for everyone.
            out.legal = out.decision.is_some().then(|| {
                view.legal_actions()
                    .iter()
                    .filter(|a| **a != dalmuti_core::Action::Ready)
                    .map(|&a| Wire(a))
                    .collect()
            });
            out.dealt = Some(game.hand().dealt(seat).to_string());
            // A greater revolution reversed the seats after the deal.
            let n = game.hand().players();
            out.dealt_seat = Some(match game.hand().revolution() {
                Some(r) if r.greater => n - 1 - seat.index(),
                _ => seat.index(),
            });
        }
        out.view = Some(view.snapshot());
        out
    }

    /// Every finished hand's finishing order and points.
    pub fn results(&self) -> Vec<HandResult> {
        let Some(game) = &self.game else {
            return Vec::new();
        };
        game.hands()
            .iter()
            .enumerate()
            .filter(|(_, log)| log.hand.stage() == Stage::Over)
            .map(|(k, log)| {
                let points = log.hand.points();
                HandResult {
                    hand: k + 1,
                    order: log
                        .hand
                        .finish_order()
                        .iter()
                        .map(|&seat| Placed {
                            name: PlayerName::seated(game.name(log.player_at(seat))),
                            points: points.as_ref().map(|p| p[seat]),
                        })
                        .collect(),
                }
            })
            .collect()
    }

    /// The players in the order of the final standings: by points when
    /// the game is scored, ties (and unscored games) by the last hand's
    /// finishing order.
    pub fn standings(&self) -> Vec<&str> {
        let Some(game) = &self.game else {
            return Vec::new();
        };
        let Some(last) = game.hands().last() else {
            return Vec::new();
        };
        let mut order: Vec<_> = last.finishers().collect();
        if game.scored() {
            // A stable sort keeps the finishing order among equals.
            order.sort_by_key(|&p| std::cmp::Reverse(game.total(p)));
        }
        order.into_iter().map(|p| game.name(p)).collect()
    }

    /// Every step of a finished game as everyone may now see it: all
    /// hands, the spectator's view and the event.
    pub fn replay(&self) -> Result<Replay, TableError> {
        if !self.is_over() {
            return Err(Conflict::ReplayTooSoon.into());
        }
        let mut step = TableState::new(self.row.clone())?;
        let mut frames = Vec::new();
        for event in &self.events {
            step.apply(event.clone())?;
            let Some(game) = &step.game else { continue };
            if game.hands().is_empty() || !matches!(event, Stored::Deal { .. } | Stored::Act { .. })
            {
                continue;
            }
            let Some(e) = step.describe_public(step.v()) else {
                continue;
            };
            let seats = Seat::all(game.hand().players());
            frames.push(ReplayFrame {
                hand: game.hands().len(),
                e,
                players: seats
                    .clone()
                    .map(|s| PlayerName::seated(game.name(game.player_at(s))))
                    .collect(),
                hands: seats.map(|s| game.hand().held(s).to_string()).collect(),
                view: game.view(Viewer::Spectator).snapshot(),
            });
        }
        Ok(Replay {
            players: self.seats.iter().map(|s| s.name.clone()).collect(),
            bots: self.bots_named(),
            frames,
        })
    }

    /// The seats' names the server gave bots ("normal bot 3"), with their
    /// parts, for clients to say them in their player's words.
    pub fn bots_named(&self) -> Vec<crate::protocol::BotNamed> {
        self.seats
            .iter()
            .filter_map(|s| {
                let level = bot_name(s.bot.as_deref()?);
                let n = crate::names::bot_number(level, &s.name)?;
                Some(crate::protocol::BotNamed {
                    name: s.name.clone(),
                    bot: level.to_string(),
                    n,
                })
            })
            .collect()
    }

    /// Event `v` with every card shown: for replays of finished games.
    fn describe_public(&self, v: u64) -> Option<Described> {
        let mut e = self.describe(v, None)?;
        if let (Some(Stored::Act { action, .. }), Described::Act { action: seen, .. }) =
            (self.events.get(v as usize - 1), &mut e)
        {
            *seen = Seen::Shown(Wire(*action));
        }
        Some(e)
    }

    /// The record of a finished game, with its fairness data.
    pub fn record(&self) -> Result<FairRecord, TableError> {
        let game = (self.game.as_ref())
            .filter(|g| g.is_over())
            .ok_or(Conflict::RecordTooSoon)?;
        Ok(FairRecord {
            record: dalmuti_core::record::Record::from_game(game),
            fairness: self.fairness(),
        })
    }
}

/// A bot's level from its stored spec: `search:ms=300` → `expert`; a
/// contest program's seat stays [`PROGRAM`].
pub fn bot_name(spec: &str) -> &'static str {
    if spec == PROGRAM {
        return PROGRAM;
    }
    dalmuti_bots::Level::from_stored(spec).name()
}

/// The stored spec, and the `bot` the wire says, of a seat a contest
/// program (a UECda client) plays: `docs/UECDA.md`. Where no program
/// plays it (a table loaded again after a restart), a `normal` bot does.
pub const PROGRAM: &str = "program";

/// What the actor knows beyond the log: connections, timers, a pending
/// placement. Indexed by lobby seat.
#[derive(Clone, Debug, Default)]
pub struct Live {
    /// Whether the seat has a connection.
    pub connected: Vec<bool>,
    /// Whether a bot plays for the seat (gone past the grace period).
    pub away: Vec<bool>,
    /// Milliseconds left on the seat's turn timer.
    pub deadline_ms: Vec<Option<u64>>,
    /// While the hand is set up, milliseconds until everyone still to say
    /// ready is made ready (the same for every viewer).
    pub setup_ms: Option<u64>,
    /// Milliseconds until the next deal.
    pub next_deal_ms: Option<u64>,
    /// A newcomer waiting to be placed by the Greater Dalmuti.
    pub place: Option<Placement>,
    /// Where contest programs connect, if this table may seat them now
    /// (told to the host only).
    pub program_port: Option<u16>,
}

/// A newcomer the Greater Dalmuti must place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The lobby seat choosing.
    pub chooser: usize,
    /// The newcomer's name.
    pub newcomer: PlayerName,
    /// The seats to choose from.
    pub seats: Vec<usize>,
}

/// A token hash as stored.
pub fn hash_hex(hash: &[u8; 32]) -> String {
    hex(hash)
}
