//! The ladder against its promises.

use std::path::Path;

use super::{LadderConfig, LadderReport, run_ladder};
use crate::SimArgs;

fn config(list: &str, players: usize, deals: u64) -> LadderConfig {
    LadderConfig::new(SimArgs {
        ladder: Some(list.into()),
        players: Some(players),
        hands: Some(deals),
        seed: Some("1".into()),
        threads: Some(1),
        ..SimArgs::default()
    })
    .expect("a valid ladder")
}

fn ladder(list: &str, players: usize, deals: u64) -> LadderReport {
    run_ladder(&config(list, players, deals), |_| {}).expect("the ladder runs")
}

/// The command line that runs `examples/bot.py`, named `name`.
fn example_bot(name: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/bot.py");
    format!("cmd:python3 {} {name}", script.display())
}

#[test]
fn random_greedy_heuristic_rank_in_that_order_with_intervals_apart() {
    let r = ladder("random,greedy,heuristic", 5, 60);
    let labels: Vec<&str> = r.bots.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["heuristic", "greedy", "random"], "{}", r.to_text());
    for pair in r.bots.windows(2) {
        let (better, worse) = (&pair[0], &pair[1]);
        assert!(
            better.rating_ci95_low > worse.rating_ci95_high,
            "ratings overlap:\n{}",
            r.to_text()
        );
        assert!(
            better.mean_place_ci95_high.unwrap() < worse.mean_place_ci95_low.unwrap(),
            "mean places overlap:\n{}",
            r.to_text()
        );
    }
    // Every pairwise advantage of a better bot is positive, interval too.
    let m = &r.matrix;
    for row in 0..3 {
        for col in row + 1..3 {
            assert!(m.ci95_low[row][col].unwrap() > 0.0, "{}", r.to_text());
            assert_eq!(m.advantage[row][col], m.advantage[col][row].map(|a| -a));
            assert!(m.win_rate[row][col].unwrap() > 0.5);
        }
        assert_eq!(m.advantage[row][row], None);
    }
    // Places of a hand average (n + 1) / 2 over its seats; ratings mean 0.
    assert!(r.bots.iter().map(|b| b.rating).sum::<f64>().abs() < 1e-6);
    assert_eq!(r.hands, 3 * 60 * 10);
    assert!(
        r.bots
            .iter()
            .all(|b| b.faults.total() == 0 && b.hands == 1200)
    );
}

#[test]
fn the_json_round_trips_and_has_its_fields() {
    let r = ladder("greedy,random", 4, 8);
    let json = r.to_json();
    let back: LadderReport = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["format"], "dalmuti-ladder/1");
    assert_eq!(v["seed"], "1");
    assert_eq!(
        v["command"],
        "dalmuti sim --ladder greedy,random --players 4 --hands 8 --seed 1"
    );
    assert_eq!(v["patterns"], serde_json::json!(["ABAB"]));
    assert_eq!(v["hands_per_pair"], 32);
    for field in [
        "rank",
        "label",
        "spec",
        "rating",
        "rating_ci95_low",
        "rating_ci95_high",
        "mean_place",
        "mean_place_ci95_low",
        "mean_place_ci95_high",
        "win_rate",
        "hands",
        "faults",
    ] {
        assert!(v["bots"][0].get(field).is_some(), "{field}");
    }
    for field in ["bots", "advantage", "ci95_low", "ci95_high", "win_rate"] {
        assert!(v["matrix"].get(field).is_some(), "{field}");
    }
    assert!(v["timing"]["threads"].is_u64());
    assert!(v["method"]["bootstrap_samples"].is_u64());
}

#[test]
fn a_seed_gives_the_same_ladder_on_one_thread_or_two() {
    // More than one unit per pair (64 deals), so the threads share pairs.
    let c = config("random,greedy,random", 5, 70);
    let one = run_ladder(&c.clone().with_threads(1), |_| {}).unwrap();
    let two = run_ladder(&c.clone().with_threads(2), |_| {}).unwrap();
    assert_eq!(one.results_json(), two.results_json());
    assert_eq!(two.timing.threads, 2);
    let other = ladder("random,greedy,random", 5, 70);
    assert_eq!(other.results_json(), one.results_json());
    let reseeded = LadderConfig::new(SimArgs {
        ladder: Some("random,greedy,random".into()),
        hands: Some(70),
        seed: Some("2".into()),
        ..SimArgs::default()
    })
    .unwrap();
    let reseeded = run_ladder(&reseeded, |_| {}).unwrap();
    assert_ne!(reseeded.results_json()["bots"], one.results_json()["bots"]);
}

