//! Play now: players who kept a name ask for a table of a size, and the
//! server seats strangers together within seconds (`docs/PROTOCOL.md`,
//! Play now).
//!
//! The waiting players are tickets in the store, so any node may take
//! them: every node runs the matcher, and a match holds only if the store
//! claims all of its tickets at once ([`Store::claim_tickets`]); a node
//! that loses that race leaves an empty table, which expires unstarted.
//! Where more players wait than a table seats, the oldest ticket is seated
//! with those closest to it in rating; where too few wait, the table is
//! filled with bots once the oldest has waited as long as they chose, at
//! the bot level whose rating is nearest the players'.
//!
//! A player is told of their table only once it is whole and started
//! ([`Seating`]): the node that claimed the tickets seats the players and
//! bots, starts the game, and only then marks the tickets seated. A table
//! that cannot be made gives its tickets back to the queue, and a claim a
//! node left halfway (it stopped) is settled by any node after
//! [`CLAIM_MS`]: seated if its table started, back in the queue if not.
//!
//! What the queue may make is bounded (`docs/PLAYERS.md`, Play now): a
//! player's tables by their name ([`PLAYER_BURST`], [`PLAYER_INTERVAL`]),
//! and by their address with the tables they make themselves; a node's
//! play-now tables to a share of its table cap ([`room`]), so the queue can
//! never leave no room for a table someone makes by hand.
//!
//! [`Store::claim_tickets`]: crate::store::Store::claim_tickets

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::error::{BadRequest, Full, NotFound, ServerError};
use crate::ids::TableId;
use crate::players::{Player, from_headers};
use crate::registry::AppState;
use crate::store::{Enqueued, Seating, TableRow, Ticket};
use crate::table::TableHandle;
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
/// A claim neither seated nor given back for this long was left by a node
/// that stopped halfway: making a table takes milliseconds.
pub const CLAIM_MS: u64 = 60_000;
pub use crate::limits::{PLAYER_BURST, PLAYER_INTERVAL};

/// The most play-now tables a node with a cap of `max_tables` keeps at
/// once: half of them (at least one), so the queue never fills the cap.
///
/// ```
/// assert_eq!(dalmuti_server::queue::room(10_000), 5_000);
/// assert_eq!(dalmuti_server::queue::room(1), 1);
/// ```
pub fn room(max_tables: usize) -> usize {
    (max_tables / 2).max(1)
}

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
/// use dalmuti_server::store::{Seating, Ticket};
/// let ticket = |id: &str, mu: f64, since: u64| Ticket {
///     id: id.into(), key: id.into(), name: PlayerName::new(id).unwrap(),
///     game: "dalmuti".into(), players: 3, wait_ms: 10_000, mu, since, from: None,
///     seating: Seating::Waiting,
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

/// One look at the queue: claims left halfway settled, then every table
/// it calls for made, while the node has room for them.
async fn round(state: &AppState) -> Result<(), ServerError> {
    settle(state).await?;
    let stale_before = now_ms().saturating_sub(STALE_MS);
    let waiting = state.repo.waiting(stale_before).await?;
    for m in matches(&waiting, now_ms()) {
        if made_here(state) >= room(state.config.max_tables) {
            // Full: the tickets wait (and say so) until tables end.
            break;
        }
        if let Err(e) = seat(state, m).await {
            tracing::warn!(error = %e, "a play-now table could not be made");
        }
    }
    Ok(())
}

/// The live play-now tables this node made.
fn made_here(state: &AppState) -> usize {
    let mut made = state
        .play_now_tables
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    made.retain(|h| !h.is_closed());
    made.len()
}

