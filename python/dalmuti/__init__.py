"""The Great Dalmuti and Corporate Shuffle in Python: the exact Rust rules
engine of `dalmuti`, its bots, and environments for reinforcement learning.

    >>> import dalmuti
    >>> game = dalmuti.Game(players=5, seed=1)
    >>> seat = game.to_act()[0]
    >>> action = game.legal_actions(seat)[0]
    >>> game.apply(seat, action)

Actions are the bot protocol's (docs/BOT-PROTOCOL.md): `"pass"`,
`{"play": "6 6 J"}`, `{"give_tax": "10 12"}`, `"ready"`,
`"call_revolution"`, ... Seats count from 0, the Greater Dalmuti, in the
order of play; players keep their number (the order of `names`) while
their seats change from hand to hand.

- `Game`: one game (deal from a seed, legal actions, apply, views,
  records in and out), `check`: a record's verdict.
- `env(...)`: a PettingZoo AEC environment (needs `pettingzoo`).
- `dalmuti.gym`: Gymnasium environments (needs `gymnasium`).
- `Batch`: many games stepped at once, the bots' seats played in Rust.
- `dalmuti.bots`: the built-in bots, to play against or to evaluate with.
- `dalmuti.protocol`: a Python agent in `dalmuti sim` tournaments.
"""

from __future__ import annotations

import importlib
import json
from typing import Any, Mapping, Optional, Sequence, Union

import numpy as np

from . import _dalmuti
from ._dalmuti import ActionSpace, Batch, CARD_KINDS, observation_size

__all__ = [
    "Action",
    "ActionSpace",
    "Batch",
    "CARD_KINDS",
    "Game",
    "check",
    "env",
    "observation_layout",
    "observation_size",
    "raw_env",
    "rules_json",
]

#: An action as the bot protocol writes it: a string such as `"pass"`, or a
#: one-key dict such as `{"play": "6 6 J"}`.
Action = Union[str, dict]


def rules_json(rules: Optional[Mapping[str, Any]] = None, **switches: Any) -> str:
    """Rule switches as the JSON text the native module takes.

    `rules` and keyword switches are merged; names are those of docs/RULES.md:
    `variant` ("dalmuti", "corporate-shuffle", "president" or "daifugo"),
    `stripped_deck`, `first_deal_revolution`, `merchant_exchange`, `scoring`
    ("none", "standard", "philanthropic", "places"), `hands` (the game's
    length), `join_and_leave`; for President and Daifugō `climbing`, their
    options as a dict (`{"jokers": 2, "seven_pass": True}`) or as
    `dalmuti play --house` takes them (`"local_all"`, `"uecda,jokers=2"`).
    An unknown name raises ValueError when used.
    """
    merged = dict(rules or {})
    merged.update(switches)
    return json.dumps(merged)


def check(record: Union[str, Mapping[str, Any]]) -> dict:
    """Checks a `dalmuti-record/1` record (text or parsed JSON): the same
    verdict as `dalmuti check --json`, e.g. `{"valid": True, "hands": [...]}`
    or `{"valid": False, "error": {"hand": 0, "play": 3, "message": ...}}`."""
    text = record if isinstance(record, str) else json.dumps(record)
    return json.loads(_dalmuti.check(text))


def observation_layout(players: int, rules: Optional[Mapping[str, Any]] = None, **switches: Any) -> list:
    """The fields of an observation at a table of `players`, in order, as
    `(name, start, length)`; see python/README.md for what each holds.
    President and Daifugō (`variant="daifugo"`) have fields of their own."""
    return _dalmuti.observation_layout(players, rules_json(rules, **switches))


def _encode(action: Action) -> str:
    if not isinstance(action, (str, dict)):
        raise TypeError(
            f"an action is a str or a dict as the bot protocol writes it "
            f"(\"pass\", {{\"play\": \"6 6\"}}), not {type(action).__name__}"
        )
    return json.dumps(action)


