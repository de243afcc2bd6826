//! One table: an actor task that owns the [`Game`] and its bots, and a
//! cheap-to-clone [`TableHandle`] that only holds a channel sender (like
//! fishnet's queue). Commands are applied one at a time, in order: no lock
//! guards the game.
//!
//! Every accepted change is an *event*, numbered from 1 per table, written
//! to the [`Store`] before anything is broadcast. Stored events:
//! `{"start": {"seed": HEX}}` (the game's seed: the seating draw and every
//! deal follow from it), `{"act": {"player": NAME, "action": ACTION}}` and
//! `{"deal": {}}` (the next hand). Replaying them rebuilds the game exactly.
//!
//! Each lobby seat has its own broadcast channel and spectators share one:
//! a message for a seat is built from `game.view(Viewer::Seat(seat))` only,
//! a spectator's from `Viewer::Spectator`, so a receiver never holds
//! another seat's cards.

use std::sync::Arc;

use dalmuti_bots::{Bot, BotSpec};
use dalmuti_core::{Action, Game, MAX_PLAYERS, MIN_PLAYERS, Rules, Seat, Seed, Viewer};
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::error::ServerError;
use crate::protocol::ServerMsg;
use crate::store::{SeatRow, Store, TableRow, hash_token, new_token, token_matches};

/// How many messages a slow receiver may fall behind before it must resync.
const CHANNEL: usize = 256;

/// A receiver of one viewer's messages.
pub type Feed = broadcast::Receiver<Arc<ServerMsg>>;

/// A public summary of a table, for the lobby list.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TableInfo {
    /// The id.
    pub id: String,
    /// The name.
    pub name: String,
    /// Seats in all.
    pub seats: usize,
    /// Seats taken (players and bots), by display name.
    pub taken: Vec<String>,
    /// Whether play has started.
    pub started: bool,
    /// The table's event number.
    pub v: u64,
}

type Reply<T> = oneshot::Sender<Result<T, ServerError>>;

enum Command {
    Join(String, Reply<String>),
    AddBot(String, Reply<String>),
    RemoveBot(String, Reply<()>),
    Start(Option<Seed>, Reply<()>),
    Act {
        token: String,
        action: Action,
        v: u64,
        reply: oneshot::Sender<Result<u64, (ServerError, ServerMsg)>>,
    },
    Subscribe(Option<String>, Reply<(Feed, ServerMsg)>),
    Chat(String, String, Reply<()>),
    Info(oneshot::Sender<TableInfo>),
}

/// A handle to a table's actor: clone it freely.
#[derive(Clone)]
pub struct TableHandle {
    tx: mpsc::Sender<Command>,
}

