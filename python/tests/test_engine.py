"""The engine API from Python: games, actions, views, records, errors."""

import json
import random

import numpy as np
import pytest

import dalmuti
from conftest import play_randomly, run_dalmuti

CONFIGS = [
    dict(players=3),
    dict(players=5),
    dict(players=8, merchant_exchange=True),
    dict(players=5, scoring="standard"),
    dict(players=4, stripped_deck=True),
    dict(players=16),
    dict(players=5, variant="corporate-shuffle"),
    dict(players=8, variant="corporate-shuffle", merchant_exchange=True),
]


def test_same_seed_same_game_and_another_seed_another():
    def moves(seed):
        game = dalmuti.Game(players=5, seed=seed)
        seen = []
        play_randomly(game, random.Random(0), on_decision=lambda g, s: seen.append((s, g.view(s)["hand"])))
        return seen, game.record()

    assert moves(11) == moves(11)
    assert moves(11)[0] != moves(12)[0]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: json.dumps(c))
def test_whole_games_play_to_the_end_and_check(config):
    game = dalmuti.Game(seed=5, hands=3, **config)
    play_randomly(game, random.Random(1), hands=3)
    assert game.over and game.hand_over
    assert sorted(game.finish_order()) == list(range(game.players))
    verdict = dalmuti.check(game.record())
    assert verdict["valid"], verdict
    assert len(verdict["hands"]) == 3
    if config.get("scoring"):
        assert sum(game.totals()) > 0
        assert verdict["totals"] == dict(zip(game.names, game.totals()))


def test_taxes_and_revolutions_are_decisions_of_the_players():
    kinds = set()
    for seed in range(40):
        game = dalmuti.Game(players=5, seed=seed, hands=2)
        def note(g, s):
            d = g.decision(s)
            kinds.add(d["kind"])
            if any(a == "call_revolution" for a in g.legal_actions(s)):
                kinds.add("revolution offered")
        play_randomly(game, random.Random(seed), hands=2, on_decision=note)
    assert {"tax", "ready", "lead", "follow", "revolution offered"} <= kinds


def test_every_legal_action_has_a_number_and_the_mask_is_the_legal_list():
    for config in CONFIGS:
        game = dalmuti.Game(seed=2, **config)
        space = game.space

        def compare(g, seat):
            legal = g.legal_actions(seat)
            numbers = {space.index(json.dumps(a)) for a in legal}
            assert len(numbers) == len(legal)
            mask = g.action_mask(seat)
            assert mask.dtype == np.int8 and mask.shape == (space.n,)
            assert set(np.flatnonzero(mask)) == numbers
            for n in numbers:
                assert json.loads(space.action(n)) in legal

        play_randomly(game, random.Random(3), on_decision=compare)


def test_apply_index_plays_the_numbered_action():
    a = dalmuti.Game(players=5, seed=9)
    b = dalmuti.Game(players=5, seed=9)
    rng = random.Random(4)
    while not a.hand_over:
        seat = a.to_act()[0]
        action = rng.choice(a.legal_actions(seat))
        a.apply(seat, action)
        b.table.apply_index(seat, a.space.index(json.dumps(action)))
    assert a.record() == b.record()


def test_an_illegal_action_raises_the_engines_reason_and_changes_nothing():
    game = dalmuti.Game(players=5, seed=1)
    before = game.record_text(), game.view()
    seat = game.to_act()[0]
    cases = [
        (seat, {"play": "5 6"}, ValueError, "not a set of one rank"),
        (seat, {"play": "1"}, ValueError, ""),
        (seat, "jump", ValueError, "jump"),
        (seat, {"give_tax": "1 1 1"}, ValueError, ""),
        (seat, 7, TypeError, "str or a dict"),
        (99, "pass", IndexError, "seat 99"),
    ]
    for who, action, error, words in cases:
        with pytest.raises(error) as raised:
            game.apply(who, action)
        assert words in str(raised.value)
    with pytest.raises(IndexError):
        game.table.apply_index(seat, 10_000)
    assert (game.record_text(), game.view()) == before


