//! Game records: the shared spec's examples, and every kind of fault found
//! where it lies.

use std::path::PathBuf;

use dalmuti_core::record::{Checked, Fault, Record, check};
use dalmuti_core::{Action, Game, Rules, Scoring, Seat, Seed};
use serde_json::{Value, json};

/// The shared spec's examples: `../shared/specs/examples` beside the
/// checkout. Missing, the test says where they belong instead of failing
/// with a bare "No such file or directory".
fn spec_examples() -> PathBuf {
    let checkout = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shared = checkout
        .canonicalize()
        .unwrap_or(checkout)
        .with_file_name("shared");
    let examples = shared.join("specs/examples");
    assert!(
        examples.is_dir(),
        "the shared specs are missing: {} is not a folder. The record tests read the \
         game-record spec's examples from the project's shared folder, which must sit beside \
         this checkout as {} (with specs/game-record.md and specs/examples/ in it), as CI has \
         it: see docs/DEVELOPING.md",
        examples.display(),
        shared.display()
    );
    examples
}

fn example(name: &str) -> Value {
    let text = std::fs::read_to_string(spec_examples().join(name)).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Every example of the spec checks exactly as its `.expected.json` says
/// (compared as JSON values; the words of a message are ours).
#[test]
fn spec_examples_check_as_expected() {
    let mut seen = 0;
    for entry in std::fs::read_dir(spec_examples()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !name.ends_with(".json") || name.ends_with(".expected.json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let verdict = check(&text);
        let mut got: Value = serde_json::from_str(&verdict.to_json()).unwrap();
        let expected_path = path.with_file_name(name.replace(".json", ".expected.json"));
        let mut expected: Value =
            serde_json::from_str(&std::fs::read_to_string(expected_path).unwrap()).unwrap();
        if let (Some(g), Some(e)) = (got.get_mut("error"), expected.get_mut("error")) {
            assert!(!g["message"].as_str().unwrap().is_empty());
            g.as_object_mut().unwrap().remove("message");
            e.as_object_mut().unwrap().remove("message");
        }
        assert_eq!(got, expected, "{name}");
        seen += 1;
    }
    assert!(seen >= 7, "the specs ship at least seven examples");
}

fn fault(record: &Value) -> Fault {
    match check(&record.to_string()) {
        Checked::Invalid(f) => f,
        other => panic!("expected a fault, got {other:?}"),
    }
}

fn assert_fault(record: &Value, hand: Option<usize>, play: Option<usize>, words: &str) {
    let f = fault(record);
    assert_eq!((f.hand, f.play), (hand, play), "{}", f.message);
    assert!(
        f.message.contains(words),
        "{:?} does not say {words:?}",
        f.message
    );
}

#[test]
fn unreadable_records_exit_with_two() {
    for text in [
        "",
        "not json",
        "[1, 2]",
        "{}",
        r#"{"format": "pgn"}"#,
        r#"{"format": 1}"#,
        // The format is looked at before any other part.
        r#"{"seating": 5, "format": "pgn"}"#,
        // Not JSON, though a part before the text breaks off is malformed.
        r#"{"format": "dalmuti-record/1", "seating": 5, "hands": [}"#,
    ] {
        assert_eq!(check(text).exit_code(), 2, "{text:?}");
    }
    let malformed = check(r#"{"format": "dalmuti-record/1", "seating": 5, "hands": []}"#);
    assert_eq!(malformed.exit_code(), 1, "{malformed:?}");
}

/// A part of the wrong shape is a fault where it lies: in its hand, with
/// its path in the words.
#[test]
fn parts_of_the_wrong_shape_say_where_they_are() {
    let base = example("five-players-three-hands.json");
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        f(&mut v);
        v
    };
    assert_fault(
        &with(&|v| v["seating"][2] = json!(5)),
        None,
        None,
        "seating[2]: invalid type: integer `5`, expected a string",
    );
    // An array is not read as the fields in order.
    assert_fault(
        &with(&|v| v["rules"] = json!(["dalmuti", false])),
        None,
        None,
        "rules: invalid type: sequence, expected an object",
    );
    assert_fault(
        &with(&|v| v["rules"]["hands"] = json!(0)),
        None,
        None,
        "rules.hands",
    );
    assert_fault(
        &with(&|v| v["hands"][1]["deal"]["Dana"] = json!(5)),
        Some(1),
        None,
        "deal.Dana: invalid type: integer `5`, expected a string",
    );
    assert_fault(
        &with(&|v| v["hands"][2]["join"] = json!([{"name": "Eve"}])),
        Some(2),
        None,
        "join[0]: missing field `seat`",
    );
    assert_fault(
        &with(&|v| v["hands"][0]["declined"] = json!(["tax"])),
        Some(0),
        None,
        "declined[0]: unknown variant `tax`",
    );
    assert_fault(
        &with(&|v| v["hands"][1] = json!(["deal"])),
        Some(1),
        None,
        "expected an object",
    );
    // A play that is not a string is refused in its turn.
    assert_fault(
        &with(&|v| v["hands"][0]["plays"][7] = json!({"Amity": "5"})),
        Some(0),
        Some(7),
        "a play should be a string",
    );
}

#[test]
fn the_rulebook_setup_example_is_checked_by_the_draw() {
    let doc = |seating: [&str; 5]| {
        json!({
            "format": "dalmuti-record/1",
            "draw": [
                {"Amity": "12", "Cherise": "6", "Sondra": "1", "Dana": "12", "Anton": "2"},
                {"Amity": "5", "Dana": "J"}
            ],
            "seating": seating,
            "hands": []
        })
    };
    // The book's text seats Amity above Cherise, though Cherise drew better.
    let book = doc(["Sondra", "Anton", "Amity", "Cherise", "Dana"]);
    assert_fault(&book, None, None, "Sondra, Anton, Cherise, Amity, Dana");
    let corrected = doc(["Sondra", "Anton", "Cherise", "Amity", "Dana"]);
    let Checked::Valid(report) = check(&corrected.to_string()) else {
        panic!()
    };
    assert_eq!(
        report.seating.unwrap(),
        ["Sondra", "Anton", "Cherise", "Amity", "Dana"]
    );
}

#[test]
fn faults_outside_every_hand() {
    let base = example("five-players-three-hands.json");
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        f(&mut v);
        v
    };
    assert_fault(
        &with(&|v| v["seating"] = json!(["A", "B"])),
        None,
        None,
        "3 to 16",
    );
    assert_fault(
        &with(&|v| v["seating"] = json!(["A", "B", "A"])),
        None,
        None,
        "twice",
    );
    assert_fault(
        &with(&|v| v["rules"]["variant"] = json!("corporate-reshuffle")),
        None,
        None,
        "variant",
    );
    assert_fault(
        &with(&|v| v["rules"]["scoring"] = json!("lots")),
        None,
        None,
        "scoring",
    );
    assert_fault(
        &with(&|v| v["draw"][1]["Dana"] = json!("5")),
        None,
        None,
        "draw",
    );
    assert_fault(
        &with(&|v| v["draw"][0]["Amity"] = json!("1")),
        None,
        None,
        "round 1 of the draw",
    );
    let swapped = json!(["Cherise", "Amity", "Sondra", "Anton", "Dana"]);
    assert_fault(
        &with(&|v| v["seating"] = swapped.clone()),
        None,
        None,
        "seating does not follow the draw",
    );
    assert_fault(
        &with(&|v| {
            v.as_object_mut().unwrap().remove("hands");
        }),
        None,
        None,
        "hands",
    );
}

fn h0(v: &mut Value) -> &mut Value {
    &mut v["hands"][0]
}

#[test]
fn faults_in_the_deal_taxes_and_table_changes() {
    let base = example("five-players-three-hands.json");
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        f(&mut v);
        v
    };
    assert_fault(
        &with(&|v| {
            h0(v)["deal"].as_object_mut().unwrap().remove("Dana");
        }),
        Some(0),
        None,
        "no cards for Dana",
    );
    assert_fault(
        &with(&|v| h0(v)["deal"]["Eve"] = json!("1")),
        Some(0),
        None,
        "Eve",
    );
    assert_fault(
        &with(&|v| h0(v)["deal"]["Dana"] = json!("4 4 6 7 7 8 8 9 9 10 11 11 11 12 12 1")),
        Some(0),
        None,
        "not the deck",
    );
    assert_fault(
        &with(&|v| h0(v)["deal"]["Dana"] = json!("4 4 x")),
        Some(0),
        None,
        "not a card",
    );
    // Taxes: wrong giver, wrong count, a card not dealt, missing.
    assert_fault(
        &with(&|v| h0(v)["tax"] = json!({"Amity": "12 J", "Sondra": "5"})),
        Some(0),
        None,
        "not a Dalmuti",
    );
    assert_fault(
        &with(&|v| h0(v)["tax"]["Amity"] = json!("12")),
        Some(0),
        None,
        "exactly 2",
    );
    assert_fault(
        &with(&|v| h0(v)["tax"]["Amity"] = json!("1 J")),
        Some(0),
        None,
        "not dealt 1 J",
    );
    assert_fault(
        &with(&|v| {
            h0(v).as_object_mut().unwrap().remove("tax");
        }),
        Some(0),
        None,
        "no tax",
    );
    assert_fault(
        &with(&|v| {
            h0(v)["tax"].as_object_mut().unwrap().remove("Cherise");
        }),
        Some(0),
        None,
        "Cherise",
    );
    assert_fault(
        &with(&|v| h0(v)["revolution"] = json!("Amity")),
        Some(0),
        None,
        "both Jesters",
    );
    assert_fault(
        &with(&|v| h0(v)["merchant_exchange"] = json!({"Sondra": "5", "Anton": "2"})),
        Some(0),
        None,
        "rule is off",
    );
    // Table changes: not before the first hand, and only halfway down.
    assert_fault(
        &with(&|v| h0(v)["leave"] = json!(["Dana"])),
        Some(0),
        None,
        "first hand",
    );
    assert_fault(
        &with(&|v| v["hands"][2]["join"] = json!([{"name": "N2", "seat": 1}])),
        Some(2),
        None,
        "halfway",
    );
    assert_fault(
        &with(&|v| v["hands"][1]["leave"] = json!(["Nobody"])),
        Some(1),
        None,
        "Nobody",
    );
}

