//! One game for Python: the engine's `Game` behind JSON text (the bot
//! protocol's encoding) and numpy arrays.

use dalmuti_core::record::Record;
use dalmuti_core::wire::{decode_action, encode_action, encode_decision};
use dalmuti_core::{Action, Game, PlayerId, Seat, Seed, Stage, Viewer};
use numpy::PyArray1;
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::observe;
use crate::rules::{parse_rules, rules_json};
use crate::space::ActionSpace;

/// A game: the players draw for seats, then hands are dealt one by one.
#[pyclass(module = "dalmuti._dalmuti", skip_from_py_object)]
#[derive(Clone)]
pub struct Table {
    pub game: Game,
    pub space: ActionSpace,
    /// Player numbers as Python counts them (the order of the names given)
    /// to the engine's ids (the order of the first seating).
    numbers: Vec<PlayerId>,
}

impl Table {
    pub fn open(
        players: usize,
        seed: u64,
        rules: &str,
        names: Option<Vec<String>>,
    ) -> PyResult<Table> {
        let rules = parse_rules(rules)?;
        let names = names.unwrap_or_else(|| (0..players).map(|p| format!("player_{p}")).collect());
        if names.len() != players {
            return Err(PyValueError::new_err(format!(
                "{} names for {players} players",
                names.len()
            )));
        }
        let game = Game::new(rules, names.clone(), Seed::from(seed))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let numbers = names
            .iter()
            .map(|name| game.player_named(name).expect("seated"))
            .collect();
        Ok(Table::around(game, numbers))
    }

    /// `numbers`: the engine's id of each player number.
    pub fn around(game: Game, numbers: Vec<PlayerId>) -> Table {
        let players = game.hand().players();
        let space = ActionSpace::new(game.rules(), players);
        Table {
            game,
            space,
            numbers,
        }
    }

    /// The number of the player with engine id `id`.
    fn number(&self, id: PlayerId) -> usize {
        self.numbers
            .iter()
            .position(|&p| p == id)
            .expect("every player has a number")
    }

    pub fn players(&self) -> usize {
        self.game.hand().players()
    }

    pub fn seat(&self, seat: usize) -> PyResult<Seat> {
        if seat < self.players() {
            Ok(Seat::new(seat))
        } else {
            Err(PyIndexError::new_err(format!(
                "seat {seat}: the table has seats 0 to {}",
                self.players() - 1
            )))
        }
    }

    pub fn play(&mut self, seat: Seat, action: Action) -> PyResult<()> {
        self.game
            .apply(seat, action)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The observation of `seat` into `out`.
    pub fn observe_into(&self, seat: Seat, out: &mut [f32]) {
        let view = self.game.view(Viewer::Seat(seat));
        observe::encode_view(&view, out);
    }

    /// The action mask of `seat` into `out`.
    pub fn mask_into(&self, seat: Seat, out: &mut [i8]) -> PyResult<()> {
        let view = self.game.view(Viewer::Seat(seat));
        self.space
            .mask(&view.legal_actions(), out)
            .map_err(|action| {
                PyRuntimeError::new_err(format!("the legal action {action} has no number"))
            })
    }
}

#[pymethods]
impl Table {
    #[new]
    #[pyo3(signature = (players, seed, rules = "{}", names = None))]
    fn new(players: usize, seed: u64, rules: &str, names: Option<Vec<String>>) -> PyResult<Table> {
        Table::open(players, seed, rules, names)
    }

    #[staticmethod]
    #[pyo3(signature = (record, seed = 0))]
    fn from_record(record: &str, seed: u64) -> PyResult<Table> {
        let record = Record::parse(record).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let game = record
            .replay(Seed::from(seed))
            .map_err(|e| PyValueError::new_err(format!("invalid record: {e}")))?;
        // A record's players are numbered in the order of its seating.
        let numbers = game.players().collect();
        Ok(Table::around(game, numbers))
    }

    #[getter(players)]
    fn players_py(&self) -> usize {
        self.players()
    }

    #[getter]
    fn names(&self) -> Vec<String> {
        self.numbers
            .iter()
            .map(|&p| self.game.name(p).to_string())
            .collect()
    }

