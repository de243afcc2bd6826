//! The rules a client asks for when it creates a table, read strictly.
//!
//! The engine's [`Rules`] deserializer is lenient on purpose (game records
//! may carry fields it does not know), so the server reads a request's
//! `rules` through its own mirror of the fields it offers, which refuses
//! unknown fields and values out of range and names the field at fault.
//! The variant (`dalmuti`, `corporate-shuffle`, `daifugo` or `president`) is
//! chosen here, once, when the table is created: [`check_table`] then says
//! whether its rules can seat the table. President and Daifugō's options
//! are read in [`climbing`].

use dalmuti_core::{Rules, Scoring, Variant};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::error::{BadRequest, ServerError};

pub mod climbing;
pub mod games;

/// The most hands a served game may last.
pub const MAX_HANDS: u32 = 1000;

/// The fields of [`Rules`] a client may set, every one optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesRequest {
    variant: Option<Variant>,
    stripped_deck: Option<bool>,
    first_deal_revolution: Option<bool>,
    merchant_exchange: Option<bool>,
    scoring: Option<Scoring>,
    hands: Option<u32>,
    join_and_leave: Option<bool>,
    /// President and Daifugō's options: read strictly here, then over the
    /// variant's own in [`climbing`].
    climbing: Option<dalmuti_core::Climbing>,
    /// A named set of President and Daifugō's options (`uecda`, `local`,
    /// `local_all`, `president`) the `climbing` fields change.
    preset: Option<String>,
}