#[test]
fn faults_in_the_plays_name_the_play() {
    let base = example("five-players-three-hands.json");
    let with = |j: usize, play: &str| {
        let mut v = base.clone();
        v["hands"][0]["plays"][j] = json!(play);
        v
    };
    // plays[0] is "Amity: 11 11", the lead; plays[1] "Cherise: 5 5".
    assert_fault(
        &with(0, "Cherise: 11 11"),
        Some(0),
        Some(0),
        "it is Amity's turn, not Cherise's",
    );
    assert_fault(&with(0, "Amity: pass"), Some(0), Some(0), "cannot pass");
    assert_fault(&with(0, "Amity: 1"), Some(0), Some(0), "does not hold");
    assert_fault(
        &with(1, "Cherise: 12 12"),
        Some(0),
        Some(1),
        "does not top 11 11",
    );
    assert_fault(
        &with(1, "Cherise: 5"),
        Some(0),
        Some(1),
        "must play 2 card(s)",
    );
    assert_fault(&with(1, "Cherise 5 5"), Some(0), Some(1), "\"Name: cards\"");
    assert_fault(&with(1, "Eve: 5 5"), Some(0), Some(1), "not seated");
    assert_fault(
        &with(1, "Cherise: 5 6"),
        Some(0),
        Some(1),
        "5 6 is not a set of one rank",
    );
    // A play after the hand is over.
    let mut extra = base.clone();
    let plays = extra["hands"][0]["plays"].as_array_mut().unwrap();
    let n = plays.len();
    plays.push(json!("Dana: pass"));
    assert_fault(&extra, Some(0), Some(n), "already over");
    // A hand that stops early while another follows.
    let mut short = base.clone();
    short["hands"][0]["plays"]
        .as_array_mut()
        .unwrap()
        .truncate(10);
    assert_fault(&short, Some(0), None, "another hand follows");
}

