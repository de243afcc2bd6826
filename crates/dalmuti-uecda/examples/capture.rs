//! A recording proxy between a UECda server and its five clients: it
//! passes every message on unchanged and writes them all, in order, as a
//! transcript (`dalmuti_uecda::transcript`). The fixtures of
//! `tests/fixtures/` were recorded with it from the contest's reference
//! server; `tests/fixtures/README.md` says how to record them again.
//!
//! ```text
//! cargo run -p dalmuti-uecda --example capture -- LISTEN_PORT SERVER_HOST:PORT OUT_FILE [COMMENT]
//! ```
//!
//! Start the server first, then this, then the five clients on
//! LISTEN_PORT: the proxy connects to the server once per client, in the
//! order the clients come, so each gets the player number of its place.
//! It speaks protocol 20070 (the kit's clients do).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use dalmuti_uecda::transcript::{Direction, Line, Message, Transcript};
use dalmuti_uecda::{INT_BYTES, PLAYERS, PlayerNo, RawTable, TABLE_BYTES};

type Log = Arc<Mutex<Vec<Line>>>;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: capture LISTEN_PORT SERVER_HOST:PORT OUT_FILE [COMMENT]");
        std::process::exit(2);
    }
    let listener =
        TcpListener::bind(("127.0.0.1", args[0].parse::<u16>().expect("a port"))).expect("listen");
    let log: Log = Arc::default();
    let mut relays = Vec::new();
    for _ in 0..PLAYERS {
        let (mut client, _) = listener.accept().expect("accept");
        let mut server = TcpStream::connect(&args[1]).expect("connect to the server");
        for s in [&client, &server] {
            s.set_nodelay(true).expect("nodelay");
        }
        // The first table (protocol and name), then the player number.
        let hello = read_table(&mut client);
        server.write_all(&hello.to_bytes()).expect("write");
        let number = read_int(&mut server);
        client.write_all(&number.to_be_bytes()).expect("write");
        let player = PlayerNo::new(number as usize).expect("a player number 0 to 4");
        push(&log, player, Direction::ToServer, Message::Table(hello));
        push(&log, player, Direction::ToPlayer, Message::Int(number));
        let log = Arc::clone(&log);
        relays.push(std::thread::spawn(move || {
            relay(player, client, server, &log)
        }));
    }
    for r in relays {
        r.join().expect("a relay");
    }
    let mut transcript = Transcript {
        comments: args
            .get(3)
            .map(|c| vec![format!(" {c}")])
            .unwrap_or_default(),
        lines: std::mem::take(&mut *log.lock().expect("log")),
    };
    transcript
        .comments
        .push(" recorded by crates/dalmuti-uecda/examples/capture.rs".into());
    std::fs::write(&args[2], transcript.to_string()).expect("write the transcript");
    eprintln!("{} messages written to {}", transcript.lines.len(), args[2]);
}

/// Passes one client's messages on in the protocol's order until the
/// server says the match is over.
fn relay(player: PlayerNo, mut client: TcpStream, mut server: TcpStream, log: &Log) {
    let to_player = |server: &mut TcpStream, client: &mut TcpStream, int: bool| {
        let message = if int {
            Message::Int(read_int(server))
        } else {
            Message::Table(read_table(server))
        };
        match &message {
            Message::Int(n) => client.write_all(&n.to_be_bytes()),
            Message::Table(t) => client.write_all(&t.to_bytes()),
            Message::Hex(_) => unreachable!("20070 only"),
        }
        .expect("write to the client");
        push(log, player, Direction::ToPlayer, message.clone());
        message
    };
    let to_server = |client: &mut TcpStream, server: &mut TcpStream| {
        let t = read_table(client);
        server
            .write_all(&t.to_bytes())
            .expect("write to the server");
        push(log, player, Direction::ToServer, Message::Table(t));
    };
    loop {
        let Message::Table(dealt) = to_player(&mut server, &mut client, false) else {
            return;
        };
        if (1..100).contains(&dealt.get(5, 1)) {
            to_server(&mut client, &mut server);
        }
        loop {
            let Message::Table(hand) = to_player(&mut server, &mut client, false) else {
                return;
            };
            if hand.get(5, 2) == 1 {
                to_server(&mut client, &mut server);
                to_player(&mut server, &mut client, true);
            }
            to_player(&mut server, &mut client, false);
            match to_player(&mut server, &mut client, true) {
                Message::Int(0) => {}
                Message::Int(1) => break,
                _ => return,
            }
        }
    }
}

fn push(log: &Log, player: PlayerNo, direction: Direction, message: Message) {
    log.lock().expect("log").push(Line {
        player,
        direction,
        message,
    });
}

fn read_table(s: &mut TcpStream) -> RawTable {
    let mut buf = [0u8; TABLE_BYTES];
    s.read_exact(&mut buf).expect("read a table");
    RawTable::from_bytes(&buf)
}

fn read_int(s: &mut TcpStream) -> i32 {
    let mut buf = [0u8; INT_BYTES];
    s.read_exact(&mut buf).expect("read an integer");
    i32::from_be_bytes(buf)
}
