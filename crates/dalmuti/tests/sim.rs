//! `dalmuti sim` as a user runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// Runs `dalmuti` with `line` split on white space, then `more`.
fn dalmuti(line: &str, more: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dalmuti"))
        .args(line.split_whitespace())
        .args(more)
        .output()
        .expect("the binary runs")
}

/// `dalmuti sim …`, which must succeed.
fn sim(line: &str, more: &[&str]) -> Output {
    let out = dalmuti(&format!("sim {line}"), more);
    assert!(
        out.status.success(),
        "dalmuti sim {line} failed: {}",
        stderr(&out)
    );
    out
}

/// `dalmuti sim … --json`, parsed.
fn json(line: &str) -> Value {
    let out = sim(line, &["--json"]);
    serde_json::from_slice(&out.stdout).expect("--json prints JSON")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dalmuti-sim-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn mean_places(report: &Value) -> Vec<f64> {
    report["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["mean_place"].as_f64().unwrap())
        .collect()
}

fn without_timing(mut report: Value) -> Value {
    report.as_object_mut().unwrap().remove("timing");
    report
}

#[test]
fn a_seed_gives_the_same_json_on_one_thread_or_two() {
    let run = "--players 4 --hands 300 --bots greedy,random,random,greedy --seed 7";
    let one = json(&format!("{run} --threads 1"));
    let two = json(&format!("{run} --threads 2"));
    assert_eq!(one["timing"]["threads"], 1);
    assert_eq!(two["timing"]["threads"], 2);
    let one = without_timing(one);
    assert_eq!(one, without_timing(two));
    assert_eq!(one["seed"], "7");
    // Another seed gives another run.
    let other = json("--players 4 --hands 300 --bots greedy,random,random,greedy --seed 8");
    assert_ne!(other["bots"], one["bots"]);
    // Games and duplicate runs too.
    let run = "--players 4 --games 9 --hands-per-game 4 --bots random --duplicate --seed 7";
    let one = json(&format!("{run} --threads 1"));
    let two = json(&format!("{run} --threads 2"));
    assert_eq!(without_timing(one), without_timing(two));
}

#[test]
fn mean_places_sum_to_the_places_of_a_hand() {
    let report = json("--players 6 --hands 200 --bots random --seed 3");
    let places = mean_places(&report);
    assert_eq!(places.len(), 6);
    assert!((places.iter().sum::<f64>() - 21.0).abs() < 1e-9);
    assert_eq!(report["hands"], 200);
}

#[test]
fn duplicate_plays_every_deal_once_per_seat() {
    let report = json("--players 5 --hands 60 --bots greedy --duplicate --seed 4");
    assert_eq!(report["deals"], 60);
    assert_eq!(report["rotations"], 5);
    assert_eq!(report["hands"], 300);
    for b in report["bots"].as_array().unwrap() {
        assert_eq!(b["hands"], 300);
        assert_eq!(b["mean_place"].as_f64(), Some(3.0), "{b}");
    }
    // In games, the whole game is replayed per rotation.
    let report =
        json("--players 4 --games 5 --hands-per-game 3 --bots greedy --duplicate --seed 4");
    assert_eq!(report["hands"], 5 * 3 * 4);
    assert_eq!(mean_places(&report), [2.5; 4]);
}

#[test]
fn games_report_a_mobility_matrix_whose_rows_sum_to_one() {
    let report = json(
        "--players 5 --games 20 --hands-per-game 5 --bots greedy,random,random,random,random \
         --scoring standard --seed 5",
    );
    let m = &report["mobility"];
    let rows = strings(&m["rows"]);
    assert_eq!(
        rows,
        [
            "Greater Dalmuti",
            "Lesser Dalmuti",
            "Merchant",
            "Lesser Peon",
            "Greater Peon"
        ]
    );
    let mut with_data = 0;
    let counts = m["counts"].as_array().unwrap();
    for (rates, counts) in m["rates"].as_array().unwrap().iter().zip(counts) {
        let total: u64 = counts
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .sum();
        if total > 0 {
            with_data += 1;
            let rates = rates.as_array().unwrap();
            let sum: f64 = rates.iter().map(|r| r.as_f64().unwrap()).sum();
            assert!((sum - 1.0).abs() < 1e-9, "{rates:?}");
        }
    }
    assert_eq!(with_data, 5);
    // Independent hands have none.
    let report = json("--players 3 --hands 5 --bots greedy");
    assert!(report["mobility"].is_null());
}

#[test]
fn records_are_game_records_that_check_accepts() {
    let dir = scratch("records");
    let d = dir.to_str().unwrap();
    sim(
        "--players 4 --hands 3 --bots greedy,random,random,random --duplicate --seed 9",
        &["--records", d],
    );
    sim(
        "--players 6 --games 2 --hands-per-game 4 --bots random --merchant-exchange \
         --scoring philanthropic --seed 9",
        &["--records", d],
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 3 * 4 + 2);
    for file in &files {
        let out = dalmuti("check", &[file.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            file.display(),
            stdout(&out)
        );
    }
    let game = dalmuti("check", &[dir.join("game-1-r0.json").to_str().unwrap()]);
    assert!(stdout(&game).starts_with("valid: 4 hand(s)"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn csv_has_one_row_per_bot_with_the_documented_columns() {
    let out = sim(
        "--players 3 --hands 50 --bots greedy,random,random --seed 2 --csv",
        &[],
    );
    let text = stdout(&out);
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 4);
    let header = "label spec hands mean_place ci95_low ci95_high first_rate last_rate points \
                  points_per_hand rating rating_sigma faults_crashed faults_timed_out \
                  faults_garbage faults_illegal faults_total place_1 place_2 place_3";
    assert_eq!(rows[0], header.split_whitespace().collect::<Vec<_>>());
    let labels: Vec<&str> = rows[1..].iter().map(|r| r[0]).collect();
    assert_eq!(labels, ["greedy", "random", "random#2"]);
    for row in &rows[1..] {
        assert_eq!(row.len(), rows[0].len());
        assert_eq!(row[2], "50");
        let places: u64 = row[17..].iter().map(|p| p.parse::<u64>().unwrap()).sum();
        assert_eq!(places, 50);
        let mean: f64 = row[3].parse().unwrap();
        let (lo, hi): (f64, f64) = (row[4].parse().unwrap(), row[5].parse().unwrap());
        assert!(lo < mean && mean < hi);
    }
}

#[test]
fn bad_arguments_exit_non_zero_and_say_why() {
    for (line, message) in [
        (
            "--players 5 --bots greedy,random",
            "--players 5 needs 5 bots (or one bot for every seat), but --bots lists 2",
        ),
        ("--bots greedy,grumpy,random", "unknown bot \"grumpy\""),
        (
            "--players 2 --bots greedy",
            "a table seats 3 to 16 players, not 2",
        ),
        ("--bots greedy --games 3", "--games needs --hands-per-game"),
        (
            "--bots greedy --scoring golf",
            "--scoring is none, standard or philanthropic",
        ),
        (
            "--variant corporate-shuffle --stripped-deck --bots greedy",
            "--stripped-deck is a Dalmuti rule: Corporate Shuffle's 60-card deck is never stripped",
        ),
        (
            "--variant corporate-shuffle --players 9 --bots greedy",
            "Corporate Shuffle seats 3 to 8 players, not 9",
        ),
        (
            "--variant chess --bots greedy",
            "--variant is dalmuti or corporate-shuffle, not \"chess\"",
        ),
    ] {
        let out = dalmuti(&format!("sim {line}"), &[]);
        assert_eq!(out.status.code(), Some(2), "{line}");
        assert!(stderr(&out).contains(message), "{line}: {}", stderr(&out));
        assert!(stdout(&out).is_empty());
    }
    // Without --bots, clap says it is required.
    let out = dalmuti("sim --hands 3", &[]);
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("--bots"));
}

#[test]
fn random_beats_nobody() {
    let report = json("--players 4 --hands 2000 --bots greedy,random,random,random --seed 1");
    let places = mean_places(&report);
    assert!(places[1..].iter().all(|&p| p > places[0]), "{places:?}");
}

#[test]
fn the_text_report_names_the_seed_and_a_drawn_seed_is_printed() {
    let run = "--players 3 --hands 20 --bots greedy,random,random";
    let out = sim(run, &[]);
    let err = stderr(&out);
    let seed = err
        .split_whitespace()
        .nth(1)
        .expect("the drawn seed is printed");
    assert_eq!(seed.len(), 64);
    assert!(stdout(&out).contains(&format!("seed {seed}")));
    assert!(stdout(&out).contains("finishing place by title during play"));
    // The printed seed repeats the run.
    let again = sim(run, &["--seed", seed]);
    let table = |o: &Output| stdout(o).lines().take(8).collect::<Vec<_>>().join("\n");
    assert_eq!(table(&out), table(&again));
    assert!(stderr(&again).is_empty());
}

#[test]
fn plot_writes_an_svg() {
    let dir = scratch("plot");
    let file = dir.join("report.svg");
    sim(
        "--players 4 --games 3 --hands-per-game 3 --bots greedy,random,greedy,random --seed 1",
        &["--plot", file.to_str().unwrap()],
    );
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("Class mobility"));
    assert!(svg.contains("random#2"));
    assert!(Path::new(&file).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn corporate_shuffle_runs_with_every_option() {
    let dir = scratch("corporate");
    let plot = dir.join("report.svg");
    let run = "--variant corporate-shuffle --players 6 --games 3 --hands-per-game 4 --duplicate \
               --bots heuristic,greedy,random,search:iterations=20,greedy,random \
               --merchant-exchange --first-deal-revolution --scoring philanthropic --seed 4";
    let out = sim(
        &format!("{run} --threads 2 --json"),
        &[
            "--records",
            dir.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
        ],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["rules"]["variant"], "corporate-shuffle");
    assert_eq!(report["rules"]["merchant_exchange"], true);
    assert_eq!(report["hands"], 3 * 4 * 6);
    let places = mean_places(&report);
    assert!((places.iter().sum::<f64>() - 21.0).abs() < 1e-9);
    for b in report["bots"].as_array().unwrap() {
        for kind in ["crashed", "timed_out", "garbage", "illegal"] {
            assert_eq!(b["faults"][kind], 0, "{b}");
        }
        assert!(b["rating"].as_f64().unwrap() > 0.0);
    }
    let rows = strings(&report["mobility"]["rows"]);
    assert_eq!(
        rows,
        [
            "Big Boss",
            "Little Boss",
            "Worker 1",
            "Worker 2",
            "Senior Intern",
            "Junior Intern"
        ]
    );
    // One thread or two: the same run.
    let one = json(&format!("{run} --threads 1"));
    assert_eq!(without_timing(one), without_timing(report));
    // Every game's record is a Corporate Shuffle record that checks.
    let mut records: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    records.sort();
    assert_eq!(records.len(), 3 * 6);
    for file in &records {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(
            text.contains(r#""variant": "corporate-shuffle""#),
            "{}",
            file.display()
        );
        let out = dalmuti("check", &[file.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            file.display(),
            stdout(&out)
        );
        assert!(
            stdout(&out).starts_with("valid: 4 hand(s)"),
            "{}",
            stdout(&out)
        );
    }
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("Class mobility"));
    // The text and CSV reports.
    let text = stdout(&sim(&format!("{run} --threads 1"), &[]));
    assert!(
        text.contains("rules: Corporate Shuffle, scoring philanthropic"),
        "{text}"
    );
    assert!(
        text.contains("BB Big Boss, LB Little Boss, W1 Worker 1"),
        "{text}"
    );
    let csv = stdout(&sim(&format!("{run} --threads 1 --csv"), &[]));
    assert_eq!(csv.lines().count(), 7);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A JSON array of strings, as strings.
fn strings(array: &Value) -> Vec<&str> {
    array
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect()
}

#[test]
fn a_ladder_prints_its_table_and_writes_its_json_and_plot() {
    let dir = scratch("ladder");
    let (json_file, plot) = (dir.join("ladder.json"), dir.join("ladder.svg"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/bot.py");
    let list = format!("random,greedy,cmd:python3 {} mine", script.display());
    let out = sim(
        "--players 3 --hands 6 --seed 3 --threads 2",
        &[
            "--ladder",
            &list,
            "--json",
            json_file.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
        ],
    );
    let text = stdout(&out);
    assert!(text.starts_with("ladder of 3 bots, 3 players a table: 6 deals a pair"));
    assert!(text.contains("cmd:python3"));
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&json_file).unwrap()).unwrap();
    assert_eq!(report["format"], "dalmuti-ladder/1");
    assert_eq!(report["bots"].as_array().unwrap().len(), 3);
    assert_eq!(report["hands"], 3 * 6 * 6);
    let command = report["command"].as_str().unwrap();
    assert!(command.starts_with("dalmuti sim --ladder 'random,greedy,cmd:python3 "));
    assert!(text.contains(&format!("repeat: {command}")));
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("Rating"));

    // The command repeats the run; a bare --json prints the same results.
    let words = vec![
        "--ladder".to_string(),
        list.clone(),
        "--players".into(),
        "3".into(),
        "--hands".into(),
        "6".into(),
        "--seed".into(),
        "3".into(),
        "--threads".into(),
        "1".into(),
        "--json".into(),
    ];
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let again: Value = serde_json::from_slice(&sim("", &words).stdout).unwrap();
    assert_eq!(without_timing(again), without_timing(report));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_ladder_exits_non_zero_and_says_why() {
    for (line, message, code) in [
        (
            "--ladder greedy",
            "--ladder needs two or more bots",
            Some(2),
        ),
        (
            "--ladder greedy,grumpy",
            "bot 2 of --ladder (\"grumpy\"): unknown bot",
            Some(2),
        ),
        (
            "--ladder greedy,random --players 2",
            "a table seats 3 to 16 players, not 2",
            Some(2),
        ),
        (
            "--ladder greedy,random --hands 0",
            "--hands must be at least 1",
            Some(2),
        ),
        (
            "--ladder greedy,cmd:/nonexistent/dalmuti-bot --hands 2 --players 3",
            "cannot start the bot cmd:/nonexistent/dalmuti-bot",
            Some(1),
        ),
    ] {
        let out = dalmuti(&format!("sim {line}"), &[]);
        assert_eq!(out.status.code(), code, "{line}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{line}: {}", stderr(&out));
        assert!(stdout(&out).is_empty());
    }
    // Options of one lineup do not go with a ladder (clap refuses them).
    for line in [
        "--ladder greedy,random --bots greedy",
        "--ladder greedy,random --games 2 --hands-per-game 2",
        "--ladder greedy,random --csv",
    ] {
        let out = dalmuti(&format!("sim {line}"), &[]);
        assert_eq!(out.status.code(), Some(2), "{line}");
        assert!(
            stderr(&out).contains("cannot be used with"),
            "{line}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn json_with_a_file_writes_it_and_prints_the_table() {
    let dir = scratch("json-file");
    let file = dir.join("report.json");
    let out = sim(
        "--players 3 --hands 20 --bots greedy,random,random --seed 2",
        &["--json", file.to_str().unwrap()],
    );
    assert!(stdout(&out).contains("mean place"));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        without_timing(report),
        without_timing(json(
            "--players 3 --hands 20 --bots greedy,random,random --seed 2"
        ))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_files_that_cannot_be_written_are_refused_before_playing() {
    let dir = scratch("outputs");
    let missing = dir.join("no-such-folder");
    let lineup = "--players 3 --hands 40 --bots greedy,random,random --seed 2";
    for (flag, file) in [("--json", "report.json"), ("--plot", "report.svg")] {
        let path = missing.join(file);
        let out = dalmuti(&format!("sim {lineup}"), &[flag, path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{flag}: {}", stderr(&out));
        assert_eq!(
            stderr(&out).trim(),
            format!(
                "error: cannot write {flag} {}: the folder {} does not exist",
                path.display(),
                missing.display()
            )
        );
        // Nothing was played: no table, no report.
        assert_eq!(stdout(&out), "");
        assert!(!missing.exists());
    }
    // A folder where the file should be; a ladder and a pool check too.
    for run in [
        lineup.to_string(),
        "--ladder greedy,random --players 3 --hands 4 --seed 2".into(),
        "--pool heuristic --pools greedy --players 3 --hands 4 --seed 2".into(),
    ] {
        let out = dalmuti(&format!("sim {run}"), &["--json", dir.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{run}: {}", stderr(&out));
        assert!(stderr(&out).contains("it is a folder"), "{}", stderr(&out));
    }
    // A file that was not there is not left behind by the check.
    let fine = dir.join("fine.json");
    sim(lineup, &["--json", fine.to_str().unwrap()]);
    assert!(fine.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn records_say_where_they_go_and_are_bounded() {
    let dir = scratch("records-bound");
    let records = dir.join("records");
    let out = sim(
        "--players 3 --hands 5 --bots greedy --seed 2",
        &["--records", records.to_str().unwrap()],
    );
    assert!(
        stderr(&out).contains(&format!(
            "writing 5 game records into {}",
            records.display()
        )),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_dir(&records).unwrap().count(), 5);
    // A mistyped path grows no tree of folders.
    let typo = dir.join("recrods/2025/run");
    let out = dalmuti(
        "sim --players 3 --hands 5 --bots greedy --seed 2",
        &["--records", typo.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot make the folder"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join("recrods").exists());
    // More records than the bound: refused before a file is written.
    let out = dalmuti(
        "sim --players 3 --hands 20000 --bots greedy --seed 2",
        &["--records", records.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("--records would write 20000 game records, one file each; the most is 10000"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_dir(&records).unwrap().count(), 5);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rules_that_cannot_apply_are_refused() {
    for (line, said) in [
        (
            "--players 7 --bots greedy --stripped-deck",
            "error: --stripped-deck cannot apply: the stripped deck is only for 4 or 5 players; \
             at 7 the full 80-card deck is dealt (docs/RULES.md D12)",
        ),
        (
            "--players 5 --bots greedy --merchant-exchange",
            "error: --merchant-exchange cannot apply: the merchant exchange needs two Merchants \
             (Workers), so 6 or more players, not 5 (docs/RULES.md D7)",
        ),
        (
            "--players 6 --bots greedy --merchant-exchange --first-deal-revolution",
            "error: --merchant-exchange cannot apply: the merchant exchange comes with taxes, \
             and under the first-deal revolution a game of one hand has none (docs/RULES.md D7)",
        ),
        (
            "--ladder greedy,random --players 4 --merchant-exchange",
            "error: --merchant-exchange cannot apply: the merchant exchange needs two Merchants \
             (Workers), so 6 or more players, not 4 (docs/RULES.md D7)",
        ),
    ] {
        let out = dalmuti(&format!("sim --hands 3 {line}"), &[]);
        assert_eq!(out.status.code(), Some(2), "{line}: {}", stderr(&out));
        assert_eq!(stderr(&out).trim(), said, "{line}");
    }
    // Where they apply they are played, and the report says so.
    for line in [
        "--players 4 --bots greedy --stripped-deck",
        "--players 6 --bots greedy --merchant-exchange",
        "--players 6 --bots greedy --games 1 --hands-per-game 2 --merchant-exchange \
         --first-deal-revolution",
    ] {
        let report = json(&format!("--seed 1 {line}"));
        assert!(report["rules"].to_string().contains("true"), "{line}");
    }
    let report = json("--seed 1 --hands 3 --players 4 --bots greedy --stripped-deck");
    assert_eq!(report["rules"]["stripped_deck"], true);
}

#[test]
fn a_pool_run_prints_one_table_and_its_command_repeats_it() {
    // A Python bot among the pools: anyone's bot goes in a pool by its
    // command, as on the ladder.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/bot.py");
    let pools = format!("shedder,cmd:python3 {}", script.display());
    let out = sim(
        "--pool heuristic --baseline greedy --players 4 --hands 8 --seed 5 --threads 2",
        &["--pools", &pools],
    );
    let text = stdout(&out);
    assert!(
        text.starts_with("heuristic against 2 pools and at a mixed table, 4 players a table"),
        "{text}"
    );
    for row in ["shedder", "cmd:python3", "mixed"] {
        assert!(text.lines().any(|l| l.starts_with(row)), "{row}: {text}");
    }
    let command = text
        .lines()
        .find_map(|l| l.strip_prefix("repeat: "))
        .expect("the command that repeats it");
    assert!(command.starts_with("dalmuti sim --pool heuristic --baseline greedy --pools "));

    let report = json(&format!(
        "--pool heuristic --baseline greedy --players 4 --hands 8 --seed 5 --threads 1 --pools {}",
        "shedder,greedy"
    ));
    assert_eq!(report["format"], "dalmuti-pool/1");
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        let (c, b, lead) = (
            row["candidate"]["mean"].as_f64().unwrap(),
            row["baseline"]["mean"].as_f64().unwrap(),
            row["lead"]["mean"].as_f64().unwrap(),
        );
        assert!((1.0..=4.0).contains(&c) && (1.0..=4.0).contains(&b));
        assert!((b - c - lead).abs() < 1e-9, "{row}");
    }
    assert_eq!(report["hands"], 8 * 8 * 4);
}

#[test]
fn a_bad_pool_run_exits_non_zero_and_says_why() {
    for (line, message) in [
        ("--pool grumpy", "bot 1 of --pool (\"grumpy\"): unknown bot"),
        (
            "--pool heuristic --pools greedy,,random",
            "--pools needs one or more bots",
        ),
        (
            "--pool heuristic --baseline greedy,random",
            "names one bot, not a list",
        ),
        ("--pool heuristic --players 17", "a table seats 3 to 16"),
    ] {
        let out = dalmuti(&format!("sim {line}"), &[]);
        assert_eq!(out.status.code(), Some(2), "{line}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{line}: {}", stderr(&out));
    }
    for (line, message) in [
        ("--pool heuristic --bots greedy", "cannot be used with"),
        (
            "--pool heuristic --ladder greedy,random",
            "cannot be used with",
        ),
        ("--pools greedy --bots greedy", "go with --pool BOT"),
        (
            "--baseline greedy --ladder greedy,random",
            "go with --pool BOT",
        ),
    ] {
        let out = dalmuti(&format!("sim {line}"), &[]);
        assert_eq!(out.status.code(), Some(2), "{line}");
        assert!(stderr(&out).contains(message), "{line}: {}", stderr(&out));
    }
}
