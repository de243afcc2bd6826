//! Players who keep their name: an identity without a password
//! (`docs/PROTOCOL.md`, Players).
//!
//! A player picks a name once (`POST /api/players`) and is given a random
//! secret, which the browser keeps and shows once as a recovery link; the
//! server keeps only the secret's SHA-256. Whoever presents the secret
//! (`Authorization: Player SECRET`) is that player: its seats carry its
//! name, and nobody else may take a seat under that name or one that
//! looks like it ([`crate::names::alike`]).

use std::fmt;
use std::net::SocketAddr;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::error::{BadRequest, Conflict, NotFound, ServerError};
use crate::names::PlayerName;
use crate::registry::AppState;
use crate::store::PlayerRow;
use crate::token::{hash_token, token_matches};

pub use crate::limits::{
    RECLAIM_BURST, RECLAIM_INTERVAL, REGISTRATION_BURST, REGISTRATION_INTERVAL,
};

/// A player's secret: 128 random bits as 32 hex digits. Whoever holds it
/// is the player; the server keeps only its hash, and never prints it.
///
/// ```
/// use dalmuti_server::players::PlayerSecret;
/// let secret = PlayerSecret::new();
/// assert_eq!(secret.as_str().len(), 32);
/// assert_eq!(format!("{secret:?}"), "PlayerSecret(…)");
/// assert!(secret.matches(&secret.hash()));
/// assert!(!PlayerSecret::new().matches(&secret.hash()));
/// ```
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerSecret(String);

impl PlayerSecret {
    /// A new secret from the operating system's random source.
    #[allow(clippy::new_without_default)] // a random value is not a default
    pub fn new() -> PlayerSecret {
        PlayerSecret(crate::ids::random_hex::<16>())
    }

    /// The secret as sent: for the one answer that gives it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Its SHA-256: all the server keeps of it.
    pub fn hash(&self) -> [u8; 32] {
        hash_token(&self.0)
    }

    /// Whether it hashes to `hash`, compared in constant time.
    pub fn matches(&self, hash: &[u8; 32]) -> bool {
        token_matches(&self.0, hash)
    }
}

impl fmt::Debug for PlayerSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PlayerSecret(…)")
    }
}

/// The key a player who keeps `name` now is known by for good (their
/// seats, games and ratings): the name's look-alike form
/// ([`crate::names::form`]), so "Ann", "ANN" and "Аnn" (Cyrillic А) are
/// one name. It holds no colon, so it is never a bot level's key
/// (`bot:hard`). A player who kept their name under an older rule keeps
/// the key they were given ([`crate::store::PlayerRow::key`]); names are
/// compared by their forms, whoever kept them when.
///
/// ```
/// use dalmuti_server::names::PlayerName;
/// use dalmuti_server::players::name_key;
/// let key = |n| name_key(&PlayerName::new(n).unwrap());
/// assert_eq!(key("Ann"), key("ANN"));
/// assert_eq!(key("Ann"), key("\u{410}nn"));
/// assert_eq!(key("Alice"), key("AIice"));
/// assert_ne!(key("Ann"), key("Anna"));
/// assert!(!key("bot:hard").starts_with("bot:"));
/// ```
pub fn name_key(name: &PlayerName) -> String {
    crate::names::form(name)
}

pub use crate::names::Player;

/// The secret of `Authorization: Player SECRET`, if the header is that.
fn presented(headers: &HeaderMap) -> Option<PlayerSecret> {
    headers
        .get_all(header::AUTHORIZATION)
        .iter()
        .filter_map(|h| h.to_str().ok())
        .find_map(|h| h.strip_prefix("Player "))
        .map(|s| PlayerSecret(s.trim().to_string()))
        .filter(|s| !s.0.is_empty() && s.0.len() <= 64)
}

