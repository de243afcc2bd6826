//! `dalmuti verify` as a user runs it, on real games: each hand dealt from
//! its own seed from the operating system, played to the end by bots, and
//! written as the server writes a finished game (a record with the extra
//! field `fairness`). Then the same records tampered with, one way at a time.
//!
//! Also keeps `crates/dalmuti-server/web/fairness-fixture.json` (deals made
//! by the engine, which the browser's `fairness.js` must reproduce) up to
//! date.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use dalmuti_bots::{Bot, BotSpec};
use dalmuti_core::record::Record;
use dalmuti_core::{
    Action, Cards, DealRng, Deck, Game, Rules, Scoring, Seed, Variant, Viewer, join_seats,
};
use dalmuti_server::fairness::{Fairness, HandSeed, commitment};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// A finished game as the server hands it out.
struct Played {
    /// The record with its `fairness` field.
    doc: Value,
    fairness: Fairness,
}

/// Plays a game of `hands` hands at a table of `players` bots under
/// `rules`, every hand dealt from a fresh seed; `join_before` seats a
/// newcomer before that hand (1-based).
fn play(rules: Rules, players: usize, hands: u32, join_before: Option<u32>) -> Played {
    play_with(rules, players, hands, join_before, false)
}

/// As [`play`]; with `greater_revolutions`, every hand's seed is drawn
/// again until the Greater Peon is dealt both Jesters, and they call a
/// greater revolution, which reverses the seating for play.
fn play_with(
    rules: Rules,
    players: usize,
    hands: u32,
    join_before: Option<u32>,
    greater_revolutions: bool,
) -> Played {
    let rules = Rules {
        hands: Some(hands),
        ..rules
    };
    let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
    let specs = ["heuristic", "greedy", "random"];
    let bot = |i: usize| -> Box<dyn Bot> {
        specs[i % specs.len()]
            .parse::<BotSpec>()
            .unwrap()
            .build(i as u64)
            .unwrap()
    };
    let mut bots: Vec<Box<dyn Bot>> = (0..players).map(bot).collect();
    let draw_seed = Seed::from_entropy();
    let mut game = Game::drawn(rules, names, draw_seed).unwrap();
    let mut fairness = Fairness {
        draw_seed: Some(draw_seed.to_string()),
        hands: vec![],
    };
    for k in 1..=hands {
        if join_before == Some(k) {
            let seat = join_seats(game.next_seating().len())[0];
            game.join("Newcomer", seat).unwrap();
            bots.push(bot(bots.len()));
        }
        let n = game.next_seating().len();
        let seed = loop {
            let seed = Seed::from_entropy();
            let deal = Deck::for_table(&rules, n).deal(n, &mut DealRng::new(seed));
            if !greater_revolutions || deal.as_slice(n)[n - 1].wilds() == 2 {
                break seed;
            }
        };
        fairness.hands.push(HandSeed {
            hand: k as usize,
            players: game.next_seating().len(),
            commitment: commitment(&seed),
            seed: Some(seed.to_string()),
        });
        game.next_hand_from(seed).unwrap();
        while let Some(seat) = game.hand().next_to_act() {
            let player = game.player_at(seat).index();
            let view = game.view(Viewer::Seat(seat));
            let legal = view.legal_actions();
            let action = if greater_revolutions && legal.contains(&Action::CallRevolution) {
                Action::CallRevolution
            } else {
                bots[player].decide(&view, &legal).unwrap()
            };
            game.apply(seat, action).unwrap();
        }
    }
    assert!(game.is_over());
    let mut doc = serde_json::to_value(Record::from_game(&game)).unwrap();
    doc["fairness"] = serde_json::to_value(&fairness).unwrap();
    Played { doc, fairness }
}

fn five_stripped_then_six() -> Played {
    let rules = Rules {
        stripped_deck: true,
        merchant_exchange: true,
        scoring: Scoring::Standard,
        ..Rules::default()
    };
    play(rules, 5, 3, Some(3))
}