def test_bad_rules_and_tables_are_refused_by_name():
    with pytest.raises(ValueError, match="merchant_exchnage"):
        dalmuti.Game(players=5, merchant_exchnage=True)
    with pytest.raises(ValueError):
        dalmuti.Game(players=2)
    with pytest.raises(ValueError):
        dalmuti.Game(players=9, variant="corporate-shuffle")
    with pytest.raises(ValueError):
        dalmuti.Game(players=5, scoring="lots")
    with pytest.raises(ValueError, match="names"):
        dalmuti.Game(players=3, names=["a", "b"])


def test_a_seat_sees_its_own_cards_and_no_one_elses():
    game = dalmuti.Game(players=5, seed=4)
    hand_field = next(f for f in dalmuti.observation_layout(5) if f[0] == "hand")
    start, length = hand_field[1], hand_field[2]

    def look(g, seat):
        view = g.view(seat)
        assert view["seat"] == seat
        mine = view["hand"].split()
        obs = g.observation(seat)
        counts = obs[start:start + length]
        assert counts.sum() == len(mine) == view["seats"][seat]["cards"]
        spectator = g.view()
        assert spectator["hand"] is None
        # Nothing in the view names another seat's hand.
        text = json.dumps(view)
        assert text.count('"hand"') == 1

    play_randomly(game, random.Random(5), on_decision=look)


def test_a_setup_choice_is_not_seen_by_the_others():
    # During the setup, one seat's choice must change nothing any other seat
    # sees but the public count of players ready: not its view, not its
    # observation.
    def seen(game, s):
        view = game.view(s)
        view.pop("ready")
        return view, game.observation(s).tobytes()

    for seed in range(10):
        game = dalmuti.Game(players=5, seed=seed)
        assert game.stage == "setup"
        choosers = game.to_act()
        first = choosers[0]
        others = [s for s in range(5) if s != first]
        before = {s: seen(game, s) for s in others}
        game.apply(first, game.legal_actions(first)[-1])
        if game.stage != "setup":
            continue
        for s in others:
            assert seen(game, s) == before[s], s


def test_observations_from_the_protocol_view_are_the_same():
    for config in CONFIGS[:3] + CONFIGS[6:]:
        game = dalmuti.Game(seed=8, **config)

        def same(g, seat):
            obs = g.observation(seat)
            again = dalmuti._dalmuti.observe_snapshot(
                json.dumps(g.view(seat)), json.dumps(g.decision(seat))
            )
            np.testing.assert_array_equal(obs, again)

        play_randomly(game, random.Random(6), on_decision=same)
    with pytest.raises(ValueError, match="spectator"):
        dalmuti._dalmuti.observe_snapshot(json.dumps(game.view()), None)
    with pytest.raises(ValueError, match="not a view"):
        dalmuti._dalmuti.observe_snapshot("{}", None)