/// The player the request's `Authorization: Player SECRET` names: `None`
/// without one, refused if the secret is no player's.
pub async fn from_headers(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<Player>, ServerError> {
    let Some(secret) = presented(headers) else {
        return Ok(None);
    };
    let row = state.repo.player_by_secret(secret.hash()).await?;
    match row {
        Some(row) => Ok(Some(Player {
            key: row.key,
            name: row.name,
        })),
        None => Err(ServerError::UnknownPlayer),
    }
}

/// The name a seat is taken under: the player's own, or `asked` if it is
/// nobody's kept name (nor looks like one) when no player is presented.
pub async fn seat_name(
    state: &AppState,
    player: Option<&Player>,
    asked: &str,
) -> Result<PlayerName, ServerError> {
    if let Some(player) = player {
        if !crate::names::alike(asked, &player.name) {
            let name = player.name.clone();
            return Err(BadRequest::NotYourName { name }.into());
        }
        return Ok(player.name.clone());
    }
    let asked = crate::names::check_new_name(asked)?;
    if let Some(owner) = state.repo.player_named(&asked).await? {
        return Err(ServerError::Conflict(Conflict::KeptName {
            asked: asked.to_string(),
            kept: owner.name.to_string(),
        }));
    }
    Ok(asked)
}

/// The routes: `POST /api/players` keeps a name, `GET /api/players/me`
/// says whose secret the request presents, `POST /api/players/me/secret`
/// replaces it, `GET /api/players/{name}` is a player's profile and
/// `GET /api/leaderboard` the best ratings.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/players", post(register))
        .route("/api/players/me", get(me))
        .route("/api/players/me/secret", post(new_secret))
        .route("/api/players/me/tables", get(my_tables))
        .route("/api/tables/{id}/seats/mine", post(reclaim))
        .route("/api/players/{name}", get(profile))
        .route("/api/leaderboard", get(leaderboard))
        .route("/p/{name}", get(profile_page))
        .route("/leaderboard", get(leaderboard_page))
}

/// `/p/NAME`, a profile's address to share: the client's page shows it
/// (`/#/p/NAME`).
async fn profile_page(
    axum::extract::Path(name): axum::extract::Path<String>,
) -> axum::response::Redirect {
    let name = percent_encoding::utf8_percent_encode(&name, percent_encoding::NON_ALPHANUMERIC);
    axum::response::Redirect::to(&format!("/#/p/{name}"))
}

/// `/leaderboard`: the client's page (`/#/leaderboard`).
async fn leaderboard_page() -> axum::response::Redirect {
    axum::response::Redirect::to("/#/leaderboard")
}

/// Games a profile counts its figures over, newest first.
const COUNTED_GAMES: usize = 2000;
/// Games a profile lists.
const LISTED_GAMES: usize = 20;
/// Rows of a leaderboard.
const BOARD_ROWS: usize = 100;

/// A player's profile.
#[derive(Debug, Serialize, Deserialize)]
pub struct Profile {
    /// The name kept.
    pub name: PlayerName,
    /// When the name was kept (milliseconds since the Unix epoch).
    pub since: u64,
    /// Per game: games played and how often in each place.
    pub games: Vec<Played>,
    /// Every rating, per game and band.
    pub ratings: Vec<RatingShown>,
    /// The last games, newest first, each with its rating after it if
    /// it was rated (the profile's plot).
    pub recent: Vec<RecentGame>,
}

/// A game of a profile's list. A private table's address (and its name)
/// is shown to nobody but the player: with it anyone could download the
/// game's replay with every card, watch its rematch and take a seat there
/// (issue 40).
#[derive(Debug, Serialize, Deserialize)]
pub struct RecentGame {
    /// The table (its replay's address); `null` for a private table when
    /// someone else asks.
    pub table: Option<crate::ids::TableId>,
    /// Its name; `null` as `table` is.
    pub table_name: Option<String>,
    /// The name's parts when the server named the table ("Ada's table
    /// 2"), for clients to say it in their player's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_name: Option<crate::names::DefaultTableName>,
    /// Whether its table was public.
    pub public: bool,
    /// How the player did.
    #[serde(flatten)]
    pub result: GameResult,
}

