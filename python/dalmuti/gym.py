"""Gymnasium environments: one learning player against built-in bots.

    import gymnasium, dalmuti.gym
    env = gymnasium.make("Dalmuti-v0", players=5, opponents="heuristic")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(action)  # info["action_mask"]

Both environments run on the native `Batch`: the opponents (built-in bots,
`random`, `greedy`, `heuristic`, `search:ms=50`, ...) play inside Rust, and
a step is one decision of the learning player (`learner`, a player number)
followed by the bots' decisions until it must decide again or the game
ends. Rewards, at the end of each hand: the hand's points with scoring on,
else `1 - 2 * place / (players - 1)`. An episode is a game of
`rules["hands"]` hands (1 if unset).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from . import _dalmuti
from ._envutil import merge_rules, observation_box

__all__ = ["DalmutiEnv", "DalmutiVectorEnv"]

ILLEGAL = ("penalty", "raise")


def _opponents(opponents: Union[str, Sequence[str]]) -> list[str]:
    if isinstance(opponents, str):
        return [opponents]
    opponents = list(opponents)
    if not opponents or not all(isinstance(o, str) for o in opponents):
        raise TypeError(f"opponents must be a bot spec or a list of them, not {opponents!r}")
    return opponents


def _actions(actions: Any, games: int, n: int) -> np.ndarray:
    """Actions as an int64 array of `games` indices, or TypeError/ValueError."""
    a = np.asarray(actions)
    if a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
        raise TypeError(
            f"actions are integer indices of the action space (0 to {n - 1}), not {a.dtype} {actions!r}"
        )
    a = a.reshape(-1).astype(np.int64)
    if a.shape != (games,):
        raise ValueError(f"expected {games} action(s), got {a.size}")
    bad = (a < 0) | (a >= n)
    if bad.any():
        raise ValueError(f"action {int(a[bad][0])} is out of the action space: 0 to {n - 1}")
    return a


def _fix_illegal(actions: np.ndarray, masks: np.ndarray, illegal: str) -> np.ndarray:
    """Which actions are illegal; with `illegal="penalty"` they are replaced
    in place by the lowest-numbered legal action, with "raise" ValueError."""
    wrong = masks[np.arange(len(actions)), actions] == 0
    if wrong.any():
        if illegal == "raise":
            i = int(np.flatnonzero(wrong)[0])
            raise ValueError(
                f"action {int(actions[i])} is not legal now (game {i}); "
                f"legal: {np.flatnonzero(masks[i]).tolist()}"
            )
        actions[wrong] = np.argmax(masks[wrong], axis=1)
    return wrong


class _BatchConfig:
    """What both environments share: the arguments and the spaces."""

    def _configure(self, players, opponents, rules, learner, illegal, illegal_penalty, switches):
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {ILLEGAL}, not {illegal!r}")
        self.players = players
        self.learner = learner
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self._opponents = _opponents(opponents)
        self._rules_json, self.rules = merge_rules(rules, switches)
        # Checks every argument at once (ValueError from the engine).
        probe = _dalmuti.Batch(1, players, 0, self._rules_json, self._opponents, learner)
        self.n = probe.space.n
        self.space = probe.space
        box = observation_box(players, self._rules_json, self.rules)
        return box, spaces.Discrete(self.n)

    def _batch(self, games: int, seed: int) -> "_dalmuti.Batch":
        return _dalmuti.Batch(games, self.players, seed, self._rules_json, self._opponents, self.learner)


class DalmutiEnv(_BatchConfig, gymnasium.Env):
    """The Great Dalmuti (or Corporate Shuffle, `variant="corporate-shuffle"`;
    President, `variant="president"`; Daifugō, `variant="daifugo"`, with
    their options in `climbing`) for one learning player, player `learner`,
    against `opponents` (one bot spec for all, or one per other player in
    player order).

    Observation: a float32 vector (`dalmuti.observation_layout(players)`).
    Action: an index of the fixed action space (`self.space`, an
    `ActionSpace`); the legal ones are `info["action_mask"]` (1 = legal),
    also given by `action_masks()` (sb3-contrib's MaskablePPO).

    Illegal actions. The action space is all of `Discrete(n)`, most of it
    illegal at any moment, so that samplers that ignore the mask (such as
    Gymnasium's `check_env`) still run. With `illegal="penalty"` (default) an
    illegal action is replaced by the lowest-numbered legal action (`pass`
    when passing is legal; the numbering is `ActionSpace`'s), the reward is
    lowered by `illegal_penalty` (1.0), and `info["illegal"]` is True. With
    `illegal="raise"` it is a ValueError and nothing is played. An action
    that is not an integer of the space raises TypeError/ValueError in both.

    The step that ends a game (`terminated=True`) already returns the first
    observation of the next game, dealt by the native batch, and a `reset()`
    without a seed then continues with that game. `reset(seed=s)` deals the
    same game for the same `s`. Nothing truncates. Rule switches may be
    given as keywords: `DalmutiEnv(5, hands=3, scoring="standard")`.
    """

    metadata = {"render_modes": []}

    def __init__(self, players: int = 5, opponents: Union[str, Sequence[str]] = "heuristic",
                 rules: Any = None, learner: int = 0, illegal: str = "penalty",
                 illegal_penalty: float = 1.0, **switches):
        super().__init__()
        self.observation_space, self.action_space = self._configure(
            players, opponents, rules, learner, illegal, illegal_penalty, switches)
        self._game: Optional[_dalmuti.Batch] = None
        self._mask = np.zeros(self.n, np.int8)
        self._over = False

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        if seed is not None or self._game is None or not self._over:
            self._game = self._batch(1, int(self.np_random.integers(2**63)))
            obs, masks = self._game.reset()
            self._obs, self._mask = obs[0], masks[0]
        self._over = False
        return self._obs, {"action_mask": self._mask}

    def step(self, action: Any):
        if self._game is None:
            raise RuntimeError("call reset() before step()")
        actions = _actions(action, 1, self.n)
        wrong = _fix_illegal(actions, self._mask[None, :], self.illegal)
        obs, masks, rewards, dones = self._game.step(actions)
        self._obs, self._mask = obs[0], masks[0]
        self._over = bool(dones[0])
        reward = float(rewards[0]) - (self.illegal_penalty if wrong[0] else 0.0)
        info = {"action_mask": self._mask, "illegal": bool(wrong[0])}
        return self._obs, reward, self._over, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (MaskablePPO's convention)."""
        return self._mask.astype(bool)


class DalmutiVectorEnv(_BatchConfig, VectorEnv):
    """`num_envs` games stepped together in Rust (one native `Batch`), one
    learning player in each: `DalmutiEnv`'s arguments, batched. Observations
    are (num_envs, size) float32, actions `num_envs` indices, and
    `info["action_mask"]` is (num_envs, n) int8 (`action_masks()` too).

    Games reset themselves in the step that ends them (autoreset mode
    SAME_STEP): that step's observation row is already the next game's
    first one; there is no `final_obs` (an ended game has nothing left to
    decide).
    """

    metadata = {"render_modes": [], "autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, players: int = 5,
                 opponents: Union[str, Sequence[str]] = "heuristic", rules: Any = None,
                 learner: int = 0, illegal: str = "penalty", illegal_penalty: float = 1.0,
                 **switches):
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        self.num_envs = num_envs
        self.single_observation_space, self.single_action_space = self._configure(
            players, opponents, rules, learner, illegal, illegal_penalty, switches)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._games: Optional[_dalmuti.Batch] = None
        self._masks = np.zeros((num_envs, self.n), np.int8)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self._games = self._batch(self.num_envs, int(self._np_random.integers(2**63)))
        obs, self._masks = self._games.reset()
        return obs, {"action_mask": self._masks}

    def step(self, actions: Any):
        if self._games is None:
            raise RuntimeError("call reset() before step()")
        actions = _actions(actions, self.num_envs, self.n)
        wrong = _fix_illegal(actions, self._masks, self.illegal)
        obs, self._masks, rewards, dones = self._games.step(actions)
        rewards = rewards.astype(np.float64) - self.illegal_penalty * wrong
        info = {"action_mask": self._masks, "illegal": wrong}
        return obs, rewards, dones.astype(bool), np.zeros(self.num_envs, bool), info

    def action_masks(self) -> np.ndarray:
        return self._masks.astype(bool)

    @property
    def steps(self) -> int:
        """Decisions played in all games, the bots' included."""
        return 0 if self._games is None else self._games.steps()


gymnasium.register(id="Dalmuti-v0", entry_point="dalmuti.gym:DalmutiEnv")
# President and Daifugō: the same environment with the variant's rules
# (more options through `rules={"climbing": ...}`).
gymnasium.register(id="President-v0", entry_point="dalmuti.gym:DalmutiEnv",
                   kwargs={"variant": "president"})
gymnasium.register(id="Daifugo-v0", entry_point="dalmuti.gym:DalmutiEnv",
                   kwargs={"variant": "daifugo"})