/// Makes the table of `m`: the store claims its tickets first (all or
/// none), then the players take their seats (each takes it back on their
/// device with their secret), bots fill it and it starts; only then are
/// the tickets seated, so a player polling meanwhile still waits. A table
/// that could not be made gives its tickets back.
async fn seat(state: &AppState, m: Match) -> Result<(), ServerError> {
    let first = &m.tickets[0];
    let rules = match first.game.parse::<dalmuti_core::Variant>() {
        // A short match of the variant's own rules, scored by places.
        Ok(variant @ (dalmuti_core::Variant::Daifugo | dalmuti_core::Variant::President)) => {
            dalmuti_core::Rules {
                variant,
                hands: Some(HANDS),
                ..dalmuti_core::Rules::daifugo()
            }
        }
        variant => dalmuti_core::Rules {
            variant: variant.unwrap_or_default(),
            hands: Some(HANDS),
            scoring: dalmuti_core::Scoring::Standard,
            ..dalmuti_core::Rules::default()
        },
    };
    let level = bot_level(state, &m).await?;
    let row = TableRow {
        id: TableId::new(),
        name: String::new(),
        seats: first.players,
        rules,
        public: true,
        turn_seconds: Some(TURN_SECONDS),
        spectator_chat: false,
        rematch: None,
        rated: true,
        silenced: Vec::new(),
    };
    let id = row.id.clone();
    let handle = state.make_table(row, None, &first.name).await?;
    state
        .play_now_tables
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(handle.clone());
    let ids: Vec<String> = m.tickets.iter().map(|t| t.id.clone()).collect();
    if !state.repo.claim_tickets(ids, &id, now_ms()).await? {
        // Another node claimed one of them: this table, empty, expires.
        return Ok(());
    }
    if let Err(e) = make_whole(state, &handle, &id, &m, level).await {
        // Not started: it expires, and its players wait for another.
        state.repo.release_claim(&id).await?;
        return Err(e);
    }
    let seated = state.repo.seat_claimed(&id).await?;
    if seated < m.tickets.len() {
        tracing::warn!(table = %id, seated, "play now: a ticket was dropped while its table was made");
    }
    tracing::info!(table = %id, players = m.tickets.len(), bots = m.bots, "play now: a table of strangers");
    Ok(())
}

/// Seats `m`'s players and bots at the table of `handle` and starts it.
async fn make_whole(
    state: &AppState,
    handle: &TableHandle,
    id: &TableId,
    m: &Match,
    level: &'static str,
) -> Result<(), ServerError> {
    let mut host = None;
    for ticket in &m.tickets {
        let player = Player {
            name: ticket.name.clone(),
            key: ticket.key.clone(),
        };
        let token = handle.join_as(&player, ticket.from.clone()).await?;
        crate::players::remember_seat(state, &player, id).await;
        host.get_or_insert(token);
    }
    let host = host.expect("a match seats a player");
    for _ in 0..m.bots {
        handle.add_bot(&host, level).await?;
    }
    handle.start(&host).await
}

/// Settles the claims some node left halfway for longer than
/// [`CLAIM_MS`]: a table that started is its players' (the tickets are
/// seated there); one that did not, or is gone, gives them back. A table
/// another node serves is that node's to settle.
async fn settle(state: &AppState) -> Result<(), ServerError> {
    let before = now_ms().saturating_sub(CLAIM_MS);
    let stale = state.repo.stale_claims(before).await?;
    for table in stale {
        let started = match state.find(&table).await {
            Ok(Some(handle)) => match handle.info().await {
                Ok(info) => info.started,
                Err(ServerError::Closed) => false,
                Err(e) => return Err(e),
            },
            Ok(None) => false,
            Err(ServerError::Moved { .. }) | Err(ServerError::Draining) => continue,
            Err(e) => return Err(e),
        };
        let (settled, how) = if started {
            let n = state.repo.seat_claimed(&table).await?;
            (n, "seated at the table it started")
        } else {
            let n = state.repo.release_claim(&table).await?;
            (n, "back in the queue")
        };
        tracing::warn!(table = %table, tickets = settled, "play now: a claim left halfway, {how}");
    }
    Ok(())
}

/// The bot level whose rating (in the match's game and band) is nearest
/// the players' mean; `normal` while no level has one.
async fn bot_level(state: &AppState, m: &Match) -> Result<&'static str, ServerError> {
    if m.bots == 0 {
        return Ok("normal");
    }
    let mean = m.tickets.iter().map(|t| t.mu).sum::<f64>() / m.tickets.len() as f64;
    let band = crate::ratings::band(m.tickets[0].players);
    let rows = state
        .repo
        .leaderboard(&m.tickets[0].game, band, 100)
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

/// Where a ticket stands. (Public and `Deserialize` so that tests read
/// the answer as this type.)
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Standing {
    /// Waiting: since when, and how many wait for the same table.
    Waiting {
        /// The ticket.
        ticket: String,
        /// When it was taken (milliseconds since the Unix epoch).
        since: u64,
        /// How many wait for the same table.
        waiting: usize,
    },
    /// Seated at `table`: take the seat back there (`POST
    /// /api/tables/{table}/seats/mine`).
    Seated {
        /// The ticket.
        ticket: String,
        /// The table.
        table: TableId,
    },
}

