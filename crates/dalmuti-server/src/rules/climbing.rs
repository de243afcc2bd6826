//! President and Daifugō's options as a table's creator sends them
//! (`rules.preset` and `rules.climbing`), read strictly: the fields given
//! change the preset's (or the variant's own) and nothing else, and a value
//! out of range is refused naming its field.
//!
//! [`super`] (the rules) has already read `rules.climbing` as a
//! [`Climbing`] (its unknown fields, wrong types and repeated fields
//! refused by name); here its given fields are laid over the base the
//! variant or the preset chooses.

use dalmuti_core::{Climbing, Rules, Variant};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::MAX_HANDS;
use crate::error::{BadRequest, ServerError};

/// Refuses Dalmuti's own switches (`stripped_deck`, `first_deal_revolution`,
/// `merchant_exchange`) turned on at a table of President or Daifugō, by
/// the field's name.
pub fn dalmuti_only(
    flags: &[(&'static str, Option<bool>)],
    variant: Variant,
) -> Result<(), ServerError> {
    if !variant.is_suited() {
        return Ok(());
    }
    match flags.iter().find(|(_, on)| *on == Some(true)) {
        Some(&(field, _)) => Err(BadRequest::DalmutiRule { field, variant }.into()),
        None => Ok(()),
    }
}

/// The keys of `rules.climbing` as sent, the rest of the request ignored
/// (it has been read strictly already).
#[derive(Deserialize)]
struct Given {
    #[serde(default)]
    climbing: Option<Map<String, Value>>,
}

/// The options of a table of `variant` from the request's `rules` text, its
/// `preset` and its `climbing` as read: `None` for the variant's own.
///
/// ```
/// use dalmuti_core::{Climbing, Variant};
/// use dalmuti_server::rules::climbing::read;
/// let text = r#"{"variant": "daifugo", "preset": "local", "climbing": {"jokers": 2}}"#;
/// // `rules.climbing` as the request's reader read it: the rest defaulted.
/// let parsed: Climbing = serde_json::from_str(r#"{"jokers": 2}"#).unwrap();
/// let c = read(text, Variant::Daifugo, Some("local"), Some(parsed)).unwrap().unwrap();
/// assert_eq!(c, Climbing { jokers: 2, ..Climbing::LOCAL });
/// assert!(read("{}", Variant::Dalmuti, Some("local"), None).is_err());
/// ```
pub fn read(
    text: &str,
    variant: Variant,
    preset: Option<&str>,
    climbing: Option<Climbing>,
) -> Result<Option<Climbing>, ServerError> {
    if !variant.is_suited() {
        let field = match (preset, climbing) {
            (Some(_), _) => "preset",
            (_, Some(_)) => "climbing",
            _ => return Ok(None),
        };
        return Err(BadRequest::NoClimbing { field, variant }.into());
    }
    let Some(parsed) = climbing else {
        return match preset {
            None => Ok(None),
            Some(name) => {
                let c = named(name)?;
                check(&c)?;
                Ok(Some(c))
            }
        };
    };
    let base = match preset {
        Some(name) => named(name)?,
        None => Rules {
            variant,
            climbing: None,
            ..Rules::default()
        }
        .climbing(),
    };
    let given = serde_json::from_str::<Given>(text)
        .ok()
        .and_then(|g| g.climbing)
        .unwrap_or_default();
    let mut merged = serde_json::to_value(base).map_err(internal)?;
    let parsed = serde_json::to_value(parsed).map_err(internal)?;
    for key in given.keys() {
        merged[key] = parsed[key].clone();
    }
    let c: Climbing = serde_json::from_value(merged).map_err(internal)?;
    check(&c)?;
    Ok(Some(c))
}

fn internal(e: serde_json::Error) -> ServerError {
    let why = e.to_string();
    ServerError::BadRequest(BadRequest::Climbing { why })
}

/// A preset by its name, or a refusal naming them.
fn named(name: &str) -> Result<Climbing, ServerError> {
    Climbing::preset(name).ok_or_else(|| {
        let asked = name.to_string();
        ServerError::BadRequest(BadRequest::Preset { asked })
    })
}

/// Whether the options make a game, or which field is out of range.
fn check(c: &Climbing) -> Result<(), ServerError> {
    let bad = |e: BadRequest| Err(ServerError::BadRequest(e));
    if c.jokers > 2 {
        return bad(BadRequest::Jokers { jokers: c.jokers });
    }
    if c.joker_beyond_ends && !c.sequences {
        let field = "joker_beyond_ends";
        return bad(BadRequest::NeedsSequences { field });
    }
    if c.sequence_revolution && !c.sequences {
        let field = "sequence_revolution";
        return bad(BadRequest::NeedsSequences { field });
    }
    for (field, games) in [
        ("class_cycle", c.class_cycle),
        ("reseat_every", c.reseat_every),
    ] {
        if games > MAX_HANDS {
            let most = MAX_HANDS;
            return bad(BadRequest::Games { field, games, most });
        }
    }
    c.check().map_err(|why| {
        let why = why.to_string();
        ServerError::BadRequest(BadRequest::Climbing { why })
    })
}

#[cfg(test)]
mod tests {
    use super::super::{check_table, from_request};
    use crate::error::ServerError;
    use dalmuti_core::{Climbing, Lock, Scoring, Variant};
    use serde_json::{Value, json, value::RawValue};

    fn rules(v: Value) -> Result<dalmuti_core::Rules, ServerError> {
        let raw = serde_json::value::to_raw_value(&v).unwrap();
        from_request(Some(&raw), None)
    }

    fn refused(v: Value) -> String {
        match rules(v.clone()) {
            Err(ServerError::BadRequest(reason)) => reason.to_string(),
            other => panic!("{v} was not refused: {other:?}"),
        }
    }

    #[test]
    fn each_game_has_its_own_options_and_a_match_by_places() {
        let d = rules(json!({"variant": "daifugo"})).unwrap();
        assert_eq!(d.variant, Variant::Daifugo);
        assert_eq!(d.climbing(), Climbing::UECDA);
        assert_eq!(d.scoring, Scoring::Places);
        assert!(!d.join_and_leave, "a match by the same players");
        assert!(check_table(&d, 5).is_ok());
        let p = rules(json!({"variant": "president", "hands": 4})).unwrap();
        assert_eq!(p.climbing(), Climbing::PRESIDENT);
        assert_eq!(p.hands, Some(4));
        assert!(check_table(&p, 4).is_ok());
    }

    /// The fields given change the variant's own options (or the preset's)
    /// and no other.
    #[test]
    fn the_fields_given_change_the_base_and_no_other() {
        let p = rules(json!({"variant": "president", "climbing": {"revolution": true}})).unwrap();
        let c = p.climbing();
        assert!(c.revolution);
        assert_eq!(
            Climbing {
                revolution: false,
                ..c
            },
            Climbing::PRESIDENT
        );
        let d = rules(json!({
            "variant": "daifugo",
            "preset": "local",
            "climbing": {"seven_pass": true, "ten_discard": true, "lock": "strict"}
        }))
        .unwrap();
        assert_eq!(
            d.climbing(),
            Climbing {
                lock: Lock::Strict,
                ..Climbing::LOCAL_ALL
            }
        );
        let local = rules(json!({"variant": "daifugo", "preset": "local"})).unwrap();
        assert_eq!(local.climbing(), Climbing::LOCAL);
    }

    #[test]
    fn unknown_fields_and_values_out_of_range_are_refused_by_name() {
        let reason = refused(json!({"variant": "daifugo", "climbing": {"colour": true}}));
        assert!(
            reason.contains("rules.climbing") && reason.contains("colour"),
            "{reason}"
        );
        assert!(reason.contains("eight_cut"), "lists the options: {reason}");
        let reason = refused(json!({"variant": "daifugo", "climbing": {"jokers": 3}}));
        assert!(reason.contains("rules.climbing.jokers"), "{reason}");
        let reason = refused(json!({"variant": "daifugo", "climbing": {"jokers": 300}}));
        assert!(reason.contains("rules.climbing.jokers"), "{reason}");
        let reason = refused(json!({"variant": "daifugo", "climbing": {"lock": "sideways"}}));
        assert!(
            reason.contains("rules.climbing.lock") && reason.contains("strict"),
            "{reason}"
        );
        let reason = refused(json!({"variant": "daifugo", "climbing": {"eight_cut": "yes"}}));
        assert!(reason.contains("rules.climbing.eight_cut"), "{reason}");
        let reason =
            refused(json!({"variant": "president", "climbing": {"sequence_revolution": true}}));
        assert!(
            reason.contains("rules.climbing.sequence_revolution") && reason.contains("sequences"),
            "{reason}"
        );
        let reason = refused(json!({"variant": "daifugo", "climbing": {"class_cycle": 5000}}));
        assert!(reason.contains("rules.climbing.class_cycle"), "{reason}");
        let reason = refused(json!({"variant": "daifugo", "preset": "chaos"}));
        assert!(
            reason.contains("rules.preset") && reason.contains("local"),
            "{reason}"
        );
        let reason = refused(json!({"variant": "daifugo", "stripped_deck": true}));
        assert!(reason.contains("rules.stripped_deck"), "{reason}");
        let reason = refused(json!({"climbing": {"eight_cut": true}}));
        assert!(
            reason.contains("rules.climbing") && reason.contains("daifugo"),
            "{reason}"
        );
        let reason = refused(json!({"variant": "corporate-shuffle", "preset": "local"}));
        assert!(reason.contains("rules.preset"), "{reason}");
        let text = r#"{"variant": "daifugo", "climbing": {"jokers": 1, "jokers": 2}}"#;
        let raw = RawValue::from_string(text.into()).unwrap();
        match from_request(Some(&raw), None) {
            Err(ServerError::BadRequest(reason)) => {
                assert!(
                    reason.to_string().contains("duplicate field `jokers`"),
                    "{reason}"
                )
            }
            other => panic!("{text} was not refused: {other:?}"),
        }
    }

    /// What the table cannot seat is refused when it is made, in the
    /// engine's words.
    #[test]
    fn the_table_checks_the_options_against_its_seats() {
        let two = rules(json!({"variant": "daifugo", "climbing": {"jokers": 2}})).unwrap();
        assert!(check_table(&two, 4).is_ok());
        let reason = match check_table(&two, 3) {
            Err(ServerError::BadRequest(reason)) => reason.to_string(),
            other => panic!("two Jokers at three seats: {other:?}"),
        };
        assert!(reason.contains("four players"), "{reason}");
        let joining = rules(json!({"variant": "president", "join_and_leave": true})).unwrap();
        assert!(check_table(&joining, 4).is_err());
        let nine = rules(json!({"variant": "president"})).unwrap();
        assert!(check_table(&nine, 9).is_err());
    }
}