class Game:
    """One game: the players draw for seats, then hands are dealt from `seed`.

    `rules` (a dict) and keyword switches set the rules (see `rules_json`);
    `hands` ends the game after that many hands (it never ends without).

        >>> game = Game(players=4, seed=7, merchant_exchange=False, hands=2)
        >>> game.stage
        'setup'
    """

    def __init__(
        self,
        players: int = 5,
        seed: int = 0,
        rules: Optional[Mapping[str, Any]] = None,
        names: Optional[Sequence[str]] = None,
        **switches: Any,
    ) -> None:
        self._table = _dalmuti.Table(players, seed, rules_json(rules, **switches), names)

    @classmethod
    def from_record(cls, record: Union[str, Mapping[str, Any]], seed: int = 0) -> "Game":
        """The game a record tells, replayed to its last action; ValueError
        with the record's first fault if it does not check."""
        text = record if isinstance(record, str) else json.dumps(record)
        game = cls.__new__(cls)
        game._table = _dalmuti.Table.from_record(text, seed)
        return game

    @property
    def table(self) -> "_dalmuti.Table":
        """The native table, for the array methods (`observation`,
        `action_mask`, `apply_index`)."""
        return self._table

    @property
    def players(self) -> int:
        return self._table.players

    @property
    def names(self) -> list:
        return self._table.names

    @property
    def rules(self) -> dict:
        return json.loads(self._table.rules)

    @property
    def space(self) -> ActionSpace:
        """The numbered actions of this table (the environments' actions)."""
        return self._table.space

    @property
    def stage(self) -> str:
        """`"setup"`, `"play"` or `"over"`: the current hand's stage."""
        return self._table.stage()

    def player_at(self, seat: int) -> int:
        return self._table.player_at(seat)

    def seat_of(self, player: int) -> int:
        return self._table.seat_of(player)

    def to_act(self) -> list:
        """Seats with a decision now: one in play, several in the setup."""
        return self._table.to_act()

    def decision(self, seat: int) -> Optional[dict]:
        """The seat's decision (`{"kind": "follow", "top": "9 9", "by": 3}`...)."""
        text = self._table.decision(seat)
        return None if text is None else json.loads(text)

    def legal_actions(self, seat: int) -> list:
        """The seat's legal actions, worst first (empty without a decision)."""
        return json.loads(self._table.legal(seat))

    def apply(self, seat: int, action: Action) -> None:
        """Plays `action` for `seat`. An illegal or malformed action raises
        ValueError with the engine's reason, and nothing changes."""
        self._table.apply(seat, _encode(action))

    def view(self, seat: Optional[int] = None) -> dict:
        """What `seat` may see (a spectator's view for None): the bot
        protocol's view."""
        return json.loads(self._table.view(seat))

    def observation(self, seat: int) -> np.ndarray:
        """What `seat` may see, as numbers (`observation_layout`)."""
        return self._table.observation(seat)

    def action_mask(self, seat: int) -> np.ndarray:
        """1 for each action of `space` legal for `seat` now."""
        return self._table.action_mask(seat)

    @property
    def hand_over(self) -> bool:
        return self._table.hand_over()

    @property
    def over(self) -> bool:
        """Whether the rules' number of hands has been played."""
        return self._table.game_over()

    def next_hand(self) -> None:
        """Deals the next hand, seated by the last one's finishing order."""
        self._table.next_hand()

    @property
    def hands_played(self) -> int:
        return self._table.hands_played()

    def finish_order(self) -> list:
        """Seats out so far in the current hand, in order."""
        return self._table.finish_order()

    def hand_points(self) -> Optional[list]:
        return self._table.hand_points()

    def totals(self) -> list:
        """Points so far, by player."""
        return self._table.totals()

    def record(self) -> dict:
        """The game so far as a `dalmuti-record/1` record."""
        return json.loads(self._table.record())

    def record_text(self) -> str:
        return self._table.record()

    def __repr__(self) -> str:
        return f"Game(players={self.players}, hands_played={self.hands_played}, stage={self.stage!r})"


def _env_module():
    """`dalmuti.env`, or an ImportError that says which extra to install."""
    try:
        module = importlib.import_module(".env", __name__)
    except ImportError as e:
        raise ImportError(
            f"the environments need PettingZoo and Gymnasium ({e}): "
            "pip install 'dalmuti[env]'"
        ) from e
    return module


def env(*args: Any, **kwargs: Any):
    """The PettingZoo AEC environment (see `dalmuti.env` module); needs the
    `env` extra (`pip install 'dalmuti[env]'`). Once that module is
    imported it takes this name on the package, and is callable the same
    way."""
    return _env_module().env(*args, **kwargs)


def raw_env(*args: Any, **kwargs: Any):
    """The PettingZoo AEC environment without PettingZoo's wrappers."""
    return _env_module().raw_env(*args, **kwargs)