impl TableHandle {
    async fn ask<T>(&self, make: impl FnOnce(Reply<T>) -> Command) -> Result<T, ServerError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(make(reply))
            .await
            .map_err(|_| ServerError::Closed)?;
        rx.await.map_err(|_| ServerError::Closed)?
    }

    /// Takes a seat with a display name; returns the seat's secret token.
    pub async fn join(&self, name: &str) -> Result<String, ServerError> {
        let name = name.to_string();
        self.ask(|r| Command::Join(name, r)).await
    }

    /// Seats a bot (`random`, `greedy`, `heuristic`, `search[:…]`);
    /// returns its display name.
    pub async fn add_bot(&self, spec: &str) -> Result<String, ServerError> {
        let spec = spec.to_string();
        self.ask(|r| Command::AddBot(spec, r)).await
    }

    /// Removes a bot before the start.
    pub async fn remove_bot(&self, name: &str) -> Result<(), ServerError> {
        let name = name.to_string();
        self.ask(|r| Command::RemoveBot(name, r)).await
    }

    /// Starts the game with the seats taken, its deals seeded from the
    /// operating system's random source.
    pub async fn start(&self) -> Result<(), ServerError> {
        self.ask(|r| Command::Start(None, r)).await
    }

    /// Starts the game with deals from a given seed: for tests and replays
    /// only. The HTTP API never offers it, since a player who chose the
    /// seed would know every hand.
    pub async fn start_with_seed(&self, seed: Seed) -> Result<(), ServerError> {
        self.ask(|r| Command::Start(Some(seed), r)).await
    }

    /// Plays an action for the token's seat, chosen at event `v`. Returns
    /// the new event number, or the refusal with a resync snapshot for
    /// that seat (a spectator's if the token is wrong).
    pub async fn act(
        &self,
        token: &str,
        action: Action,
        v: u64,
    ) -> Result<u64, (ServerError, ServerMsg)> {
        let (reply, rx) = oneshot::channel();
        let closed = || {
            (
                ServerError::Closed,
                ServerMsg::error(0, "the table is closed"),
            )
        };
        self.tx
            .send(Command::Act {
                token: token.to_string(),
                action,
                v,
                reply,
            })
            .await
            .map_err(|_| closed())?;
        rx.await.map_err(|_| closed())?
    }

    /// The feed and a full snapshot for the token's seat, or for a
    /// spectator without a token.
    pub async fn subscribe(&self, token: Option<&str>) -> Result<(Feed, ServerMsg), ServerError> {
        let token = token.map(str::to_string);
        self.ask(|r| Command::Subscribe(token, r)).await
    }

    /// Sends a chat line from the token's seat to everyone at the table.
    pub async fn chat(&self, token: &str, text: &str) -> Result<(), ServerError> {
        let (token, text) = (token.to_string(), text.to_string());
        self.ask(|r| Command::Chat(token, text, r)).await
    }

    /// The table's public summary.
    pub async fn info(&self) -> Result<TableInfo, ServerError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Command::Info(reply))
            .await
            .map_err(|_| ServerError::Closed)?;
        rx.await.map_err(|_| ServerError::Closed)
    }
}

struct LobbySeat {
    name: String,
    token_hash: Option<[u8; 32]>,
    bot: Option<Box<dyn Bot>>,
    feed: broadcast::Sender<Arc<ServerMsg>>,
}

struct Table {
    row: TableRow,
    rules: Rules,
    store: Arc<dyn Store>,
    seats: Vec<LobbySeat>,
    spectators: broadcast::Sender<Arc<ServerMsg>>,
    game: Option<Game>,
    v: u64,
}

/// Creates a new table in the store and starts its actor.
pub fn create(store: Arc<dyn Store>, row: TableRow) -> Result<TableHandle, ServerError> {
    let rules: Rules = serde_json::from_str(&row.rules)
        .map_err(|e| ServerError::BadRequest(format!("rules: {e}")))?;
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&row.seats) {
        return Err(ServerError::BadRequest(format!(
            "a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {}",
            row.seats
        )));
    }
    store.create_table(&row)?;
    Ok(spawn(Table::new(row, rules, store)))
}

/// Rebuilds a stored table (its seats, then its game by replaying its
/// log) and starts its actor.
pub fn load(store: Arc<dyn Store>, row: TableRow) -> Result<TableHandle, ServerError> {
    let rules: Rules = serde_json::from_str(&row.rules)
        .map_err(|e| ServerError::Storage(format!("table {}: rules: {e}", row.id)))?;
    let seats = store.seats(&row.id)?;
    let events = store.log(&row.id)?;
    let mut table = Table::new(row, rules, store);
    for seat in seats {
        let bot = match &seat.bot {
            Some(spec) => Some(build_bot(spec, table.seats.len())?),
            None => None,
        };
        table.seats.push(LobbySeat {
            name: seat.name,
            token_hash: seat.token_hash,
            bot,
            feed: broadcast::channel(CHANNEL).0,
        });
    }
    for (i, text) in events.iter().enumerate() {
        let event: Value = serde_json::from_str(text)
            .map_err(|e| ServerError::Storage(format!("event {}: {e}", i + 1)))?;
        table.game = Some(
            table
                .next_state(&event)
                .map_err(|e| ServerError::Storage(format!("event {}: {e}", i + 1)))?,
        );
        table.v += 1;
    }
    Ok(spawn(table))
}

