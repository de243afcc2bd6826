//! Play now: players who kept a name ask for a table of a size, and the
//! server seats strangers together within seconds (`docs/PROTOCOL.md`,
//! Play now).
//!
//! The waiting players are tickets in the store, so any node may take
//! them: every node runs the matcher, and a match holds only if the store
//! seats all of its tickets at once ([`Store::seat_tickets`]); a node that
//! loses that race leaves an empty table, which expires unstarted. Where
//! more players wait than a table seats, the oldest ticket is seated with
//! those closest to it in rating; where too few wait, the table is filled
//! with bots once the oldest has waited as long as they chose, at the bot
//! level whose rating is nearest the players'.
//!
//! [`Store::seat_tickets`]: crate::store::Store::seat_tickets

use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::error::ServerError;
use crate::ids::TableId;
use crate::players::{Player, from_headers};
use crate::registry::AppState;
use crate::store::{Enqueued, TableRow, Ticket};
use crate::table::talk::now_ms;

/// Tickets that may wait at once, over the whole store: past it, a new
/// one is refused until some are seated.
pub const QUEUE_CAP: usize = 1000;
/// A ticket its player has not asked about for this long is dropped:
/// they closed the page (the client asks every second).
pub const STALE_MS: u64 = 20_000;
/// The longest wait for people a player may choose before bots fill in.
pub const MAX_WAIT_MS: u64 = 300_000;
/// How often each node looks for tables to make.
const TICK: Duration = Duration::from_millis(500);
/// Hands a table of strangers plays.
const HANDS: u32 = 5;
/// Its turn timer: a stranger who walks away holds nobody up for long.
const TURN_SECONDS: u32 = 30;

/// A table to make now: the tickets seated at it, and the bots that fill it.
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// The players' tickets, the oldest first (the table's host).
    pub tickets: Vec<Ticket>,
    /// Bots to add.
    pub bots: usize,
}

/// The tables to make from the tickets waiting (oldest first) at `now`.
///
/// ```
/// use dalmuti_server::names::PlayerName;
/// use dalmuti_server::queue::matches;
/// use dalmuti_server::store::Ticket;
/// let ticket = |id: &str, mu: f64, since: u64| Ticket {
///     id: id.into(), key: id.into(), name: PlayerName::new(id).unwrap(),
///     game: "dalmuti".into(), players: 3, wait_ms: 10_000, mu, since, table: None,
/// };
/// // Four wait for three seats: the oldest with the two nearest in rating.
/// let waiting = [ticket("a", 25.0, 0), ticket("b", 40.0, 1), ticket("c", 24.0, 2), ticket("d", 27.0, 3)];
/// let made = matches(&waiting, 5);
/// let ids: Vec<&str> = made[0].tickets.iter().map(|t| t.id.as_str()).collect();
/// assert_eq!((ids, made[0].bots), (vec!["a", "c", "d"], 0));
/// assert_eq!(made.len(), 1, "b waits on");
/// // Alone past the wait chosen: bots fill the table.
/// let made = matches(&[ticket("b", 40.0, 1)], 10_001);
/// assert_eq!(made[0].bots, 2);
/// assert!(matches(&[ticket("b", 40.0, 1)], 9_000).is_empty());
/// ```
pub fn matches(waiting: &[Ticket], now: u64) -> Vec<Match> {
    let mut made = Vec::new();
    let mut left: Vec<Ticket> = waiting.to_vec();
    while let Some(oldest) = left.first().cloned() {
        let mut kind: Vec<Ticket> = left
            .iter()
            .filter(|t| t.game == oldest.game && t.players == oldest.players)
            .cloned()
            .collect();
        let seated = if kind.len() >= oldest.players {
            // The oldest, and those nearest to it in rating (the oldest of
            // equals first: the sort is stable).
            let first = kind.remove(0);
            kind.sort_by(|a, b| (a.mu - first.mu).abs().total_cmp(&(b.mu - first.mu).abs()));
            kind.truncate(oldest.players - 1);
            kind.sort_by_key(|t| (t.since, t.id.clone()));
            kind.insert(0, first);
            Some(Match {
                tickets: kind,
                bots: 0,
            })
        } else if now.saturating_sub(oldest.since) >= oldest.wait_ms {
            let bots = oldest.players - kind.len();
            Some(Match {
                tickets: kind,
                bots,
            })
        } else {
            None
        };
        match seated {
            Some(m) => {
                left.retain(|t| !m.tickets.iter().any(|s| s.id == t.id));
                made.push(m);
            }
            // Nothing for the oldest of this kind yet: look at the others.
            None => left.retain(|t| !(t.game == oldest.game && t.players == oldest.players)),
        }
    }
    made
}