#[test]
fn the_first_fault_is_the_one_reported() {
    let mut v = example("five-players-three-hands.json");
    // An unreadable play late in hand 0, an illegal one earlier, and a bad
    // deal in hand 1: the earliest wins.
    v["hands"][0]["plays"][50] = json!("nonsense");
    v["hands"][0]["plays"][3] = json!("Anton: 1");
    v["hands"][1]["deal"] = json!({});
    let f = fault(&v);
    assert_eq!((f.hand, f.play), (Some(0), Some(3)));
    // A hand of the wrong shape after it, and a play that is not a string.
    v["hands"][0]["plays"][40] = json!(7);
    v["hands"][1] = json!(5);
    let f = fault(&v);
    assert_eq!((f.hand, f.play), (Some(0), Some(3)));
}

#[test]
fn the_last_hand_may_stop_anywhere() {
    let mut v = example("five-players-three-hands.json");
    v["hands"][2]["plays"].as_array_mut().unwrap().truncate(40);
    let Checked::Valid(report) = check(&v.to_string()) else {
        panic!("a game saved in progress is valid")
    };
    assert!(!report.hands[2].finished);
    assert!(report.seating.is_none(), "no next seating mid-hand");
    assert!(report.hands[2].scores.is_none());
    // Even before the taxes are chosen.
    let hand = v["hands"][2].as_object_mut().unwrap();
    hand.remove("tax");
    hand.insert("plays".into(), json!([]));
    assert_eq!(check(&v.to_string()).exit_code(), 0);
}

