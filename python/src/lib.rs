//! `dalmuti._dalmuti`: the Rust engine and bots for the Python package
//! `dalmuti` (python/dalmuti). The contract is `dalmuti/_dalmuti.pyi`.
//!
//! Actions, decisions and views cross as the bot protocol's JSON text
//! (docs/BOT-PROTOCOL.md), so that Python, the protocol and the server
//! speak one encoding; observations and action masks cross as numpy arrays.

mod batch;
mod bot;
mod observe;
mod observe_pack;
mod rules;
mod space;
mod table;

use dalmuti_core::wire::{decode_action, decode_decision, encode_action};
use dalmuti_core::{CARD_KINDS, ViewSnapshot};
use numpy::PyArray1;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

/// The numbered actions of a table (see `space.rs`).
#[pyclass(name = "ActionSpace", module = "dalmuti._dalmuti", skip_from_py_object)]
#[derive(Clone)]
pub struct PySpace(space::ActionSpace);

#[pymethods]
impl PySpace {
    #[new]
    #[pyo3(signature = (players, rules = "{}"))]
    fn new(players: usize, rules: &str) -> PyResult<PySpace> {
        let rules = rules::parse_rules(rules)?;
        rules
            .check(players)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PySpace(space::ActionSpace::new(&rules, players)))
    }

    #[getter]
    fn n(&self) -> usize {
        self.0.len()
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }

    fn action(&self, index: usize) -> PyResult<String> {
        self.0
            .action(index)
            .map(|a| encode_action(&a).to_string())
            .ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "action {index}: the space numbers 0 to {}",
                    self.0.len() - 1
                ))
            })
    }

    fn index(&self, action: &str) -> PyResult<usize> {
        let value: serde_json::Value = serde_json::from_str(action)
            .map_err(|e| PyValueError::new_err(format!("action {action:?} is not JSON: {e}")))?;
        let action = decode_action(value).map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.0.number(&action).ok_or_else(|| {
            PyValueError::new_err(format!("{action} is not an action at this table"))
        })
    }

    fn __repr__(&self) -> String {
        format!("ActionSpace(n={})", self.0.len())
    }
}

/// The verdict of `dalmuti check --json` on a record, as JSON text.
#[pyfunction]
fn check(record: &str) -> String {
    dalmuti_core::record::check(record).to_json()
}

/// The length of an observation at a table of `players` under `rules`
/// (Dalmuti's when none are given).
#[pyfunction]
#[pyo3(signature = (players, rules = "{}"))]
fn observation_size(players: usize, rules: &str) -> PyResult<usize> {
    Ok(observe::size_for(&rules::parse_rules(rules)?, players))
}

#[pyfunction]
#[pyo3(signature = (players, rules = "{}"))]
fn observation_layout(players: usize, rules: &str) -> PyResult<Vec<(&'static str, usize, usize)>> {
    let rules = rules::parse_rules(rules)?;
    let mut start = 0;
    Ok(observe::layout_for(&rules, players)
        .into_iter()
        .map(|(name, len)| {
            start += len;
            (name, start - len, len)
        })
        .collect())
}

/// The observation of a protocol view (JSON text) and its decision.
#[pyfunction]
#[pyo3(signature = (view, decision = None))]
fn observe_snapshot<'py>(
    py: Python<'py>,
    view: &str,
    decision: Option<&str>,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    let bad = |e: String| PyValueError::new_err(e);
    let snapshot: ViewSnapshot =
        serde_json::from_str(view).map_err(|e| bad(format!("not a view: {e}")))?;
    let decision = match decision {
        Some(text) => {
            let value: serde_json::Value =
                serde_json::from_str(text).map_err(|e| bad(format!("not a decision: {e}")))?;
            if value.is_null() {
                None
            } else {
                Some(decode_decision(value).map_err(|e| bad(e.to_string()))?)
            }
        }
        None => None,
    };
    let out = observe::encode_snapshot(&snapshot, decision).map_err(bad)?;
    Ok(PyArray1::from_vec(py, out))
}

#[pymodule]
fn _dalmuti(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CARD_KINDS", CARD_KINDS)?;
    m.add_class::<PySpace>()?;
    m.add_class::<table::Table>()?;
    m.add_class::<bot::PyBot>()?;
    m.add_class::<batch::Batch>()?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(observation_size, m)?)?;
    m.add_function(wrap_pyfunction!(observation_layout, m)?)?;
    m.add_function(wrap_pyfunction!(observe_snapshot, m)?)?;
    Ok(())
}
