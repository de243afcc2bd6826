"""The native module: the Rust engine and bots, as the `dalmuti` package uses
them. Prefer the package's own names (`dalmuti.Game`, `dalmuti.env`, ...);
this module speaks JSON text where the package speaks Python objects.

Actions, decisions and views are the bot protocol's JSON encoding
(docs/BOT-PROTOCOL.md): `"pass"`, `{"play": "6 6 J"}`, `{"give_tax": "10 10"}`...
"""

from typing import Optional, Sequence

import numpy as np
import numpy.typing as npt

#: Card kinds in observations: 0 the World Ruler, 1 to 12 the ranks, 13 the
#: Jester, 14 the Twirling Wedgie, 15 Ratbert, 16 Dogbert.
CARD_KINDS: int

def check(record: str) -> str:
    """The verdict of `dalmuti check --json` on a record's text, as JSON text."""

def observation_size(players: int, rules: str = "{}") -> int:
    """The length of an observation at a table of `players` under `rules`
    (JSON text; Dalmuti's when none: President and Daifugō have their own)."""

def observation_layout(players: int, rules: str = "{}") -> list[tuple[str, int, int]]:
    """The observation's fields: (name, start, length), in order."""

def observe_snapshot(view: str, decision: Optional[str]) -> npt.NDArray[np.float32]:
    """The observation of a view given as JSON text (the protocol's `view`),
    with its decision (the protocol's `decision`, JSON text, or None): the
    same array `Table.observation` gives for that seat."""

class ActionSpace:
    """Every action a player may ever take at a table of these rules and
    size, numbered from 0: the fixed action space of the environments."""

    def __init__(self, players: int, rules: str = "{}") -> None: ...
    @property
    def n(self) -> int: ...
    def action(self, index: int) -> str:
        """The action numbered `index`, as protocol JSON text; IndexError if none."""
    def index(self, action: str) -> int:
        """The number of an action given as protocol JSON text; ValueError if
        it is not an action of this space."""

class Table:
    """A game: the players draw for seats, then hands are dealt one by one.
    Seats (0 = Greater Dalmuti, the order of play) change from hand to hand;
    players (0 to players-1, in the order of `names`) do not."""

    def __init__(
        self,
        players: int,
        seed: int,
        rules: str = "{}",
        names: Optional[Sequence[str]] = None,
    ) -> None:
        """`rules` is JSON text of rule switches (docs/RULES.md), e.g.
        `{"merchant_exchange": true, "scoring": "standard", "hands": 5,
        "variant": "corporate-shuffle"}`; an unknown switch is a ValueError."""
    @staticmethod
    def from_record(record: str, seed: int = 0) -> "Table":
        """The game a record tells, replayed; ValueError with the record's
        fault if it does not check. Later hands are dealt from `seed`."""
    @property
    def players(self) -> int: ...
    @property
    def names(self) -> list[str]:
        """Player names, by player number."""
    @property
    def rules(self) -> str:
        """The rules in force, as JSON text."""
    @property
    def space(self) -> ActionSpace: ...
    def player_at(self, seat: int) -> int: ...
    def seat_of(self, player: int) -> int: ...
    def stage(self) -> str:
        """`setup`, `play` or `over` (the current hand)."""
    def to_act(self) -> list[int]:
        """Seats with a decision to make now (several during the setup)."""
    def decision(self, seat: int) -> Optional[str]:
        """The seat's decision, as protocol JSON text, or None."""
    def legal(self, seat: int) -> str:
        """The seat's legal actions, worst first, as a JSON array (empty if
        it has no decision)."""
    def apply(self, seat: int, action: str) -> None:
        """Plays an action given as protocol JSON text. ValueError with the
        engine's reason if it is malformed or illegal; nothing changes then."""
    def apply_index(self, seat: int, index: int) -> None:
        """Plays action `index` of `space`; ValueError as `apply`."""
    def view(self, seat: Optional[int] = None) -> str:
        """What the seat may see (a spectator's view for None), as the
        protocol's view JSON text."""
    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """What the seat may see, encoded (`observation_layout`)."""
    def action_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """1 for each action of `space` legal for the seat now, else 0."""
    def hand_over(self) -> bool: ...
    def game_over(self) -> bool:
        """Whether the rules' number of hands has been played (never, if
        the rules set none)."""
    def next_hand(self) -> None:
        """Deals the next hand; ValueError if the hand is not over or the game is."""
    def hands_played(self) -> int:
        """Hands dealt so far, the current one included."""
    def finish_order(self) -> list[int]:
        """Seats out so far in the current hand, in order."""
    def hand_points(self) -> Optional[list[int]]:
        """Points of the finished hand by seat, when scoring is on."""
    def totals(self) -> list[int]:
        """Points so far by player (zeros without scoring)."""
    def record(self) -> str:
        """The game so far as a `dalmuti-record/1` record (JSON text)."""

class Bot:
    """A built-in bot, named as on the command line: `random`, `greedy`,
    `heuristic`, `search:ms=50`, `easy`...`expert`. `cmd:` bots are refused."""

    def __init__(self, spec: str, seed: int = 0) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def spec(self) -> str: ...
    def decide(self, table: Table, seat: int) -> str:
        """The bot's action for the seat's decision, as protocol JSON text,
        seeing only that seat's view. ValueError if the seat has none."""
    def reseed(self, seed: int) -> None: ...

class Batch:
    """Many games stepped together, one learning player in each (player
    `learner`), the others played by built-in bots inside Rust; a game that
    ends is dealt again at once from the next seed.

    Rewards, for the learning player at the end of each hand: with scoring,
    the hand's points; without, 1 - 2 * place / (players - 1) (1 first out,
    -1 last). An episode is one game: `rules["hands"]` hands (1 if unset)."""

    def __init__(
        self,
        games: int,
        players: int,
        seed: int,
        rules: str = "{}",
        opponents: Sequence[str] = ("heuristic",),
        learner: int = 0,
    ) -> None:
        """`opponents`: one bot spec for every other player, or one per
        other player in player order."""
    @property
    def games(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def space(self) -> ActionSpace: ...
    def reset(self, seed: Optional[int] = None) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Deals every game afresh, game i from seed + i (the constructor's
        seed, or `seed`), later games from the seeds after: observations
        (games x observation_size) and action masks (games x space.n) for
        the learning players. Call it before the first step."""
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]:
        """Plays each game's learning player's action (an index of `space`),
        then the bots until that player decides again or the game ends:
        observations, masks, rewards and dones. A finished game is dealt
        again, and its row is then the new game's first observation.
        ValueError, and nothing played, if any action is illegal."""
    def steps(self) -> int:
        """Decisions played in all games so far, the bots' included."""
