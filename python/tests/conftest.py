"""Shared helpers of the Python tests."""

import os
import pathlib
import random
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def dalmuti_bin() -> pathlib.Path:
    """The `dalmuti` binary: $DALMUTI_BIN, else target/release/dalmuti.
    Missing, the test fails and says how to build it (CI builds it first)."""
    path = pathlib.Path(os.environ.get("DALMUTI_BIN", REPO / "target" / "release" / "dalmuti"))
    if not path.exists():
        pytest.fail(f"{path} is missing: build it with `cargo build --release -p dalmuti`")
    return path


def run_dalmuti(*args: str, input: str = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(dalmuti_bin()), *args], input=input, capture_output=True, text=True, timeout=300
    )


def play_randomly(game, rng: random.Random, hands: int = 1, on_decision=None):
    """Plays `hands` hands of `game` with random legal actions, calling
    `on_decision(game, seat)` before each."""
    while True:
        if game.hand_over:
            if game.over or game.hands_played >= hands:
                return
            game.next_hand()
            continue
        seat = game.to_act()[0]
        if on_decision is not None:
            on_decision(game, seat)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