/// Runs the matcher on this node until it drains.
pub async fn run(state: AppState) {
    let mut ticks = tokio::time::interval(TICK);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if state.is_draining() {
            return;
        }
        if let Err(e) = round(&state).await {
            tracing::warn!(error = %e, "the play-now queue could not be matched this round");
        }
    }
}

/// One look at the queue: every table it calls for, made.
async fn round(state: &AppState) -> Result<(), ServerError> {
    let stale_before = now_ms().saturating_sub(STALE_MS);
    let waiting = state
        .store_call(move |store| store.waiting(stale_before))
        .await?;
    for m in matches(&waiting, now_ms()) {
        if let Err(e) = seat(state, m).await {
            tracing::warn!(error = %e, "a play-now table could not be made");
        }
    }
    Ok(())
}

/// Makes the table of `m`: the store seats its tickets first (all or
/// none), then the players take their seats (each takes it back on their
/// device with their secret), bots fill it, and it starts.
async fn seat(state: &AppState, m: Match) -> Result<(), ServerError> {
    let first = &m.tickets[0];
    let variant = match first.game.as_str() {
        "corporate-shuffle" => dalmuti_core::Variant::CorporateShuffle,
        _ => dalmuti_core::Variant::Dalmuti,
    };
    let rules = dalmuti_core::Rules {
        variant,
        hands: Some(HANDS),
        scoring: dalmuti_core::Scoring::Standard,
        ..dalmuti_core::Rules::default()
    };
    let level = bot_level(state, &m).await?;
    let row = TableRow {
        id: TableId::new(),
        name: String::new(),
        seats: first.players,
        rules: serde_json::to_string(&rules).expect("rules serialize"),
        public: true,
        turn_seconds: Some(TURN_SECONDS),
        spectator_chat: false,
        rematch: None,
        rated: true,
        silenced: Vec::new(),
    };
    let id = row.id.clone();
    let handle = state.make_table(row, None, &first.name).await?;
    let ids: Vec<String> = m.tickets.iter().map(|t| t.id.clone()).collect();
    let table = id.clone();
    if !state
        .store_call(move |store| store.seat_tickets(&ids, &table))
        .await?
    {
        // Another node seated one of them: this table, empty, expires.
        return Ok(());
    }
    let mut host = None;
    for ticket in &m.tickets {
        let player = Player {
            name: ticket.name.clone(),
            key: ticket.key.clone(),
        };
        let token = handle.join_as(&player).await?;
        crate::players::remember_seat(state, &player, &id).await;
        host.get_or_insert(token);
    }
    let host = host.expect("a match seats a player");
    for _ in 0..m.bots {
        handle.add_bot(&host, level).await?;
    }
    handle.start(&host).await?;
    tracing::info!(table = %id, players = m.tickets.len(), bots = m.bots, "play now: a table of strangers");
    Ok(())
}

/// The bot level whose rating (in the match's game and band) is nearest
/// the players' mean; `normal` while no level has one.
async fn bot_level(state: &AppState, m: &Match) -> Result<&'static str, ServerError> {
    if m.bots == 0 {
        return Ok("normal");
    }
    let mean = m.tickets.iter().map(|t| t.mu).sum::<f64>() / m.tickets.len() as f64;
    let game = m.tickets[0].game.clone();
    let band = crate::ratings::band(m.tickets[0].players);
    let rows = state
        .store_call(move |store| store.leaderboard(&game, band, 100))
        .await?;
    let nearest = crate::bots::LEVELS
        .into_iter()
        .filter_map(|level| {
            let row = rows.iter().find(|r| r.bot && r.name == level)?;
            Some((level, (row.rating.mu - mean).abs()))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1));
    Ok(nearest.map_or("normal", |(name, _)| name))
}

