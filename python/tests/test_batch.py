"""Many games at once (`dalmuti.Batch`): the bots' seats played in Rust."""

import json

import numpy as np
import pytest

import dalmuti
from dalmuti.bots import Greedy


def random_legal(mask, rng):
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)


def first_legal(mask):
    return np.array([np.flatnonzero(row)[0] for row in mask], dtype=np.int64)


def test_shapes_and_masks():
    batch = dalmuti.Batch(games=6, players=5, seed=1)
    obs, mask = batch.reset()
    assert obs.shape == (6, dalmuti.observation_size(5)) and obs.dtype == np.float32
    assert mask.shape == (6, batch.space.n) and mask.dtype == np.int8
    assert (mask.sum(axis=1) > 0).all()
    obs, mask, reward, done = batch.step(first_legal(mask))
    assert reward.shape == (6,) and done.shape == (6,) and done.dtype == np.bool_


def test_the_learner_is_rewarded_by_place_once_a_hand():
    batch = dalmuti.Batch(games=8, players=4, seed=3, opponents=["random"])
    _, mask = batch.reset()
    episodes, rewards = 0, []
    total = np.zeros(8)
    while episodes < 40:
        _, mask, reward, done = batch.step(first_legal(mask))
        total += reward
        for i in np.flatnonzero(done):
            rewards.append(total[i])
            total[i] = 0
            episodes += 1
    # One hand a game: 1 first out, then 1/3, -1/3, -1 last.
    assert set(np.round(rewards, 4)) <= {1.0, 0.3333, -0.3333, -1.0}
    assert len(set(np.round(rewards, 4))) > 1


def test_scored_games_reward_points_over_several_hands():
    rules = dalmuti.rules_json(scoring="standard", hands=3)
    batch = dalmuti.Batch(games=4, players=5, seed=5, rules=rules, opponents=["greedy"])
    _, mask = batch.reset()
    rng = np.random.default_rng(0)
    totals, total = [], np.zeros(4)
    while len(totals) < 12:
        _, mask, reward, done = batch.step(random_legal(mask, rng))
        assert (reward >= 0).all()
        total += reward
        for i in np.flatnonzero(done):
            totals.append(total[i])
            total[i] = 0
    # Three hands of 4 to 0 points each.
    assert all(0 <= t <= 12 for t in totals) and max(totals) > 0


def test_bots_in_rust_play_as_the_same_bots_in_python():
    # One game of the batch against greedy bots, and the same game in
    # Python: same seed, same learner choices, same greedy choices.
    for seed in range(5):
        batch = dalmuti.Batch(games=1, players=5, seed=seed, opponents=["greedy"])
        _, mask = batch.reset()
        space = batch.space
        game = dalmuti.Game(players=5, seed=seed, hands=1)
        greedy = Greedy()
        rng = np.random.default_rng(seed)
        reward = 0.0
        while True:
            while not game.hand_over:
                me = game.seat_of(0)
                bots = [s for s in game.to_act() if s != me]
                if not bots:
                    break
                game.apply(bots[0], greedy(game, bots[0]))
            if game.hand_over:
                break
            me = game.seat_of(0)
            np.testing.assert_array_equal(mask[0], game.action_mask(me))
            choice = int(rng.choice(np.flatnonzero(mask[0])))
            game.apply(me, json.loads(space.action(choice)))
            _, mask, r, done = batch.step(np.array([choice]))
            reward += r[0]
            if done[0]:
                break
        while not game.hand_over:
            seat = game.to_act()[0]
            game.apply(seat, greedy(game, seat))
        place = game.finish_order().index(game.seat_of(0))
        assert reward == pytest.approx(1 - 2 * place / 4)


def test_a_refused_step_plays_nothing():
    a = dalmuti.Batch(games=3, players=5, seed=7)
    b = dalmuti.Batch(games=3, players=5, seed=7)
    _, mask = a.reset()
    b.reset()
    steps = a.steps()
    illegal = first_legal(mask)
    illegal[1] = int(np.flatnonzero(mask[1] == 0)[0])
    with pytest.raises(ValueError, match="game 1"):
        a.step(illegal)
    with pytest.raises(ValueError, match="not a number"):
        a.step(np.array([*first_legal(mask)[:2], 10**6]))
    with pytest.raises(ValueError, match="2 actions for 3 games"):
        a.step(np.array([0, 0]))
    assert a.steps() == steps
    ra = a.step(first_legal(mask))
    rb = b.step(first_legal(mask))
    for x, y in zip(ra, rb):
        np.testing.assert_array_equal(x, y)


def test_bad_batches_are_refused():
    with pytest.raises(ValueError, match="opponents"):
        dalmuti.Batch(games=1, players=5, seed=1, opponents=["greedy", "random"])
    with pytest.raises(ValueError, match="grumpy"):
        dalmuti.Batch(games=1, players=5, seed=1, opponents=["grumpy"])
    with pytest.raises(ValueError, match="learner"):
        dalmuti.Batch(games=1, players=5, seed=1, learner=5)
    with pytest.raises(ValueError, match="reset"):
        dalmuti.Batch(games=1, players=5, seed=1).step(np.array([0]))
    with pytest.raises(ValueError, match="at least one game"):
        dalmuti.Batch(games=0, players=5, seed=1)


def test_the_learner_draws_its_seat_like_everyone_else():
    batch = dalmuti.Batch(games=40, players=5, seed=11)
    obs, _ = batch.reset()
    start = next(f[1] for f in dalmuti.observation_layout(5) if f[0] == "seat")
    seats = obs[:, start:start + 5].argmax(axis=1)
    assert len(set(seats)) == 5