fn spawn(mut table: Table) -> TableHandle {
    let (tx, mut rx) = mpsc::channel(64);
    tokio::spawn(async move {
        // Bots may have been due to act when the server stopped.
        table.run_bots();
        while let Some(command) = rx.recv().await {
            table.handle(command);
        }
    });
    TableHandle { tx }
}

fn build_bot(spec: &str, index: usize) -> Result<Box<dyn Bot>, ServerError> {
    let parsed: BotSpec = spec
        .parse()
        .map_err(|e: dalmuti_bots::BadSpec| ServerError::BadRequest(e.0))?;
    if matches!(parsed, BotSpec::External { .. }) {
        return Err(ServerError::BadRequest(
            "external bots cannot be seated over the network".into(),
        ));
    }
    parsed
        .build(index as u64)
        .map_err(|e| ServerError::BadRequest(e.0))
}

impl Table {
    fn new(row: TableRow, rules: Rules, store: Arc<dyn Store>) -> Table {
        Table {
            row,
            rules,
            store,
            seats: Vec::new(),
            spectators: broadcast::channel(CHANNEL).0,
            game: None,
            v: 0,
        }
    }

    fn handle(&mut self, command: Command) {
        match command {
            Command::Join(name, reply) => {
                let _ = reply.send(self.join(name));
            }
            Command::AddBot(spec, reply) => {
                let result = build_bot(&spec, self.seats.len()).and_then(|bot| {
                    let name = (1..)
                        .map(|i| format!("{} bot {i}", bot.name()))
                        .find(|n| self.seats.iter().all(|s| &s.name != n))
                        .expect("a free name");
                    self.add_seat(name.clone(), None, Some((spec, bot)))?;
                    Ok(name)
                });
                let _ = reply.send(result);
            }
            Command::RemoveBot(name, reply) => {
                let _ = reply.send(self.remove_bot(&name));
            }
            Command::Start(seed, reply) => {
                let result = self.start(seed);
                let _ = reply.send(result);
                self.run_bots();
            }
            Command::Act {
                token,
                action,
                v,
                reply,
            } => {
                let result = self.act(&token, action, v);
                let _ = reply.send(result);
                self.run_bots();
            }
            Command::Subscribe(token, reply) => {
                let result = self.viewer_index(token.as_deref()).map(|who| {
                    let feed = match who {
                        Some(i) => self.seats[i].feed.subscribe(),
                        None => self.spectators.subscribe(),
                    };
                    (feed, self.message("snapshot", who))
                });
                let _ = reply.send(result);
            }
            Command::Chat(token, text, reply) => {
                let result = self.viewer_index(Some(&token)).map(|who| {
                    let from = &self.seats[who.expect("a seat")].name;
                    let msg = Arc::new(ServerMsg {
                        t: "chat",
                        v: self.v,
                        d: json!({ "from": from, "text": text }),
                    });
                    for seat in &self.seats {
                        let _ = seat.feed.send(msg.clone());
                    }
                    let _ = self.spectators.send(msg);
                });
                let _ = reply.send(result);
            }
            Command::Info(reply) => {
                let _ = reply.send(TableInfo {
                    id: self.row.id.clone(),
                    name: self.row.name.clone(),
                    seats: self.row.seats,
                    taken: self.seats.iter().map(|s| s.name.clone()).collect(),
                    started: self.game.is_some(),
                    v: self.v,
                });
            }
        }
    }

    /// The lobby seat holding `token`; `None` without a token (spectator).
    fn viewer_index(&self, token: Option<&str>) -> Result<Option<usize>, ServerError> {
        let Some(token) = token else { return Ok(None) };
        // Every hash is compared, in constant time, whatever matches.
        let mut found = None;
        for (i, seat) in self.seats.iter().enumerate() {
            if let Some(hash) = &seat.token_hash
                && token_matches(token, hash)
            {
                found = Some(i);
            }
        }
        found.map(Some).ok_or(ServerError::BadToken)
    }

    fn check_lobby(&self) -> Result<(), ServerError> {
        if self.game.is_some() {
            return Err(ServerError::Conflict(
                "the game has started: seats change between hands (not yet supported)".into(),
            ));
        }
        if self.seats.len() >= self.row.seats {
            return Err(ServerError::Conflict(format!(
                "all {} seats are taken",
                self.row.seats
            )));
        }
        Ok(())
    }

