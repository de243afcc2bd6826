"""The PettingZoo AEC environment: every player an agent.

    import dalmuti
    env = dalmuti.env(players=5, hands=3)          # or rules={"hands": 3}
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated else policy(obs["observation"], obs["action_mask"])
        env.step(action)

Agents are players, `"player_0"` to `"player_{n-1}"`: players keep their
number for the whole game, while their seats (the order of play, 0 the
Greater Dalmuti) change from hand to hand: `env.unwrapped.seat_of(agent)`
and `env.unwrapped.agent_at(seat)`. (The native table numbers players its own
way, `table.names` in order: use those two to go between agents and seats.)
The agent to act is the player in the first seat of `table.to_act()`.
During a hand's setup several players decide at once (taxes, the merchant
exchange, everyone else "ready"); the environment asks them one after the
other, which leaks nothing: no card moves, and nobody sees another's
choice, until every choice is made.

Observations are `{"observation": float32 array, "action_mask": int8 array}`
(`dalmuti.observation_layout(players)` names the fields); actions are
numbers of the fixed action space `table.space` (`dalmuti.ActionSpace`).
An illegal or malformed action raises (ValueError or TypeError, saying why)
and changes nothing.

Rewards come at the end of each hand, to every player: with scoring on
(`scoring="standard"` or `"philanthropic"`) the hand's points; otherwise
`1 - 2 * place / (players - 1)` (1 for the first out, -1 for the last). An
episode is a game of `rules["hands"]` hands (1 if unset); all agents then
terminate together. Nothing truncates.
"""

from __future__ import annotations

import json
import sys
import types
from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import _dalmuti
from ._envutil import hands_of, is_scored, merge_rules, observation_box

__all__ = ["env", "raw_env"]


def hand_rewards(table: "_dalmuti.Table", scored: bool) -> list[float]:
    """Every player's reward for the hand just over, by player number."""
    n = table.players
    if scored:
        points = table.hand_points()
        if points is not None:
            return [float(points[table.seat_of(p)]) for p in range(n)]
    order = list(table.finish_order())
    # The last player still holding cards finishes last.
    order += [s for s in range(n) if s not in order]
    place = {seat: i for i, seat in enumerate(order)}
    return [1.0 - 2.0 * place[table.seat_of(p)] / (n - 1) for p in range(n)]


def check_action(action: Any, n: int) -> int:
    """`action` as an int of the action space, or TypeError/ValueError."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
            action = int(action)
        else:
            raise TypeError(
                f"an action is an integer index of the action space (0 to {n - 1}), "
                f"not {type(action).__name__} {action!r}; "
                "ActionSpace.index turns protocol actions into indices"
            )
    action = int(action)
    if not 0 <= action < n:
        raise ValueError(f"action {action} is out of the action space: 0 to {n - 1}")
    return action


def env(players: int = 5, rules: Any = None, render_mode: Optional[str] = None,
        seed: Optional[int] = None, **switches):
    """The environment, wrapped to enforce PettingZoo's call order. See
    `raw_env` for the arguments."""
    return wrappers.OrderEnforcingWrapper(raw_env(players, rules, render_mode, seed, **switches))


class raw_env(AECEnv):
    """The Great Dalmuti (or Corporate Shuffle, `variant="corporate-shuffle"`;
    President, `variant="president"`; Daifugō, `variant="daifugo"`, with
    their options in `climbing`) as a PettingZoo AEC environment (module
    docstring for the details).

    `players`: 3 to 16 (3 to 8 in Corporate Shuffle, President and
    Daifugō). `rules`: a dict (or
    JSON text) of rule switches (docs/RULES.md), which keyword `switches`
    extend: `raw_env(6, merchant_exchange=True, hands=3)`. `render_mode`:
    None or "ansi" (the spectator's view as text). `seed`: seeds the
    generator that deals games when `reset` is given no seed.
    """

    metadata = {"name": "dalmuti_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 5, rules: Any = None, render_mode: Optional[str] = None,
                 seed: Optional[int] = None, **switches):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self._rules_json, self._rules = merge_rules(rules, switches)
        self._hands = hands_of(self._rules)
        self._scored = is_scored(self._rules)
        # Checks the rules and the table size at once (ValueError).
        self.table = _dalmuti.Table(players, 0, self._rules_json)
        self._players = players
        self._rng = np.random.default_rng(seed)
        n = self.table.space.n
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._number: dict = {}
        obs_space = spaces.Dict({
            "observation": observation_box(players, self._rules_json, self._rules),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """Deals a new game from `seed` (the same seed, the same game); with
        no seed, from the environment's generator."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        else:
            seed = int(self._rng.integers(2**63))
        self.table = _dalmuti.Table(self._players, int(seed), self._rules_json, self.possible_agents)
        # Agents are the table's players by name ("player_k"): the table
        # numbers its players by its own order (`table.names`).
        self._number = {name: p for p, name in enumerate(self.table.names)}
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        to_act = self.table.to_act()
        if to_act:
            self.agent_selection = self.agent_at(to_act[0])

    def agent_at(self, seat: int) -> str:
        """The agent in a seat now."""
        return self.table.names[self.table.player_at(seat)]

    def seat_of(self, agent: str) -> int:
        """An agent's seat now (seats change from hand to hand)."""
        return self.table.seat_of(self._number[agent])

    def observe(self, agent: str) -> dict:
        seat = self.seat_of(agent)
        return {"observation": self.table.observation(seat), "action_mask": self.table.action_mask(seat)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = check_action(action, self.action_spaces[agent].n)
        self.table.apply_index(self.seat_of(agent), index)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.table.hand_over():
            for p, r in enumerate(hand_rewards(self.table, self._scored)):
                self.rewards[self.table.names[p]] = r
            if self.table.hands_played() >= self._hands:
                self.terminations = {a: True for a in self.agents}
            else:
                self.table.next_hand()
        self._accumulate_rewards()
        self._select()

    def render(self) -> Optional[str]:
        """The spectator's view as a few lines of text ("ansi" mode)."""
        if self.render_mode is None:
            return None
        view = json.loads(self.table.view())
        lines = [f"hand {self.table.hands_played()}, {view['stage']}, top: {view.get('top')}"]
        for seat, s in enumerate(view["seats"]):
            out = "" if s.get("out") is None else f" out #{s['out'] + 1}"
            name = self.agent_at(seat)
            lines.append(f"  seat {seat} {name:>9} {s['title']:<15} {s['cards']:>2} cards{out}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


class _CallableModule(types.ModuleType):
    """This module, callable as `env`: importing `dalmuti.env` binds the
    module on the package over the function `dalmuti.env`, and
    `dalmuti.env(players=5)` must make an environment either way."""

    def __call__(self, *args: Any, **kwargs: Any) -> AECEnv:
        return env(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
