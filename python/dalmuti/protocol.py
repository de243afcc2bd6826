"""Python agents as bots of `dalmuti sim`, speaking dalmuti-bot/2
(docs/BOT-PROTOCOL.md) on standard input and output.

    # my_agent.py
    from dalmuti.protocol import serve
    def agent(view, legal, decision):
        return legal[0]          # the worst legal action: always safe
    serve(agent, name="my-agent")

    dalmuti sim --bots 'cmd:python3 my_agent.py,greedy,greedy,greedy,greedy'

A policy trained on the environments' observations plays the same way
through `observation_agent(policy)`: `policy(obs, mask) -> index`.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any, Callable, Optional, TextIO

import numpy as np

from . import _dalmuti

__all__ = ["serve", "observation_agent", "PROTOCOL"]

PROTOCOL = "dalmuti-bot/2"

Agent = Callable[[dict, list, dict], Any]


def _send(out: TextIO, message: dict) -> None:
    out.write(json.dumps(message, separators=(",", ":")) + "\n")
    out.flush()


def serve(agent: Agent, name: str = "python-agent", *, seed: Optional[Callable[[int], None]] = None,
          stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None) -> None:
    """Plays `agent(view, legal, decision) -> action` (one element of
    `legal`) until the game says `quit` or closes the input. `seed(n)`, if
    given, is called with each deal's seed. If the agent raises, the error
    goes to standard error and the first legal action (always safe) is
    answered instead; an answer that is not in `legal` is sent as it is,
    and the game plays its fallback (the game's log says why)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if message.get("protocol") != PROTOCOL:
                print(f"{name}: unexpected protocol {message.get('protocol')!r}", file=sys.stderr)
            _send(stdout, {"type": "ready", "name": name})
        elif kind == "decide":
            legal = message["legal"]
            try:
                action = agent(message["view"], legal, message["decision"])
            except Exception:  # the game must go on: answer safely, say why
                traceback.print_exc(file=sys.stderr)
                action = legal[0]
            _send(stdout, {"id": message["id"], "action": action})
        elif kind == "seed":
            if seed is not None:
                seed(int(message["seed"]))
        elif kind == "quit":
            break


def observation_agent(policy: Callable[[np.ndarray, np.ndarray], int], rules: Any = None) -> Agent:
    """An agent playing `policy(obs, mask) -> index`: `obs` is the
    observation the environments give (`observe_snapshot` of the view),
    `mask` the int8 mask of the legal actions over `ActionSpace(players,
    rules)`, and the index one of those with mask 1. `rules` (dict or JSON
    text) only matters through the deck; the variant is read from the view.
    ValueError if the policy picks an illegal action."""
    base = dict(json.loads(rules) if isinstance(rules, str) else (rules or {}))
    spaces: dict = {}

    def agent(view: dict, legal: list, decision: dict) -> Any:
        players = view["players"]
        key = (players, view.get("variant", "dalmuti"))
        if key not in spaces:
            r = dict(base)
            if key[1] != "dalmuti":
                r["variant"] = key[1]
            spaces[key] = _dalmuti.ActionSpace(players, json.dumps(r))
        space = spaces[key]
        numbers = [space.index(json.dumps(a)) for a in legal]
        mask = np.zeros(space.n, np.int8)
        mask[numbers] = 1
        obs = _dalmuti.observe_snapshot(json.dumps(view), json.dumps(decision))
        choice = int(policy(obs, mask))
        if choice not in numbers:
            raise ValueError(f"the policy chose action {choice}, not a legal one: {numbers}")
        return legal[numbers.index(choice)]

    return agent
