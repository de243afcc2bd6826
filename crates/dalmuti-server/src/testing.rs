//! What the server's tests (in this crate and the binary's) check a
//! client's stream against, and a database that stops answering one node.
//! Not used by the server itself.
//!
//! The promise checked is "commit, then tell" (issue 24): a client is
//! only ever told what the table's log holds, in order, its `v` never
//! going back, across reconnects and nodes.
//!
//! ```no_run
//! use dalmuti_server::testing::{Stopped, check_told};
//! # fn told_while(url: &str, table: &str) -> Vec<serde_json::Value> { Vec::new() }
//! let url = "postgres://dalmuti@127.0.0.1:54329/dalmuti_test?application_name=n1";
//! // The database stops answering node n1 while a client plays on…
//! let stopped = Stopped::backends(url, "n1");
//! let told = told_while(url, "TABLE");
//! stopped.resume();
//! // …and everything the client was told is what the log holds.
//! check_told(url, "TABLE", &told, "Ada");
//! ```

use std::collections::HashMap;
use std::process::Command;

use serde_json::{Value, json};

use crate::store::{PostgresStore, Store, TalkKind};

/// The parts of a STATE message that follow from the log alone: two
/// messages at the same `v` to the same seat must agree on them, whatever
/// node sent them and whether they answered an event, a hello or a
/// refusal. (Presence, timers and kept chat are not among them.)
const GAME_FIELDS: [&str; 9] = [
    "view",
    "decision",
    "hand",
    "players",
    "dealt",
    "totals",
    "started",
    "game_over",
    "results",
];

/// Checks `told`, every message one seat's client received about table
/// `table` across all its connections in order, against the log and the
/// news lines the database at `url` keeps now. Panics, naming `what` and
/// the message, if:
/// - a message is past the log (its `v` is more than the log holds);
/// - `v` goes back from one message to the next;
/// - an `event` repeats or goes back, or is not the log's event at its
///   `v` (kind and player), nor is an event a `catchup` says was missed;
/// - two messages at the same `v` show the game differently;
/// - a news line is not the line kept under its number.
///
/// `moved` messages (always at `v` 0) are skipped.
pub fn check_told(url: &str, table: &str, told: &[Value], what: &str) {
    let table = crate::ids::TableId::from(table);
    let (log, news) = on_own_thread(|| {
        let store = PostgresStore::open(url)?;
        let log: Vec<Value> = store
            .log(&table)?
            .iter()
            .map(|e| serde_json::to_value(e).expect("an event serializes"))
            .collect();
        let news: HashMap<u64, Value> = store
            .talk(&table, TalkKind::News)?
            .into_iter()
            .filter_map(|(n, line)| Some((n, line?)))
            .map(|(n, line)| match line {
                crate::protocol::TalkLine::News(news) => (n, serde_json::to_value(news)),
                crate::protocol::TalkLine::Chat(chat) => (n, serde_json::to_value(chat)),
            })
            .map(|(n, value)| (n, value.expect("a line serializes")))
            .collect();
        Ok((log, news))
    })
    .unwrap();
    let check_event = |v: u64, e: &Value| {
        let kept = &log[(v - 1) as usize];
        let (kind, body) = kept.as_object().unwrap().iter().next().unwrap();
        let said = e["kind"].as_str().unwrap();
        if said == "ready" {
            assert_eq!(
                body["action"],
                json!("ready"),
                "{what}, v {v}: {e} for {kept}"
            );
        } else {
            assert_eq!(said, kind, "{what}, v {v}: {e} for {kept}");
        }
        if kind == "act" && said == "act" {
            assert_eq!(e["name"], body["player"], "{what}, v {v}");
        }
    };
    let mut last_event = 0;
    let mut last_v = 0;
    let mut games: HashMap<u64, Value> = HashMap::new();
    for m in told {
        let t = m["t"].as_str().unwrap();
        if t == "moved" {
            continue;
        }
        let v = m["v"].as_u64().unwrap();
        assert!(
            v <= log.len() as u64,
            "{what}: told v {v} past the log ({}): {m}",
            log.len()
        );
        assert!(v >= last_v, "{what}: v went back from {last_v} to {v}: {m}");
        last_v = v;
        if t == "event" {
            assert!(
                v > last_event,
                "{what}: event {v} again after {last_event}: {m}"
            );
            last_event = v;
            check_event(v, &m["d"]["e"]);
        }
        if t == "catchup" {
            for missed in m["d"]["missed"].as_array().unwrap() {
                let mv = missed["v"].as_u64().unwrap();
                check_event(mv, &missed["e"]);
                last_event = last_event.max(mv);
            }
        }
        if m["d"]["view"].is_object() {
            let game = json!(GAME_FIELDS.map(|k| m["d"][k].clone()));
            let first = games.entry(v).or_insert_with(|| game.clone());
            assert_eq!(
                *first, game,
                "{what}: two states at v {v}, the second in {m}"
            );
        }
        let mut lines: Vec<&Value> = Vec::new();
        if t == "news" {
            lines.push(&m["d"]);
        }
        if let Some(all) = m["d"]["news"].as_array().filter(|_| t != "news") {
            lines.extend(all);
        }
        for line in lines {
            let n = line["n"].as_u64().unwrap();
            assert_eq!(
                news.get(&n),
                Some(line),
                "{what}: news line {n} not the kept one"
            );
        }
    }
}

