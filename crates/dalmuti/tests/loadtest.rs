//! `dalmuti loadtest` as an operator runs it, on a small scale: it starts
//! its own server, seats its scripted clients, and they play whole games
//! from the legal actions STATE lists, with no errors.

use std::process::Command;

use serde_json::Value;

#[test]
fn the_load_test_plays_games_from_the_legal_actions_with_no_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_dalmuti"))
        .args([
            "loadtest",
            "--seats",
            "6",
            "--players-per-table",
            "4",
            "--bots-per-table",
            "1",
            "--duration",
            "3",
            "--think-ms",
            "0",
            "--json",
        ])
        .output()
        .expect("dalmuti runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("a JSON report: {e}\n{stderr}"));
    assert_eq!(report["tables"], 2, "{report}");
    assert!(report["actions"].as_u64().unwrap() > 20, "{report}");
    assert_eq!(report["errors"], 0, "{report}");
}