    #[getter]
    fn rules(&self) -> String {
        rules_json(self.game.rules())
    }

    #[getter(space)]
    fn space_py(&self) -> crate::PySpace {
        crate::PySpace(self.space.clone())
    }

    fn player_at(&self, seat: usize) -> PyResult<usize> {
        Ok(self.number(self.game.player_at(self.seat(seat)?)))
    }

    fn seat_of(&self, player: usize) -> PyResult<usize> {
        self.numbers
            .get(player)
            .and_then(|&p| self.game.seat_of(p))
            .map(Seat::index)
            .ok_or_else(|| PyIndexError::new_err(format!("player {player} has no seat")))
    }

    fn stage(&self) -> &'static str {
        match self.game.hand().stage() {
            Stage::Setup => "setup",
            Stage::Play => "play",
            Stage::Over => "over",
        }
    }

    fn to_act(&self) -> Vec<usize> {
        self.game.hand().to_act().iter().map(Seat::index).collect()
    }

    fn decision(&self, seat: usize) -> PyResult<Option<String>> {
        let seat = self.seat(seat)?;
        Ok(self
            .game
            .hand()
            .decision(seat)
            .map(|d| encode_decision(&d).to_string()))
    }

    fn legal(&self, seat: usize) -> PyResult<String> {
        let view = self.game.view(Viewer::Seat(self.seat(seat)?));
        let legal: Vec<_> = view.legal_actions().iter().map(encode_action).collect();
        Ok(serde_json::to_string(&legal).expect("actions serialize"))
    }

    fn apply(&mut self, seat: usize, action: &str) -> PyResult<()> {
        let seat = self.seat(seat)?;
        let value: serde_json::Value = serde_json::from_str(action)
            .map_err(|e| PyValueError::new_err(format!("action {action:?} is not JSON: {e}")))?;
        let action = decode_action(value).map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.play(seat, action)
    }

    fn apply_index(&mut self, seat: usize, index: usize) -> PyResult<()> {
        let seat = self.seat(seat)?;
        let action = self.space.action(index).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "action {index}: the space numbers 0 to {}",
                self.space.len() - 1
            ))
        })?;
        self.play(seat, action)
    }

    #[pyo3(signature = (seat = None))]
    fn view(&self, seat: Option<usize>) -> PyResult<String> {
        let viewer = match seat {
            Some(s) => Viewer::Seat(self.seat(s)?),
            None => Viewer::Spectator,
        };
        let snapshot = self.game.view(viewer).snapshot();
        serde_json::to_string(&snapshot).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self.seat(seat)?;
        let mut out = vec![0.0; observe::size_for(self.game.rules(), self.players())];
        self.observe_into(seat, &mut out);
        Ok(PyArray1::from_vec(py, out))
    }

    fn action_mask<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let seat = self.seat(seat)?;
        let mut out = vec![0; self.space.len()];
        self.mask_into(seat, &mut out)?;
        let array = PyArray1::from_vec(py, out);
        Ok(array)
    }

    fn hand_over(&self) -> bool {
        self.game.hand().stage() == Stage::Over
    }

    fn game_over(&self) -> bool {
        self.game.is_over()
    }

    fn next_hand(&mut self) -> PyResult<()> {
        self.game
            .next_hand()
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn hands_played(&self) -> usize {
        self.game.hands().len()
    }

    fn finish_order(&self) -> Vec<usize> {
        self.game
            .hand()
            .finish_order()
            .iter()
            .map(|s| s.index())
            .collect()
    }

    fn hand_points(&self) -> Option<Vec<u32>> {
        let hand = self.game.hand();
        hand.points().map(|p| p.as_slice(hand.players()).to_vec())
    }

    fn totals(&self) -> Vec<u32> {
        self.numbers.iter().map(|&p| self.game.total(p)).collect()
    }

    fn record(&self) -> String {
        Record::from_game(&self.game).to_json_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Table(players={}, hand={}, stage={})",
            self.players(),
            self.game.hands().len(),
            self.stage()
        )
    }
}
