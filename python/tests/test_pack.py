"""President and Daifugō in Python: the environments, the action space of
the pack's plays (sequences, Jokers, the exchange, the cards given and
discarded after 7s and 10s), and observations that show each seat only
what it may see."""

import json

import numpy as np
import pytest

import dalmuti
from dalmuti import _dalmuti

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from dalmuti.env import env as make_env, raw_env  # noqa: E402
from dalmuti.gym import DalmutiEnv, DalmutiVectorEnv  # noqa: E402

#: Every option that adds a decision or changes what may be played.
EVERYTHING = {
    "climbing": {
        "jokers": 2,
        "seven_pass": True,
        "ten_discard": True,
        "same_rank_skip": True,
        "unbeatable_twos": True,
        "five_skip": True,
        "nine_reverse": True,
        "eleven_back": True,
        "lock": "strict",
    }
}

CONFIGS = [
    (5, {"variant": "daifugo"}),
    (3, {"variant": "daifugo", "hands": 2}),
    (5, {"variant": "daifugo", "climbing": "local_all", "hands": 2}),
    (4, {"variant": "daifugo", **EVERYTHING}),
    (5, {"variant": "president", "hands": 3}),
    (6, {"variant": "president", "climbing": {"jokers": 1, "same_rank_skip": True, "unbeatable_twos": True}}),
    (8, {"variant": "president"}),
]


def rules(config):
    return json.dumps(config)


