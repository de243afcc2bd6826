//! Our server against the contest's reference server: matches recorded
//! from it (`tests/fixtures/README.md`) replayed through the referee,
//! every message byte for byte, and each player's follower fed the tables
//! it was sent.

use std::path::{Path, PathBuf};

use dalmuti_uecda::transcript::{Message, Transcript};

use crate::replay::{Followers, Replayed, replay};

fn fixture(name: &str) -> Transcript {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .parse()
        .expect("a transcript")
}

fn replayed(name: &str) -> Replayed {
    let mut followers = Followers::new("normal");
    replay(&fixture(name), 100, Some(&mut followers)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn a_match_of_default_clients_replays_byte_for_byte() {
    let done = replayed("tndhms-default-2-games.txt");
    // A whole game without classes, then one with the exchange, to the
    // end of the match.
    assert_eq!(done.games, 2);
    assert_eq!(done.exchanges, 2, "the 大富豪 and the 富豪 gave back cards");
    assert!(done.passes_answered_8 > 10, "{done:?}");
    assert!(done.tables > 1000);
    assert!(done.followed > 100);
    assert!(done.stopped_at_df24.is_none());
}

#[test]
fn refused_plays_and_gifts_replay_byte_for_byte() {
    let done = replayed("tndhms-refusals-3-games.txt");
    assert_eq!(done.games, 3);
    assert!(done.gifts_replaced >= 1, "{done:?}");
    let kinds = [
        "does not hold",
        "holds 7",
        "beyond the 3 or the 2",
        "neither one rank",
        "a sequence of 2 cards",
        "does not top",
        "must play",
        "is locked",
    ];
    for kind in kinds {
        assert!(
            done.refusals.iter().any(|r| r.contains(kind)),
            "no refusal {kind:?} among {:?}",
            done.refusals
        );
    }
}

#[test]
fn a_changed_message_is_found() {
    // The replay can fail: one cell of one table the server sent, changed.
    let mut transcript = fixture("tndhms-default-2-games.txt");
    let line = transcript
        .lines
        .iter_mut()
        .filter(|l| l.direction == dalmuti_uecda::transcript::Direction::ToPlayer)
        .nth(400)
        .expect("a message");
    match &mut line.message {
        Message::Table(t) => t.set(6, 0, t.get(6, 0) + 1),
        Message::Int(n) => *n += 1,
        Message::Hex(_) => unreachable!(),
    }
    let err = replay(&transcript, 100, None).expect_err("a difference");
    assert!(err.contains("differ") || err.contains("flag"), "{err}");
}

/// Extra recordings to replay (a folder of transcripts), for checking the
/// engine against many more games of the reference server than the
/// repository keeps: `DALMUTI_UECDA_RECORDINGS=/path cargo test -p
/// dalmuti-uecda --test it extra_recordings -- --nocapture`.
#[test]
fn extra_recordings() {
    let Ok(dir) = std::env::var("DALMUTI_UECDA_RECORDINGS") else {
        return;
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("a folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    let mut failed = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("read");
        let transcript: Transcript = text.parse().expect("a transcript");
        let mut followers = Followers::new("normal");
        match replay(&transcript, 100, Some(&mut followers)) {
            Ok(mut done) => {
                done.refusals.clear();
                eprintln!("{}: {done:?}", path.display());
            }
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                failed.push(path.clone());
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} failed",
        failed.len(),
        paths.len()
    );
}
