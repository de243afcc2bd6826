//! Many games stepped together for reinforcement learning: one learning
//! player per game, every other player a built-in bot played inside Rust,
//! so that Python is called once per step of all the games, not once per
//! seat.

use dalmuti_bots::{Bot, fallback};
use dalmuti_core::{Action, ActionList, Game, PlayerId, Rules, Scoring, Seat, Seed, Stage, Viewer};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::observe;
use crate::rules::parse_rules;
use crate::space::ActionSpace;

/// One game of the batch.
struct Slot {
    game: Game,
    /// The learning player's id in the engine.
    learner: PlayerId,
    /// By the engine's player id; `None` for the learning player.
    bots: Vec<Option<Box<dyn Bot>>>,
    /// The learning player's legal actions now (empty when the game is
    /// over): what its next action is checked against.
    legal: ActionList,
    /// Decisions played, the bots' included.
    steps: u64,
}

/// What one game gives back for one step.
#[derive(Default, Clone, Copy)]
struct Outcome {
    reward: f32,
    done: bool,
}

#[pyclass(module = "dalmuti._dalmuti")]
pub struct Batch {
    // Behind a mutex only so the class is `Sync`, as Python classes must
    // be; the methods take `&mut self` and reach it with `get_mut`, no lock.
    slots: std::sync::Mutex<Vec<Slot>>,
    // Shared with the steps without copying its table.
    space: std::sync::Arc<ActionSpace>,
    rules: Rules,
    players: usize,
    learner: usize,
    opponents: Vec<String>,
    /// How many games.
    games: usize,
    /// The seed of the next game dealt.
    next_seed: u64,
    /// Steps of games already replaced.
    past_steps: u64,
}

impl Batch {
    fn slot(&mut self) -> PyResult<Slot> {
        let seed = self.next_seed;
        self.next_seed += 1;
        let names: Vec<String> = (0..self.players).map(|p| format!("player_{p}")).collect();
        let game = Game::new(self.rules, names.clone(), Seed::from(seed))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        // Player numbers are the names' order; the engine numbers its
        // players by the first seating, which the draw decides.
        let id = |player: usize| game.player_named(&names[player]).expect("seated");
        let mut bots: Vec<Option<Box<dyn Bot>>> = (0..self.players).map(|_| None).collect();
        let mut others = 0;
        for player in 0..self.players {
            if player == self.learner {
                continue;
            }
            let spec = if self.opponents.len() == 1 {
                &self.opponents[0]
            } else {
                &self.opponents[others]
            };
            others += 1;
            // Each bot's randomness from the game's seed and its player.
            let bot_seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ player as u64;
            bots[id(player).index()] = Some(crate::bot::build(spec, bot_seed)?);
        }
        let mut slot = Slot {
            learner: id(self.learner),
            game,
            bots,
            legal: ActionList::new(),
            steps: 0,
        };
        slot.advance();
        Ok(slot)
    }
}

impl Slot {
    fn learner_seat(&self) -> Seat {
        self.game
            .seat_of(self.learner)
            .expect("the learning player is seated")
    }

    /// Plays the bots until the learning player has a decision or the game
    /// is over; the learning player's rewards meanwhile.
    fn advance(&mut self) -> Outcome {
        let mut outcome = Outcome::default();
        loop {
            let hand = self.game.hand();
            if hand.stage() == Stage::Over {
                outcome.reward += reward(&self.game, self.learner_seat());
                if self.game.is_over() {
                    outcome.done = true;
                    self.legal.clear();
                    return outcome;
                }
                self.game.next_hand().expect("a game not over deals on");
                continue;
            }
            let me = self.learner_seat();
            // During the setup several seats choose at once, none seeing
            // the others' choices: the bots' go first.
            let Some(seat) = hand.to_act().iter().find(|&s| s != me) else {
                let view = self.game.view(Viewer::Seat(me));
                self.legal = view.legal_actions();
                return outcome;
            };
            let player = self.game.player_at(seat).index();
            let bot = self.bots[player].as_mut().expect("a bot's seat");
            let action = if bot.plays_first_legal() {
                hand.worst_legal(seat)
                    .expect("a seat to act has a legal action")
            } else {
                let view = self.game.view(Viewer::Seat(seat));
                let legal = view.legal_actions();
                bot.decide(&view, &legal)
                    .unwrap_or_else(|_| fallback(&legal))
            };
            self.game
                .apply(seat, action)
                .expect("a built-in bot plays a legal action");
            self.steps += 1;
        }
    }

    fn write(&self, space: &ActionSpace, obs: &mut [f32], mask: &mut [i8]) {
        let me = self.learner_seat();
        let view = self.game.view(Viewer::Seat(me));
        observe::encode_view(&view, obs);
        // Every legal action has a number: the space lists them all, and
        // the tests check it at every decision.
        let _ = space.mask(&self.legal, mask);
    }
}

/// The learning player's reward for a finished hand: its points when the
/// game is scored (standard or philanthropic), else 1 for first out down
/// to -1 for last. Scoring by places (President's and Daifugō's own) is
/// rewarded by places too: its points say nothing more than the place.
fn reward(game: &Game, seat: Seat) -> f32 {
    let hand = game.hand();
    let n = hand.players();
    if game.rules().scoring != Scoring::Places
        && let Some(points) = hand.points()
    {
        return points[seat] as f32;
    }
    let place = hand
        .finish_order()
        .iter()
        .position(|&s| s == seat)
        .expect("a finished hand places everyone");
    1.0 - 2.0 * place as f32 / (n - 1) as f32
}