def play_table(table, rng, hands, on_decision):
    """Plays `hands` games of a native table with random legal actions,
    calling `on_decision(table, seat)` before each."""
    while True:
        if table.hand_over():
            if table.game_over() or table.hands_played() >= hands:
                return
            table.next_hand()
            continue
        seat = table.to_act()[0]
        on_decision(table, seat)
        mask = table.action_mask(seat)
        table.apply_index(seat, int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("players,config", CONFIGS)
def test_api(players, config):
    api_test(make_env(players, config), num_cycles=400)


def test_seed():
    seed_test(lambda: make_env(5, {"variant": "daifugo", "climbing": "local_all"}), num_cycles=300)


@pytest.mark.parametrize("players,config", CONFIGS)
def test_every_legal_action_has_its_own_number(players, config):
    """The space numbers each action once, and at every decision the mask
    is exactly the engine's legal list."""
    table = _dalmuti.Table(players, 3, rules(config))
    space = table.space
    for i in range(space.n):
        assert space.index(space.action(i)) == i
    seen = set()

    def check(t, seat):
        legal = json.loads(t.legal(seat))
        mask = t.action_mask(seat)
        assert mask.sum() == len(legal)
        for action in legal:
            assert mask[space.index(json.dumps(action))] == 1
            seen.add(next(iter(action)) if isinstance(action, dict) else action)

    play_table(table, np.random.default_rng(players), 3, check)
    assert "play" in seen and "pass" in seen


def test_the_space_covers_sequences_jokers_and_the_new_decisions():
    # The contest's rules (a Joker may stand beyond the 3 and the 2 in a
    # sequence) with two Jokers and both decisions after a play.
    contest = {"jokers": 2, "seven_pass": True, "ten_discard": True}
    space = dalmuti.ActionSpace(5, rules({"variant": "daifugo", "climbing": contest}))
    for action in [
        {"play": "5H JK 7H"},
        {"play": "JK 3S 4S"},
        {"play": "KS AS 2S JK"},
        {"play": "9H JK as 9S"},
        {"play": "9S 9H 9D 9C JK"},
        {"play": "JK"},
        {"give_tax": "3C 4D"},
        {"give_tax": "JK JK"},
        {"give": "3C"},
        {"discard": "2S"},
        "pass",
    ]:
        i = space.index(json.dumps(action))
        assert space.index(space.action(i)) == i
    # President without sequences or Jokers numbers none of them.
    president = dalmuti.ActionSpace(5, rules({"variant": "president"}))
    with pytest.raises(ValueError):
        president.index(json.dumps({"play": "5H 6H 7H"}))
    with pytest.raises(ValueError):
        president.index(json.dumps({"give": "3C"}))
    assert president.n < space.n


def test_observation_is_the_seats_view_only_and_matches_the_protocols():
    """At every decision, every seat's observation is the one its protocol
    view gives, and holds its own cards; the cards given on and discarded
    appear only in the observations of the seats that saw them."""
    config = {"variant": "daifugo", **EVERYTHING}
    table = _dalmuti.Table(4, 21, rules(config))
    layout = {name: slice(start, start + length)
              for name, start, length in _dalmuti.observation_layout(4, rules(config))}
    counts = {"give": 0, "discard": 0}

    def check(t, seat):
        decision = t.decision(seat)
        if decision:
            kind = json.loads(decision)["kind"]
            if kind in counts:
                counts[kind] += 1
        for s in range(4):
            view = t.view(s)
            snap = _dalmuti.observe_snapshot(view, t.decision(s))
            obs = t.observation(s)
            np.testing.assert_array_equal(snap, obs)
            hand = json.loads(view)["hand"]
            assert obs[layout["hand"]].sum() == len(hand.split())
            # What a seat saw given or discarded: only its own.
            log = json.loads(view)["log"]
            for entry in log:
                if entry["event"] == "given" and entry["card"] is not None:
                    assert s in (entry["from"], entry["to"])
                if entry["event"] == "discarded" and entry["card"] is not None:
                    assert entry["seat"] == s

    play_table(table, np.random.default_rng(5), 4, check)
    assert counts["give"] > 0 and counts["discard"] > 0, counts


def test_rules_from_python_keep_the_variants_own_options():
    table = _dalmuti.Table(5, 1, rules({"variant": "daifugo", "climbing": {"jokers": 2}}))
    options = json.loads(table.rules)["climbing"]
    assert options["jokers"] == 2 and options["eight_cut"] and options["lock"] == "suit"
    president = json.loads(_dalmuti.Table(5, 1, rules({"variant": "president"})).rules)
    assert president["variant"] == "president" and president["join_and_leave"] is False
    with pytest.raises(ValueError, match="colour"):
        _dalmuti.Table(5, 1, rules({"variant": "daifugo", "climbing": "colour=on"}))
    with pytest.raises(ValueError):
        _dalmuti.Table(5, 1, rules({"variant": "daifugo", "climbing": {"jokers": 3}}))
    with pytest.raises(ValueError):
        _dalmuti.Table(9, 1, rules({"variant": "president"}))


@pytest.mark.parametrize("kwargs", [
    {"variant": "daifugo"},
    {"variant": "daifugo", "rules": {"climbing": "local_all"}, "opponents": "greedy"},
    {"variant": "president", "players": 4, "opponents": ["random", "greedy", "heuristic"]},
    {"variant": "president", "players": 3, "hands": 2},
])
def test_check_env(kwargs):
    env = DalmutiEnv(**kwargs)
    check_env(env, skip_render_check=True)


def test_registered_ids():
    for name, variant in (("Daifugo-v0", "daifugo"), ("President-v0", "president")):
        env = gymnasium.make(name, players=5, opponents="greedy")
        obs, info = env.reset(seed=0)
        assert obs.shape == env.observation_space.shape
        assert env.observation_space.contains(obs)
        assert info["action_mask"].shape == (env.action_space.n,)
        assert json.loads(env.unwrapped._rules_json)["variant"] == variant


def test_vector_env_plays_whole_games():
    vec = DalmutiVectorEnv(8, variant="daifugo", opponents="greedy", rules={"climbing": "local_all"})
    obs, info = vec.reset(seed=1)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(400):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, info = vec.step(actions)
        assert vec.single_observation_space.contains(obs[0])
        ends += int(terminated.sum())
        for r, t in zip(rewards, terminated):
            if t:
                assert -1.0 <= r <= 1.0
    assert ends > 0


def test_places_as_rewards_in_a_president_hand():
    e = raw_env(5, {"variant": "president"})
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    while not all(e.terminations.values()):
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    got = sorted(e.rewards.values())
    assert got == pytest.approx(sorted(1 - 2 * k / 4 for k in range(5)))


def test_a_game_records_and_checks():
    game = dalmuti.Game(players=5, seed=4, variant="daifugo", climbing="local_all", hands=2)
    rng = __import__("random").Random(4)
    while not game.over:
        if game.hand_over:
            game.next_hand()
            continue
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    record = game.record()
    assert record["format"] == "dalmuti-record/2"
    assert dalmuti.check(record)["valid"] is True


def test_the_numbering_is_fixed():
    """The documented sizes and numbers (python/README.md): a policy
    trained on the numbering keeps its meaning."""
    daifugo = dalmuti.ActionSpace(5, rules({"variant": "daifugo"}))
    president = dalmuti.ActionSpace(5, rules({"variant": "president"}))
    assert daifugo.n == 4037
    assert dalmuti.ActionSpace(5, rules({"variant": "daifugo", "climbing": "local_all"})).n == 4047
    assert president.n == 1574
    assert dalmuti.ActionSpace(5, rules({"variant": "president", "climbing": {"jokers": 2}})).n == 2305
    assert dalmuti.ActionSpace(8, rules({"variant": "president"})).n == president.n
    for space, action, number in [
        (daifugo, "pass", 0),
        (daifugo, {"give_tax": "3S"}, 1),
        (daifugo, {"give_tax": "3H"}, 2),
        (daifugo, {"play": "3S"}, 1432),
        (daifugo, {"play": "JK"}, 4036),
        (president, {"play": "3S"}, 1379),
        (president, {"play": "2S 2H 2D 2C"}, 1573),
    ]:
        assert space.index(json.dumps(action)) == number, action
    assert _dalmuti.observation_size(5, rules({"variant": "daifugo"})) == 333
