//! Rule switches from Python, as JSON text: `{"merchant_exchange": true}`.

use dalmuti_core::Rules;
use pyo3::PyResult;
use pyo3::exceptions::PyValueError;
use serde_json::Value;

/// The rules `text` switches on or off from the defaults. An unknown
/// switch is refused by name: a misspelt rule must not be silently ignored.
pub fn parse_rules(text: &str) -> PyResult<Rules> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| PyValueError::new_err(format!("rules {text:?} are not JSON: {e}")))?;
    let Value::Object(given) = &value else {
        return Err(PyValueError::new_err(format!(
            "rules are an object of switches, not {value}"
        )));
    };
    let Value::Object(known) = serde_json::to_value(Rules::default()).expect("rules serialize")
    else {
        unreachable!("rules serialize as an object")
    };
    if let Some(unknown) = given.keys().find(|k| !known.contains_key(*k)) {
        let names: Vec<&str> = known.keys().map(String::as_str).collect();
        return Err(PyValueError::new_err(format!(
            "no rule {unknown:?}; the rules are {}",
            names.join(", ")
        )));
    }
    serde_json::from_value(value).map_err(|e| PyValueError::new_err(format!("rules: {e}")))
}

pub fn rules_json(rules: &Rules) -> String {
    serde_json::to_string(rules).expect("rules serialize")
}
