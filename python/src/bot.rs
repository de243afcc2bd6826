//! The built-in bots for Python: each decides from one seat's view only.

use dalmuti_bots::{Bot, BotSpec};
use dalmuti_core::Viewer;
use dalmuti_core::wire::encode_action;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::table::Table;

/// A built-in bot, named as on `dalmuti sim`'s command line.
#[pyclass(name = "Bot", module = "dalmuti._dalmuti")]
pub struct PyBot {
    // A mutex only so the class is `Sync`, as Python classes must be.
    bot: std::sync::Mutex<Box<dyn Bot>>,
    /// The name it was built from, options and all (`search:ms=50`).
    spec: String,
}

/// Builds a built-in bot from its command-line name; `cmd:` bots are
/// refused (a Python agent is called directly instead).
pub fn build(spec: &str, seed: u64) -> PyResult<Box<dyn Bot>> {
    let spec: BotSpec = spec
        .parse()
        .map_err(|e| PyValueError::new_err(format!("bot {spec:?}: {e}")))?;
    if matches!(spec, BotSpec::External { .. }) {
        return Err(PyValueError::new_err(
            "a cmd: bot runs another program; from Python, call your agent directly",
        ));
    }
    spec.build(seed)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

impl PyBot {
    fn bot(&self) -> std::sync::MutexGuard<'_, Box<dyn Bot>> {
        self.bot.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (spec, seed = 0))]
    fn new(spec: &str, seed: u64) -> PyResult<PyBot> {
        Ok(PyBot {
            bot: std::sync::Mutex::new(build(spec, seed)?),
            spec: spec.to_string(),
        })
    }

    #[getter]
    fn name(&self) -> String {
        self.bot().name().to_string()
    }

    /// The name it was built from, options and all.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn decide(&mut self, py: Python<'_>, table: &Table, seat: usize) -> PyResult<String> {
        let seat = table.seat(seat)?;
        let view = table.game.view(Viewer::Seat(seat));
        let legal = view.legal_actions();
        if legal.is_empty() {
            return Err(PyValueError::new_err(format!(
                "seat {seat} has nothing to decide"
            )));
        }
        // A search bot thinks for its whole budget: let other Python
        // threads run meanwhile.
        let bot = self.bot.get_mut().unwrap_or_else(|e| e.into_inner());
        let action = py
            .detach(|| bot.decide(&view, &legal))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(encode_action(&action).to_string())
    }

    fn reseed(&mut self, seed: u64) {
        self.bot
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .reseed(seed);
    }

    fn __repr__(&self) -> String {
        // The spec, which builds the same bot again; the name alone
        // ("search") does not say its budget.
        format!("Bot({:?})", self.spec)
    }
}
