//! Contest programs in the seats of a game refereed elsewhere
//! ([`ContestSeats`]): our own client, which checks every table it is sent
//! against the game it follows, plays two seats of a match whose game is
//! the test's, beside our bots.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread::JoinHandle;
use std::time::Duration;

use dalmuti_bots::{Bot, BotSpec, fallback};
use dalmuti_core::{Action, Game, Rules, Seat, Seed, Viewer};
use dalmuti_uecda::{
    ContestSeats, Hello, JoinConfig, JoinReport, MatchConfig, NotTheContest, PLAYERS, Program,
    Protocol, join,
};

const NAMES: [&str; PLAYERS] = ["Ada", "prog-a", "Bea", "prog-b", "Cy"];

fn contest_rules(games: u32, class_cycle: u32) -> Rules {
    MatchConfig {
        games,
        class_cycle,
        seed: Seed::from(0u64),
    }
    .rules()
}

fn our_client(port: u16, name: &str, protocol: Protocol) -> JoinHandle<Result<JoinReport, String>> {
    let config = JoinConfig {
        host: "127.0.0.1".into(),
        port,
        bot: "normal".parse().expect("a bot"),
        name: name.into(),
        protocol,
        seed: 5,
    };
    std::thread::spawn(move || join(config).map_err(|e| e.to_string()))
}

/// The next program to connect to `listener`, greeted as a server greets it.
fn greeted(listener: &TcpListener) -> Program {
    let (stream, addr) = listener.accept().expect("a program connects");
    Program::greet(stream, addr, Duration::from_secs(5)).expect("it says hello")
}

/// `program` in the seat of "prog-a", answering within `seconds`.
fn seat_one(game: &Game, program: Program, seconds: u64) -> ContestSeats {
    ContestSeats::new(
        game,
        vec![("prog-a".into(), program)],
        Duration::from_secs(seconds),
    )
    .expect("the contest's table")
}

/// Plays `game` to its end: the programs' seats through `seats`, the
/// others (and a lost program's) by our bots, the programs told after
/// every action. How many actions each program chose.
fn play_out(game: &mut Game, seats: &mut ContestSeats) -> HashMap<String, u32> {
    let mut bots: HashMap<String, Box<dyn Bot>> = NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| (n.to_string(), BotSpec::Heuristic.build(i as u64).unwrap()))
        .collect();
    let mut chosen = HashMap::new();
    loop {
        seats.follow(game);
        if game.is_over() {
            return chosen;
        }
        if game.is_between_hands() {
            game.next_hand().expect("the next game is dealt");
            continue;
        }
        let seat = Seat::all(PLAYERS)
            .find(|&s| game.view(Viewer::Seat(s)).decision().is_some())
            .expect("someone is to act");
        let name = game.name(game.player_at(seat)).to_string();
        let view = game.view(Viewer::Seat(seat));
        let legal = view.legal_actions();
        let action = if seats.plays(&name) {
            match seats.answer(game, &name) {
                Ok(action) => {
                    *chosen.entry(name.clone()).or_insert(0) += 1;
                    action
                }
                Err(_) => fallback(&legal),
            }
        } else {
            bots.get_mut(&name)
                .unwrap()
                .decide(&view, &legal)
                .unwrap_or_else(|_| fallback(&legal))
        };
        assert!(legal.contains(&action), "{name} was given a legal action");
        game.apply(seat, action).expect("a legal action");
    }
}

#[test]
fn our_client_follows_every_table_of_five_games_with_the_exchange() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    let mut clients = Vec::new();
    let mut programs = Vec::new();
    // prog-a speaks protocol 20070's tables, prog-b 20140's hexadecimal.
    for (name, protocol) in [("prog-a", Protocol::Tables), ("prog-b", Protocol::Hex)] {
        clients.push(our_client(port, name, protocol));
        let program = greeted(&listener);
        assert_eq!(program.name(), name);
        assert!(program.is_connected());
        programs.push((name.to_string(), program));
    }
    // A short class cycle: the fourth game is dealt without classes again.
    let names = NAMES.map(String::from).to_vec();
    let mut game = Game::drawn(contest_rules(5, 3), names, Seed::from(21u64)).expect("a table");
    let mut seats =
        ContestSeats::new(&game, programs, Duration::from_secs(30)).expect("the contest's table");
    let chosen = play_out(&mut game, &mut seats);
    assert!(seats.take_lost().is_empty(), "no program was lost");
    drop(seats);
    for (client, name) in clients.into_iter().zip(["prog-a", "prog-b"]) {
        let report = client
            .join()
            .expect("the client")
            .expect("the match played");
        assert_eq!(report.games, 5, "{name} was told every game");
        assert_eq!(report.faults, 0, "{name} followed every table");
        let id = game.player_named(name).unwrap();
        let number = game.players().position(|p| p == id).unwrap();
        assert_eq!(report.player.map(|p| p.index()), Some(number));
        if report.places.iter().sum::<u32>() == 5 {
            assert_eq!(report.points, game.total(id), "{name}'s points");
        }
        assert!(chosen[name] > 20, "{name} chose its own plays");
    }
}

