//! The database's schema and its migrations, applied one step at a time
//! under an advisory lock.

use super::*;

/// The schema, one step per version; `schema_version` holds the versions
/// applied. A step runs in one transaction under an advisory lock, so nodes
/// starting together apply it once.
///
/// 1: the SQLite schema's equivalent (tables, log, talk). `created` and
/// `finished` come from sequences, so two nodes never draw the same number.
///
/// 2: a lease per table ([`Lease`]): the node that may write its log, until
/// when (by the database's clock), and its epoch, the fencing token. Each
/// event records the epoch it was written under, and the log's trigger
/// refuses an event of a leased table unless it carries the lease's
/// current epoch, unexpired.
///
/// 3: the nodes (each one's public address, and when it was last seen),
/// when each table was created (a table with no lease is taken over only
/// once it is older than a lease: its creator may be about to take it),
/// and the lobby summaries nodes publish of their tables for the others'
/// lobbies (a table of their own: updating them must not lock the tables'
/// rows, which every append locks).
///
/// 4: players who kept a name, their games and the ratings (as SQLite's
/// version 3), shared by every node, so a player is known on any of them;
/// whether a table is rated, the seats whose chat its host removed,
/// reported chat lines, and the players waiting for a table (`queue`).
///
/// 5: each player's name's look-alike form, filled in as SQLite's
/// version 4 ([`crate::store::alike_forms`]), and players keyed as a
/// bot level moved out of the bots' keys.
///
/// 6 (issue 40, as SQLite's version 5): a ticket is `claimed` for a table
/// before it is `seated` there, with where its player asked from
/// (`origin`), and each game of a player's history says
/// whether its table was `public`.
pub(super) const MIGRATIONS: &[&str] = &["
CREATE SEQUENCE tables_created;
CREATE SEQUENCE tables_finished;
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    seats INTEGER NOT NULL,
    rules TEXT NOT NULL,
    public BOOLEAN NOT NULL,
    turn_seconds INTEGER,
    created BIGINT NOT NULL DEFAULT nextval('tables_created'),
    status TEXT NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'finished')),
    finished BIGINT,
    summary TEXT,
    spectator_chat BOOLEAN NOT NULL DEFAULT FALSE,
    rematch TEXT);
CREATE INDEX tables_status ON tables (status, finished);
CREATE TABLE log (
    table_id TEXT NOT NULL REFERENCES tables (id),
    v BIGINT NOT NULL CHECK (v > 0),
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, v));
CREATE TABLE talk (
    table_id TEXT NOT NULL REFERENCES tables (id),
    n BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('chat', 'news')),
    line TEXT NOT NULL,
    PRIMARY KEY (table_id, n));
CREATE INDEX talk_kind ON talk (table_id, kind, n);

-- The log refuses gaps whoever writes: an event must be one more than the
-- table's last. The table's row is locked first, so appends to one table
-- are serialized and two writers cannot both see the same last event.
CREATE FUNCTION log_follows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    last BIGINT;
BEGIN
    PERFORM 1 FROM tables WHERE id = NEW.table_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'event % of table %: no such table', NEW.v, NEW.table_id
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    SELECT COALESCE(MAX(v), 0) INTO last FROM log WHERE table_id = NEW.table_id;
    IF NEW.v <> last + 1 THEN
        RAISE EXCEPTION 'event % does not follow event % of table %', NEW.v, last, NEW.table_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER log_follows BEFORE INSERT ON log
    FOR EACH ROW EXECUTE FUNCTION log_follows();

-- Append-only: an event once written is never changed (a finished table's
-- log is deleted whole when it is pruned).
CREATE FUNCTION log_unchanged() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'event % of table % cannot be changed', OLD.v, OLD.table_id
        USING ERRCODE = 'check_violation';
END $$;
CREATE TRIGGER log_unchanged BEFORE UPDATE ON log
    FOR EACH ROW EXECUTE FUNCTION log_unchanged();
", "
CREATE SEQUENCE lease_epochs;
CREATE TABLE leases (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    node TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires TIMESTAMPTZ NOT NULL);
ALTER TABLE log ADD COLUMN epoch BIGINT;

-- As in version 1, plus the fence: a table with a lease row takes only
-- events written under its current, unexpired epoch; a table without one
-- (one node, no leases) only events written under none. The table's row
-- is locked FOR NO KEY UPDATE (appends take turns, and a lease's foreign
-- key check is not blocked); the lease's FOR SHARE, so a change of holder
-- waits for an append under way, and an append waits for a change of
-- holder and then sees the new epoch.
CREATE OR REPLACE FUNCTION log_follows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    last BIGINT;
    held BIGINT;
    live BOOLEAN;
BEGIN
    PERFORM 1 FROM tables WHERE id = NEW.table_id FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'event % of table %: no such table', NEW.v, NEW.table_id
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    SELECT epoch, expires > now() INTO held, live FROM leases
        WHERE table_id = NEW.table_id FOR SHARE;
    IF FOUND THEN
        IF NEW.epoch IS DISTINCT FROM held OR NOT live THEN
            RAISE EXCEPTION 'event % of table %: written under lease epoch %, but the lease is at epoch %',
                NEW.v, NEW.table_id, COALESCE(NEW.epoch::text, 'none'),
                held || CASE WHEN live THEN '' ELSE ' (expired)' END
                USING ERRCODE = 'lock_not_available';
        END IF;
    ELSIF NEW.epoch IS NOT NULL THEN
        RAISE EXCEPTION 'event % of table %: written under lease epoch %, but the table has no lease',
            NEW.v, NEW.table_id, NEW.epoch
            USING ERRCODE = 'lock_not_available';
    END IF;
    SELECT COALESCE(MAX(v), 0) INTO last FROM log WHERE table_id = NEW.table_id;
    IF NEW.v <> last + 1 THEN
        RAISE EXCEPTION 'event % does not follow event % of table %', NEW.v, last, NEW.table_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;
