use super::schema::MIGRATIONS;
use super::*;
use crate::store::contract::{event, summary};

fn schema() -> TestSchema {
    TestSchema::new().unwrap_or_else(|e| panic!("{e}"))
}

/// A plain client on the schema, as another program would write.
fn raw(schema: &TestSchema) -> Client {
    Config::from_str(&schema.url)
        .unwrap()
        .connect(NoTls)
        .unwrap()
}

fn table(id: &str) -> TableRow {
    TableRow {
        id: id.into(),
        name: id.into(),
        seats: 4,
        rules: dalmuti_core::Rules::default(),
        public: true,
        ..TableRow::default()
    }
}

#[test]
fn migrations_are_recorded_applied_once_and_a_newer_schema_is_refused() {
    let schema = schema();
    let store = schema.store().unwrap();
    store.create_table(&table("t")).unwrap();
    store.append(&"t".into(), 1, &event(1)).unwrap();
    drop(store);
    // Opening again keeps the data and applies nothing twice.
    let store = schema.store().unwrap();
    assert_eq!(store.log(&"t".into()).unwrap().len(), 1);
    let mut client = raw(&schema);
    let versions: Vec<i32> = client
        .query("SELECT version FROM schema_version ORDER BY version", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    let all: Vec<i32> = (1..=MIGRATIONS.len() as i32).collect();
    assert_eq!(versions, all);
    client
        .execute("INSERT INTO schema_version VALUES (1000)", &[])
        .unwrap();
    let refused = schema.store().err().expect("a newer schema is refused");
    assert!(
        refused.message().contains("schema version 1000"),
        "{refused}"
    );
}

#[test]
fn a_database_of_the_first_schema_is_brought_up_to_date_with_its_data() {
    let schema = schema();
    let mut client = raw(&schema);
    client
        .batch_execute(&format!(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY);
             {}
             INSERT INTO schema_version VALUES (1);
             INSERT INTO tables (id, name, seats, rules, public) VALUES ('old', 'Old', 4, '{{}}', TRUE);
             INSERT INTO log (table_id, v, event) VALUES ('old', 1, '{{\"leaving\":{{\"name\":\"player 1\"}}}}');",
            MIGRATIONS[0]
        ))
        .unwrap();
    let store = schema.store().unwrap();
    assert_eq!(store.tables().unwrap()[0].id, "old");
    store.append(&"old".into(), 2, &event(2)).unwrap();
    assert_eq!(store.log(&"old".into()).unwrap(), [event(1), event(2)]);
    let lease = store
        .acquire_lease(&"old".into(), "n", Duration::from_secs(60))
        .unwrap()
        .unwrap();
    store.append_leased(&lease, &[append_of("old", 3)]).unwrap();
    let newest: i32 = client
        .query_one("SELECT MAX(version) FROM schema_version", &[])
        .unwrap()
        .get(0);
    assert_eq!(newest, MIGRATIONS.len() as i32);
}

/// Players kept under the rule of look-alikes before schema version 5
/// keep their names; the version's forms hold from then on.
#[test]
fn players_kept_before_forms_are_migrated() {
    let schema = schema();
    let mut client = raw(&schema);
    client
        .batch_execute(&format!(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY);
             {}
             INSERT INTO schema_version VALUES (1), (2), (3), (4);
             {}",
            MIGRATIONS[..4].join("\n"),
            crate::store::contract::PLAYERS_BEFORE_FORMS
        ))
        .unwrap();
    let store = schema.store().unwrap();
    crate::store::contract::players_kept_before_forms_are_migrated(&store);
}

