"""The PettingZoo environment (dalmuti.env)."""

import json

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from dalmuti import _dalmuti  # noqa: E402
from dalmuti.env import env as make_env, raw_env  # noqa: E402

CONFIGS = [
    (3, {}),
    (5, {}),
    (8, {}),
    (5, {"merchant_exchange": True}),
    (6, {"merchant_exchange": True, "hands": 2}),
    (5, {"scoring": "standard", "hands": 3}),
    (4, {"scoring": "philanthropic", "hands": 2}),
] + [(p, {"variant": "corporate-shuffle"}) for p in range(3, 9)]

TOKENS = {"0": 0, "J": 13, "T": 14, "R": 15, "D": 16}


def kinds(cards):
    """Counts of each card kind in a card string, as the observation's
    `hand` field encodes them."""
    out = np.zeros(_dalmuti.CARD_KINDS, np.float32)
    for token in (cards or "").split():
        out[TOKENS[token] if token in TOKENS else int(token)] += 1
    return out


def field(players, name):
    for fname, start, length in _dalmuti.observation_layout(players):
        if fname == name:
            return slice(start, start + length)
    raise KeyError(name)


def play(e, seed, play_seed=None, limit=100_000):
    """Plays a whole game dealt from `seed` with random legal actions
    (drawn from `play_seed`, else `seed`); yields (agent, obs, reward,
    terminated) at each turn."""
    rng = np.random.default_rng(seed if play_seed is None else play_seed)
    e.reset(seed=seed)
    for agent in e.agent_iter(limit):
        obs, reward, terminated, truncated, _ = e.last()
        yield agent, obs, reward, terminated
        if terminated or truncated:
            e.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(rng.choice(legal)))


@pytest.mark.parametrize("players,rules", CONFIGS)
def test_api(players, rules):
    api_test(make_env(players, rules), num_cycles=300)


@pytest.mark.parametrize("players,rules", [(5, {}), (4, {"variant": "corporate-shuffle", "hands": 2})])
def test_seed(players, rules):
    seed_test(lambda: make_env(players, rules), num_cycles=200)


def test_switches_merge_into_rules():
    e = raw_env(5, {"hands": 2}, merchant_exchange=True)
    assert json.loads(e.table.rules)["merchant_exchange"] is True
    with pytest.raises(ValueError):
        raw_env(5, no_such_rule=True)
    with pytest.raises(TypeError):
        raw_env(5, rules=3)


def test_same_seed_same_game_other_seed_other_game():
    def trajectory(seed, play_seed):
        e = make_env(5, hands=2)
        return [(a, o["observation"].tobytes(), r) for a, o, r, _ in play(e, seed, play_seed)]

    first = trajectory(7, 1)
    assert trajectory(7, 1) == first
    assert trajectory(8, 1) != first


def test_reset_without_seed_follows_the_generator():
    a, b = raw_env(5, seed=3), raw_env(5, seed=3)
    a.reset()
    b.reset()
    assert a.table.record() == b.table.record()
    a.reset()
    assert a.table.record() != b.table.record()


def test_observation_is_the_seats_view_only():
    """Every observation is a function of the seat's protocol view (which
    holds only the seat's own cards), and its hand field is the seat's
    cards and not another's."""
    e = raw_env(5, variant="dalmuti", merchant_exchange=True)
    hand = field(5, "hand")
    checked = 0
    for agent, obs, _, terminated in play(e, 11):
        if terminated:
            break
        table = e.table
        for seat in range(5):
            view = json.loads(table.view(seat))
            assert view["seat"] == seat
            decision = table.decision(seat)
            snap = _dalmuti.observe_snapshot(table.view(seat), decision)
            np.testing.assert_array_equal(snap, table.observation(seat))
            own = kinds(view["hand"])
            np.testing.assert_array_equal(table.observation(seat)[hand], own)
            for other in range(5):
                other_hand = kinds(json.loads(table.view(other))["hand"])
                if other != seat and other_hand.sum() > 0 and not np.array_equal(own, other_hand):
                    assert not np.array_equal(table.observation(seat)[hand], other_hand)
            checked += 1
        seat = e.seat_of(agent)
        np.testing.assert_array_equal(obs["observation"], table.observation(seat))
    assert checked > 100


def test_agents_draw_for_seats():
    """Agent player_k is the table's player named player_k; its first seat
    comes from the seating draw, so it differs from game to game."""
    e = raw_env(5)
    first_seats = set()
    for seed in range(40):
        e.reset(seed=seed)
        seats = [e.seat_of(a) for a in e.possible_agents]
        assert sorted(seats) == list(range(5))
        assert [e.agent_at(s) for s in seats] == e.possible_agents
        first_seats.add(seats[0])
    assert first_seats == set(range(5))