async fn player(state: &AppState, headers: &HeaderMap) -> Result<Player, ServerError> {
    from_headers(state, headers)
        .await?
        .ok_or(ServerError::NoPlayer)
}

async fn ask(
    State(state): State<AppState>,
    client: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    json: Result<Json<Ask>, axum::extract::rejection::JsonRejection>,
) -> Result<(StatusCode, Json<Standing>), ServerError> {
    let me = player(&state, &headers).await?;
    let req = crate::request::body(json)?;
    let game = match req.game.as_deref().unwrap_or("dalmuti") {
        game @ ("dalmuti" | "corporate-shuffle" | "daifugo" | "president") => game.to_string(),
        other => {
            let asked = other.to_string();
            return Err(BadRequest::Game { asked }.into());
        }
    };
    let most = if game == "dalmuti" { 16 } else { 8 };
    if !(3..=most).contains(&req.players) {
        return Err(BadRequest::Players { game, most }.into());
    }
    let wait_ms = req.wait.saturating_mul(1000);
    if wait_ms > MAX_WAIT_MS {
        let most = MAX_WAIT_MS / 1000;
        return Err(BadRequest::Wait { most }.into());
    }
    // Each ask may make a table: counted under the player's name, and
    // with the tables their address makes by hand.
    let address = crate::request::address(client.as_ref());
    state.play_now.check_key(&me.key)?;
    state.creation.check(address)?;
    let band = crate::ratings::band(req.players);
    let mu = state
        .repo
        .player_ratings(&me.key)
        .await?
        .into_iter()
        .find(|r| r.game == game && r.band == band)
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
        from: Some(crate::ratings::origin(address)),
        seating: Seating::Waiting,
    };
    match state.repo.enqueue(ticket, QUEUE_CAP).await? {
        Enqueued::Waiting(ticket) => {
            let standing = standing(&state, ticket).await?;
            Ok((StatusCode::CREATED, Json(standing)))
        }
        Enqueued::Full => Err(Full::Queue.into()),
    }
}

/// Where `ticket` stands, with how many wait for the same table. A
/// ticket whose table is being made still waits: its player is sent to a
/// table only once it is whole and started.
async fn standing(state: &AppState, ticket: Ticket) -> Result<Standing, ServerError> {
    if let Seating::Seated(table) = ticket.seating {
        return Ok(Standing::Seated {
            ticket: ticket.id,
            table,
        });
    }
    let stale_before = now_ms().saturating_sub(STALE_MS);
    let waiting = state.repo.waiting(stale_before).await?;
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
    let found = state.repo.poll_ticket(&id, &me.key, now_ms()).await?;
    let ticket = found.ok_or(NotFound::Ticket)?;
    Ok(Json(standing(&state, ticket).await?))
}

