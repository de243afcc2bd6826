use super::*;
use dalmuti_core::{Seat, Variant};

#[test]
fn every_file_parses_and_every_language_has_every_english_key() {
    for part in Part::ALL {
        let english: Vec<String> = parse_messages(source(Lang::En, part))
            .unwrap()
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        for lang in Lang::ALL {
            let own = parse_messages(source(lang, part))
                .unwrap_or_else(|e| panic!("{lang}.{}.json: {e}", part.word()));
            let keys: Vec<&String> = own.iter().map(|(k, _)| k).collect();
            let missing: Vec<&String> = english.iter().filter(|k| !keys.contains(k)).collect();
            assert!(
                missing.is_empty(),
                "{lang}.{}.json lacks {missing:?}",
                part.word()
            );
            let extra: Vec<&&String> = keys.iter().filter(|k| !english.contains(k)).collect();
            assert!(
                extra.is_empty(),
                "{lang}.{}.json has keys English lacks: {extra:?}",
                part.word()
            );
        }
    }
}

#[test]
fn english_names_are_the_engines() {
    let en = catalogue(Lang::En);
    for variant in [Variant::Dalmuti, Variant::CorporateShuffle] {
        for card in variant.kinds() {
            let key = format!("{}.card.{card}", variant.word());
            assert_eq!(en.count(&key, 1), variant.card_name(card), "{key}");
            assert_eq!(en.count(&key, 2), variant.card_plural(card), "{key}");
            assert!(en.has_own(&key));
        }
        for (seat, word) in Seat::all(5).zip([
            "greater-dalmuti",
            "lesser-dalmuti",
            "merchant",
            "lesser-peon",
            "greater-peon",
        ]) {
            let key = format!("{}.title.{word}", variant.word());
            assert_eq!(en.text(&key), variant.title_name(seat.title(5)));
        }
    }
}

#[test]
fn plural_forms_follow_each_language() {
    let es = catalogue(Lang::Es);
    assert_eq!(es.count("dalmuti.card.2", 1), "Arzobispo");
    assert_eq!(es.count("dalmuti.card.2", 3), "Arzobispos");
    assert_eq!(es.count("dalmuti.card.2", 0), "Arzobispos");
    let ja = catalogue(Lang::Ja);
    assert_eq!(ja.count("dalmuti.card.2", 1), ja.count("dalmuti.card.2", 3));
}

#[test]
fn placeholders_are_filled_and_unknown_ones_kept() {
    assert_eq!(
        fill("{who} gave {n}", &[("who", "Bo"), ("n", "2")]),
        "Bo gave 2"
    );
    assert_eq!(
        fill("{who} and {other}", &[("who", "Bo")]),
        "Bo and {other}"
    );
    assert_eq!(fill("a { b", &[]), "a { b");
    assert_eq!(fill("", &[]), "");
}

#[test]
fn a_malformed_catalogue_says_which_key() {
    let err = parse_messages(r#"{"a": "x", "b": 3}"#).unwrap_err();
    assert!(err.starts_with("b:"), "{err}");
    let err = parse_messages(r#"{"c": {"one": "x"}}"#).unwrap_err();
    assert!(err.contains("c:") && err.contains("other"), "{err}");
    let err = parse_messages(r#"{"d": {"other": "x", "single": "y"}}"#).unwrap_err();
    assert!(err.contains("single"), "{err}");
    assert!(parse_messages("[1]").is_err());
}

#[test]
fn a_missing_key_falls_back_to_english_then_itself() {
    let ko = catalogue(Lang::Ko);
    assert_eq!(ko.text("nowhere.at.all"), "nowhere.at.all");
    assert_ne!(
        ko.text("dalmuti.game"),
        catalogue(Lang::En).text("dalmuti.game")
    );
}

#[test]
fn detection_follows_posix_precedence() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    };
    assert_eq!(
        Lang::detect(env(&[("LC_ALL", "ja_JP.UTF-8"), ("LANG", "de_DE")])),
        Lang::Ja
    );
    assert_eq!(
        Lang::detect(env(&[("LC_ALL", "C"), ("LANG", "de_DE")])),
        Lang::En
    );
    assert_eq!(
        Lang::detect(env(&[("LC_ALL", ""), ("LANG", "de_DE")])),
        Lang::De
    );
    assert_eq!(
        Lang::detect(env(&[("LANGUAGE", "fr:ko"), ("LANG", "de_DE")])),
        Lang::Ko
    );
    assert_eq!(
        Lang::detect(env(&[("LC_MESSAGES", "es_AR"), ("LANG", "de_DE")])),
        Lang::Es
    );
    assert_eq!(
        "xx".parse::<Lang>().unwrap_err().to_string(),
        "the language is one of en, ko, de, es, ja, not \"xx\""
    );
}

#[test]
fn raw_keys_are_found_and_ordinary_text_is_not() {
    assert_eq!(
        raw_keys("Karten: log.pass.you, und tui.key.give-back"),
        ["log.pass.you", "tui.key.give-back"]
    );
    // Sentences, ordinals, decimals, file names and options are no keys.
    for text in [
        "Bo passes. Ann leads.",
        "als 1. raus, fuera, 1.º",
        "Seed 7 (--seed 7); 0.5 s",
        "Game saved: /tmp/x/dalmuti/games/2026-11-24T10-08-17Z-seed-257.json",
        "대 달무티. 大ダルムティ。",
    ] {
        assert!(raw_keys(text).is_empty(), "{text}: {:?}", raw_keys(text));
    }
    // No message of any language looks like a key itself.
    for lang in Lang::ALL {
        for part in [Part::Game, Part::Terminal] {
            for (key, message) in parse_messages(source(lang, part)).unwrap() {
                let text = match message {
                    Message::Plain(s) => s,
                    Message::Plural { one, other } => {
                        format!("{} {other}", one.unwrap_or_default())
                    }
                };
                assert!(raw_keys(&text).is_empty(), "{lang} {key}: {text}");
            }
        }
    }
}
