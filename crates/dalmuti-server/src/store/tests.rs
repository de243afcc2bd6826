//! The store's contract on both databases, and the migrations.

use rusqlite::Connection;

use super::columns::{silenced_from, silenced_text};
use super::sqlite::{ALIKE_STEP, MIGRATIONS};
use super::*;

/// Each contract of `store/contract.rs` as one test per backend.
macro_rules! contract {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[test]
                fn $name() {
                    let store = super::SqliteStore::in_memory().unwrap();
                    super::super::contract::$name(&store);
                }
            )*
        }
        mod postgres {
            $(
                #[test]
                fn $name() {
                    let schema = super::TestSchema::new().unwrap_or_else(|e| panic!("{e}"));
                    let store = schema.store().unwrap_or_else(|e| panic!("{e}"));
                    super::super::contract::$name(&store);
                }
            )*
        }
    };
}

contract!(
    log_is_append_only,
    batches_are_all_or_none,
    finished_tables_are_kept_up_to_a_bound,
    talk_is_kept_up_to_a_bound,
    live_tables_are_found_by_id,
    a_working_database_answers_a_ping,
    a_name_is_kept_once_and_found_by_its_secret,
    a_secret_is_changed_once_and_the_old_one_is_no_ones,
    a_game_is_counted_once_and_rated_only_when_it_counts,
    a_players_tables_are_listed_newest_first,
    reports_are_kept_once_and_a_silence_removes_lines,
    a_ticket_waits_once_and_is_seated_once,
);

#[test]
fn tokens_are_random_and_only_their_hashes_match() {
    let token = crate::token::SeatToken::new();
    assert_eq!(token.len(), 32);
    let hash = hash_token(&token);
    assert!(token_matches(&token, &hash));
    assert!(!token_matches(&crate::token::SeatToken::new(), &hash));
    assert_ne!(TableId::new(), TableId::new());
}

#[test]
fn silenced_seats_kept_as_bare_names_read_back() {
    let kept = silenced_from(r#"["Bo", {"name": "Cy", "player": "cy", "from": ["ab"]}]"#);
    let bo = crate::names::PlayerName::new("Bo").unwrap();
    let cy = crate::names::PlayerName::new("Cy").unwrap();
    assert_eq!(kept.len(), 2);
    assert_eq!((&kept[0].name, &kept[0].player), (&bo, &None));
    assert!(kept[0].from.is_empty());
    assert_eq!(kept[1].name, cy);
    assert_eq!(kept[1].player.as_deref(), Some("cy"));
    assert_eq!(kept[1].from, ["ab"]);
    assert_eq!(silenced_from(&silenced_text(&kept)), kept);
    assert!(silenced_from("nonsense").is_empty());
}

/// Players kept under the rule of look-alikes before schema version
/// 4 keep their names; the version's forms hold from then on.
#[test]
fn players_kept_before_forms_are_migrated() {
    let conn = Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE TABLE tables (
            id TEXT PRIMARY KEY, name TEXT NOT NULL, seats INTEGER NOT NULL,
            rules TEXT NOT NULL, public INTEGER NOT NULL, turn_seconds INTEGER,
            created INTEGER NOT NULL);
         CREATE TABLE log (
            table_id TEXT NOT NULL REFERENCES tables(id), v INTEGER NOT NULL,
            event TEXT NOT NULL, PRIMARY KEY (table_id, v));",
    )
    .unwrap();
    for step in &MIGRATIONS[..ALIKE_STEP - 1] {
        conn.execute_batch(step).unwrap();
    }
    conn.pragma_update(None, "user_version", ALIKE_STEP as i64 - 1)
        .unwrap();
    conn.execute_batch(super::contract::PLAYERS_BEFORE_FORMS)
        .unwrap();
    let store = SqliteStore::setup(conn).unwrap();
    super::contract::players_kept_before_forms_are_migrated(&store);
}

#[test]
fn a_database_of_the_first_schema_is_migrated() {
    let dir = std::env::temp_dir().join(format!("dalmuti-migrate-{}", TableId::new()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("old.sqlite");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE tables (
                id TEXT PRIMARY KEY, name TEXT NOT NULL, seats INTEGER NOT NULL,
                rules TEXT NOT NULL, public INTEGER NOT NULL, turn_seconds INTEGER,
                created INTEGER NOT NULL);
             CREATE TABLE log (
                table_id TEXT NOT NULL REFERENCES tables(id), v INTEGER NOT NULL,
                event TEXT NOT NULL, PRIMARY KEY (table_id, v));
             INSERT INTO tables VALUES ('old', 'Old', 4, '{}', 1, NULL, 0);
             INSERT INTO log VALUES ('old', 1, '{\"leaving\":{\"name\":\"player 1\"}}');",
        )
        .unwrap();
    }
    let store = SqliteStore::open(&path).unwrap();
    let tables = store.tables().unwrap();
    assert_eq!(tables.len(), 1, "an old table is live");
    assert_eq!(tables[0].id, "old");
    assert!(
        !tables[0].spectator_chat,
        "spectators may not chat by default"
    );
    assert_eq!(tables[0].rematch, None);
    store
        .add_talk(&[super::contract::line("old", 1, TalkKind::Chat, 50)])
        .unwrap();
    assert_eq!(store.talk(&"old".into(), TalkKind::Chat).unwrap().len(), 1);
    store
        .finish(&"old".into(), &super::contract::summary("old"), 10)
        .unwrap();
    assert_eq!(
        store.finished(10).unwrap(),
        [super::contract::summary("old")]
    );
    drop(store);
    // Opening again does not migrate twice.
    let store = SqliteStore::open(&path).unwrap();
    assert!(store.tables().unwrap().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
