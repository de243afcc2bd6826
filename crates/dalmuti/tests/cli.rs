//! The `dalmuti` command as a user runs it.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn dalmuti(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dalmuti"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// An example of the shared spec (`../shared/specs/examples` beside the
/// checkout), or a failure that says where the shared folder belongs.
fn spec(name: &str) -> String {
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/specs/examples");
    assert!(
        examples.is_dir(),
        "the shared specs are missing: {} is not a folder; the project's shared folder must \
         sit beside this checkout (see docs/DEVELOPING.md)",
        examples.display()
    );
    examples.join(name).to_string_lossy().into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn check_json_prints_the_verdict_and_exits_by_it() {
    for (name, code) in [
        ("five-players-three-hands", 0),
        ("four-players-stripped-philanthropic", 0),
        ("seven-players-merchant-exchange", 0),
        ("invalid-play", 1),
        ("corporate-shuffle-five-players", 0),
        ("corporate-shuffle-six-players-exchange", 0),
        ("corporate-shuffle-invalid-wedged-player", 1),
    ] {
        let out = dalmuti(&["check", "--json", &spec(&format!("{name}.json"))]);
        assert_eq!(out.status.code(), Some(code), "{name}");
        let mut got: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let text = std::fs::read_to_string(spec(&format!("{name}.expected.json"))).unwrap();
        let mut expected: serde_json::Value = serde_json::from_str(&text).unwrap();
        if let Some(e) = got.get_mut("error") {
            e.as_object_mut().unwrap().remove("message");
            expected["error"].as_object_mut().unwrap().remove("message");
        }
        assert_eq!(got, expected, "{name}");
    }
}

#[test]
fn check_reads_standard_input_and_says_where_the_fault_is() {
    let text = std::fs::read(spec("invalid-play.json")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dalmuti"))
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out).trim(),
        "invalid: hand 0, play 53: 5 6 is not a set of one rank"
    );
}

#[test]
fn unreadable_input_exits_with_two_and_a_reason() {
    let missing = dalmuti(&["check", "no/such/record.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no/such/record.json"));
    let dir = std::env::temp_dir().join(format!("dalmuti-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, b"\xff\xfe{{{").unwrap();
    let out = dalmuti(&["check", "--json", garbage.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["valid"], false);
}

#[test]
fn replay_tells_the_game_in_words() {
    let out = dalmuti(&[
        "replay",
        "--lang",
        "en",
        &spec("five-players-three-hands.json"),
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    for words in [
        "The draw for seats (the best card sits first): Amity draws a Stonecutter",
        "Seating: Amity (Greater Dalmuti), Cherise (Lesser Dalmuti), Sondra (Merchant), Anton (Lesser Peon), Dana (Greater Peon).",
        "Amity leads two Stonecutters.",
        "Cherise tops it with two Abbesses.",
        "Taxes: Amity, the Greater Dalmuti, gives a Peasant and a Jester to Dana, the Greater Peon",
        "N2 joins the table at seat 4.",
        "Finishing order: 1. Cherise, 2. Dana, 3. Anton, 4. Amity, 5. Sondra.",
        "Standings:",
    ] {
        assert!(text.contains(words), "missing {words:?}");
    }
}

#[test]
fn replay_speaks_the_language_asked_for() {
    let record = spec("five-players-three-hands.json");
    let out = dalmuti(&["replay", "--lang", "de", &record]);
    assert!(out.status.success());
    let text = stdout(&out);
    for words in [
        "Sitzordnung: Amity (Großer Dalmuti)",
        "Amity spielt 2 Steinmetze aus.",
        "Reihenfolge: 1. Cherise, 2. Dana, 3. Anton, 4. Amity, 5. Sondra.",
    ] {
        assert!(text.contains(words), "no {words:?} in:\n{text}");
    }
    // No English left in it.
    assert!(
        !text.contains(" draws ") && !text.contains("Seating"),
        "{text}"
    );
    let wrong = dalmuti(&["replay", "--lang", "xx", &record]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("--lang is one of en"));
}

#[test]
fn replay_of_an_invalid_record_says_why() {
    let out = dalmuti(&["replay", &spec("invalid-play.json")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hand 0, play 53"));
}

#[test]
fn replay_into_a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dalmuti"))
        .args(["replay", &spec("five-players-three-hands.json")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn replay_tells_corporate_shuffle_in_its_own_words() {
    let out = dalmuti(&[
        "replay",
        "--lang",
        "en",
        &spec("corporate-shuffle-five-players.json"),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for words in [
        "A game of Corporate Shuffle",
        "Alice (Big Boss)",
        "Asok (Junior Intern)",
        "Executive bonuses: Alice, the Big Boss, gives",
        "Alice leads a Dogbert as an 8 (Sales).",
        "Asok tops it with the Twirling Wedgie: Ted must pass for the rest of the trick.",
        "Dogbert, World Ruler, which wins the trick at once.",
        "Ratbert goes back to",
        "corporate takeover",
    ] {
        assert!(text.contains(words), "no {words:?} in:\n{text}");
    }
    // The wedged player's error says whose turn it was.
    let bad = dalmuti(&[
        "check",
        &spec("corporate-shuffle-invalid-wedged-player.json"),
    ]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stdout(&bad).contains("it is Asok's turn, not Ted's"),
        "{}",
        stdout(&bad)
    );
}

/// `dalmuti sim` on a terminal (a pseudo-terminal made by `script`): what
/// it wrote there, standard output and error together.
fn sim_on_a_terminal(extra: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_dalmuti");
    // A search bot, so the run lasts past the bar's first tick (200 ms).
    let command = format!(
        "{bin} sim --players 4 --hands 2 --bots search:moves=20000,greedy,greedy,greedy \
         --seed 1 --threads 1 {extra}"
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script(1) from util-linux runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn sim_shows_progress_on_a_terminal_but_not_beside_json() {
    let person = sim_on_a_terminal("");
    assert!(
        person.contains("hands") && person.contains("ETA"),
        "{person}"
    );
    let machine = sim_on_a_terminal("--json");
    assert!(!machine.contains("ETA"), "{machine}");
    assert!(machine.contains("\"hands\": 2"), "{machine}");
    // Piped, no bar either.
    let piped = dalmuti(&[
        "sim",
        "--players",
        "4",
        "--hands",
        "2",
        "--bots",
        "search:moves=20000,greedy,greedy,greedy",
        "--seed",
        "1",
        "--threads",
        "1",
    ]);
    assert!(!String::from_utf8_lossy(&piped.stderr).contains("ETA"));
}
