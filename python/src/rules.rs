//! Rule switches from Python, as JSON text: `{"merchant_exchange": true}`,
//! `{"variant": "daifugo", "climbing": "local,jokers=2"}`.

use dalmuti_core::{Climbing, Rules, Variant};
use pyo3::PyResult;
use pyo3::exceptions::PyValueError;
use serde_json::Value;

/// The rules `text` switches on or off from the defaults: Dalmuti's, or
/// for `"variant": "daifugo"` / `"president"` those games' own
/// (`Rules::daifugo()`, `Rules::president()`: scored by places, nobody
/// joining or leaving). Their options are `climbing`: an object of options
/// (docs/RULES.md § Daifugō's house rules; those left out keep the
/// variant's), or the text of `--house` (`"local,jokers=2"`). An unknown
/// switch is refused by name: a misspelt rule must not be silently
/// ignored.
pub fn parse_rules(text: &str) -> PyResult<Rules> {
    let bad = |m: String| PyValueError::new_err(m);
    let value: Value =
        serde_json::from_str(text).map_err(|e| bad(format!("rules {text:?} are not JSON: {e}")))?;
    let Value::Object(given) = &value else {
        return Err(bad(format!("rules are an object of switches, not {value}")));
    };
    let variant: Variant = match given.get("variant") {
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| bad(format!("variant: {e}")))?,
        None => Variant::Dalmuti,
    };
    let base = match variant {
        Variant::Daifugo => Rules::daifugo(),
        Variant::President => Rules::president(),
        _ => Rules::default(),
    };
    let Value::Object(mut merged) = serde_json::to_value(base).expect("rules serialize") else {
        unreachable!("rules serialize as an object")
    };
    let mut known: Vec<String> = merged.keys().cloned().collect();
    known.push("climbing".into());
    if let Some(unknown) = given.keys().find(|k| !known.contains(k)) {
        return Err(bad(format!(
            "no rule {unknown:?}; the rules are {}",
            known.join(", ")
        )));
    }
    for (key, v) in given {
        let v = match (key.as_str(), v) {
            ("climbing", Value::String(house)) => {
                let c = Climbing::from_options(variant, house).map_err(bad)?;
                serde_json::to_value(c).expect("options serialize")
            }
            ("climbing", Value::Object(options)) => {
                // Options left out keep the variant's own, as in records.
                let own = base.climbing();
                let Value::Object(mut all) = serde_json::to_value(own).expect("options") else {
                    unreachable!("options serialize as an object")
                };
                for (k, o) in options {
                    all.insert(k.clone(), o.clone());
                }
                Value::Object(all)
            }
            _ => v.clone(),
        };
        merged.insert(key.clone(), v);
    }
    serde_json::from_value(Value::Object(merged)).map_err(|e| bad(format!("rules: {e}")))
}

pub fn rules_json(rules: &Rules) -> String {
    serde_json::to_string(rules).expect("rules serialize")
}