", "
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    public_url TEXT NOT NULL,
    seen TIMESTAMPTZ NOT NULL);
ALTER TABLE tables ADD COLUMN born TIMESTAMPTZ NOT NULL DEFAULT now();
CREATE TABLE lobby (
    table_id TEXT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    summary TEXT NOT NULL);
", "
CREATE TABLE players (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    secret TEXT NOT NULL UNIQUE,
    since BIGINT NOT NULL);
CREATE TABLE recorded_games (table_id TEXT PRIMARY KEY);
CREATE TABLE player_games (
    key TEXT NOT NULL,
    table_id TEXT NOT NULL,
    table_name TEXT NOT NULL,
    at BIGINT NOT NULL,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    place INTEGER NOT NULL,
    rated BOOLEAN NOT NULL,
    mu DOUBLE PRECISION,
    sigma DOUBLE PRECISION,
    PRIMARY KEY (key, table_id));
CREATE INDEX player_games_at ON player_games (key, at);
CREATE TABLE ratings (
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    bot BOOLEAN NOT NULL,
    game TEXT NOT NULL,
    band TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (key, game, band));
CREATE INDEX ratings_board ON ratings (game, band, mu);
CREATE TABLE player_tables (
    key TEXT NOT NULL,
    table_id TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (key, table_id));
CREATE INDEX player_tables_at ON player_tables (key, at);
CREATE TABLE reports (
    table_id TEXT NOT NULL,
    table_name TEXT NOT NULL,
    n BIGINT NOT NULL,
    line TEXT NOT NULL,
    reporter TEXT NOT NULL,
    why TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (table_id, n, reporter));
CREATE INDEX reports_at ON reports (at);
CREATE TABLE queue (
    id TEXT PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    wait_ms BIGINT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    since BIGINT NOT NULL,
    seen BIGINT NOT NULL,
    table_id TEXT);
ALTER TABLE tables ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tables ADD COLUMN silenced TEXT NOT NULL DEFAULT '[]';
", "
ALTER TABLE players ADD COLUMN alike TEXT;
CREATE UNIQUE INDEX players_alike ON players (alike);
CREATE INDEX players_name ON players (name);
UPDATE player_games SET key = 'person:' || key WHERE key LIKE 'bot:%';
UPDATE player_tables SET key = 'person:' || key WHERE key LIKE 'bot:%';
DELETE FROM queue WHERE key LIKE 'bot:%';
UPDATE players SET key = 'person:' || key WHERE key LIKE 'bot:%';
UPDATE ratings SET name = substr(key, 5), bot = TRUE WHERE key LIKE 'bot:%';
", "
ALTER TABLE queue ADD COLUMN claimed BIGINT;
ALTER TABLE queue ADD COLUMN seated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE queue ADD COLUMN origin TEXT;
UPDATE queue SET seated = TRUE, claimed = since WHERE table_id IS NOT NULL;
ALTER TABLE player_games ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE player_games SET public = COALESCE(
    (SELECT public FROM tables WHERE tables.id = player_games.table_id), FALSE);
"];

/// The schema version whose players get their look-alike forms filled in
/// in the same transaction.
const ALIKE_STEP: i32 = 5;

/// The advisory lock nodes take to migrate one at a time (any number
/// unlikely to be used by another program on the same database).
pub(super) const MIGRATION_LOCK: i64 = 0x64616c6d757469; // "dalmuti"

/// Applies the schema's missing steps, each in one transaction.
pub(super) fn migrate(client: &mut Client) -> Result<(), StoreError> {
    // Under the lock too: nodes starting together would race on creating
    // the table (CREATE … IF NOT EXISTS is not safe against another
    // session creating it at the same moment).
    let what = "create the schema_version table";
    let mut tx = client.transaction().map_err(failed(what))?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(failed(what))?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY)")
        .map_err(failed(what))?;
    tx.commit().map_err(failed(what))?;
    for (i, step) in MIGRATIONS.iter().enumerate() {
        let version = i as i32 + 1;
        let what = format!("apply schema version {version}");
        let mut tx = client.transaction().map_err(failed(&what))?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .map_err(failed(&what))?;
        let newest: i32 = tx
            .query_one("SELECT COALESCE(MAX(version), 0) FROM schema_version", &[])
            .map_err(failed(&what))?
            .get(0);
        if newest > MIGRATIONS.len() as i32 {
            return Err(StoreError::Failed(format!(
                "PostgreSQL: the database has schema version {newest}, newer than this \
                 server's {}: run a newer dalmuti",
                MIGRATIONS.len()
            )));
        }
        if newest >= version {
            continue;
        }
        tx.batch_execute(step).map_err(failed(&what))?;
        if version == ALIKE_STEP {
            let players = tx
                .query("SELECT key, name FROM players ORDER BY since, key", &[])
                .map_err(failed(&what))?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect();
            for (key, alike) in crate::store::columns::alike_forms(players) {
                tx.execute(
                    "UPDATE players SET alike = $1 WHERE key = $2",
                    &[&alike, &key],
                )
                .map_err(failed(&what))?;
            }
        }
        tx.execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[&version],
        )
        .map_err(failed(&what))?;
        tx.commit().map_err(failed(&what))?;
    }
    Ok(())
}
