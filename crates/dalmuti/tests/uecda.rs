//! `dalmuti uecda serve` and `dalmuti uecda join` as a person runs them:
//! a match of our clients (and a bot seated by the server) over real
//! sockets, its points table, its record read back by `dalmuti check`.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};

fn dalmuti() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dalmuti"));
    c.env("RUST_LOG", "info").stdin(Stdio::null());
    c
}

/// Starts `dalmuti uecda serve` on a free port; the port it says it
/// listens on.
fn start_server(args: &[&str]) -> (Child, u16) {
    let mut child = dalmuti()
        .args(["uecda", "serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dalmuti uecda serve starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let port = loop {
        let line = lines
            .next()
            .expect("the server says where it listens")
            .expect("a line");
        if let Some(at) = line.find(" on 127.0.0.1:") {
            break line[at + " on 127.0.0.1:".len()..]
                .trim()
                .parse::<u16>()
                .expect("a port");
        }
    };
    // Keep reading its log, so that it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, port)
}

fn join(port: u16, bot: &str) -> Child {
    let child = dalmuti()
        .args(["uecda", "join", "--port", &port.to_string(), "--bot", bot])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("dalmuti uecda join starts");
    // The server numbers players in the order they come.
    std::thread::sleep(std::time::Duration::from_millis(100));
    child
}

fn finish(child: Child) -> Output {
    child.wait_with_output().expect("it ends")
}

#[test]
fn a_match_of_our_clients_and_a_seated_bot() {
    let dir = std::env::temp_dir().join(format!("dalmuti-uecda-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let record = dir.join("match.json");
    let points = dir.join("points.csv");
    let (server, port) = start_server(&[
        "--games",
        "3",
        "--seed",
        "5",
        "--bots",
        "easy",
        "--record",
        record.to_str().unwrap(),
        "--points",
        points.to_str().unwrap(),
    ]);
    let clients: Vec<Child> = ["normal", "easy", "normal", "random"]
        .iter()
        .map(|bot| join(port, bot))
        .collect();
    for (i, c) in clients.into_iter().enumerate() {
        let out = finish(c);
        assert!(out.status.success(), "client {i}: {out:?}");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            said.starts_with(&format!("3 games as player {i}")),
            "{said}"
        );
    }
    let out = finish(server);
    assert!(out.status.success(), "{out:?}");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.starts_with("UECda match: 3 games, seed 5"), "{table}");
    assert!(table.contains("dalmuti-normal"), "{table}");
    assert!(
        table.contains("dalmuti-normal#2"),
        "two clients of one name are told apart"
    );
    assert!(table.contains("bot easy"), "{table}");
    // The record checks, with its three games.
    let check = dalmuti()
        .arg("check")
        .arg(&record)
        .output()
        .expect("dalmuti check");
    assert!(check.status.success(), "{check:?}");
    assert!(String::from_utf8_lossy(&check.stdout).starts_with("valid: 3 hand(s)"));
    let csv = std::fs::read_to_string(&points).expect("the points");
    assert_eq!(csv.lines().count(), 4);
    assert!(csv.lines().last().unwrap().starts_with("3,"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_are_refused_with_the_reason() {
    let out = dalmuti()
        .args(["uecda", "serve", "--bots", "easy,easy,easy,easy,easy"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a table seats 5"));
    let out = dalmuti()
        .args(["uecda", "join", "--protocol", "20060"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("20070 and 20140"));
    let out = dalmuti()
        .args(["uecda", "join", "--bot", "grandmaster"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    // Nobody listening: the match cannot be played.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = free.local_addr().unwrap().port();
    drop(free);
    let out = dalmuti()
        .args(["uecda", "join", "--port", &port.to_string()])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("connecting to"));
}