def test_spectator_view_shows_no_cards():
    e = raw_env(5)
    e.reset(seed=2)
    view = json.loads(e.table.view())
    assert not view.get("hand")


def test_wrong_actions_raise_and_change_nothing():
    e = make_env(5)
    e.reset(seed=4)
    agent = e.agent_selection
    obs = e.observe(agent)
    record = e.unwrapped.table.record()
    with pytest.raises(TypeError, match="integer index"):
        e.step("pass")
    with pytest.raises(TypeError, match="integer index"):
        e.step(1.0)
    with pytest.raises(ValueError, match="out of the action space"):
        e.step(len(obs["action_mask"]))
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError):
        e.step(illegal)
    assert e.unwrapped.table.record() == record
    assert e.agent_selection == agent
    e.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))  # numpy ints are fine


@pytest.mark.parametrize("players", [3, 5, 8])
def test_place_rewards_per_hand(players):
    e = raw_env(players, hands=2)
    ends = 0
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    while not all(e.terminations.values()):
        obs = e.observe(e.agent_selection)
        hands = e.table.hands_played()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if any(e.rewards.values()):
            ends += 1
            got = sorted(e.rewards.values())
            want = sorted(1 - 2 * k / (players - 1) for k in range(players))
            assert got == pytest.approx(want)
            assert sum(e.rewards.values()) == pytest.approx(0)
            assert e.table.hands_played() == hands + (0 if ends == 2 else 1)
    assert ends == 2
    assert e.table.hands_played() == 2


def test_scored_rewards_are_the_hands_points():
    e = raw_env(5, scoring="standard", hands=3)
    e.reset(seed=6)
    rng = np.random.default_rng(6)
    total = {a: 0.0 for a in e.possible_agents}
    while not all(e.terminations.values()):
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for a, r in e.rewards.items():
            total[a] += r
    totals = e.table.totals()
    assert [total[a] for a in e.possible_agents] == [float(totals[e.table.names.index(a)]) for a in e.possible_agents]
    assert sum(total.values()) > 0


def test_three_hands_with_taxes_run_to_the_end():
    e = make_env(5, hands=3)
    taxes = 0
    last = None
    for agent, obs, _, terminated in play(e, 9):
        table = e.unwrapped.table
        if not terminated:
            log = json.loads(table.view(e.unwrapped.seat_of(agent)))["log"]
            taxes = max(taxes, sum(1 for x in log if x["event"] == "tax_paid"))
        last = terminated
    assert last is True
    assert e.agents == []
    assert e.unwrapped.table.hands_played() == 3
    assert taxes == 2  # both Dalmutis taxed in the later hands


def test_render_ansi():
    e = raw_env(4, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "seat 0" in text and "player_" in text
    assert raw_env(4).render() is None
    with pytest.raises(ValueError):
        raw_env(4, render_mode="human")


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_other_seats_cards_do_not_change_an_observation(seed):
    """Two deals that differ only in a card swapped between the Greater
    Dalmuti and the Greater Peon: the Merchant (seat 2) observes the same
    thing at the setup and at the start of play (after the same setup
    choices), while the two players who swapped see the difference."""
    table = _dalmuti.Table(5, seed)
    record = json.loads(table.record())
    deal = record["hands"][0]["deal"]
    gd, gp = table.names[table.player_at(0)], table.names[table.player_at(4)]
    a, b = deal[gd].split(), deal[gp].split()
    i = next(i for i, c in enumerate(a) if c != "J" and any(d != c and d != "J" for d in b))
    j = next(j for j, d in enumerate(b) if d != a[i] and d != "J")
    a[i], b[j] = b[j], a[i]
    order = lambda cards: " ".join(sorted(cards, key=lambda c: 99 if c == "J" else int(c)))  # noqa: E731
    deal[gd], deal[gp] = order(a), order(b)
    other = _dalmuti.Table.from_record(json.dumps(record), seed)
    seating = lambda t: [t.names[t.player_at(s)] for s in range(5)]  # noqa: E731
    assert seating(other) == seating(table)
    assert table.stage() == other.stage() == "setup"
    np.testing.assert_array_equal(table.observation(2), other.observation(2))
    assert not np.array_equal(table.observation(0), other.observation(0))
    assert not np.array_equal(table.observation(4), other.observation(4))
    for t in (table, other):  # the same choices: the first legal, by protocol text, else ready
        while t.stage() == "setup":
            seat = t.to_act()[0]
            legal = json.loads(t.legal(seat))
            choice = "ready" if "ready" in legal else legal[0]
            t.apply(seat, json.dumps(choice))
    assert table.stage() == other.stage() == "play"
    np.testing.assert_array_equal(table.observation(2), other.observation(2))


def test_dalmuti_env_makes_an_environment_every_time():
    import dalmuti

    for _ in range(2):
        e = dalmuti.env(players=5)
        e.reset(seed=1)
        assert e.agents