/// What a game of a profile's list says of the player's result.
#[derive(Debug, Serialize, Deserialize)]
pub struct GameResult {
    /// When it ended (milliseconds since the Unix epoch).
    pub at: u64,
    /// Which game of the family.
    pub game: String,
    /// Players at the table.
    pub players: usize,
    /// The player's place, from 1.
    pub place: usize,
    /// Whether it was rated.
    pub rated: bool,
    /// The band of table sizes its rating is kept in, when it was rated
    /// (the profile plots each band's rating apart).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<String>,
    /// The rating after it, when it was rated.
    pub rating: Option<crate::ratings::Rating>,
}

impl RecentGame {
    /// `game` as a profile shows it to its own player (`mine`) or anyone.
    fn shown(game: crate::store::PlayerGame, mine: bool) -> RecentGame {
        let shown = game.public || mine;
        RecentGame {
            table: shown.then_some(game.table),
            default_name: crate::names::DefaultTableName::of(&game.table_name).filter(|_| shown),
            table_name: shown.then_some(game.table_name),
            public: game.public,
            result: GameResult {
                at: game.at,
                game: game.game,
                players: game.players,
                place: game.place,
                rated: game.rated,
                band: game
                    .rating
                    .map(|_| crate::ratings::band(game.players).to_string()),
                rating: game.rating,
            },
        }
    }
}

/// Games played of one game (`dalmuti`, `corporate-shuffle`).
#[derive(Debug, Serialize, Deserialize)]
pub struct Played {
    /// The game.
    pub game: String,
    /// Games played.
    pub played: usize,
    /// `places[i]`: games finished in place `i + 1`.
    pub places: Vec<usize>,
    /// The mean of place / players, from 1/n (always first) to 1.
    pub mean_share: f64,
}

/// A rating as shown: the row, and the ordinal it is ranked by.
#[derive(Debug, Serialize, Deserialize)]
pub struct RatingShown {
    /// The rating as kept.
    #[serde(flatten)]
    pub row: crate::store::RatingRow,
    /// [`crate::ratings::Rating::ordinal`].
    pub ordinal: f64,
}

impl From<crate::store::RatingRow> for RatingShown {
    fn from(row: crate::store::RatingRow) -> RatingShown {
        RatingShown {
            ordinal: row.rating.ordinal(),
            row,
        }
    }
}

async fn profile(
    State(state): State<AppState>,
    axum::extract::Path(name): axum::extract::Path<String>,
    headers: HeaderMap,
) -> Result<Json<Profile>, ServerError> {
    let name = crate::names::check_name(&name)?;
    // A wrong secret is no reason to refuse a public page: it is read as
    // anyone's.
    let asker = from_headers(&state, &headers).await.ok().flatten();
    let Some(player) = state.repo.player_named(&name).await? else {
        return Err(NotFound::Player { name }.into());
    };
    let games = state.repo.player_games(&player.key, COUNTED_GAMES).await?;
    let ratings = state.repo.player_ratings(&player.key).await?;
    let mine = asker.is_some_and(|p| p.key == player.key);
    let mut played: Vec<Played> = Vec::new();
    for g in &games {
        let i = match played.iter().position(|p| p.game == g.game) {
            Some(i) => i,
            None => {
                played.push(Played {
                    game: g.game.clone(),
                    played: 0,
                    places: Vec::new(),
                    mean_share: 0.0,
                });
                played.len() - 1
            }
        };
        let p = &mut played[i];
        p.played += 1;
        if p.places.len() < g.place {
            p.places.resize(g.place, 0);
        }
        p.places[g.place - 1] += 1;
        p.mean_share += g.place as f64 / g.players.max(1) as f64;
    }
    for p in &mut played {
        p.mean_share /= p.played as f64;
    }
    Ok(Json(Profile {
        name: player.name,
        since: player.since,
        games: played,
        ratings: ratings.into_iter().map(RatingShown::from).collect(),
        recent: games
            .into_iter()
            .take(LISTED_GAMES)
            .map(|g| RecentGame::shown(g, mine))
            .collect(),
    }))
}

#[derive(Deserialize)]
struct BoardQuery {
    game: Option<String>,
    band: Option<String>,
}

