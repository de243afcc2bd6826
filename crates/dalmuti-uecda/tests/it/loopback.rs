//! Our server and our client against each other over real sockets, and
//! our server facing clients that misbehave.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread::JoinHandle;
use std::time::Duration;

use dalmuti_core::record::{Checked, check};

use crate::replay::{Followers, replay};
use dalmuti_uecda::{
    Hello, JoinConfig, JoinReport, PLAYERS, Protocol, RawTable, ServeConfig, ServeReport,
    StateTable, TABLE_BYTES, join, serve,
};

fn start_server(config: ServeConfig) -> (u16, JoinHandle<ServeReport>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let handle = std::thread::spawn(move || serve(listener, config).expect("the match"));
    (port, handle)
}

fn start_client(port: u16, bot: &str, name: &str, protocol: Protocol) -> JoinHandle<JoinReport> {
    let config = JoinConfig {
        host: "127.0.0.1".into(),
        port,
        bot: bot.parse().expect("a bot"),
        name: name.into(),
        protocol,
        seed: 7,
    };
    let handle = std::thread::spawn(move || join(config).expect("joined"));
    // The server numbers players in the order they come.
    std::thread::sleep(Duration::from_millis(50));
    handle
}

fn config(games: u32) -> ServeConfig {
    ServeConfig {
        games,
        seed: Some(11),
        answer_timeout: Duration::from_secs(30),
        ..ServeConfig::default()
    }
}