def test_records_round_trip_with_the_dalmuti_binary(tmp_path):
    game = dalmuti.Game(players=6, seed=21, hands=2, merchant_exchange=True, scoring="standard")
    play_randomly(game, random.Random(7), hands=2)
    path = tmp_path / "game.json"
    path.write_text(game.record_text())
    # The binary's verdict on Python's record is Python's verdict.
    done = run_dalmuti("check", "--json", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == dalmuti.check(game.record_text())
    # A record replays to the same game.
    assert dalmuti.Game.from_record(game.record()).record() == game.record()
    # Records written by `dalmuti sim` read back in Python, with its verdict.
    out = tmp_path / "records"
    done = run_dalmuti("sim", "--players", "5", "--hands", "3", "--seed", "2",
                       "--bots", "heuristic,greedy,random,greedy,heuristic", "--records", str(out))
    assert done.returncode == 0, done.stderr
    files = sorted(out.iterdir())
    assert len(files) == 3
    for f in files:
        text = f.read_text()
        verdict = dalmuti.check(text)
        assert verdict["valid"]
        assert json.loads(run_dalmuti("check", "--json", str(f)).stdout) == verdict
        replayed = dalmuti.Game.from_record(text)
        assert replayed.hand_over


def test_a_broken_record_gets_the_binarys_verdict(tmp_path):
    game = dalmuti.Game(players=4, seed=3)
    play_randomly(game, random.Random(8))
    record = game.record()
    plays = record["hands"][0]["plays"]
    plays[1], plays[2] = plays[2], plays[1]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    verdict = dalmuti.check(record)
    assert verdict["valid"] is False and verdict["error"]["hand"] == 0
    done = run_dalmuti("check", "--json", str(path))
    assert done.returncode == 1
    assert json.loads(done.stdout) == verdict
    with pytest.raises(ValueError, match="invalid record"):
        dalmuti.Game.from_record(record)
    assert dalmuti.check("not json")["valid"] is False
    with pytest.raises(ValueError, match="not a readable record"):
        dalmuti.Game.from_record("not json")


def test_built_in_bots_answer_from_the_seats_view():
    from dalmuti.bots import Bot, Greedy, Heuristic, Learned, Random, Search

    game = dalmuti.Game(players=6, seed=12, hands=1)
    bots = [Heuristic(1), Greedy(), Random(2), Search(iterations=100, seed=3), Bot("easy"), Learned()]
    while not game.hand_over:
        seat = game.to_act()[0]
        action = bots[seat](game, seat)
        assert action in game.legal_actions(seat)
        game.apply(seat, action)
    assert dalmuti.check(game.record())["valid"]
    with pytest.raises(ValueError, match="nothing to decide"):
        Greedy()(game, 0)
    with pytest.raises(ValueError, match="grumpy"):
        Bot("grumpy")
    with pytest.raises(ValueError, match="cmd:"):
        Bot("cmd:python3 bot.py")


def test_players_keep_their_numbers_and_names_whatever_seat_they_draw():
    names = ["Ada", "Bo", "Cy", "Di", "Ed"]
    first_seats = set()
    for seed in range(12):
        game = dalmuti.Game(players=5, seed=seed, names=names)
        assert game.names == names
        seats = [game.seat_of(p) for p in range(5)]
        assert sorted(seats) == list(range(5))
        assert [game.player_at(s) for s in seats] == list(range(5))
        assert [game.view()["seats"][s]["cards"] for s in seats] == [16] * 5
        first_seats.add(seats[0])
    # The draw decides the seats: Ada is not always the Greater Dalmuti.
    assert len(first_seats) > 2


def test_a_bot_prints_as_what_builds_it_again():
    from dalmuti.bots import Bot, Search

    assert repr(Bot("search:iterations=1000")) == "Bot('search:iterations=1000')"
    assert repr(Search(iterations=200, seed=4)) == "Bot('search:iterations=200', seed=4)"
    assert Bot("search:iterations=1000").name == "search"
    assert repr(dalmuti._dalmuti.Bot("search:ms=20")) == 'Bot("search:ms=20")'


def test_the_environments_without_their_extra_say_which_to_install():
    import subprocess
    import sys

    # A fresh interpreter where Gymnasium and PettingZoo cannot be imported,
    # as without the extra.
    for call in ["dalmuti.env(players=5)", "dalmuti.raw_env(players=5)"]:
        code = (
            "import sys\n"
            "sys.modules['gymnasium'] = None\n"
            "sys.modules['pettingzoo'] = None\n"
            f"import dalmuti\n{call}\n"
        )
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert run.returncode != 0
        assert "pip install 'dalmuti[env]'" in run.stderr, run.stderr
        assert "ImportError" in run.stderr, run.stderr