/// A leaderboard: the best ratings of a game and band.
#[derive(Debug, Serialize, Deserialize)]
pub struct Board {
    /// The game (`dalmuti`, `corporate-shuffle`…).
    pub game: String,
    /// The band of table sizes shown.
    pub band: String,
    /// Every band there is.
    pub bands: [String; 3],
    /// The best ratings, best first.
    pub ratings: Vec<RatingShown>,
}

async fn leaderboard(
    State(state): State<AppState>,
    axum::extract::Query(query): axum::extract::Query<BoardQuery>,
) -> Result<Json<Board>, ServerError> {
    let game = match query.game.as_deref().unwrap_or("dalmuti") {
        "dalmuti" => "dalmuti",
        "corporate-shuffle" => "corporate-shuffle",
        "daifugo" => "daifugo",
        "president" => "president",
        other => {
            let asked = other.to_string();
            return Err(BadRequest::Game { asked }.into());
        }
    };
    let band = match query.band.as_deref() {
        None => "5-7",
        Some(band) => crate::ratings::BANDS
            .into_iter()
            .find(|b| *b == band)
            .ok_or_else(|| BadRequest::Band {
                asked: band.to_string(),
                bands: &crate::ratings::BANDS,
            })?,
    };
    let rows = state.repo.leaderboard(game, band, BOARD_ROWS).await?;
    Ok(Json(Board {
        game: game.to_string(),
        band: band.to_string(),
        bands: crate::ratings::BANDS.map(String::from),
        ratings: rows.into_iter().map(RatingShown::from).collect(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Register {
    name: String,
}

/// A name kept: the player's name and secret (shown this once). (Public
/// and `Deserialize` so that tests read the answer as this type.)
#[derive(Debug, Serialize, Deserialize)]
pub struct Registered {
    /// The name kept.
    pub name: PlayerName,
    /// The player's secret.
    pub secret: PlayerSecret,
}

/// Who a secret is.
#[derive(Debug, Serialize, Deserialize)]
pub struct Me {
    /// The name the secret keeps.
    pub name: PlayerName,
}

async fn register(
    State(state): State<AppState>,
    client: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    json: Result<Json<Register>, JsonRejection>,
) -> Result<(StatusCode, Json<Registered>), ServerError> {
    let req = crate::request::body(json)?;
    // Refused too: a bot's name, and "me" (`/api/players/me` answers
    // who a secret is: no profile's path), [`crate::names::reserved`].
    let name = crate::names::check_new_name(&req.name)?;
    let key = name_key(&name);
    let taken = |owner: PlayerRow| {
        ServerError::Conflict(Conflict::NameLike {
            name: name.to_string(),
            kept: owner.name.to_string(),
        })
    };
    // A name found taken costs no new player of the address's share, so
    // a person may try a few; only a name kept counts.
    if let Some(owner) = state.repo.player_named(&name).await? {
        return Err(taken(owner));
    }
    state
        .players
        .check(crate::request::address(client.as_ref()))?;
    let secret = PlayerSecret::new();
    let row = PlayerRow {
        key,
        name: name.clone(),
        secret_hash: secret.hash(),
        since: crate::table::talk::now_ms(),
    };
    // Taken meanwhile by someone else: the store keeps one of the two.
    let kept = match state.repo.add_player(row).await? {
        true => Ok(()),
        false => Err(state.repo.player_named(&name).await?),
    };
    match kept {
        Ok(()) => {}
        Err(Some(owner)) => return Err(taken(owner)),
        // Its key is an older player's, whose name is another (kept
        // under an older rule of look-alikes).
        Err(None) => {
            return Err(ServerError::Conflict(Conflict::NameTaken {
                name: name.to_string(),
            }));
        }
    }
    tracing::info!(player = %name, "a player kept a name");
    Ok((StatusCode::CREATED, Json(Registered { name, secret })))
}

async fn me(State(state): State<AppState>, headers: HeaderMap) -> Result<Json<Me>, ServerError> {
    match from_headers(&state, &headers).await? {
        Some(player) => Ok(Json(Me { name: player.name })),
        None => Err(ServerError::NoPlayer),
    }
}

/// A new secret for the player who presents theirs: the old one is no
/// one's from this moment (a secret that leaked, a recovery link sent to
/// the wrong person). Of two changes with one secret at once, one only is
/// made; the other is refused as the old secret is then no player's.
async fn new_secret(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Registered>, ServerError> {
    let old = presented(&headers).ok_or(ServerError::NoPlayer)?;
    let secret = PlayerSecret::new();
    let (was, now) = (old.hash(), secret.hash());
    let row = state
        .repo
        .player_by_secret(was)
        .await?
        .ok_or(ServerError::UnknownPlayer)?;
    if !state.repo.change_secret(&row.key, was, now).await? {
        return Err(ServerError::UnknownPlayer);
    }
    tracing::info!(player = %row.name, "a player changed their secret");
    Ok(Json(Registered {
        name: row.name,
        secret,
    }))
}

/// Remembers that `player` took a seat at table `id`, for their list of
/// games (`GET /api/players/me/tables`). A failure costs the list a line, not the seat:
/// it is logged for the operator.
pub async fn remember_seat(state: &AppState, player: &Player, id: &crate::ids::TableId) {
    let at = crate::table::talk::now_ms();
    let remembered = state.repo.add_player_table(&player.key, id, at).await;
    if let Err(e) = remembered {
        tracing::error!(error = %e, "a player's seat was not added to their games");
    }
}

/// Tables a player's list of games shows.
const MY_TABLES: usize = 50;

/// The player's list of games.
#[derive(Debug, Serialize, Deserialize)]
pub struct MyTables {
    /// Newest first.
    pub tables: Vec<MyTable>,
}

/// A seat taken back: its new token. (Public and `Deserialize` so that
/// tests read the answer as this type.)
#[derive(Debug, Serialize, Deserialize)]
pub struct Reclaimed {
    /// The seat's new token.
    pub token: crate::token::SeatToken,
}

/// A table of the player's list: its summary, and when they sat down.
#[derive(Debug, Serialize, Deserialize)]
pub struct MyTable {
    /// The table's summary.
    #[serde(flatten)]
    pub info: crate::table::TableInfo,
    /// When the player took their seat (milliseconds since the Unix epoch).
    pub joined_at: u64,
}

/// The player's games, newest first: live ones and kept records, private
/// ones too; expired or pruned tables are left out.
async fn my_tables(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<MyTables>, ServerError> {
    let player = from_headers(&state, &headers)
        .await?
        .ok_or(ServerError::NoPlayer)?;
    let seats = state.repo.player_tables(&player.key, MY_TABLES).await?;
    let mut tables = Vec::new();
    for (id, joined_at) in seats {
        let live = match state.find(&id).await {
            Ok(Some(handle)) => match handle.info().await {
                Ok(info) => Some(info),
                Err(ServerError::Closed) => None,
                Err(e) => return Err(e),
            },
            Ok(None) | Err(ServerError::NoTable(_)) => None,
            Err(e) => return Err(e),
        };
        let info = match live {
            Some(info) => Some(info),
            None => {
                let ctx = state.ctx.clone();
                let id = id.clone();
                tokio::task::spawn_blocking(move || crate::records::find(&ctx, &id))
                    .await
                    .map_err(|_| {
                        ServerError::Storage(crate::store::StoreError::Failed(
                            "reading a record failed".into(),
                        ))
                    })?
                    .ok()
                    .map(|(_, info)| info)
            }
        };
        if let Some(info) = info {
            tables.push(MyTable { info, joined_at });
        }
    }
    Ok(Json(MyTables { tables }))
}

/// The player takes back their seat at a live table, on this device.
async fn reclaim(
    State(state): State<AppState>,
    axum::extract::Path(id): axum::extract::Path<crate::ids::TableId>,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<Reclaimed>), ServerError> {
    let player = from_headers(&state, &headers)
        .await?
        .ok_or(ServerError::NoPlayer)?;
    state
        .reclaims
        .check_key(&(id.clone(), player.key.clone()))?;
    let table = state.table(&id).await?;
    let token = table.reclaim(&player).await?;
    Ok((StatusCode::CREATED, Json(Reclaimed { token })))
}
