//! The server on PostgreSQL (`dalmuti serve --data postgres://…`), over
//! real sockets: a table created, seated and played, every event a client
//! saw already in the database, the server restarted on the same database
//! and the table resumed from its log to the game's end, its record valid.
//!
//! Needs `DALMUTI_TEST_DATABASE_URL` (`.ci/run` sets it; locally
//! `eval "$(bash .ci/postgres start target/pg)"`): without it the tests fail
//! saying so.

mod common;

use std::time::Duration;

use common::{Mode, Player, Server, has_state};
use dalmuti_core::record::{Checked, check};
use dalmuti_server::store::{PostgresStore, Store, TestSchema};
use dalmuti_server::table::Stored;
use serde_json::json;

fn schema() -> TestSchema {
    TestSchema::new().unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_on_postgres_survives_a_restart_and_plays_to_its_end() {
    let schema = schema();
    // A long grace period: nobody plays for a seat while the server is down.
    let long_grace = |c: &mut dalmuti_server::Config| c.grace = Duration::from_secs(600);
    let server = Server::start_on_postgres(&schema.url, long_grace).await;
    let (id, ada) = server
        .create_table(json!({"name": "on postgres", "player": "Ada", "seats": 4, "hands": 1}))
        .await;
    let bo = server.take_seat(&id, "Bo").await;
    server.add_bot(&id, &ada, "greedy").await;
    server.add_bot(&id, &ada, "greedy").await;
    let ada_p = Player::join(&server, &id, "Ada", Some(&ada), 0, Mode::All).await;
    // Bo answers everything but plays: the table waits at Bo's first play,
    // mid-hand, for the restart.
    let mut bo_p = Player::join(&server, &id, "Bo", Some(&bo), 0, Mode::NoPlay).await;
    server.start_game(&id, &ada).await;
    let waiting = bo_p
        .wait_for("Bo's first play", |m| {
            has_state(m) && matches!(m["d"]["decision"]["kind"].as_str(), Some("lead" | "follow"))
        })
        .await;
    let seen = waiting["v"].as_u64().unwrap();
    assert!(seen > 4, "seats, start and deal at least: {waiting}");

    // Everything broadcast is already in the database, numbered 1, 2, 3…
    // (read by a store of its own, as another node would).
    let other = PostgresStore::open(&schema.url).unwrap();
    let log = other.log(&id.as_str().into()).unwrap();
    assert!(
        log.len() as u64 >= seen,
        "{} events stored, {seen} seen",
        log.len()
    );
    assert!(
        matches!(&log[0], Stored::Seat { name, .. } if name == "Ada"),
        "event 1 seats the host: {:?}",
        log[0]
    );
    let stored = serde_json::to_string(&log).unwrap();
    assert!(
        !stored.contains(&ada) && !stored.contains(&bo),
        "no token stored"
    );
    let row = other.tables().unwrap();
    assert_eq!(row.len(), 1);
    assert_eq!((row[0].id.as_str(), row[0].seats), (id.as_str(), 4));

    ada_p.drop_connection();
    bo_p.drop_connection();
    let server = server.restart(long_grace).await;

    // The table is back from its log, at the same event.
    let (ws, snapshot) = server.hello(&id, Some(&bo), 0).await;
    assert_eq!(snapshot["t"], json!("snapshot"), "{snapshot}");
    assert_eq!(snapshot["v"], json!(log.len()), "{snapshot}");
    assert_eq!(
        snapshot["d"]["decision"]["kind"], waiting["d"]["decision"]["kind"],
        "Bo is still to play"
    );
    ws.close().await;
    let ada_p = Player::join(&server, &id, "Ada", Some(&ada), 0, Mode::All).await;
    let bo_p = Player::join(&server, &id, "Bo", Some(&bo), 0, Mode::All).await;
    ada_p.finish().await;
    bo_p.finish().await;
    let info = server.info(&id).await;
    assert_eq!(info["over"], json!(true), "{info}");
    let (status, record) = server
        .http("GET", &format!("/api/tables/{id}/record"), None, None)
        .await;
    assert_eq!(status, 200, "{record}");
    match check(&record.to_string()) {
        Checked::Valid(report) => {
            assert_eq!(report.hands.len(), 1, "{record}");
            assert!(report.hands[0].finished, "{record}");
        }
        other => panic!("the record does not check: {other:?}\n{record}"),
    }
    // Every event of the game is in the database, in order.
    let log = other.log(&id.as_str().into()).unwrap();
    assert!(log.len() as u64 > seen);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_database_that_cannot_be_reached_stops_the_start_saying_so() {
    let config = dalmuti_server::Config {
        database_url: Some("postgres://nobody:pw@127.0.0.1:1/none?connect_timeout=2".into()),
        ..dalmuti_server::Config::for_tests()
    };
    let e = dalmuti_server::Server::open(config, "127.0.0.1:8080".parse().unwrap())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("cannot open the database"), "{e}");
    assert!(e.contains("connect to the database"), "{e}");
    assert!(e.contains("nobody:***@") && !e.contains("pw@"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_on_postgres_is_ready_while_its_database_answers() {
    let schema = schema();
    let server = Server::start_on_postgres(&schema.url, |_| {}).await;
    assert_eq!(server.http("GET", "/healthz", None, None).await.0, 200);
    let (status, ready) = server.http("GET", "/readyz", None, None).await;
    assert_eq!((status, ready), (200, json!({"status": "ok"})));
    let (status, metrics) = server.http("GET", "/metrics", None, None).await;
    assert_eq!(status, 200);
    let metrics = metrics.as_str().unwrap_or_default();
    assert!(
        metrics.contains("dalmuti_store_seconds_count{op=\"ping\"} 1\n"),
        "the check went to the database: {metrics}"
    );
    server.stop().await;
}

/// A CA file the private test database (`.ci/postgres`) was started with.
fn ca(var: &str) -> std::path::PathBuf {
    std::env::var(var)
        .unwrap_or_else(|_| {
            panic!(
                "the TLS test needs {var}: `eval \"$(bash .ci/postgres start target/pg)\"` \
                 sets it (the private database serves TLS with a CA of its own)"
            )
        })
        .into()
}

/// Whether every connection named `app` is TLS, and how many there are,
/// as the database sees them.
fn tls_connections(schema: &TestSchema, app: &str) -> (bool, i64) {
    let url = schema.url.clone();
    let app = app.to_string();
    std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        let row = client
            .query_one(
                "SELECT coalesce(bool_and(s.ssl), false), count(*) FROM pg_stat_ssl s \
                 JOIN pg_stat_activity a USING (pid) WHERE a.application_name = $1",
                &[&app],
            )
            .unwrap();
        (row.get(0), row.get(1))
    })
    .join()
    .unwrap()
}

/// TLS to the database (issue 24): with `sslmode=require` and the CA that
/// signed the server's certificate (given apart, as `--database-ca`, or in
/// the URL as `sslrootcert`), every connection is encrypted; a wrong CA,
/// or none when the system's roots do not know the server's, is refused.
#[test]
fn a_node_reaches_the_database_over_verified_tls() {
    let schema = schema();
    let (good, wrong) = (ca("DALMUTI_TEST_DATABASE_CA"), ca("DALMUTI_TEST_WRONG_CA"));
    let url = |app: &str| format!("{}&sslmode=require&application_name={app}", schema.url);

    let store = PostgresStore::open_with_ca(&url("dalmuti_tls_ca"), Some(&good)).unwrap();
    store.ping().unwrap();
    let (all_tls, n) = tls_connections(&schema, "dalmuti_tls_ca");
    assert!(all_tls && n > 0, "{n} connections, all TLS: {all_tls}");
    drop(store);

    let in_url = format!("{}&sslrootcert={}", url("dalmuti_tls_url"), good.display());
    let store = PostgresStore::open(&in_url).unwrap();
    store.ping().unwrap();
    assert!(tls_connections(&schema, "dalmuti_tls_url").0);
    drop(store);

    let refused = |result: Result<PostgresStore, dalmuti_server::store::StoreError>| match result {
        Ok(_) => panic!("a certificate this side cannot verify was taken"),
        Err(e) => e.message().to_string(),
    };
    let e = refused(PostgresStore::open_with_ca(
        &url("dalmuti_tls_wrong"),
        Some(&wrong),
    ));
    assert!(e.contains("certificate"), "{e}");
    let e = refused(PostgresStore::open(&url("dalmuti_tls_none")));
    assert!(e.contains("certificate"), "{e}");
}
