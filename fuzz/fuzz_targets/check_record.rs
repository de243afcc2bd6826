//! Fuzzes the game-record reader (`dalmuti check`, `dalmuti replay`).
//!
//! For any bytes, read as lossy UTF-8 text:
//! - `check` returns (never panics) with exit code 0, 1 or 2;
//! - `Record::parse` agrees with `check` on the verdict;
//! - a valid record, written back with `to_json_string`, checks to the same
//!   report and parses to the same record (a written record must check);
//! - a valid record replays into a game that is told in every language,
//!   as `dalmuti replay` expects.
//!
//! Run: `cargo fuzz run check_record fuzz/seeds/check_record` (docs/DEVELOPING.md).

#![no_main]

use dalmuti_core::Seed;
use dalmuti_core::record::{Checked, ReadError, Record, check};
use dalmuti_i18n::Lang;
use dalmuti_terminal::{replay, tr::Tr};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let verdict = check(&text);
    let code = verdict.exit_code();
    assert!(matches!(code, 0..=2), "exit code {code} is not 0, 1 or 2");

    let parsed = Record::parse(&text);
    match (&verdict, &parsed) {
        (Checked::Valid(_), Ok(_)) => {}
        (Checked::Invalid(f), Err(ReadError::Invalid(g))) => assert_eq!(f, g),
        (Checked::Unreadable(m), Err(ReadError::Unreadable(n))) => assert_eq!(m, n),
        _ => panic!("check and Record::parse disagree: {verdict:?} vs {parsed:?}"),
    }

    if let (Checked::Valid(_), Ok(record)) = (&verdict, &parsed) {
        let written = record.to_json_string();
        let again = check(&written);
        assert_eq!(
            again, verdict,
            "a written record must check to the same report\nwritten: {written}"
        );
        assert_eq!(
            Record::parse(&written).as_ref(),
            Ok(record),
            "a written record must read back to the same record"
        );
        let game = record
            .replay(Seed::from(0))
            .expect("a record that checks replays");
        for lang in Lang::ALL {
            let tr = Tr::new(lang, game.rules().variant);
            assert!(!replay::game(&game, tr).is_empty());
        }
    }
});
