//! Choosing an action: the scripted clients pick among the legal actions
//! STATE lists (`legal`), so they play every game the engine does without
//! knowing its rules (issue 42: no rule outside the engine).

use serde_json::Value;

/// The action a scripted client takes among `legal`, as STATE lists them:
/// it passes when it may, declines an exchange, and otherwise takes the
/// last action listed (the engine lists plays best first, so this is a
/// cheap one). None when nothing is legal.
pub(crate) fn choose(legal: &[Value]) -> Option<Value> {
    let quiet = ["pass", "decline_exchange"];
    legal
        .iter()
        .find(|a| a.as_str().is_some_and(|a| quiet.contains(&a)))
        .or_else(|| legal.last())
        .cloned()
}
