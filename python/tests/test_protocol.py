"""Python agents over the bot protocol (dalmuti.protocol), and the example
agent playing in the real `dalmuti sim`."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dalmuti import _dalmuti
from dalmuti.protocol import observation_agent, serve

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("DALMUTI_BIN", ROOT / "target" / "release" / "dalmuti"))


def exchange(agent, messages, **kwargs):
    out = io.StringIO()
    serve(agent, stdin=io.StringIO("".join(json.dumps(m) + "\n" for m in messages)), stdout=out, **kwargs)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def decide_message(table, seat, id=1):
    return {"type": "decide", "id": id, "decision": json.loads(table.decision(seat)),
            "view": json.loads(table.view(seat)), "legal": json.loads(table.legal(seat))}


def test_serve_speaks_the_protocol():
    table = _dalmuti.Table(5, 3)
    seeds = []
    answers = exchange(
        lambda view, legal, decision: legal[-1],
        [{"type": "hello", "protocol": "dalmuti-bot/2", "time_limit_ms": 5000},
         {"type": "seed", "seed": 42},
         {"type": "unknown-later-message"},
         decide_message(table, 0, id=7),
         {"type": "quit"},
         decide_message(table, 1, id=8)],  # after quit: never answered
        name="tester", seed=seeds.append)
    assert answers == [{"type": "ready", "name": "tester"},
                       {"id": 7, "action": json.loads(table.legal(0))[-1]}]
    assert seeds == [42]


def test_a_failing_agent_answers_the_first_legal_action(capsys):
    table = _dalmuti.Table(5, 3)
    answers = exchange(lambda *_: 1 / 0, [decide_message(table, 2)])
    assert answers == [{"id": 1, "action": json.loads(table.legal(2))[0]}]
    assert "ZeroDivisionError" in capsys.readouterr().err


@pytest.mark.parametrize("rules", [{}, {"variant": "corporate-shuffle"}])
def test_observation_agent_sees_what_the_environment_sees(rules):
    table = _dalmuti.Table(5, 9, json.dumps(rules))
    seen = []

    def policy(obs, mask):
        seen.append((obs, mask))
        return int(np.flatnonzero(mask)[-1])  # the highest-numbered legal action

    agent = observation_agent(policy)
    rng = np.random.default_rng(0)
    for _ in range(60):
        if table.hand_over():
            break
        seat = table.to_act()[0]
        m = decide_message(table, seat)
        action = agent(m["view"], m["legal"], m["decision"])
        obs, mask = seen[-1]
        np.testing.assert_array_equal(obs, table.observation(seat))
        np.testing.assert_array_equal(mask, table.action_mask(seat))
        assert action in m["legal"]
        assert table.space.index(json.dumps(action)) == int(np.flatnonzero(mask)[-1])
        legal = np.flatnonzero(table.action_mask(seat))
        table.apply_index(seat, int(rng.choice(legal)))
    with pytest.raises(ValueError, match="not a legal one"):
        observation_agent(lambda obs, mask: int(np.flatnonzero(mask == 0)[0]))(
            m["view"], m["legal"], m["decision"])


def sim(agent, *extra):
    """Runs `dalmuti sim` with `agent` and four greedy bots for 20 hands."""
    assert BIN.exists(), (
        f"the dalmuti binary is missing at {BIN}: build it first "
        "(cargo build --release -p dalmuti) or set DALMUTI_BIN"
    )
    return subprocess.run(
        [str(BIN), "sim", "--players", "5", "--hands", "20", "--seed", "1", *extra,
         "--bots", f"{agent},greedy,greedy,greedy,greedy"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("variant", [[], ["--variant", "corporate-shuffle"]])
def test_example_agent_plays_in_dalmuti_sim(variant):
    done = sim(f"cmd:{sys.executable} examples/python/agent.py", *variant)
    assert done.returncode == 0, done.stderr
    assert "dalmuti: bot" not in done.stderr, done.stderr  # no faults reported
    row = next(line for line in done.stdout.splitlines() if "examples/python/agent.py" in line)
    fields = row.split()
    assert "20" in fields  # the agent played all 20 hands
    assert fields[-1] == "0", row  # and made no faults


def test_a_saved_policy_plays_in_dalmuti_sim(tmp_path):
    """agent.py with a policy file saved as train.py saves it (here all
    weights 0: the lowest-numbered legal action)."""
    sys.path.insert(0, str(ROOT / "examples" / "python"))
    try:
        from train import FEATURES
    finally:
        sys.path.pop(0)
    policy = tmp_path / "policy.npz"
    np.savez(policy, theta=np.zeros(len(FEATURES)), players=5, rules="{}")
    done = sim(f"cmd:{sys.executable} examples/python/agent.py {policy}")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "dalmuti: bot" not in done.stderr, done.stderr
    row = next(line for line in done.stdout.splitlines() if "agent.py" in line)
    assert row.split()[-1] == "0", row


def test_the_policy_kept_in_the_repository_plays_in_dalmuti_sim():
    """examples/python/policy.json, the policy trained by train.py that
    `dalmuti sim --pool` measures bots against (docs/PERFORMANCE.md,
    "Against every style"), loads and plays without a fault; its weights
    are trained ones, not all zero."""
    policy = ROOT / "examples" / "python" / "policy.json"
    saved = json.loads(policy.read_text())
    assert any(abs(w) > 0.5 for w in saved["weights"].values())
    done = sim(f"cmd:{sys.executable} examples/python/agent.py {policy}")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "dalmuti: bot" not in done.stderr, done.stderr
    row = next(line for line in done.stdout.splitlines() if "agent.py" in line)
    assert row.split()[-1] == "0", row
