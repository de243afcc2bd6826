"""The built-in bots, for evaluating a Python agent against them or playing
with them. Each sees only its seat's view.

    >>> import dalmuti
    >>> from dalmuti.bots import Heuristic
    >>> game = dalmuti.Game(players=5, seed=3)
    >>> bot = Heuristic(seed=1)
    >>> seat = game.to_act()[0]
    >>> game.apply(seat, bot(game, seat))
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Optional

from . import _dalmuti

if TYPE_CHECKING:
    from . import Game

__all__ = ["Bot", "Expert", "Greedy", "Heuristic", "Learned", "Random", "Search"]


class Bot:
    """A built-in bot named as on `dalmuti sim`'s command line: `random`,
    `greedy`, `heuristic`, `search:ms=50`, `search:iterations=1000`, or a
    level: `easy`, `normal`, `hard`, `expert`."""

    def __init__(self, spec: str, seed: int = 0) -> None:
        self._bot = _dalmuti.Bot(spec, seed)
        self._seed = seed

    @property
    def name(self) -> str:
        return self._bot.name

    @property
    def spec(self) -> str:
        """What it was built from, options and all: `search:iterations=1000`."""
        return self._bot.spec

    def decide(self, game: "Game", seat: int):
        """The bot's action for `seat`'s decision, from that seat's view."""
        return json.loads(self._bot.decide(game.table, seat))

    __call__ = decide

    def reseed(self, seed: int) -> None:
        self._bot.reseed(seed)

    def __repr__(self) -> str:
        # What builds the same bot again, budget and seed included.
        seed = f", seed={self._seed}" if self._seed else ""
        return f"Bot({self.spec!r}{seed})"


class Random(Bot):
    """A legal action at random."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__("random", seed)


class Greedy(Bot):
    """Always the worst legal set (and the worst cards in tax)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__("greedy", seed)


class Heuristic(Bot):
    """Rules of thumb: the opponent model of the search bot."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__("heuristic", seed)


class Learned(Bot):
    """A linear policy over the heuristic's reckoning of each play, its
    weights evolved against the style bots: the player inside the search's
    play-outs, and a better player than `Heuristic` at most tables."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__("learned", seed)


class Search(Bot):
    """Information-set Monte-Carlo search with an opponent model: `ms`
    milliseconds a decision, or a fixed number of `iterations` (the same
    play on any machine)."""

    def __init__(self, ms: Optional[int] = 50, iterations: Optional[int] = None, seed: int = 0) -> None:
        budget = f"iterations={iterations}" if iterations is not None else f"ms={ms}"
        super().__init__(f"search:{budget}", seed)


class Expert(Bot):
    """The strongest level offered to players."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__("expert", seed)
