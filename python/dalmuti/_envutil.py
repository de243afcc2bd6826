"""What the PettingZoo and Gymnasium environments share (no dependency
on either but gymnasium's spaces)."""

from __future__ import annotations

import json
from typing import Any, Optional

import numpy as np
from gymnasium import spaces

from . import _dalmuti


def merge_rules(rules: Any = None, switches: Optional[dict] = None) -> tuple[str, dict]:
    """Rules given as a dict, JSON text or None, merged with keyword
    switches: (JSON text for the engine, the dict)."""
    if rules is None:
        merged: dict = {}
    elif isinstance(rules, str):
        merged = json.loads(rules)
        if not isinstance(merged, dict):
            raise TypeError(f"rules must be a JSON object, not {rules!r}")
    elif isinstance(rules, dict):
        merged = dict(rules)
    else:
        raise TypeError(f"rules must be a dict, JSON text or None, not {type(rules).__name__}")
    merged.update(switches or {})
    return json.dumps(merged), merged


def hands_of(rules: dict) -> int:
    """The number of hands in an episode: the rules' `hands`, else 1."""
    hands = rules.get("hands")
    if hands is None:
        return 1
    if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
        raise ValueError(f"rules' hands must be a positive integer, not {hands!r}")
    return hands


def observation_box(players: int, rules_json: str, rules: dict) -> spaces.Box:
    """The observation space: every field counts at most the deck's cards
    (counts, ranks, places and seats all do), but the points of a scored
    game: at most `players` a hand (1 a player beaten, and a bonus; 0
    without scoring)."""
    table = _dalmuti.Table(players, 0, rules_json)
    deck = sum(s["cards"] for s in json.loads(table.view())["seats"])
    size = _dalmuti.observation_size(players, rules_json)
    high = np.full(size, float(deck), np.float32)
    for name, start, length in _dalmuti.observation_layout(players, rules_json):
        if name == "scores":
            high[start:start + length] = players * hands_of(rules)
    return spaces.Box(np.zeros(size, np.float32), high, dtype=np.float32)


def is_scored(rules: dict) -> bool:
    """Whether rewards are a hand's points: with standard or philanthropic
    scoring. Scoring by places (President's and Daifugō's own) is rewarded
    by places, as an unscored game is (its points say nothing more)."""
    return rules.get("scoring") not in (None, "none", "places", False)