/// Dalmuti's own switches as the request gave them, by field name.
fn dalmuti_flags(r: &RulesRequest) -> [(&'static str, Option<bool>); 3] {
    [
        ("stripped_deck", r.stripped_deck),
        ("first_deal_revolution", r.first_deal_revolution),
        ("merchant_exchange", r.merchant_exchange),
    ]
}

/// A number of hands, checked: 1 to [`MAX_HANDS`].
pub fn check_hands(field: &'static str, hands: u32) -> Result<u32, ServerError> {
    if hands == 0 || hands > MAX_HANDS {
        let most = MAX_HANDS;
        return Err(BadRequest::Hands { field, hands, most }.into());
    }
    Ok(hands)
}

/// The rules of a new table from the request's `rules` as it was sent
/// (absent or null: the defaults) and its top-level `hands`. Read from its
/// text, so that a field given twice is refused (issue 24, S6). Server
/// tables let players come and go between hands unless told not to;
/// President and Daifugō are a match by the same players, scored by places
/// ([`Rules::daifugo`]).
pub fn from_request(rules: Option<&RawValue>, hands: Option<u32>) -> Result<Rules, ServerError> {
    let text = rules.map_or("null", |r| r.get().trim());
    let given: Option<RulesRequest> = if text == "null" {
        None
    } else if text.starts_with('{') {
        let mut json = serde_json::Deserializer::from_str(text);
        Some(
            serde_path_to_error::deserialize::<_, RulesRequest>(&mut json).map_err(|e| {
                let path = e.path().to_string();
                let at = if path == "." {
                    "rules".to_string()
                } else {
                    format!("rules.{path}")
                };
                let why = e.into_inner().to_string();
                ServerError::BadRequest(BadRequest::RulesField { at, why })
            })?,
        )
    } else {
        return Err(BadRequest::RulesNotObject.into());
    };
    let variant = given.as_ref().and_then(|r| r.variant).unwrap_or_default();
    let mut out = match variant {
        // A match by the same players, scored by places.
        Variant::Daifugo => Rules::daifugo(),
        Variant::President => Rules::president(),
        _ => Rules {
            variant,
            join_and_leave: true,
            ..Rules::default()
        },
    };
    if let Some(r) = given {
        climbing::dalmuti_only(&dalmuti_flags(&r), variant)?;
        out.climbing = climbing::read(text, variant, r.preset.as_deref(), r.climbing)?;
        out.stripped_deck = r.stripped_deck.unwrap_or(out.stripped_deck);
        out.first_deal_revolution = r.first_deal_revolution.unwrap_or(out.first_deal_revolution);
        out.merchant_exchange = r.merchant_exchange.unwrap_or(out.merchant_exchange);
        out.scoring = r.scoring.unwrap_or(out.scoring);
        out.join_and_leave = r.join_and_leave.unwrap_or(out.join_and_leave);
        if let Some(h) = r.hands {
            out.hands = Some(check_hands("rules.hands", h)?);
        }
    }
    if let Some(h) = hands {
        let h = check_hands("hands", h)?;
        if out.hands.is_some_and(|r| r != h) {
            return Err(BadRequest::HandsDiffer.into());
        }
        out.hands = Some(h);
    }
    Ok(out)
}

/// Whether `rules` can seat a table of `seats`, or a 400 that says why:
/// the variant's table sizes (Corporate Shuffle seats 3 to 8) and no
/// stripped deck in Corporate Shuffle, in the engine's words
/// ([`Rules::check`]).
pub fn check_table(rules: &Rules, seats: usize) -> Result<(), ServerError> {
    rules
        .check(seats)
        .map_err(|e| dalmuti_table::error::BadRequest::Rules(e).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// `rules` as a request carries it.
    fn raw(rules: Value) -> Box<RawValue> {
        serde_json::value::to_raw_value(&rules).unwrap()
    }

    fn refused(rules: Value) -> String {
        match from_request(Some(&raw(rules.clone())), None) {
            Err(ServerError::BadRequest(reason)) => reason.to_string(),
            other => panic!("{rules} was not refused: {other:?}"),
        }
    }

    #[test]
    fn unknown_fields_and_bad_values_are_refused_by_name() {
        let reason = refused(json!({"colour": "red"}));
        assert!(reason.contains("colour"), "{reason}");
        assert!(
            reason.contains("merchant_exchange"),
            "lists the allowed: {reason}"
        );
        let reason = refused(json!({"hands": 0}));
        assert!(reason.contains("rules.hands"), "{reason}");
        let reason = refused(json!({"merchant_exchange": "yes"}));
        assert!(reason.contains("rules.merchant_exchange"), "{reason}");
        let reason = refused(json!({"scoring": "golf"}));
        assert!(
            reason.contains("rules.scoring") && reason.contains("standard"),
            "{reason}"
        );
        assert!(refused(json!([1])).contains("object"));
    }

    /// A field given twice is refused, as at the top level of the request
    /// (issue 24, S6), not read as its last value.
    #[test]
    fn a_field_given_twice_is_refused() {
        let text = r#"{"scoring": "standard", "scoring": "none"}"#;
        let rules = RawValue::from_string(text.into()).unwrap();
        let reason = match from_request(Some(&rules), None) {
            Err(ServerError::BadRequest(reason)) => reason.to_string(),
            other => panic!("{text} was not refused: {other:?}"),
        };
        assert!(reason.contains("duplicate field `scoring`"), "{reason}");
    }

    #[test]
    fn known_fields_set_the_rules() {
        let rules = from_request(
            Some(&raw(
                json!({"scoring": "standard", "merchant_exchange": true, "hands": 3}),
            )),
            None,
        )
        .unwrap();
        assert_eq!(rules.scoring, Scoring::Standard);
        assert!(rules.merchant_exchange && rules.join_and_leave);
        assert_eq!(rules.hands, Some(3));
        assert_eq!(from_request(None, Some(5)).unwrap().hands, Some(5));
        assert!(from_request(Some(&raw(json!({"hands": 3}))), Some(4)).is_err());
        assert!(from_request(None, Some(1001)).is_err());
    }

    #[test]
    fn the_variant_is_chosen_by_its_word_and_checked_against_the_table() {
        let cs = from_request(Some(&raw(json!({"variant": "corporate-shuffle"}))), None).unwrap();
        assert_eq!(cs.variant, Variant::CorporateShuffle);
        assert_eq!(from_request(None, None).unwrap().variant, Variant::Dalmuti);
        let reason = refused(json!({"variant": "uno"}));
        assert!(
            reason.contains("rules.variant") && reason.contains("corporate-shuffle"),
            "names the allowed variants: {reason}"
        );
        assert!(check_table(&cs, 8).is_ok());
        let reason = match check_table(&cs, 9) {
            Err(ServerError::BadRequest(reason)) => reason.to_string(),
            other => panic!("nine Corporate Shuffle seats: {other:?}"),
        };
        assert!(reason.contains("3 to 8"), "{reason}");
        let stripped = Rules {
            stripped_deck: true,
            ..cs
        };
        let reason = match check_table(&stripped, 5) {
            Err(ServerError::BadRequest(reason)) => reason.to_string(),
            other => panic!("a stripped Corporate Shuffle deck: {other:?}"),
        };
        assert!(reason.contains("never stripped"), "{reason}");
        assert!(check_table(&Rules::default(), 16).is_ok());
    }
}