#[test]
fn progress_counts_up_to_every_hand() {
    let seen = std::sync::Mutex::new(Vec::new());
    let c = config("random,greedy", 3, 100);
    run_ladder(&c, |h| seen.lock().unwrap().push(h)).unwrap();
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen.last(), Some(&c.total_hands()));
    assert_eq!(c.total_hands(), 100 * 6);
}

#[test]
fn an_external_bot_takes_its_place_on_the_ladder() {
    let list = format!("random,{}", example_bot("ladder-test"));
    let r = ladder(&list, 3, 4);
    assert_eq!(r.bots.len(), 2);
    let bot = r.bots.iter().find(|b| b.spec.starts_with("cmd:")).unwrap();
    assert_eq!(bot.faults.total(), 0);
    assert_eq!(bot.hands, 4 * 6);
}

#[test]
fn a_bot_that_fails_is_counted_and_one_that_cannot_start_is_an_error() {
    // Answers every decision with garbage: every decision is a fault, and
    // the fallback plays for it.
    // (A command may not contain commas: the script goes in a file.)
    let script =
        std::env::temp_dir().join(format!("dalmuti-ladder-garbage-{}.py", std::process::id()));
    std::fs::write(
        &script,
        "import sys, json\n\
         for line in sys.stdin:\n\
         \x20   m = json.loads(line)\n\
         \x20   if m['type'] == 'hello': print(json.dumps({'type': 'ready', 'name': 'g'}), flush=True)\n\
         \x20   elif m['type'] == 'decide': print('no', flush=True)\n\
         \x20   elif m['type'] == 'quit': break\n",
    )
    .unwrap();
    let garbage = format!("cmd:python3 {}", script.display());
    let r = ladder(&format!("greedy,{garbage}"), 3, 2);
    let bot = r.bots.iter().find(|b| b.spec.starts_with("cmd:")).unwrap();
    assert!(bot.faults.garbage > 0, "{:?}", bot.faults);
    assert!(r.to_text().contains(&bot.faults.total().to_string()));
    std::fs::remove_file(&script).unwrap();

    let c = config("greedy,cmd:/nonexistent/dalmuti-bot", 3, 2);
    let e = run_ladder(&c, |_| {}).unwrap_err().to_string();
    assert!(e.contains("/nonexistent/dalmuti-bot"), "{e}");
}

#[test]
fn the_text_ranks_the_bots_and_says_how_to_repeat() {
    let r = ladder("random,greedy", 5, 4);
    let text = r.to_text();
    assert!(text.starts_with("ladder of 2 bots, 5 players a table: 4 deals a pair"));
    assert!(text.contains("ABABA and BABAB"));
    assert!(
        text.contains("repeat: dalmuti sim --ladder random,greedy --players 5 --hands 4 --seed 1")
    );
    let greedy = text.lines().position(|l| l.contains(" greedy ")).unwrap();
    let random = text.lines().position(|l| l.contains(" random ")).unwrap();
    assert!(greedy < random, "{text}");
}

/// The attribute `name` of an SVG element's text, as a number.
fn attr(element: &str, name: &str) -> f64 {
    let start = element.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
    let len = element[start..].find('"').unwrap();
    element[start..start + len].parse().unwrap()
}

/// Each bot's value is written above its dot, clear of it.
#[test]
fn the_plot_writes_each_value_clear_of_its_dot() {
    let report = ladder("random,greedy,heuristic", 4, 10);
    let path =
        std::env::temp_dir().join(format!("dalmuti-ladder-labels-{}.svg", std::process::id()));
    crate::plot_ladder_svg(&report, &path).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let dots: Vec<&str> = svg.split("<circle").skip(1).collect();
    assert_eq!(dots.len(), 6, "a dot per bot on each half");
    for dot in dots {
        let (x, top) = (attr(dot, "cx"), attr(dot, "cy") - attr(dot, "r"));
        // The value's text, centred on the dot and anchored by its bottom.
        let label = svg
            .split("<text")
            .skip(1)
            .find(|t| t.contains("dy=\"-0.5ex\"") && attr(t, "x") == x)
            .unwrap_or_else(|| panic!("no value over the dot at x = {x}"));
        assert!(attr(label, "y") < top, "the value at x = {x} is on its dot");
    }
}