#[test]
fn a_program_that_stops_answering_is_lost_and_the_game_goes_on() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    // It says hello, reads its number, then closes.
    let quitter = std::thread::spawn(move || {
        let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        s.write_all(
            &Hello::new(Protocol::Tables, "quitter")
                .to_table()
                .to_bytes(),
        )
        .unwrap();
        let mut buf = [0u8; 4];
        s.read_exact(&mut buf).expect("its number");
    });
    let program = greeted(&listener);
    let names = NAMES.map(String::from).to_vec();
    let mut game = Game::drawn(contest_rules(2, 100), names, Seed::from(4u64)).unwrap();
    let mut seats = seat_one(&game, program, 5);
    quitter.join().unwrap();
    play_out(&mut game, &mut seats);
    assert!(game.is_over(), "the match was played to its end");
    let lost = seats.take_lost();
    assert_eq!(lost.len(), 1, "{lost:?}");
    assert_eq!(lost[0].0, "prog-a");
    assert!(!seats.plays("prog-a"));
}

#[test]
fn only_the_contests_game_seats_programs() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    let client = our_client(port, "prog-a", Protocol::Tables);
    let program = greeted(&listener);
    let names = NAMES.map(String::from).to_vec();
    // President's rules are not the contest's.
    let game = Game::drawn(Rules::president(), names, Seed::from(1u64)).unwrap();
    let Err((why, back)) = ContestSeats::new(
        &game,
        vec![("prog-a".into(), program)],
        Duration::from_secs(5),
    ) else {
        panic!("President seated a contest program");
    };
    assert_eq!(why, NotTheContest::Rules);
    assert_eq!(back.len(), 1, "the program is handed back");
    for program in back {
        program.close();
    }
    // Turned away before its number, the client says so.
    let refused = client.join().expect("the client");
    assert!(refused.is_err(), "{refused:?}");
}

#[test]
fn a_game_the_contest_cannot_follow_lets_every_program_go() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    let client = our_client(port, "prog-a", Protocol::Tables);
    let program = greeted(&listener);
    let names = NAMES.map(String::from).to_vec();
    let mut game = Game::drawn(contest_rules(3, 100), names, Seed::from(8u64)).unwrap();
    let mut seats = seat_one(&game, program, 30);
    // Ten actions of the first game, followed; then another game than
    // this one (one that went where the contest's rules cannot follow:
    // its plays are not the cards the referee dealt): every program is
    // let go.
    let cheapest = |game: &mut Game, actions: usize| {
        for _ in 0..actions {
            if game.is_between_hands() {
                game.next_hand().unwrap();
            }
            let seat = Seat::all(PLAYERS)
                .find(|&s| game.view(Viewer::Seat(s)).decision().is_some())
                .unwrap();
            let legal = game.view(Viewer::Seat(seat)).legal_actions();
            let play = legal.iter().copied().find(|a| *a != Action::Pass);
            game.apply(seat, play.unwrap_or(legal[0])).unwrap();
        }
    };
    cheapest(&mut game, 10);
    seats.follow(&game);
    assert!(seats.plays("prog-a"));
    let other_names = NAMES.map(String::from).to_vec();
    let mut other = Game::drawn(contest_rules(3, 100), other_names, Seed::from(9u64)).unwrap();
    cheapest(&mut other, 30);
    seats.follow(&other);
    let lost = seats.take_lost();
    assert_eq!(lost.len(), 1, "{lost:?}");
    assert!(lost[0].1.contains("cannot follow"), "{lost:?}");
    assert!(!seats.plays("prog-a"));
    // Nothing more is followed, and the client is told by its
    // connection's end.
    seats.follow(&game);
    assert!(seats.take_lost().is_empty());
    let report = client.join().expect("the client");
    assert!(report.is_err(), "{report:?}");
}
