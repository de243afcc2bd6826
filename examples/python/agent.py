#!/usr/bin/env python3
"""A Python agent for `dalmuti sim`, served by `dalmuti.protocol.serve`
(the package must be installed: `pip install ./python`).

    dalmuti sim --bots 'cmd:python3 examples/python/agent.py,greedy,greedy,greedy,greedy'
    dalmuti sim --bots 'cmd:python3 examples/python/agent.py policy.npz,greedy,greedy,greedy,greedy'

Without an argument it plays a rule of thumb: go out when it can, lead the
set that sheds the most cards (the worst such), follow with the worst set
that tops the table, and otherwise the first legal action (the game lists
them worst first: the worst cards in tax, no revolution, no exchange).
With a policy saved by `examples/python/train.py --save policy.npz`, it
plays that policy on the environments' observations
(`dalmuti.protocol.observation_agent`).
"""

import os
import sys

from dalmuti.protocol import observation_agent, serve


def size(action):
    """How many cards a legal action plays (0 if it plays none)."""
    if isinstance(action, dict) and "play" in action:
        return len(action["play"].split(" as ")[0].split())
    return 0


def rule_of_thumb(view, legal, decision):
    hand = len((view.get("hand") or "").split())
    plays = [a for a in legal if size(a) > 0]
    for action in plays:
        if size(action) == hand:
            return action  # goes out
    if decision["kind"] == "lead" and plays:
        most = max(size(a) for a in plays)
        return next(a for a in plays if size(a) == most)
    if decision["kind"] == "follow" and plays:
        return plays[0]
    return legal[0]


def main():
    if len(sys.argv) > 1:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from train import load_policy  # the same directory

        serve(observation_agent(load_policy(sys.argv[1])), name="python-policy")
    else:
        serve(rule_of_thumb, name="python-agent")


if __name__ == "__main__":
    main()