#[test]
fn our_clients_play_a_match_on_our_server() {
    let dir = std::env::temp_dir().join(format!("dalmuti-uecda-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let record = dir.join("match.json");
    let points = dir.join("points.csv");
    let transcript = dir.join("match.txt");
    let (port, server) = start_server(ServeConfig {
        record: Some(record.clone()),
        points: Some(points.clone()),
        transcript: Some(transcript.clone()),
        // A short cycle: the fourth game is dealt without classes again.
        class_cycle: 3,
        ..config(5)
    });
    let bots = ["greedy", "normal", "random", "normal", "greedy"];
    let clients: Vec<_> = bots
        .iter()
        .enumerate()
        .map(|(i, bot)| {
            // One client speaks the hexadecimal form.
            let protocol = if i == 2 {
                Protocol::Hex
            } else {
                Protocol::Tables
            };
            start_client(port, bot, bot, protocol)
        })
        .collect();
    let report = server.join().expect("the server");
    let seen: Vec<JoinReport> = clients
        .into_iter()
        .map(|c| c.join().expect("a client"))
        .collect();
    assert_eq!(report.games, 5);
    assert_eq!(report.points.iter().sum::<u32>(), 5 * 15);
    assert!(report.stood_in.is_empty(), "{:?}", report.stood_in);
    assert_eq!(report.refused, 0, "our bots play only legal plays");
    // Two clients named alike are told apart.
    assert_eq!(report.names[0], "greedy");
    assert_eq!(report.names[4], "greedy#4");
    for (p, client) in seen.iter().enumerate() {
        assert_eq!(client.games, 5);
        assert_eq!(client.faults, 0, "player {p} followed every game");
        let known: u32 = client.places.iter().sum();
        // Every place a client saw is the server's.
        if known == 5 {
            assert_eq!(client.points, report.points[p], "player {p}");
        }
        for place in 0..PLAYERS {
            assert!(client.places[place] <= report.places[p][place]);
        }
    }
    // The record replays under the rules, game by game.
    let text = std::fs::read_to_string(&record).expect("the record");
    let Checked::Valid(checked) = check(&text) else {
        panic!("the record does not check: {text}");
    };
    assert_eq!(checked.hands.len(), 5);
    assert!(checked.hands.iter().all(|h| h.finished));
    // The points table has a row per game, the last the totals.
    let csv = std::fs::read_to_string(&points).expect("points");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 6);
    let last: Vec<u32> = rows[5]
        .split(',')
        .skip(1)
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(last, report.points.to_vec());
    // The transcript replays through a fresh referee byte for byte.
    let transcript: dalmuti_uecda::transcript::Transcript = std::fs::read_to_string(&transcript)
        .expect("transcript")
        .parse()
        .expect("a transcript");
    let hex_lines = transcript
        .lines
        .iter()
        .filter(|l| matches!(l.message, dalmuti_uecda::transcript::Message::Hex(_)))
        .count();
    assert!(hex_lines > 100, "player 2's tables are in protocol 20140");
    let mut followers = Followers::new("normal");
    let again = replay(&transcript, 3, Some(&mut followers)).expect("the transcript replays");
    assert_eq!(again.games, 5);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn our_bots_fill_the_seats_no_client_takes() {
    let (port, server) = start_server(ServeConfig {
        bots: vec!["normal".parse().unwrap(), "greedy".parse().unwrap()],
        ..config(3)
    });
    let clients: Vec<_> = (0..3)
        .map(|i| start_client(port, "normal", &format!("c{i}"), Protocol::Tables))
        .collect();
    let report = server.join().expect("server");
    for c in clients {
        assert_eq!(c.join().expect("client").games, 3);
    }
    assert_eq!(report.names[3], "dalmuti-heuristic");
    assert!(report.kinds[4].starts_with("bot"));
    assert_eq!(report.points.iter().sum::<u32>(), 45);
}

/// Speaks the protocol by hand: a first table, then whatever the test
/// wants. Returns once the server has told the client its player number,
/// with that number.
fn raw_client(port: u16, name: &str) -> (TcpStream, usize) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.write_all(&Hello::new(Protocol::Tables, name).to_table().to_bytes())
        .expect("hello");
    let number = read_int(&mut s);
    (s, usize::try_from(number).expect("a player number"))
}

fn read_int(s: &mut TcpStream) -> i32 {
    let mut buf = [0u8; 4];
    s.read_exact(&mut buf).expect("an integer");
    i32::from_be_bytes(buf)
}

fn read_state(s: &mut TcpStream) -> Option<StateTable> {
    let mut buf = [0u8; TABLE_BYTES];
    s.read_exact(&mut buf).ok()?;
    StateTable::from_table(&RawTable::from_bytes(&buf)).ok()
}

#[test]
fn strangers_and_failing_clients_do_not_stop_the_match() {
    let (port, server) = start_server(ServeConfig {
        hello_timeout: Duration::from_millis(500),
        answer_timeout: Duration::from_secs(5),
        ..config(2)
    });
    // A connection that says nothing is closed, and its place stays free.
    let mut silent = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let mut buf = [0u8; 4];
    assert_eq!(silent.read(&mut buf).expect("closed"), 0);
    // A client of another protocol is refused.
    let mut old = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let mut hello = Hello::new(Protocol::Tables, "old").to_table();
    hello.set(0, 0, 20060);
    old.write_all(&hello.to_bytes()).expect("write");
    assert_eq!(old.read(&mut buf).expect("closed"), 0);
    // One player sends nonsense at every turn; another stops answering
    // after the first game's deal; the others play. Each is numbered
    // before the next connects (on a busy machine threads started one
    // after the other may connect in another order).
    let (garbler, _) = raw_client(port, "garbler");
    let (sleeper, sleeper_number) = raw_client(port, "sleeper");
    let garbler = std::thread::spawn(move || {
        let mut s = garbler;
        let mut garbled = RawTable::ZERO;
        garbled.set(2, 3, 7);
        garbled.set(0, 0, 1);
        let mut refused = 0;
        loop {
            let dealt = read_state(&mut s).expect("dealt");
            if dealt.exchange > 0 {
                s.write_all(&garbled.to_bytes()).expect("write");
            }
            loop {
                let hand = read_state(&mut s).expect("a hand");
                if hand.my_turn {
                    s.write_all(&garbled.to_bytes()).expect("write");
                    assert_eq!(read_int(&mut s), 8, "garbage is refused");
                    refused += 1;
                }
                read_state(&mut s).expect("the table");
                match read_int(&mut s) {
                    0 => {}
                    1 => break,
                    _ => return refused,
                }
            }
        }
    });
    let sleeper = std::thread::spawn(move || {
        let mut s = sleeper;
        // Reads its cards, then never answers and never reads again.
        let _ = read_state(&mut s);
        std::thread::sleep(Duration::from_secs(60));
        drop(s);
    });
    let others: Vec<_> = (0..3)
        .map(|i| start_client(port, "greedy", &format!("g{i}"), Protocol::Tables))
        .collect();
    let report = server.join().expect("the match goes on");
    for c in others {
        assert_eq!(c.join().expect("client").games, 2);
    }
    assert_eq!(report.games, 2);
    assert_eq!(report.points.iter().sum::<u32>(), 30);
    let stood_in: Vec<usize> = report.stood_in.iter().map(|(p, _)| p.index()).collect();
    assert!(
        stood_in.contains(&sleeper_number),
        "the sleeper (player {sleeper_number}) is stood in for: {:?}",
        report.stood_in
    );
    assert!(report.refused > 0, "the garbler's plays are refused");
    assert!(garbler.join().expect("the garbler") > 0);
    drop(sleeper);
}

#[test]
fn a_20140_client_sending_no_hexadecimal_is_refused_not_dropped() {
    let (port, server) = start_server(config(1));
    let garbler = std::thread::spawn(move || {
        let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        s.write_all(&Hello::new(Protocol::Hex, "hex").to_table().to_bytes())
            .expect("hello");
        read_int(&mut s);
        let read_hex = |s: &mut TcpStream| {
            let mut buf = [0u8; dalmuti_uecda::HEX_BYTES];
            s.read_exact(&mut buf).expect("a table");
            StateTable::from_table(&RawTable::from_hex(&buf).expect("hexadecimal"))
                .expect("a state")
        };
        let mut refused = 0;
        let dealt = read_hex(&mut s);
        assert!(dealt.exchanging);
        loop {
            let hand = read_hex(&mut s);
            if hand.my_turn {
                s.write_all(&[b'Z'; dalmuti_uecda::HEX_BYTES])
                    .expect("write");
                assert_eq!(read_int(&mut s), 8);
                refused += 1;
            }
            read_hex(&mut s);
            if read_int(&mut s) != 0 {
                return refused;
            }
        }
    });
    std::thread::sleep(Duration::from_millis(50));
    let others: Vec<_> = (0..4)
        .map(|i| start_client(port, "greedy", &format!("g{i}"), Protocol::Tables))
        .collect();
    let report = server.join().expect("the match");
    for c in others {
        c.join().expect("a client");
    }
    let refused = garbler.join().expect("the garbler");
    assert!(refused > 0);
    assert_eq!(report.refused, refused);
    assert!(
        report.stood_in.is_empty(),
        "a bad table is a bad answer, not a failed client"
    );
}