type Arrays<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<i8>>);

impl Batch {
    fn slots(&mut self) -> &mut Vec<Slot> {
        self.slots.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    fn arrays<'py>(&mut self, py: Python<'py>) -> PyResult<Arrays<'py>> {
        let (d, a) = (
            observe::size_for(&self.rules, self.players),
            self.space.len(),
        );
        let space = self.space.clone();
        let slots = self.slots();
        let rows = slots.len();
        let mut obs = vec![0.0f32; rows * d];
        let mut mask = vec![0i8; rows * a];
        slots
            .iter()
            .zip(obs.chunks_mut(d))
            .zip(mask.chunks_mut(a))
            .for_each(|((slot, o), m)| slot.write(&space, o, m));
        Ok((
            PyArray1::from_vec(py, obs).reshape([rows, d])?,
            PyArray1::from_vec(py, mask).reshape([rows, a])?,
        ))
    }
}

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(signature = (games, players, seed, rules = "{}", opponents = vec!["heuristic".to_string()], learner = 0))]
    fn new(
        games: usize,
        players: usize,
        seed: u64,
        rules: &str,
        opponents: Vec<String>,
        learner: usize,
    ) -> PyResult<Batch> {
        let mut rules = parse_rules(rules)?;
        rules.hands.get_or_insert(1);
        rules
            .check(players)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        if games == 0 {
            return Err(PyValueError::new_err("a batch needs at least one game"));
        }
        if learner >= players {
            return Err(PyValueError::new_err(format!(
                "learner {learner}: the players are 0 to {}",
                players - 1
            )));
        }
        if opponents.len() != 1 && opponents.len() != players - 1 {
            return Err(PyValueError::new_err(format!(
                "{} opponents for {} other players: give one bot for all, or one each",
                opponents.len(),
                players - 1
            )));
        }
        let mut batch = Batch {
            slots: std::sync::Mutex::new(Vec::with_capacity(games)),
            space: std::sync::Arc::new(ActionSpace::new(&rules, players)),
            rules,
            players,
            learner,
            opponents,
            games,
            next_seed: seed,
            past_steps: 0,
        };
        // Checks the opponents' names now rather than at the first reset.
        batch.slot()?;
        batch.next_seed = seed;
        Ok(batch)
    }

    #[getter]
    fn games(&self) -> usize {
        self.games
    }

    #[getter]
    fn observation_size(&self) -> usize {
        observe::size_for(&self.rules, self.players)
    }

    #[getter]
    fn space(&self) -> crate::PySpace {
        crate::PySpace((*self.space).clone())
    }

    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Arrays<'py>> {
        if let Some(seed) = seed {
            self.next_seed = seed;
        }
        let games = self.games;
        self.reset_slots(games)?;
        self.arrays(py)
    }

    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<i8>>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let actions = actions.as_slice()?;
        let games = self.games;
        if self.slots().is_empty() {
            return Err(PyValueError::new_err(
                "reset the batch before its first step",
            ));
        }
        if actions.len() != games {
            return Err(PyValueError::new_err(format!(
                "{} actions for {games} games",
                actions.len(),
            )));
        }
        // Every action is checked before any is played: a refusal plays
        // nothing.
        let mut chosen: Vec<Action> = Vec::with_capacity(actions.len());
        let space = self.space.clone();
        for (i, (&a, slot)) in actions.iter().zip(self.slots().iter()).enumerate() {
            let action = usize::try_from(a)
                .ok()
                .and_then(|a| space.action(a))
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "game {i}: action {a} is not a number from 0 to {}",
                        space.len() - 1
                    ))
                })?;
            if !slot.legal.contains(&action) {
                return Err(PyValueError::new_err(format!(
                    "game {i}: {action} (action {a}) is not legal now"
                )));
            }
            chosen.push(action);
        }
        let slots = self.slots();
        let outcomes: Vec<Outcome> = py.detach(|| {
            slots
                .par_iter_mut()
                .zip(chosen)
                .map(|(slot, action)| {
                    let me = slot.learner_seat();
                    slot.game.apply(me, action).expect("checked legal");
                    slot.steps += 1;
                    slot.advance()
                })
                .collect()
        });
        for (i, outcome) in outcomes.iter().enumerate() {
            if outcome.done {
                self.past_steps += self.slots()[i].steps;
                let fresh = self.slot()?;
                self.slots()[i] = fresh;
            }
        }
        let (obs, mask) = self.arrays(py)?;
        let rewards: Vec<f32> = outcomes.iter().map(|o| o.reward).collect();
        let dones: Vec<bool> = outcomes.iter().map(|o| o.done).collect();
        Ok((
            obs,
            mask,
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, dones),
        ))
    }

    fn steps(&mut self) -> u64 {
        self.past_steps + self.slots().iter().map(|s| s.steps).sum::<u64>()
    }
}

impl Batch {
    fn reset_slots(&mut self, games: usize) -> PyResult<()> {
        let past: u64 = self.slots().iter().map(|s| s.steps).sum();
        self.past_steps += past;
        self.slots().clear();
        for _ in 0..games {
            let slot = self.slot()?;
            self.slots().push(slot);
        }
        Ok(())
    }
}