async fn give_up(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<StatusCode, ServerError> {
    let me = player(&state, &headers).await?;
    state.repo.leave_queue(&me.key).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;
    use crate::Config;
    use crate::store::Store;
    use crate::store::faulty::{Faulty, Ping};
    use crate::table::state::Stored;

    fn ticket(name: &str, players: usize, wait_ms: u64) -> Ticket {
        Ticket {
            id: format!("ticket-{name}"),
            key: name.to_lowercase(),
            name: crate::names::PlayerName::new(name).unwrap(),
            game: "dalmuti".into(),
            players,
            wait_ms,
            mu: 25.0,
            since: now_ms(),
            from: None,
            seating: Seating::Waiting,
        }
    }

    /// Polls `ticket` as its player's client does until `done` holds.
    async fn poll_until(
        state: &AppState,
        t: &Ticket,
        done: impl Fn(&Standing) -> bool,
    ) -> Standing {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let (id, key) = (t.id.clone(), t.key.clone());
            let found = state
                .repo
                .poll_ticket(&id, &key, now_ms())
                .await
                .unwrap()
                .expect("the ticket is kept");
            let standing = standing(state, found).await.unwrap();
            if done(&standing) {
                return standing;
            }
            assert!(tokio::time::Instant::now() < deadline, "{standing:?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Issue 40: a ticket read "seated" while its table held only its
    /// player. Here the start of the table is slow to be written: the
    /// tickets are claimed and the table whole, yet every poll says
    /// "waiting" until the game has started.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_player_hears_of_the_table_only_once_it_is_whole_and_started() {
        let store = Faulty::new(Ping::Works);
        let go = store.hold("start");
        let state = AppState::open(store.clone(), Config::for_tests()).unwrap();
        tokio::spawn(run(state.clone()));
        let tickets: Vec<Ticket> = ["Ada", "Bo", "Cy"]
            .iter()
            .map(|n| ticket(n, 3, 60_000))
            .collect();
        for t in &tickets {
            store.enqueue(t, QUEUE_CAP).unwrap();
        }
        // The matcher claims them and seats the players…
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        let table = loop {
            let claimed = store
                .poll_ticket(&tickets[0].id, &tickets[0].key, now_ms())
                .unwrap()
                .unwrap()
                .seating;
            if let Seating::Claimed { table, .. } = claimed {
                break table;
            }
            assert!(tokio::time::Instant::now() < deadline, "never claimed");
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        // The table is whole: its three seats are in its log, the start
        // not yet (its actor waits for the write, so it is not asked).
        loop {
            let log = store.log(&table).unwrap();
            let seats = log
                .iter()
                .filter(|e| matches!(e, Stored::Seat { .. }))
                .count();
            assert!(!log.iter().any(|e| matches!(e, Stored::Start { .. })));
            if seats == 3 {
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "never whole: {log:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // …but while the start is not written, nobody is told.
        for t in &tickets {
            let standing = poll_until(&state, t, |_| true).await;
            assert!(
                matches!(standing, Standing::Waiting { .. }),
                "{}: {standing:?}",
                t.name
            );
        }
        go.send(()).unwrap();
        let handle = state.table(&table).await.unwrap();
        for t in &tickets {
            let standing = poll_until(&state, t, |s| matches!(s, Standing::Seated { .. })).await;
            let Standing::Seated { table: at, .. } = standing else {
                unreachable!()
            };
            assert_eq!(at, table);
            let info = handle.info().await.unwrap();
            assert!(info.started && info.taken.len() == 3, "{info:?}");
        }
    }

    /// A node that stopped halfway through making a table left its
    /// tickets claimed: any node gives them back to the queue if the table
    /// never started, or seats them there if it did.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_claim_left_halfway_is_settled_by_its_table() {
        let store = Faulty::new(Ping::Works);
        let state = AppState::open(store.clone(), Config::for_tests()).unwrap();
        tokio::spawn(run(state.clone()));
        // Alone, waiting for people for five minutes: no match meanwhile.
        let (lost, found) = (ticket("Ada", 3, 300_000), ticket("Bo", 4, 300_000));
        store.enqueue(&lost, QUEUE_CAP).unwrap();
        store.enqueue(&found, QUEUE_CAP).unwrap();
        // Bo's table was made, and started, before its node stopped.
        let row = TableRow {
            id: TableId::new(),
            name: String::new(),
            seats: 4,
            rules: dalmuti_core::Rules::default(),
            public: true,
            turn_seconds: None,
            spectator_chat: false,
            rematch: None,
            rated: false,
            silenced: Vec::new(),
        };
        let id = row.id.clone();
        let handle = state.make_table(row, None, "Bo").await.unwrap();
        let bo = Player {
            name: found.name.clone(),
            key: found.key.clone(),
        };
        let host = handle.join_as(&bo, None).await.unwrap();
        for _ in 0..3 {
            handle.add_bot(&host, "easy").await.unwrap();
        }
        handle.start(&host).await.unwrap();
        // Ada's table was never made. (The claims are from long ago: this
        // node's matcher may settle them before the test does.)
        let long_ago = now_ms() - CLAIM_MS - 1;
        assert!(
            store
                .claim_tickets(std::slice::from_ref(&lost.id), &"gone".into(), long_ago)
                .unwrap()
        );
        assert!(
            store
                .claim_tickets(std::slice::from_ref(&found.id), &id, long_ago)
                .unwrap()
        );

        settle(&state).await.unwrap();
        let seating = |t: &Ticket| {
            store
                .poll_ticket(&t.id, &t.key, now_ms())
                .unwrap()
                .unwrap()
                .seating
        };
        assert_eq!(seating(&lost), Seating::Waiting, "back in the queue");
        assert_eq!(seating(&found), Seating::Seated(id));
        let ids: Vec<String> = store
            .waiting(0)
            .unwrap()
            .into_iter()
            .map(|t| t.id)
            .collect();
        assert_eq!(ids, [lost.id.as_str()], "Ada waits in her place again");
        let _: Arc<dyn Store> = store;
    }
}