/// A game saved while its first hand is set up keeps who said ready, and
/// reads back to the same hand; `ready` may name only players whose setup
/// choice is that.
#[test]
fn a_game_saved_while_set_up_keeps_who_said_ready() {
    let names = ["Ada", "Bo", "Cy", "Di", "Ed"].map(String::from).to_vec();
    let mut game = Game::with_seating(Rules::default(), names, Seed::from(3)).unwrap();
    for seat in [Seat::new(4), Seat::new(2)] {
        game.apply(seat, Action::Ready).unwrap();
    }
    let record = serde_json::to_value(Record::from_game(&game)).unwrap();
    let ready = &record["hands"][0]["ready"];
    assert_eq!(
        ready,
        &json!([
            game.name(game.player_at(Seat::new(2))),
            game.name(game.player_at(Seat::new(4)))
        ])
    );
    let back = Record::parse(&record.to_string())
        .unwrap()
        .replay(Seed::from(0))
        .unwrap();
    assert_eq!(back.hand().said_ready(), game.hand().said_ready());
    assert_eq!(back.hand().to_act(), game.hand().to_act());
    // The Greater Dalmuti chooses a tax gift: saying ready is not theirs.
    let mut wrong = record.clone();
    wrong["hands"][0]["ready"] = json!([game.name(game.player_at(Seat::new(0)))]);
    assert_fault(&wrong, Some(0), None, "has no reason to say ready");
}

fn play_game(rules: Rules, players: usize, seed: u64, hands: usize) -> Game {
    let names = (0..players).map(|i| format!("P{i}")).collect();
    let mut game = Game::new(rules, names, Seed::from(seed)).unwrap();
    for h in 0..hands {
        if h > 0 {
            game.next_hand().unwrap();
        }
        while let Some(s) = game.hand().next_to_act() {
            game.apply(s, game.hand().worst_legal(s).unwrap()).unwrap();
        }
    }
    game
}

#[test]
fn games_the_engine_plays_are_valid_records_that_read_back_equal() {
    let rules = Rules {
        merchant_exchange: true,
        scoring: Scoring::Philanthropic,
        ..Rules::default()
    };
    let game = play_game(rules, 7, 12, 4);
    let record = Record::from_game(&game);
    let text = record.to_json_string();
    let Checked::Valid(report) = check(&text) else {
        panic!("{text}")
    };
    assert_eq!(report.hands.len(), 4);
    let totals: Vec<(String, u32)> = game
        .players()
        .map(|p| (game.name(p).to_string(), game.total(p)))
        .collect();
    assert_eq!(report.totals.unwrap(), totals);
    assert_eq!(Record::parse(&text).unwrap(), record);
    let replayed = record.replay(Seed::from(0)).unwrap();
    assert_eq!(replayed.hands(), game.hands());
}

#[test]
fn written_records_follow_the_format_page() {
    let game = play_game(Rules::default(), 4, 3, 1);
    let v: Value = serde_json::from_str(&Record::from_game(&game).to_json_string()).unwrap();
    assert_eq!(v["format"], "dalmuti-record/1");
    assert_eq!(v["rules"]["variant"], "dalmuti");
    assert_eq!(v["seating"].as_array().unwrap().len(), 4);
    assert!(v["draw"].is_array());
    let hand = &v["hands"][0];
    assert_eq!(hand["deal"].as_object().unwrap().len(), 4);
    let play = hand["plays"][0].as_str().unwrap();
    let (name, cards) = play.split_once(": ").unwrap();
    assert_eq!(name, v["seating"][0], "the Greater Dalmuti leads");
    assert!(
        cards
            .split(' ')
            .all(|t| t == "J" || (1..=12).any(|n| n.to_string() == t))
    );
}