/// The routes: `POST /api/queue` asks for a table, `GET
/// /api/queue/{ticket}` says how it goes, `DELETE /api/queue` gives up.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/queue", post(ask).delete(give_up))
        .route("/api/queue/{ticket}", get(poll))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Ask {
    #[serde(default)]
    game: Option<String>,
    players: usize,
    /// Seconds to wait for people before bots fill the table.
    wait: u64,
}

/// Where a ticket stands.
#[derive(Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
enum Standing {
    /// Waiting: since when, and how many wait for the same table.
    Waiting {
        ticket: String,
        since: u64,
        waiting: usize,
    },
    /// Seated at `table`: take the seat back there (`POST
    /// /api/tables/{table}/seats/mine`).
    Seated { ticket: String, table: TableId },
}

async fn player(state: &AppState, headers: &HeaderMap) -> Result<Player, ServerError> {
    from_headers(state, headers)
        .await?
        .ok_or(ServerError::NoPlayer)
}

async fn ask(
    State(state): State<AppState>,
    headers: HeaderMap,
    json: Result<Json<Ask>, axum::extract::rejection::JsonRejection>,
) -> Result<(StatusCode, Json<Standing>), ServerError> {
    let me = player(&state, &headers).await?;
    let req = crate::http::body(json)?;
    let game = match req.game.as_deref().unwrap_or("dalmuti") {
        game @ ("dalmuti" | "corporate-shuffle") => game.to_string(),
        other => {
            return Err(ServerError::BadRequest(format!(
                "game: dalmuti or corporate-shuffle, not {other:?}"
            )));
        }
    };
    let most = if game == "corporate-shuffle" { 8 } else { 16 };
    if !(3..=most).contains(&req.players) {
        return Err(ServerError::BadRequest(format!(
            "players: 3 to {most} in {game}"
        )));
    }
    let wait_ms = req.wait.saturating_mul(1000);
    if wait_ms > MAX_WAIT_MS {
        return Err(ServerError::BadRequest(format!(
            "wait: 0 to {} seconds before bots fill the table",
            MAX_WAIT_MS / 1000
        )));
    }
    let (key, band, rated_game) = (
        me.key.clone(),
        crate::ratings::band(req.players),
        game.clone(),
    );
    let mu = state
        .store_call(move |store| store.player_ratings(&key))
        .await?
        .into_iter()
        .find(|r| r.game == rated_game && r.band == band)
        .map_or(crate::ratings::Rating::default().mu, |r| r.rating.mu);
    let ticket = Ticket {
        id: crate::ids::random_hex::<12>(),
        key: me.key,
        name: me.name,
        game,
        players: req.players,
        wait_ms,
        mu,
        since: now_ms(),
        table: None,
    };
    match state
        .store_call(move |store| store.enqueue(&ticket, QUEUE_CAP))
        .await?
    {
        Enqueued::Waiting(ticket) => {
            let standing = standing(&state, ticket).await?;
            Ok((StatusCode::CREATED, Json(standing)))
        }
        Enqueued::Full => Err(ServerError::Full(
            "the play-now queue is full: try again in a minute".into(),
        )),
    }
}

/// Where `ticket` stands, with how many wait for the same table.
async fn standing(state: &AppState, ticket: Ticket) -> Result<Standing, ServerError> {
    if let Some(table) = ticket.table {
        return Ok(Standing::Seated {
            ticket: ticket.id,
            table,
        });
    }
    let stale_before = now_ms().saturating_sub(STALE_MS);
    let waiting = state
        .store_call(move |store| store.waiting(stale_before))
        .await?;
    let same = waiting
        .iter()
        .filter(|t| t.game == ticket.game && t.players == ticket.players)
        .count();
    Ok(Standing::Waiting {
        ticket: ticket.id,
        since: ticket.since,
        waiting: same,
    })
}

async fn poll(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Standing>, ServerError> {
    let me = player(&state, &headers).await?;
    let found = state
        .store_call(move |store| store.poll_ticket(&id, &me.key, now_ms()))
        .await?;
    let ticket = found.ok_or_else(|| {
        ServerError::NotFound("no such ticket of yours: it was seated long ago, given up, or dropped for silence; ask again".into())
    })?;
    Ok(Json(standing(&state, ticket).await?))
}

async fn give_up(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<StatusCode, ServerError> {
    let me = player(&state, &headers).await?;
    state
        .store_call(move |store| store.leave_queue(&me.key))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