/// How many events table `table`'s log holds now, on the database at
/// `url` (read with a client of its own, so it answers while a node's
/// connections are stopped).
pub fn log_length(url: &str, table: &str) -> u64 {
    query(url, |c| {
        let row = c.query_one("SELECT count(*) FROM log WHERE table_id = $1", &[&table])?;
        Ok(row.get::<_, i64>(0) as u64)
    })
}

/// The database stops answering one node: every backend process serving
/// a connection whose `application_name` is the node's is stopped
/// (SIGSTOP), as a database frozen or cut off from that node is, while
/// other clients (the test's) are still answered. Resumed (SIGCONT) by
/// [`Stopped::resume`] or when dropped, so that a failing test does not
/// leave the shared test database holding locks.
pub struct Stopped {
    url: String,
    application: String,
    pids: Vec<i32>,
}

impl Stopped {
    /// Stops the backends of `application` on the database at `url`.
    pub fn backends(url: &str, application: &str) -> Stopped {
        let mut stopped = Stopped {
            url: url.to_string(),
            application: application.to_string(),
            pids: Vec::new(),
        };
        stopped.again();
        assert!(
            !stopped.pids.is_empty(),
            "no connection of {application} to stop"
        );
        stopped
    }

    /// Stops the node's connections opened since (a pool that reconnects).
    pub fn again(&mut self) {
        let application = self.application.clone();
        let pids: Vec<i32> = query(&self.url, |c| {
            let rows = c.query(
                "SELECT pid FROM pg_stat_activity WHERE application_name = $1",
                &[&application],
            )?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        });
        for pid in pids {
            if !self.pids.contains(&pid) {
                signal(pid, "STOP");
                self.pids.push(pid);
            }
        }
    }

    /// Lets the stopped backends go on.
    pub fn resume(mut self) {
        self.cont();
    }

    fn cont(&mut self) {
        for pid in self.pids.drain(..) {
            signal(pid, "CONT");
        }
    }
}

impl Drop for Stopped {
    fn drop(&mut self) {
        self.cont();
    }
}

/// Sends signal `name` to process `pid` with kill(1) (a backend that has
/// exited meanwhile is no error).
fn signal(pid: i32, name: &str) {
    let _ = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(pid.to_string())
        .status();
}

/// Runs `f` on a plain client of the database at `url`.
fn query<T: Send>(
    url: &str,
    f: impl FnOnce(&mut postgres::Client) -> Result<T, postgres::Error> + Send,
) -> T {
    on_own_thread(|| {
        let mut client = postgres::Client::connect(url, postgres::NoTls)
            .map_err(|e| crate::store::StoreError::Failed(e.to_string()))?;
        f(&mut client).map_err(|e| crate::store::StoreError::Failed(e.to_string()))
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `f` on a thread of its own: the sync client must not run on a
/// thread of a tokio runtime.
fn on_own_thread<T: Send>(
    f: impl FnOnce() -> Result<T, crate::store::StoreError> + Send,
) -> Result<T, crate::store::StoreError> {
    std::thread::scope(|s| s.spawn(f).join().expect("the database thread panicked"))
}