    fn join(&mut self, name: String) -> Result<String, ServerError> {
        let name = name.trim().to_string();
        if name.is_empty() || name.chars().count() > 32 {
            return Err(ServerError::BadRequest(
                "a display name has 1 to 32 characters".into(),
            ));
        }
        let token = new_token();
        self.add_seat(name, Some(hash_token(&token)), None)?;
        Ok(token)
    }

    fn add_seat(
        &mut self,
        name: String,
        token_hash: Option<[u8; 32]>,
        bot: Option<(String, Box<dyn Bot>)>,
    ) -> Result<(), ServerError> {
        self.check_lobby()?;
        if self.seats.iter().any(|s| s.name == name) {
            return Err(ServerError::Conflict(format!(
                "the name {name:?} is taken at this table"
            )));
        }
        let (spec, bot) = bot.unzip();
        self.store.add_seat(
            &self.row.id,
            &SeatRow {
                name: name.clone(),
                token_hash,
                bot: spec,
            },
        )?;
        self.seats.push(LobbySeat {
            name,
            token_hash,
            bot,
            feed: broadcast::channel(CHANNEL).0,
        });
        self.broadcast("event");
        Ok(())
    }

    fn remove_bot(&mut self, name: &str) -> Result<(), ServerError> {
        if self.game.is_some() {
            return Err(ServerError::Conflict("the game has started".into()));
        }
        let i = self
            .seats
            .iter()
            .position(|s| s.name == name && s.bot.is_some())
            .ok_or_else(|| ServerError::BadRequest(format!("no bot named {name:?}")))?;
        self.store.remove_seat(&self.row.id, name)?;
        self.seats.remove(i);
        self.broadcast("event");
        Ok(())
    }

    fn start(&mut self, seed: Option<Seed>) -> Result<(), ServerError> {
        if self.game.is_some() {
            return Err(ServerError::Conflict("the game has already started".into()));
        }
        if self.seats.len() < MIN_PLAYERS {
            return Err(ServerError::Conflict(format!(
                "{} seats taken: a game needs at least {MIN_PLAYERS}",
                self.seats.len()
            )));
        }
        let seed = seed.unwrap_or_else(Seed::from_entropy);
        self.commit(json!({ "start": { "seed": seed.to_string() } }))
    }