/// Runs `dalmuti verify` on `doc` written to a file.
fn verify(doc: &Value, extra: &[&str]) -> Output {
    verify_bytes(doc.to_string().as_bytes(), extra)
}

fn verify_bytes(bytes: &[u8], extra: &[&str]) -> Output {
    let dir = std::env::temp_dir().join(format!("dalmuti-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{:016x}.json", rand_name()));
    std::fs::write(&file, bytes).unwrap();
    let mut args = vec!["verify"];
    args.extend_from_slice(extra);
    let file_arg = file.to_str().unwrap().to_string();
    args.push(&file_arg);
    let out = Command::new(env!("CARGO_BIN_EXE_dalmuti"))
        .args(&args)
        .output()
        .expect("the binary runs");
    std::fs::remove_file(&file).ok();
    out
}

/// A unique file name per call (tests run in parallel).
fn rand_name() -> u64 {
    u64::from_le_bytes(Seed::from_entropy().0[..8].try_into().unwrap())
}

fn stdout_lines(o: &Output) -> Vec<String> {
    String::from_utf8(o.stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn seed_of(p: &Played, hand: usize) -> String {
    p.fairness.hands[hand - 1].seed.clone().unwrap()
}

fn verified_line(p: &Played, hand: usize) -> String {
    format!(
        "hand {hand}: verified: seed {} matches its commitment and deals the recorded cards",
        seed_of(p, hand)
    )
}

fn draw_line(p: &Played) -> String {
    format!(
        "draw: verified: seed {} draws the recorded seating draw",
        p.fairness.draw_seed.as_deref().unwrap()
    )
}

#[test]
fn real_games_verify_hand_by_hand() {
    let games = [
        ("3 players", play(Rules::default(), 3, 3, None)),
        (
            "16 players, stripped deck",
            play(
                Rules {
                    stripped_deck: true,
                    ..Rules::default()
                },
                16,
                2,
                None,
            ),
        ),
        (
            "4 players, stripped deck",
            play(
                Rules {
                    stripped_deck: true,
                    first_deal_revolution: true,
                    ..Rules::default()
                },
                4,
                3,
                None,
            ),
        ),
        ("5 players stripped, then 6", five_stripped_then_six()),
    ];
    for (what, p) in &games {
        let out = verify(&p.doc, &[]);
        assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr(&out));
        let hands = p.fairness.hands.len();
        let mut expected = vec![draw_line(p)];
        expected.extend((1..=hands).map(|k| verified_line(p, k)));
        expected.push(format!(
            "verified: all {hands} hand(s) and the seating draw: every deal was fixed before play"
        ));
        assert_eq!(stdout_lines(&out), expected, "{what}");
    }
    // The table grew from 5 (stripped: 68 cards) to 6 (the full 80).
    let grown = &games[3].1;
    let counts: Vec<usize> = grown.fairness.hands.iter().map(|h| h.players).collect();
    assert_eq!(counts, [5, 5, 6]);
}

fn corporate_shuffle() -> Rules {
    Rules {
        variant: Variant::CorporateShuffle,
        scoring: Scoring::Standard,
        ..Rules::default()
    }
}

/// `dalmuti check --json` of a document.
fn check_json(doc: &Value) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_dalmuti"))
        .args(["check", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(doc.to_string().as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn corporate_shuffle_games_verify_with_their_own_deck() {
    let games = [
        ("5 players", play(corporate_shuffle(), 5, 3, None)),
        (
            "3 players, then 4",
            play(corporate_shuffle(), 3, 3, Some(2)),
        ),
        (
            "8 players, greater takeovers",
            play_with(corporate_shuffle(), 8, 2, None, true),
        ),
    ];
    for (what, p) in &games {
        assert_eq!(p.doc["rules"]["variant"], "corporate-shuffle", "{what}");
        let report = check_json(&p.doc);
        assert_eq!(report["valid"], true, "{what}: {report}");
        let out = verify(&p.doc, &[]);
        assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr(&out));
        let hands = p.fairness.hands.len();
        let mut expected = vec![draw_line(p)];
        expected.extend((1..=hands).map(|k| verified_line(p, k)));
        expected.push(format!(
            "verified: all {hands} hand(s) and the seating draw: every deal was fixed before play"
        ));
        assert_eq!(stdout_lines(&out), expected, "{what}");
        // Every hand deals the 60 cards.
        for hand in p.doc["hands"].as_array().unwrap() {
            let dealt: usize = hand["deal"]
                .as_object()
                .unwrap()
                .values()
                .map(|c| c.as_str().unwrap().split(' ').count())
                .sum();
            assert_eq!(dealt, 60, "{what}");
        }
    }
    let report = check_json(&games[2].1.doc);
    for hand in report["hands"].as_array().unwrap() {
        assert_eq!(
            hand["revolution"], "greater",
            "a takeover by the Junior Intern"
        );
    }

    // Read as Dalmuti, the record is not one: its Dogberts and Wedgie are
    // no cards of the 80-card deck.
    let p = &games[0].1;
    let mut dalmuti = p.doc.clone();
    dalmuti["rules"]["variant"] = json!("dalmuti");
    let out = verify(&dalmuti, &[]);
    assert_eq!(out.status.code(), Some(1), "{:?}", stdout_lines(&out));
    assert!(
        stdout_lines(&out)[0].starts_with("NOT verified: the record breaks the rules"),
        "{:?}",
        stdout_lines(&out)
    );

    // A Corporate Shuffle deal changed by one card does not verify (the
    // record no longer deals the 60 cards).
    let mut changed = p.doc.clone();
    let deal = changed["hands"][0]["deal"].as_object_mut().unwrap();
    let (name, cards) = deal
        .iter_mut()
        .find(|(_, c)| c.as_str().unwrap().split(' ').any(|t| t == "10"))
        .unwrap();
    let name = name.clone();
    let swapped: Cards = cards
        .as_str()
        .unwrap()
        .replacen("10", "9", 1)
        .split(' ')
        .map(|t| t.parse::<dalmuti_core::Card>().unwrap())
        .fold(Cards::EMPTY, |mut all, c| {
            all.add(c, 1);
            all
        });
    *cards = json!(swapped.to_string());
    let out = verify(&changed, &["--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verified"], false, "{name}'s deal: {v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("10 missing")),
        "{v}"
    );
}

#[test]
fn greater_revolutions_do_not_move_the_deal() {
    // The deal is by the seating at the deal; a greater revolution then
    // reverses the seats for play, and the deal still verifies.
    let p = play_with(Rules::default(), 4, 2, None, true);
    let report = check_json(&p.doc);
    for hand in report["hands"].as_array().unwrap() {
        assert_eq!(hand["revolution"], "greater");
    }
    let out = verify(&p.doc, &[]);
    assert_eq!(out.status.code(), Some(0), "{:?}", stdout_lines(&out));
    assert_eq!(
        stdout_lines(&out)[1..3],
        [verified_line(&p, 1), verified_line(&p, 2)]
    );
}

#[test]
fn json_verdict_lists_every_hand() {
    let p = play(Rules::default(), 3, 2, None);
    let out = verify(&p.doc, &["--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verified"], true);
    assert_eq!(v["draw"]["status"], "verified");
    for (i, h) in v["hands"].as_array().unwrap().iter().enumerate() {
        assert_eq!(h["hand"], i + 1);
        assert_eq!(h["players"], 3);
        assert_eq!(h["status"], "verified");
        assert_eq!(h["seed"], seed_of(&p, i + 1));
        assert_eq!(h["mismatches"], json!([]));
    }
}

#[test]
fn a_seed_swapped_for_another_fails_its_commitment_and_its_deal() {
    let mut p = play(Rules::default(), 3, 3, None);
    let fake = Seed::from_entropy();
    p.doc["fairness"]["hands"][1]["seed"] = json!(fake.to_string());
    let out = verify(&p.doc, &[]);
    assert_eq!(out.status.code(), Some(1));
    let lines = stdout_lines(&out);
    assert_eq!(lines[1], verified_line(&p, 1));
    let prefix = format!(
        "hand 2: FAILED: the seed does not match its commitment: SHA-256 of the seed is {}, the commitment is {}; P",
        commitment(&fake),
        p.fairness.hands[1].commitment
    );
    assert!(lines[2].starts_with(&prefix), "{}", lines[2]);
    assert!(lines[2].contains("in the record, but the seed deals"));
    assert_eq!(lines[3], verified_line(&p, 3));
    assert_eq!(lines[4], "NOT verified: 1 of 3 hand(s) failed (hand 2)");

    let out = verify(&p.doc, &["--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verified"], false);
    assert_eq!(v["hands"][1]["status"], "failed");
    // Three players, all dealt other cards by the wrong seed.
    assert_eq!(v["hands"][1]["mismatches"].as_array().unwrap().len(), 3);
}

#[test]
fn a_changed_commitment_fails_that_hand_only() {
    let mut p = five_stripped_then_six();
    let good = p.fairness.hands[0].commitment.clone();
    let first = if good.starts_with('0') { "1" } else { "0" };
    let bad = format!("{first}{}", &good[1..]);
    p.doc["fairness"]["hands"][0]["commitment"] = json!(bad);
    let out = verify(&p.doc, &[]);
    assert_eq!(out.status.code(), Some(1));
    let lines = stdout_lines(&out);
    assert_eq!(
        lines[1],
        format!(
            "hand 1: FAILED: the seed does not match its commitment: SHA-256 of the seed is {good}, the commitment is {bad}"
        )
    );
    assert_eq!(lines[2], verified_line(&p, 2));
    assert_eq!(lines[3], verified_line(&p, 3));
}

#[test]
fn another_seed_with_its_own_commitment_names_each_player_dealt_other_cards() {
    // A server that commits to one seed but reveals another, with the
    // commitment rewritten to match: the deal gives it away.
    let mut p = play(Rules::default(), 3, 2, None);
    let fake = Seed::from_entropy();
    p.doc["fairness"]["hands"][0]["seed"] = json!(fake.to_string());
    p.doc["fairness"]["hands"][0]["commitment"] = json!(commitment(&fake));
    let record = Record::parse(&p.doc.to_string()).unwrap();
    let fake_deal = Deck::STANDARD.deal(3, &mut DealRng::new(fake));
    let parts: Vec<String> = record.hands[0]
        .deal
        .iter()
        .enumerate()
        .map(|(seat, (name, recorded))| {
            let expected = fake_deal.as_slice(3)[seat];
            format!(
                "{name} (seat {seat}) was dealt \"{recorded}\" in the record, but the seed deals \"{expected}\" (missing {}, extra {})",
                expected.missing_from(recorded),
                recorded.missing_from(&expected)
            )
        })
        .collect();
    let out = verify(&p.doc, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout_lines(&out)[1],
        format!("hand 1: FAILED: {}", parts.join("; "))
    );
}

/// Swaps one card between seats 0 and 1 of the last hand's deal, and cuts
/// that hand back to its deal so the record still follows the rules (the
/// last hand of a record may stop anywhere). Returns the two players with
/// the cards given and taken: (name, dealt, recorded).
fn swap_one_card_in_last_hand(doc: &mut Value) -> [(String, Cards, Cards); 2] {
    let last = doc["hands"].as_array().unwrap().len() - 1;
    let hand = doc["hands"][last].as_object_mut().unwrap();
    hand.retain(|k, _| ["leave", "join", "deal"].contains(&k.as_str()));
    let deal = hand["deal"].as_object_mut().unwrap();
    let names: Vec<String> = deal.keys().cloned().collect();
    let cards = |n: &str, deal: &serde_json::Map<String, Value>| -> Cards {
        deal[n].as_str().unwrap().parse().unwrap()
    };
    let (a, b) = (names[0].clone(), names[1].clone());
    let (dealt_a, dealt_b) = (cards(&a, deal), cards(&b, deal));
    let give = dealt_a.iter().next().unwrap();
    let take = dealt_b.iter().find(|&c| c != give).unwrap();
    let (mut new_a, mut new_b) = (dealt_a, dealt_b);
    assert!(new_a.remove(give, 1) && new_b.remove(take, 1));
    new_a.add(take, 1);
    new_b.add(give, 1);
    deal.insert(a.clone(), json!(new_a.to_string()));
    deal.insert(b.clone(), json!(new_b.to_string()));
    [(a, dealt_a, new_a), (b, dealt_b, new_b)]
}

#[test]
fn one_card_swapped_between_two_players_is_named_with_both_hands() {
    let mut p = five_stripped_then_six();
    // Cut back to its deal alone, the last hand still verifies.
    let mut cut = p.doc.clone();
    let last = cut["hands"].as_array().unwrap().len() - 1;
    cut["hands"][last]
        .as_object_mut()
        .unwrap()
        .retain(|k, _| ["leave", "join", "deal"].contains(&k.as_str()));
    assert_eq!(verify(&cut, &[]).status.code(), Some(0));

    let [(a, dealt_a, rec_a), (b, dealt_b, rec_b)] = swap_one_card_in_last_hand(&mut p.doc);
    assert!(
        Record::parse(&p.doc.to_string()).is_ok(),
        "the tampered record must still follow the rules"
    );
    let out = verify(&p.doc, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = stdout_lines(&out);
    assert_eq!(lines[1], verified_line(&p, 1));
    assert_eq!(lines[2], verified_line(&p, 2));
    assert_eq!(
        lines[3],
        format!(
            "hand 3: FAILED: {a} (seat 0) was dealt \"{rec_a}\" in the record, but the seed deals \"{dealt_a}\" (missing {}, extra {}); \
             {b} (seat 1) was dealt \"{rec_b}\" in the record, but the seed deals \"{dealt_b}\" (missing {}, extra {})",
            dealt_a.missing_from(&rec_a),
            rec_a.missing_from(&dealt_a),
            dealt_b.missing_from(&rec_b),
            rec_b.missing_from(&dealt_b),
        )
    );
    assert_eq!(lines[4], "NOT verified: 1 of 3 hand(s) failed (hand 3)");
    let v: Value = serde_json::from_slice(&verify(&p.doc, &["--json"]).stdout).unwrap();
    assert_eq!(
        v["hands"][2]["mismatches"],
        json!([
            {"player": a, "seat": 0, "seed_deals": dealt_a.to_string(), "recorded": rec_a.to_string()},
            {"player": b, "seat": 1, "seed_deals": dealt_b.to_string(), "recorded": rec_b.to_string()},
        ])
    );
}

#[test]
fn a_seed_not_yet_revealed_is_reported_and_not_verified() {
    let mut p = play(Rules::default(), 3, 3, None);
    p.doc["fairness"]["hands"][2]["seed"] = Value::Null;
    let out = verify(&p.doc, &[]);
    assert_eq!(out.status.code(), Some(1));
    let lines = stdout_lines(&out);
    assert_eq!(
        lines[3],
        format!(
            "hand 3: not yet revealed: the seed behind commitment {} is revealed when the hand is over",
            p.fairness.hands[2].commitment
        )
    );
    assert_eq!(lines[4], "NOT verified: 1 not yet revealed (hand 3)");
}

#[test]
fn missing_or_extra_commitments_fail() {
    let p = play(Rules::default(), 3, 2, None);
    let mut missing = p.doc.clone();
    missing["fairness"]["hands"]
        .as_array_mut()
        .unwrap()
        .remove(1);
    let out = verify(&missing, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout_lines(&out)[2],
        "hand 2: FAILED: no commitment for it in the fairness data"
    );

    let mut extra = p.doc.clone();
    let mut third = extra["fairness"]["hands"][1].clone();
    third["hand"] = json!(3);
    extra["fairness"]["hands"]
        .as_array_mut()
        .unwrap()
        .push(third);
    let out = verify(&extra, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout_lines(&out)[3],
        "hand 3: FAILED: committed in the fairness data, but the record has 2 hand(s) numbered from 1"
    );

    let mut players = p.doc.clone();
    players["fairness"]["hands"][0]["players"] = json!(4);
    let out = verify(&players, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout_lines(&out)[1],
        "hand 1: FAILED: the fairness data says 4 players, but the record deals to 3"
    );
}

#[test]
fn the_seating_draw_is_checked_against_the_draw_seed() {
    let mut p = play(Rules::default(), 4, 1, None);
    p.doc["fairness"]["draw_seed"] = json!(Seed::from_entropy().to_string());
    let out = verify(&p.doc, &[]);
    assert_eq!(out.status.code(), Some(1));
    let lines = stdout_lines(&out);
    assert!(
        lines[0].starts_with("draw: FAILED: round 0: the seed draws P"),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains(", but the record has P"));
    assert_eq!(lines[1], verified_line(&p, 1));
    assert_eq!(lines[2], "NOT verified: the seating draw failed");

    p.doc["fairness"]["draw_seed"] = Value::Null;
    let out = verify(&p.doc, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout_lines(&out)[0],
        "draw: FAILED: the record has a seating draw, but the fairness data has no draw seed"
    );
}

#[test]
fn unreadable_input_and_a_missing_fairness_field_exit_two() {
    let p = play(Rules::default(), 3, 1, None);
    let mut bare = p.doc.clone();
    bare.as_object_mut().unwrap().remove("fairness");
    let out = verify(&bare, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr(&out).trim(),
        "cannot verify: the record has no fairness field: download the game from the server's /api/tables/ID/record once the game is over"
    );
    let out = verify(&bare, &["--json"]);
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verified"], false);
    assert!(
        v["unreadable"]
            .as_str()
            .unwrap()
            .contains("no fairness field")
    );

    let mut wrong = p.doc.clone();
    wrong["fairness"] = json!({"draw_seed": null, "hands": [{"hand": "one"}]});
    let out = verify(&wrong, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("cannot verify: the fairness field should be"),
        "{}",
        stderr(&out)
    );

    for garbage in [
        &b"\xff\xfe{{{"[..],
        b"not json",
        b"[]",
        b"{\"format\": \"pgn\"}",
        b"",
    ] {
        let out = verify_bytes(garbage, &[]);
        assert_eq!(out.status.code(), Some(2), "{garbage:?}");
        assert!(stderr(&out).starts_with("cannot verify: "), "{garbage:?}");
        assert!(!stderr(&out).contains("panicked"));
    }

    let out = Command::new(env!("CARGO_BIN_EXE_dalmuti"))
        .args(["verify", "no/such/game.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no/such/game.json"));
}

#[test]
fn a_record_that_breaks_the_rules_is_not_verified() {
    let mut p = play(Rules::default(), 3, 1, None);
    let first = p.doc["hands"][0]["deal"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    p.doc["hands"][0]["deal"]
        .as_object_mut()
        .unwrap()
        .remove(&first);
    let out = verify(&p.doc, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout_lines(&out),
        [format!(
            "NOT verified: the record breaks the rules at hands[0]: the deal has no cards for {first}"
        )]
    );
    let v: Value = serde_json::from_slice(&verify(&p.doc, &["--json"]).stdout).unwrap();
    assert_eq!(v["verified"], false);
    assert_eq!(v["error"]["hand"], 0);
    assert_eq!(v["error"]["play"], Value::Null);
    // Without fairness data there is nothing to verify, valid or not.
    p.doc.as_object_mut().unwrap().remove("fairness");
    let out = verify(&p.doc, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no fairness field"));
}

#[test]
fn reads_standard_input() {
    let p = play(Rules::default(), 3, 1, None);
    let mut child = Command::new(env!("CARGO_BIN_EXE_dalmuti"))
        .args(["verify", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(p.doc.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout_lines(&out)[1], verified_line(&p, 1));
}

// ---------------------------------------------------------------------------
// The browser's fixture

fn fixture_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../dalmuti-server/web/fairness-fixture.json")
}

/// A fixed seed with all 32 bytes in use.
fn fixture_seed(label: &str) -> Seed {
    Seed(Sha256::digest(label.as_bytes()).into())
}

/// Deals by the engine, for `test-fairness.mjs` to compare `fairness.js`
/// against: the stream's `below` on many bounds (the rejection loop
/// included), and deals with and without the stripped deck at every table
/// size, and Corporate Shuffle's at each of its sizes, with their
/// commitments.
fn fixture() -> String {
    let seed = fixture_seed("dalmuti fairness fixture: below");
    let bounds: [u32; 14] = [
        1,
        2,
        3,
        5,
        7,
        10,
        80,
        81,
        1000,
        65537,
        0x7fff_ffff,
        0x8000_0001,
        0xffff_fffe,
        0xffff_ffff,
    ];
    let mut rng = DealRng::new(seed);
    let calls: Vec<Value> = (0..280)
        .map(|i| {
            let n = bounds[i % bounds.len()];
            json!([n, rng.below(n)])
        })
        .collect();
    let mut cases: Vec<(Seed, usize, bool, Variant)> = vec![
        (Seed::from(0), 5, false, Variant::Dalmuti),
        (Seed([0xff; 32]), 16, false, Variant::Dalmuti),
    ];
    for players in 3..=16 {
        for stripped in [false, true] {
            let label =
                format!("dalmuti fairness fixture: {players} players, stripped deck {stripped}");
            cases.push((fixture_seed(&label), players, stripped, Variant::Dalmuti));
        }
    }
    for players in Variant::CorporateShuffle.players() {
        let label = format!("dalmuti fairness fixture: corporate shuffle, {players} players");
        cases.push((
            fixture_seed(&label),
            players,
            false,
            Variant::CorporateShuffle,
        ));
    }
    let deals: Vec<Value> = cases
        .into_iter()
        .map(|(seed, players, stripped, variant)| {
            let rules = Rules {
                variant,
                stripped_deck: stripped,
                ..Rules::default()
            };
            let hands = Deck::for_table(&rules, players).deal(players, &mut DealRng::new(seed));
            let hands: Vec<String> = hands
                .as_slice(players)
                .iter()
                .map(Cards::to_string)
                .collect();
            let mut deal = json!({
                "seed": seed.to_string(),
                "players": players,
                "stripped_deck": stripped,
                "commitment": commitment(&seed),
                "hands": hands,
            });
            // Dalmuti's deals say nothing of the variant, as before it existed.
            if variant != Variant::Dalmuti {
                deal["variant"] = json!(variant.word());
            }
            deal
        })
        .collect();
    // One call or deal per line: small, and a change shows as a diff.
    let list = |items: &[Value]| -> String {
        let lines: Vec<String> = items.iter().map(|v| format!("    {v}")).collect();
        format!("[\n{}\n  ]", lines.join(",\n"))
    };
    let about = "Made by the Rust engine: `DALMUTI_UPDATE_FIXTURE=1 cargo test -p dalmuti \
                 --test verify` rewrites it. test-fairness.mjs checks fairness.js against it.";
    format!(
        "{{\n  \"about\": {},\n  \"below_seed\": \"{seed}\",\n  \"below\": {},\n  \"deals\": {}\n}}\n",
        json!(about),
        list(&calls),
        list(&deals)
    )
}

#[test]
fn fixture_for_the_browser_is_up_to_date() {
    let want = fixture();
    let parsed: Value = serde_json::from_str(&want).expect("the fixture is JSON");
    assert_eq!(parsed["deals"].as_array().map(Vec::len), Some(36));
    let path = fixture_path();
    if std::env::var_os("DALMUTI_UPDATE_FIXTURE").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let got = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        got == want,
        "{} is out of date with the engine's deals: rewrite it with \
         DALMUTI_UPDATE_FIXTURE=1 cargo test -p dalmuti --test verify, then run \
         node crates/dalmuti-server/web/test-fairness.mjs",
        path.display()
    );
}
