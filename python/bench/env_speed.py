#!/usr/bin/env python3
"""Environment steps per second: dalmuti's environments and a few peers,
all with uniformly random legal actions, each run for about `--seconds`.
Prints a markdown table.

    python python/bench/env_speed.py [--seconds 5]

Peers (skipped when not installed): RLCard's Dou Dizhu (`pip install
rlcard`) and PettingZoo's classic card games built on RLCard
(leduc_holdem_v4, texas_holdem_v4, texas_holdem_no_limit_v6).

A step is one decision of one player, except for `Batch` and the
Gymnasium environments, where a step is one decision of the learning
player and the bots' decisions are played inside Rust in between; their
row also gives all decisions per second (`Batch.steps()`).
"""

import argparse
import importlib
import platform
import time
import warnings

import numpy as np

from dalmuti import _dalmuti


def timed(seconds, run_chunk):
    """Calls run_chunk() (returning steps done) until `seconds` have passed:
    (steps, elapsed)."""
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += run_chunk()
    return steps, time.perf_counter() - start


def aec(env, seconds, rng):
    """A PettingZoo AEC environment with random legal actions."""
    def chunk():
        env.reset(seed=int(rng.integers(2**31)))
        steps = 0
        for agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        return steps
    return timed(seconds, chunk) + (None,)


def batch(games, seconds, rng, opponents="greedy", pick="random"):
    """`Batch` stepping random legal actions (drawn in numpy), or the
    lowest-numbered legal action (`pick="first"`: the engine's own speed)."""
    b = _dalmuti.Batch(games, 5, 1, "{}", [opponents], 0)
    _, mask = b.reset()
    state = {"mask": mask}

    def chunk():
        for _ in range(100):
            m = state["mask"]
            actions = m.argmax(1) if pick == "first" else (rng.random(m.shape) * m).argmax(1)
            _, state["mask"], _, _ = b.step(actions.astype(np.int64))
        return 100 * games
    steps, elapsed = timed(seconds, chunk)
    return steps, elapsed, b.steps()


def gym_single(seconds, rng):
    from dalmuti.gym import DalmutiEnv

    env = DalmutiEnv(players=5, opponents="greedy")
    _, info = env.reset(seed=1)
    state = {"info": info}

    def chunk():
        for _ in range(100):
            a = int(rng.choice(np.flatnonzero(state["info"]["action_mask"])))
            _, _, terminated, _, state["info"] = env.step(a)
            if terminated:
                _, state["info"] = env.reset()
        return 100
    steps, elapsed = timed(seconds, chunk)
    return steps, elapsed, env._game.steps()


def doudizhu(seconds, rng):
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": 1})

    def chunk():
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(rng.integers(len(legal)))])
            steps += 1
        return steps
    return timed(seconds, chunk) + (None,)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    s = args.seconds
    warnings.simplefilter("ignore")  # the peers' spaces warn about float64 bounds
    import dalmuti.env

    rows = [
        ("dalmuti PettingZoo AEC env, 5 players", lambda: aec(dalmuti.env.env(5), s, rng)),
        ("dalmuti Gymnasium DalmutiEnv (vs 4 greedy)", lambda: gym_single(s, rng)),
        ("dalmuti Batch, 1 game (vs 4 greedy)", lambda: batch(1, s, rng)),
        ("dalmuti Batch, 256 games (vs 4 greedy)", lambda: batch(256, s, rng)),
        ("dalmuti Batch, 256 games, lowest legal action (no numpy RNG)",
         lambda: batch(256, s, rng, pick="first")),
        ("RLCard doudizhu (rlcard.make)", lambda: doudizhu(s, rng)),
    ]
    for name in ["leduc_holdem_v4", "texas_holdem_v4", "texas_holdem_no_limit_v6"]:
        def peer(name=name):
            module = importlib.import_module(f"pettingzoo.classic.{name}")
            return aec(module.env(), s, rng)
        rows.append((f"PettingZoo classic {name}", peer))

    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}, ~{s:g} s each\n")
    print("| environment | steps/s | all decisions/s |")
    print("|---|---:|---:|")
    for name, run in rows:
        try:
            steps, elapsed, decisions = run()
        except ImportError as e:
            print(f"| {name} | not installed ({e.name}) | |")
            continue
        all_rate = f"{decisions / elapsed:,.0f}" if decisions is not None else "="
        print(f"| {name} | {steps / elapsed:,.0f} | {all_rate} |", flush=True)


if __name__ == "__main__":
    main()