    /// The game after `event`, or why it cannot follow. Leaves `self`
    /// untouched.
    fn next_state(&self, event: &Value) -> Result<Game, ServerError> {
        if let Some(start) = event.get("start") {
            let seed: Seed = start["seed"]
                .as_str()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| ServerError::Storage("start: bad seed".into()))?;
            let names = self.seats.iter().map(|s| s.name.clone()).collect();
            return Game::new(self.rules, names, seed)
                .map_err(|e| ServerError::Conflict(e.to_string()));
        }
        let mut game = self
            .game
            .clone()
            .ok_or_else(|| ServerError::Conflict("the game has not started".into()))?;
        if let Some(act) = event.get("act") {
            let name = act["player"].as_str().unwrap_or_default();
            let action = dalmuti_bots::protocol::decode_action(&act["action"])
                .map_err(|e| ServerError::BadRequest(e.0))?;
            let seat = game
                .player_named(name)
                .and_then(|p| game.seat_of(p))
                .ok_or_else(|| ServerError::Illegal(format!("{name} is not in this hand")))?;
            game.apply(seat, action)
                .map_err(|e| ServerError::Illegal(e.to_string()))?;
        } else if event.get("deal").is_some() {
            game.next_hand()
                .map_err(|e| ServerError::Conflict(e.to_string()))?;
        } else {
            return Err(ServerError::Storage(format!("unknown event {event}")));
        }
        Ok(game)
    }

    /// Checks an event, writes it, then applies and broadcasts it; deals
    /// the next hand when one ends.
    fn commit(&mut self, event: Value) -> Result<(), ServerError> {
        let game = self.next_state(&event)?;
        self.store
            .append(&self.row.id, self.v + 1, &event.to_string())?;
        self.game = Some(game);
        self.v += 1;
        self.broadcast("event");
        let game = self.game.as_ref().expect("started");
        if game.is_between_hands() && !game.is_over() {
            self.commit(json!({ "deal": {} }))?;
        }
        Ok(())
    }

    #[allow(clippy::result_large_err)] // a refusal carries its resync snapshot
    fn act(
        &mut self,
        token: &str,
        action: Action,
        v: u64,
    ) -> Result<u64, (ServerError, ServerMsg)> {
        let who = match self.viewer_index(Some(token)) {
            Ok(who) => who,
            Err(e) => return Err(self.refusal(e, None)),
        };
        if v != self.v {
            let e = ServerError::Stale {
                sent: v,
                current: self.v,
            };
            return Err(self.refusal(e, who));
        }
        let name = self.seats[who.expect("a seat")].name.clone();
        let event = json!({ "act": { "player": name, "action": dalmuti_bots::protocol::encode_action(&action) } });
        match self.commit(event) {
            Ok(()) => Ok(self.v),
            Err(e) => Err(self.refusal(e, who)),
        }
    }

    fn refusal(&self, error: ServerError, who: Option<usize>) -> (ServerError, ServerMsg) {
        let mut msg = self.message("resync", who);
        msg.d["error"] = json!(error.to_string());
        (error, msg)
    }

    /// Lets bots play while one is to act.
    fn run_bots(&mut self) {
        loop {
            let Some(game) = &self.game else { return };
            let to_act = game.view(Viewer::Spectator).to_act();
            let due = to_act.iter().find_map(|seat| {
                let player = game.player_at(seat);
                let i = self
                    .seats
                    .iter()
                    .position(|s| s.name == game.name(player))?;
                self.seats[i].bot.is_some().then_some((i, seat))
            });
            let Some((i, seat)) = due else { return };
            let view = game.view(Viewer::Seat(seat));
            let legal = view.legal_actions();
            let bot = self.seats[i].bot.as_mut().expect("a bot");
            let action = bot
                .decide(&view, &legal)
                .unwrap_or_else(|_| dalmuti_bots::fallback(&legal));
            let name = self.seats[i].name.clone();
            let event = json!({ "act": { "player": name, "action": dalmuti_bots::protocol::encode_action(&action) } });
            if self.commit(event).is_err() {
                // Storage failed: stop rather than loop; the next command retries.
                return;
            }
        }
    }

    /// The full state as lobby seat `who` (or a spectator) may see it.
    fn message(&self, t: &'static str, who: Option<usize>) -> ServerMsg {
        let lobby: Vec<Value> = self
            .seats
            .iter()
            .map(|s| json!({ "name": s.name, "bot": s.bot.as_ref().map(|b| b.name()) }))
            .collect();
        let (players, view, over) = match &self.game {
            None => (Value::Null, Value::Null, false),
            Some(game) => {
                let players: Vec<&str> = Seat::all(game.hand().players())
                    .map(|s| game.name(game.player_at(s)))
                    .collect();
                let viewer = who
                    .and_then(|i| game.player_named(&self.seats[i].name))
                    .and_then(|p| game.seat_of(p))
                    .map_or(Viewer::Spectator, Viewer::Seat);
                (
                    json!(players),
                    json!(game.view(viewer).snapshot()),
                    game.is_over(),
                )
            }
        };
        ServerMsg {
            t,
            v: self.v,
            d: json!({
                "table": self.row.id,
                "name": self.row.name,
                "seats": self.row.seats,
                "lobby": lobby,
                "started": self.game.is_some(),
                "you": who.map(|i| &self.seats[i].name),
                "players": players,
                "view": view,
                "game_over": over,
            }),
        }
    }

    fn broadcast(&self, t: &'static str) {
        for (i, seat) in self.seats.iter().enumerate() {
            if seat.feed.receiver_count() > 0 {
                let _ = seat.feed.send(Arc::new(self.message(t, Some(i))));
            }
        }
        if self.spectators.receiver_count() > 0 {
            let _ = self.spectators.send(Arc::new(self.message(t, None)));
        }
    }
}