#[test]
fn the_database_itself_refuses_gaps_and_changes_to_the_log() {
    let schema = schema();
    let store = schema.store().unwrap();
    store.create_table(&table("t")).unwrap();
    store.append(&"t".into(), 1, &event(1)).unwrap();
    // Another program on the same database is held to the same rules.
    let mut client = raw(&schema);
    let gap = client
        .execute("INSERT INTO log VALUES ('t', 3, '{}')", &[])
        .unwrap_err();
    assert!(
        failed("x")(gap)
            .message()
            .contains("event 3 does not follow event 1 of table t"),
        "the trigger's message"
    );
    assert!(
        client
            .execute("UPDATE log SET event = '[]' WHERE table_id = 't'", &[])
            .is_err(),
        "an event cannot be changed"
    );
    assert!(
        client
            .execute("INSERT INTO log VALUES ('nowhere', 1, '{}')", &[])
            .is_err()
    );
    assert_eq!(store.log(&"t".into()).unwrap(), [event(1)]);
}

#[test]
fn writers_racing_on_one_table_never_leave_a_gap_or_a_duplicate() {
    let schema = schema();
    let store = Arc::new(schema.store().unwrap());
    store.create_table(&table("t")).unwrap();
    // Four stores (four pools of connections, as four nodes would
    // have) each try every number; exactly one write of each wins.
    let stores: Vec<PostgresStore> = (0..4).map(|_| schema.store().unwrap()).collect();
    let wins: usize = std::thread::scope(|s| {
        let racers: Vec<_> = stores
            .iter()
            .enumerate()
            .map(|(i, store)| {
                s.spawn(move || {
                    (1..=40u64)
                        .filter(|&v| store.append(&"t".into(), v, &event(i as u64)).is_ok())
                        .count()
                })
            })
            .collect();
        racers.into_iter().map(|r| r.join().unwrap()).sum()
    });
    let log = store.log(&"t".into()).unwrap();
    assert_eq!(wins, log.len(), "every accepted write is in the log");
    assert!(!log.is_empty());
    let mut client = raw(&schema);
    let numbers: Vec<i64> = client
        .query("SELECT v FROM log WHERE table_id = 't' ORDER BY v", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    let expected: Vec<i64> = (1..=log.len() as i64).collect();
    assert_eq!(numbers, expected, "numbered 1, 2, 3… with no gap");
}

#[test]
fn the_store_works_from_inside_the_tokio_runtime() {
    // The table actors call the store from async code: the sync client
    // must never run on a runtime thread (it would panic there).
    let schema = schema();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let url = schema.url.clone();
    let log = runtime.block_on(async move {
        let store = PostgresStore::open(&url).unwrap();
        store.create_table(&table("t")).unwrap();
        store.append(&"t".into(), 1, &event(1)).unwrap();
        store.log(&"t".into()).unwrap()
    });
    assert_eq!(log, [event(1)]);
}

#[test]
fn a_database_that_cannot_be_reached_fails_open_saying_so() {
    let mut config = Config::new();
    config
        .host("127.0.0.1")
        .port(1)
        .user("nobody")
        .connect_timeout(Duration::from_secs(2));
    let e = PostgresStore::with_config(config, 1).err().unwrap();
    assert!(e.message().contains("connect to the database"), "{e}");
    let e = PostgresStore::open("postgres://[bad").err().unwrap();
    assert!(e.message().contains("the database address"), "{e}");
}

fn append_of(table: &str, v: u64) -> Append {
    Append {
        table: table.into(),
        v,
        event: event(v),
    }
}

/// Every event of `table`: its number and the lease epoch it was
/// written under.
fn numbers_and_epochs(schema: &TestSchema, table: &str) -> Vec<(i64, Option<i64>)> {
    raw(schema)
        .query(
            "SELECT v, epoch FROM log WHERE table_id = $1 ORDER BY v",
            &[&table],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect()
}

#[test]
fn a_lease_fences_the_log_in_the_database() {
    let schema = schema();
    let store = schema.store().unwrap();
    let long = Duration::from_secs(60);
    store.create_table(&table("t")).unwrap();
    store.append(&"t".into(), 1, &event(1)).unwrap();
    let a = store
        .acquire_lease(&"t".into(), "node-a", long)
        .unwrap()
        .unwrap();
    assert_eq!(
        store.acquire_lease(&"t".into(), "node-b", long).unwrap(),
        None,
        "held"
    );
    let refused = store.append(&"t".into(), 2, &event(2)).unwrap_err();
    assert!(refused.message().contains("lease is at epoch"), "{refused}");
    store.append_leased(&a, &[append_of("t", 2)]).unwrap();
    assert!(
        store.append_leased(&a, &[append_of("u", 1)]).is_err(),
        "another table's event under this lease"
    );
    // The same node taking it again (a restart) fences its former self.
    let a2 = store
        .acquire_lease(&"t".into(), "node-a", long)
        .unwrap()
        .unwrap();
    assert!(a2.epoch > a.epoch);
    let stale = store.append_leased(&a, &[append_of("t", 3)]).unwrap_err();
    assert!(stale.message().contains("lease is at epoch"), "{stale}");
    assert!(
        !store.renew_lease(&a, long).unwrap(),
        "a lost lease is not renewed"
    );
    assert!(store.renew_lease(&a2, long).unwrap());
    store.append_leased(&a2, &[append_of("t", 3)]).unwrap();
    // Released: another node takes it at once, the old epoch writes
    // nothing more.
    store.release_lease(&a2).unwrap();
    let b = store
        .acquire_lease(&"t".into(), "node-b", long)
        .unwrap()
        .unwrap();
    assert!(b.epoch > a2.epoch);
    assert!(store.append_leased(&a2, &[append_of("t", 4)]).is_err());
    store
        .append_leased(&b, &[append_of("t", 4), append_of("t", 5)])
        .unwrap();
    let (ea, ea2, eb) = (a.epoch as i64, a2.epoch as i64, b.epoch as i64);
    assert_eq!(
        numbers_and_epochs(&schema, "t"),
        [
            (1, None),
            (2, Some(ea)),
            (3, Some(ea2)),
            (4, Some(eb)),
            (5, Some(eb))
        ]
    );
    // A table with no lease takes no event written under one.
    store.create_table(&table("free")).unwrap();
    let wrong = Lease {
        table: "free".into(),
        ..b.clone()
    };
    let e = store
        .append_leased(&wrong, &[append_of("free", 1)])
        .unwrap_err();
    assert!(e.message().contains("has no lease"), "{e}");
    // Deleting is fenced too: only the lease's holder may.
    let e = store.delete(&"t".into()).unwrap_err();
    assert!(e.is_fenced(), "{e}");
    // A lease or a table with one goes with the table.
    store.hold(&b);
    store.delete(&"t".into()).unwrap();
    assert!(store.log(&"t".into()).unwrap().is_empty());
}

#[test]
fn an_expired_lease_writes_nothing_and_another_node_takes_the_table() {
    let schema = schema();
    let store = schema.store().unwrap();
    store.create_table(&table("t")).unwrap();
    let short = Duration::from_millis(100);
    let a = store
        .acquire_lease(&"t".into(), "node-a", short)
        .unwrap()
        .unwrap();
    store.append_leased(&a, &[append_of("t", 1)]).unwrap();
    assert_eq!(
        store.acquire_lease(&"t".into(), "node-b", short).unwrap(),
        None
    );
    std::thread::sleep(Duration::from_millis(250));
    let e = store.append_leased(&a, &[append_of("t", 2)]).unwrap_err();
    assert!(e.message().contains("(expired)"), "{e}");
    assert!(!store.renew_lease(&a, short).unwrap(), "expired: lost");
    let b = store
        .acquire_lease(&"t".into(), "node-b", Duration::from_secs(60))
        .unwrap()
        .expect("an expired lease is free");
    store.append_leased(&b, &[append_of("t", 2)]).unwrap();
    assert!(store.append_leased(&a, &[append_of("t", 3)]).is_err());
    // Finishing is fenced: not under the lost lease, but under the
    // holder's, and the table's lease goes with it.
    store.hold(&a);
    let e = store.finish(&"t".into(), &summary("t"), 0).unwrap_err();
    assert!(e.is_fenced(), "{e}");
    store.hold(&b);
    store.finish(&"t".into(), &summary("t"), 0).unwrap();
    assert!(
        store.finished_table(&"t".into()).unwrap().is_none(),
        "pruned"
    );
}

#[test]
fn leases_refuse_bad_node_ids_and_lengths() {
    let schema = schema();
    let store = schema.store().unwrap();
    store.create_table(&table("t")).unwrap();
    let ok = Duration::from_secs(1);
    for node in ["", "a b", "n\u{e9}", &"x".repeat(65)] {
        assert!(
            store.acquire_lease(&"t".into(), node, ok).is_err(),
            "{node:?}"
        );
    }
    for ttl in [Duration::ZERO, Duration::from_secs(7200)] {
        assert!(
            store.acquire_lease(&"t".into(), "n", ttl).is_err(),
            "{ttl:?}"
        );
    }
    assert!(
        store.acquire_lease(&"nowhere".into(), "n", ok).is_err(),
        "no such table"
    );
    assert!(
        store
            .acquire_lease(&"t".into(), &"x".repeat(64), ok)
            .unwrap()
            .is_some()
    );
}

#[test]
fn nodes_stealing_a_lease_never_both_write_the_log() {
    // Four nodes (each a store of its own) race for one table's lease,
    // short enough to expire while its holder writes: a holder appends
    // four events after what it reads, slowly, then lets go; the
    // others steal it whenever it is free or expired. Whatever the
    // timing, the log must read as one writer at a time: numbered with
    // no gap, and epochs that never go back (no event written under a
    // lease after an event under a later one).
    let schema = schema();
    let setup = schema.store().unwrap();
    setup.create_table(&table("t")).unwrap();
    let nodes: Vec<PostgresStore> = (0..4).map(|_| schema.store().unwrap()).collect();
    let deadline = std::time::Instant::now() + Duration::from_millis(1500);
    let (written, refused) = std::thread::scope(|s| {
        let racers: Vec<_> = nodes
            .iter()
            .enumerate()
            .map(|(i, store)| {
                s.spawn(move || {
                    let name = format!("node-{i}");
                    let (mut written, mut refused, mut k) = (0, 0, 0u64);
                    while std::time::Instant::now() < deadline {
                        k += 1;
                        let ttl = Duration::from_millis(20);
                        let Some(lease) = store.acquire_lease(&"t".into(), &name, ttl).unwrap()
                        else {
                            std::thread::sleep(Duration::from_millis(1 + k % 3));
                            continue;
                        };
                        for _ in 0..4 {
                            // The next number as the log has it now: the
                            // numbering alone cannot tell two writers
                            // apart, only the fence can.
                            let v = store.log(&"t".into()).unwrap().len() as u64 + 1;
                            match store.append_leased(&lease, &[append_of("t", v)]) {
                                Ok(()) => written += 1,
                                Err(_) => refused += 1,
                            }
                            std::thread::sleep(Duration::from_millis((i as u64 * 3 + k) % 11));
                        }
                        store.release_lease(&lease).unwrap();
                    }
                    (written, refused)
                })
            })
            .collect();
        racers
            .into_iter()
            .map(|r| r.join().unwrap())
            .fold((0, 0), |(w, r), (w2, r2)| (w + w2, r + r2))
    });
    let log = numbers_and_epochs(&schema, "t");
    assert_eq!(log.len(), written, "every accepted write is in the log");
    let numbers: Vec<i64> = log.iter().map(|(v, _)| *v).collect();
    assert_eq!(numbers, (1..=log.len() as i64).collect::<Vec<_>>());
    let epochs: Vec<i64> = log.iter().map(|(_, e)| e.expect("under a lease")).collect();
    assert!(
        epochs.windows(2).all(|w| w[0] <= w[1]),
        "an older lease wrote after a newer one: {epochs:?}"
    );
    let mut holders = epochs.clone();
    holders.dedup();
    assert!(holders.len() > 4, "the lease changed hands: {holders:?}");
    eprintln!(
        "{written} events under {} leases, {refused} writes refused",
        holders.len()
    );
}
