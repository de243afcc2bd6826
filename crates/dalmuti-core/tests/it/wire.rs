//! The wire form of actions and decisions: read from a client's text or
//! from a value a caller holds, an action is read alike and a malformed
//! one refused in the same words.

use dalmuti_core::wire::{Wire, decode_action, decode_decision};
use dalmuti_core::{Action, Decision, Seat};
use serde_json::Value;

/// Reads `text` as an action both ways: from the text itself and from
/// the value parsed from it, as the server's and a bot's readers do.
fn both_ways(text: &str) -> (Result<Action, String>, Result<Action, String>) {
    let from_text =
        decode_action(&mut serde_json::Deserializer::from_str(text)).map_err(|e| e.to_string());
    let value: Value = serde_json::from_str(text).unwrap();
    let from_value = decode_action(&value).map_err(|e| e.to_string());
    (from_text, from_value)
}

#[test]
fn actions_read_alike_from_text_and_from_a_value() {
    for (text, action) in [
        (r#""pass""#, Action::Pass),
        (
            r#"{"play": "J 6  6"}"#,
            Action::Play("6 6 J".parse().unwrap()),
        ),
        (r#"{"play": "6 T", "wedgie": 2}"#, {
            let set: dalmuti_core::Set = "6 T".parse().unwrap();
            Action::Play(set.with_target(Some(Seat::new(2))).unwrap())
        }),
        (
            r#"{"play": "7", "wedgie": null}"#,
            Action::Play("7".parse().unwrap()),
        ),
        (
            r#"{"offer_exchange": {"card": "7", "partner": 3, "note": "hi"}}"#,
            Action::OfferExchange {
                partner: Seat::new(3),
                card: "7".parse().unwrap(),
            },
        ),
        (
            r#"{"give_tax": "10\t9"}"#,
            Action::GiveTax("9 10".parse().unwrap()),
        ),
    ] {
        assert_eq!(both_ways(text), (Ok(action), Ok(action)), "{text}");
    }
}

/// What the sender sent is shown back as `serde_json` writes it (compact,
/// cut short), whatever the spacing of the text it came in.
#[test]
fn malformed_actions_are_refused_in_the_same_words_either_way() {
    for (text, words) in [
        (r#""jump""#, r#"unknown action "jump""#),
        ("7", "7 is not an action"),
        ("-1.5", "-1.5 is not an action"),
        ("null", "null is not an action"),
        (
            r#"[1, "two", {"x": null}]"#,
            r#"[1,"two",{"x":null}] is not an action"#,
        ),
        (
            r#"{ }"#,
            "{} is not an action: an action object has exactly one key",
        ),
        (
            r#"{"play": "6", "pass": 1}"#,
            r#"{"play":"6","pass":1} is not an action"#,
        ),
        (
            r#"{"play": "6", "play": "7", "x": true}"#,
            r#"{"play":"7","x":true} is not an action"#,
        ),
        (
            r#"{"pass": [ ]}"#,
            r#""pass" takes nothing: write it as the string "pass", not {"pass":[]}"#,
        ),
        (
            r#"{"play": 6}"#,
            r#"{"play": …}: expected a string of cards such as "6 6 J", not 6"#,
        ),
        (
            r#"{"offer_exchange": [3, "7"]}"#,
            r#"expected {"partner": SEAT, "card": CARD}, not [3,"7"]"#,
        ),
        (
            r#"{"offer_exchange": {"partner": -1, "card": "7"}}"#,
            "expected a seat number (0 to 15), not -1",
        ),
        (
            r#"{"play": "6 T", "wedgie": "Bob"}"#,
            r#""wedgie": expected a seat number (0 to 15), not "Bob""#,
        ),
        (r#"{"answer_exchange": "é\n"}"#, "is not a card"),
    ] {
        let (from_text, from_value) = both_ways(text);
        let message = from_text.expect_err(text);
        assert!(
            message.contains(words),
            "{text}: {message:?} does not say {words:?}"
        );
        assert_eq!(Err(message), from_value, "{text}");
    }
}

#[test]
fn long_junk_is_cut_short_either_way() {
    let text = format!(r#"{{"play": "6", "notes": "{}"}}"#, "x".repeat(10_000));
    let (from_text, from_value) = both_ways(&text);
    let message = from_text.unwrap_err();
    assert!(message.len() < 700 && message.contains('…'), "{message}");
    assert_eq!(Err(message), from_value);
}

/// Read through serde (`Wire`, as the server reads an `act`), a refused
/// action's error is its words.
#[test]
fn a_refused_action_read_through_serde_says_what_is_wrong() {
    let error = serde_json::from_str::<Wire<Action>>(r#"  {"play": "5 6"}"#).unwrap_err();
    assert_eq!(
        error.to_string(),
        r#"{"play": …}: 5 6 is not a set of one rank"#
    );
}

#[test]
fn decisions_read_from_text_or_value_and_say_what_was_sent() {
    let text = r#"{"kind": "follow", "top": "9 9", "by": 3}"#;
    let value: Value = serde_json::from_str(text).unwrap();
    let follow = Decision::Follow {
        top: "9 9".parse().unwrap(),
        by: Seat::new(3),
    };
    assert_eq!(decode_decision(&value), Ok(follow));
    assert_eq!(
        decode_decision(&mut serde_json::Deserializer::from_str(text)),
        Ok(follow)
    );
    let wrong = decode_decision(serde_json::json!({"kind": "tax", "to": 99, "count": 1}))
        .unwrap_err()
        .to_string();
    assert_eq!(
        wrong,
        r#"{"kind":"tax","to":99,"count":1}: "to": expected a seat number (0 to 15), not 99"#
    );
    let dance = decode_decision(serde_json::json!({"kind": "dance"}))
        .unwrap_err()
        .to_string();
    assert!(
        dance.starts_with(r#"{"kind":"dance"}: unknown variant `dance`"#),
        "{dance}"
    );
}
