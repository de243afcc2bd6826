//! The rules a client asks for when it creates a table, read strictly.
//!
//! The engine's [`Rules`] deserializer is lenient on purpose (game records
//! may carry fields it does not know), so the server reads a request's
//! `rules` through its own mirror of the fields it offers, which refuses
//! unknown fields and values out of range and names the field at fault.

use dalmuti_core::{Rules, Scoring};
use serde::Deserialize;
use serde_json::Value;

use crate::error::ServerError;

/// The most hands a served game may last.
pub const MAX_HANDS: u32 = 1000;

/// The fields of [`Rules`] a client may set, every one optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesRequest {
    stripped_deck: Option<bool>,
    first_deal_revolution: Option<bool>,
    merchant_exchange: Option<bool>,
    scoring: Option<Scoring>,
    hands: Option<u32>,
    join_and_leave: Option<bool>,
}

/// A number of hands, checked: 1 to [`MAX_HANDS`].
pub fn check_hands(field: &str, hands: u32) -> Result<u32, ServerError> {
    if hands == 0 || hands > MAX_HANDS {
        return Err(ServerError::BadRequest(format!(
            "{field}: 1 to {MAX_HANDS} hands, not {hands}"
        )));
    }
    Ok(hands)
}

/// The rules of a new table from the request's `rules` (absent or null:
/// the defaults) and its top-level `hands`. Server tables let players
/// come and go between hands unless told not to.
pub fn from_request(rules: Option<&Value>, hands: Option<u32>) -> Result<Rules, ServerError> {
    let given = match rules {
        None | Some(Value::Null) => None,
        Some(value @ Value::Object(_)) => Some(
            serde_path_to_error::deserialize::<_, RulesRequest>(value).map_err(|e| {
                let path = e.path().to_string();
                let at = if path == "." {
                    "rules".to_string()
                } else {
                    format!("rules.{path}")
                };
                ServerError::BadRequest(format!("{at}: {}", e.into_inner()))
            })?,
        ),
        Some(_) => {
            return Err(ServerError::BadRequest(
                "rules: an object, e.g. {\"scoring\": \"standard\"}".into(),
            ));
        }
    };
    let mut out = Rules {
        join_and_leave: true,
        ..Rules::default()
    };
    if let Some(r) = given {
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
            return Err(ServerError::BadRequest(
                "hands and rules.hands differ: give one of them".into(),
            ));
        }
        out.hands = Some(h);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refused(rules: Value) -> String {
        match from_request(Some(&rules), None) {
            Err(ServerError::BadRequest(reason)) => reason,
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

    #[test]
    fn known_fields_set_the_rules() {
        let rules = from_request(
            Some(&json!({"scoring": "standard", "merchant_exchange": true, "hands": 3})),
            None,
        )
        .unwrap();
        assert_eq!(rules.scoring, Scoring::Standard);
        assert!(rules.merchant_exchange && rules.join_and_leave);
        assert_eq!(rules.hands, Some(3));
        assert_eq!(from_request(None, Some(5)).unwrap().hands, Some(5));
        assert!(from_request(Some(&json!({"hands": 3})), Some(4)).is_err());
        assert!(from_request(None, Some(1001)).is_err());
    }
}
