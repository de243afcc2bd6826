"""The Gymnasium environments (dalmuti.gym)."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from dalmuti.gym import DalmutiEnv, DalmutiVectorEnv  # noqa: E402


def run(env, seed, steps, pick="random"):
    """Plays `steps` steps with random legal actions: the list of
    (observation bytes, reward, terminated)."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    out = []
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        out.append((obs.tobytes(), reward, terminated))
        if terminated:
            obs, info = env.reset()
    return out


@pytest.mark.parametrize("kwargs", [
    {},
    {"players": 3, "opponents": "random"},
    {"players": 8, "opponents": ["greedy", "random"] * 3 + ["greedy"], "learner": 4},
    {"variant": "corporate-shuffle", "players": 6},
    {"scoring": "standard", "hands": 3, "merchant_exchange": True},
])
def test_check_env(kwargs):
    env = DalmutiEnv(**kwargs)
    check_env(env, skip_render_check=True)


def test_registered():
    env = gymnasium.make("Dalmuti-v0", players=4, opponents="greedy")
    obs, info = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape
    assert info["action_mask"].shape == (env.action_space.n,)


def test_seeded_runs_are_identical():
    a = run(DalmutiEnv(opponents="greedy", hands=2), 3, 300)
    assert a == run(DalmutiEnv(opponents="greedy", hands=2), 3, 300)
    assert a != run(DalmutiEnv(opponents="greedy", hands=2), 4, 300)


def test_episode_rewards_are_places():
    env = DalmutiEnv(players=5, opponents="greedy", hands=2)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    places = {1.0, 0.5, 0.0, -0.5, -1.0}
    games = hand_ends = 0
    while games < 20:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        assert not truncated and not info["illegal"]
        if reward != 0:
            assert reward in places
            hand_ends += 1
        if terminated:
            games += 1
            env.reset()
    # Two hands a game; a hand's reward is 0 only for the middle place.
    assert 20 <= hand_ends <= 40


def test_illegal_actions():
    env = DalmutiEnv(players=5, opponents="greedy")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    lowest_legal = int(np.flatnonzero(info["action_mask"])[0])
    _, r1, _, _, i1 = env.step(illegal)
    assert i1["illegal"] is True
    env2 = DalmutiEnv(players=5, opponents="greedy")
    env2.reset(seed=1)
    o2, r2, _, _, i2 = env2.step(lowest_legal)
    assert i2["illegal"] is False and r1 == r2 - 1.0
    strict = DalmutiEnv(players=5, opponents="greedy", illegal="raise")
    _, info = strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)
    with pytest.raises(TypeError, match="integer"):
        strict.step("pass")
    with pytest.raises(TypeError, match="integer"):
        strict.step(0.5)
    with pytest.raises(ValueError, match="out of the action space"):
        strict.step(strict.action_space.n)
    with pytest.raises(ValueError, match="illegal must be"):
        DalmutiEnv(illegal="ignore")
    np.testing.assert_array_equal(strict.action_masks(), info["action_mask"].astype(bool))


def test_bad_arguments():
    with pytest.raises(ValueError):
        DalmutiEnv(players=2)
    with pytest.raises(ValueError):
        DalmutiEnv(opponents="no-such-bot")
    with pytest.raises(ValueError):
        DalmutiEnv(no_such_rule=1)


def test_vector_env():
    env = DalmutiVectorEnv(16, players=5, opponents="greedy", hands=2)
    obs, info = env.reset(seed=5)
    assert obs.shape == (16, env.single_observation_space.shape[0])
    assert obs in env.observation_space
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(200):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert rewards.shape == (16,) and not truncated.any() and not info["illegal"].any()
        assert np.all(np.abs(rewards) <= 1.0)
        assert info["action_mask"].sum(axis=1).min() >= 1  # every game can move
        ended += int(terminated.sum())
    assert ended > 16
    assert env.steps > 200 * 16
    obs2, _ = DalmutiVectorEnv(16, players=5, opponents="greedy", hands=2).reset(seed=5)
    obs3, _ = env.reset(seed=5)
    np.testing.assert_array_equal(obs2, obs3)
    with pytest.raises(ValueError, match="expected 16"):
        env.step(np.zeros(3, np.int64))


def test_learner_starts_from_every_seat():
    """The learning player draws for its seat like everyone else: over many
    games its first seat (the observation's `seat` field) takes every value.
    (Fails while the native table numbers players in seating order.)"""
    from dalmuti import _dalmuti

    seat = next((s, n) for name, s, n in _dalmuti.observation_layout(5) if name == "seat")
    obs, _ = DalmutiVectorEnv(100, players=5, opponents="greedy").reset(seed=0)
    first_seats = set(obs[:, seat[0]:seat[0] + seat[1]].argmax(1).tolist())
    assert first_seats == set(range(5))
