#!/usr/bin/env python3
"""Trains a small Dalmuti policy with REINFORCE, numpy only, against
built-in bots playing inside Rust (`dalmuti._dalmuti.Batch`, 64 games at
once), then compares its mean finishing place with a random player's and a
greedy bot's in the same seat, on the same deals.

    python examples/python/train.py --minutes 3 --plot curve.svg --csv curve.csv --save policy.json
    dalmuti sim --bots 'cmd:python3 examples/python/agent.py policy.json,greedy,greedy,greedy,greedy'

The policy is a linear softmax over the legal actions: each action gets a
score, weights . features(observation, action), from a few hand-made
features (the rank and size of a set, whether it breaks a group of cards or
goes out, whether to pass while holding many cards, which cards to give in
tax...). Reward: 1 - 2 * place / (players - 1) at the end of the hand.
"""

import argparse
import json
import time

import numpy as np

from dalmuti import _dalmuti

KIND_RANK = np.array([0, *range(1, 13), 13, 6, 11, 13], np.float32)  # by card kind
WILD_KINDS = (13, 16)  # Jester, Dogbert
FEATURES = ["pass", "pass*cards", "pass*top_rank", "rank", "size", "wilds", "breaks",
            "out", "lead*rank", "lead*size", "cards*rank", "gift_rank", "gift_wild",
            "revolution", "revolution*seat", "offer", "answer_rank"]


def kind_of(token):
    return {"0": 0, "J": 13, "T": 14, "R": 15, "D": 16}.get(token) or int(token)


class Actions:
    """What every action of the space is, as arrays over action numbers."""

    def __init__(self, players, rules="{}"):
        self.space = _dalmuti.ActionSpace(players, rules)
        n = self.space.n
        self.kind = np.zeros(n, np.int8)  # 0 other, 1 pass, 2 play, 3 tax, 4 revolution, 5 offer, 6 answer
        self.rank = np.zeros(n, np.float32)
        self.size = np.zeros(n, np.float32)
        self.wilds = np.zeros(n, np.float32)
        self.natural = np.zeros(n, np.int64)  # card kind of the set's natural cards
        self.gift_rank = np.zeros(n, np.float32)
        self.gift_wild = np.zeros(n, np.float32)
        for i in range(n):
            a = json.loads(self.space.action(i))
            if a == "pass":
                self.kind[i] = 1
            elif a == "call_revolution":
                self.kind[i] = 4
            elif isinstance(a, dict) and "play" in a:
                cards, _, declared = a["play"].partition(" as ")
                kinds = [kind_of(t) for t in cards.split()]
                natural = [k for k in kinds if k not in WILD_KINDS]
                self.kind[i] = 2
                self.size[i] = len(kinds)
                self.wilds[i] = len(kinds) - len(natural)
                self.natural[i] = natural[0] if natural else 13
                self.rank[i] = int(declared) if declared else KIND_RANK[self.natural[i]]
            elif isinstance(a, dict) and "give_tax" in a:
                kinds = [kind_of(t) for t in a["give_tax"].split()]
                self.kind[i] = 3
                self.gift_rank[i] = np.mean(KIND_RANK[kinds])
                self.gift_wild[i] = sum(k in WILD_KINDS for k in kinds)
            elif isinstance(a, dict) and "offer_exchange" in a:
                self.kind[i] = 5
            elif isinstance(a, dict) and "answer_exchange" in a:
                self.kind[i] = 6
                self.gift_rank[i] = KIND_RANK[kind_of(a["answer_exchange"])]

    def features(self, obs, layout):
        """(games, n, len(FEATURES)) features of every action in every game."""
        f = {name: obs[:, s:s + n] for name, s, n in layout}
        hand = f["hand"]
        cards = hand.sum(1, keepdims=True) / 16.0
        top_rank = f["top"][:, 1:2] / 13.0
        lead = f["decision"][:, 4:5]
        seat = f["seat"].argmax(1)[:, None] / max(1, f["seat"].shape[1] - 1)
        is_ = lambda k: (self.kind == k)[None, :].astype(np.float32)  # noqa: E731
        play, rank, size = is_(2), self.rank[None] / 13.0, self.size[None] / 8.0
        held = hand[:, self.natural]  # cards of the set's rank held
        breaks = play * ((held - (self.size - self.wilds)[None]) > 0)
        out = play * (self.size[None] == hand.sum(1, keepdims=True))
        cols = [is_(1), is_(1) * cards, is_(1) * top_rank, play * rank, play * size,
                play * self.wilds[None], breaks, out, play * lead * rank, play * lead * size,
                play * cards * rank, is_(3) * self.gift_rank[None] / 13.0,
                is_(3) * self.gift_wild[None], is_(4), is_(4) * seat, is_(5),
                is_(6) * self.gift_rank[None] / 13.0]
        games = obs.shape[0]
        return np.stack([np.broadcast_to(c, (games, self.space.n)) for c in cols], axis=2)


def softmax(logits, mask):
    z = np.where(mask > 0, logits, -np.inf)
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def train(args):
    """REINFORCE with a mean-reward baseline and Adam: the weights and the
    learning curve [(decisions, seconds, mean place)]."""
    rules = json.dumps({"hands": 1})  # an episode is one hand
    per = args.games
    batches = [_dalmuti.Batch(per, args.players, args.seed, rules, [args.opponents], 0)]
    actions, layout = Actions(args.players, rules), _dalmuti.observation_layout(args.players)
    rng = np.random.default_rng(args.seed)
    theta = np.zeros(len(FEATURES))
    m, v = np.zeros_like(theta), np.zeros_like(theta)  # Adam's moments
    state = [[*b.reset(), np.zeros((per, len(FEATURES)))] for b in batches]  # obs, mask, grads
    rows = np.arange(per)
    curve, done_rewards, start, update = [], [], time.time(), 0
    while time.time() - start < args.minutes * 60:
        finished = []  # (reward, sum of grad log pi over the game's decisions)
        for _ in range(args.steps_per_update):
            for batch, st in zip(batches, state):
                obs, mask, grads = st
                feats = actions.features(obs, layout)
                p = softmax(feats @ theta, mask)
                chosen = np.minimum((p.cumsum(1) < rng.random((per, 1))).sum(1), p.shape[1] - 1)
                chosen = np.where(mask[rows, chosen] > 0, chosen, mask.argmax(1))
                grads += feats[rows, chosen] - np.einsum("gn,gnf->gf", p, feats)
                st[0], st[1], rewards, dones = batch.step(chosen.astype(np.int64))
                for g in np.flatnonzero(dones):
                    finished.append((rewards[g], grads[g].copy()))
                    grads[g] = 0
        if finished:
            r = np.array([x[0] for x in finished])
            grad = sum((ri - r.mean()) * g for ri, (_, g) in zip(r, finished)) / len(finished)
            update += 1
            m = 0.9 * m + 0.1 * grad
            v = 0.999 * v + 0.001 * grad**2
            theta += args.lr * (m / (1 - 0.9**update)) / (np.sqrt(v / (1 - 0.999**update)) + 1e-8)
            done_rewards.extend(r)
        if len(done_rewards) >= 4 * per:
            place = 1 + (1 - np.mean(done_rewards)) * (args.players - 1) / 2
            decisions = sum(b.steps() for b in batches)
            curve.append((decisions, round(time.time() - start, 1), place))
            print(f"{curve[-1][1]:7.1f}s  decisions {decisions:>9}  mean place {place:.3f}", flush=True)
            done_rewards = []
    return theta, curve


def make_policy(theta, players, rules="{}", greedy=True):
    """policy(obs, mask) -> index for one observation (agent.py uses it)."""
    actions, layout = Actions(players, rules), _dalmuti.observation_layout(players)

    def policy(obs, mask):
        p = softmax(actions.features(obs[None], layout) @ theta, mask[None])[0]
        return int(p.argmax())
    return policy


def load_policy(path):
    """A policy saved by --save: JSON (a text file to keep in a repository)
    or numpy's .npz."""
    if str(path).endswith(".json"):
        with open(path) as f:
            saved = json.load(f)
        theta = np.array([saved["weights"][name] for name in FEATURES])
        return make_policy(theta, int(saved["players"]), json.dumps(saved["rules"]))
    saved = np.load(path)
    return make_policy(saved["theta"], int(saved["players"]), str(saved["rules"]))


def evaluate(choose, players, opponents, games, seed):
    """Mean finishing place (1 = first) and its standard error, of the
    player named "me" choosing with `choose(table, seat)`, the others
    played by `opponents`, over one hand of each of `games` games."""
    places = []
    bots = [_dalmuti.Bot(opponents, seed + p) for p in range(players)]
    names = ["me"] + [f"bot{p}" for p in range(1, players)]
    for game in range(games):
        table = _dalmuti.Table(players, seed + game, "{}", names)
        me = table.names.index("me")  # a random seat, from the seating draw
        while not table.hand_over():
            seat = table.to_act()[0]
            player = table.player_at(seat)
            if player == me:
                table.apply_index(seat, choose(table, seat))
            else:
                table.apply(seat, bots[player].decide(table, seat))
        order = list(table.finish_order())
        order += [s for s in range(players) if s not in order]
        places.append(order.index(table.seat_of(me)) + 1)
    return float(np.mean(places)), float(np.std(places) / np.sqrt(games))


def write_svg(curve, baselines, path):
    """The learning curve, drawn by hand (matplotlib is not needed)."""
    w, h, pad = 640, 360, 50
    xs = [c[0] for c in curve] or [0]
    ys = [c[2] for c in curve] + list(baselines.values())
    x0, x1, y0, y1 = 0, max(xs) or 1, min(ys) - 0.1, max(ys) + 0.1
    sx = lambda x: pad + (x - x0) / (x1 - x0) * (w - 2 * pad)  # noqa: E731
    sy = lambda y: pad + (y - y0) / (y1 - y0) * (h - 2 * pad)  # noqa: E731 (place 1 at the top)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<text x="{w / 2}" y="20" text-anchor="middle">mean finishing place of the learner (lower is better)</text>',
             f'<text x="{w / 2}" y="36" text-anchor="middle" font-size="10">line: training (sampled actions, vs the opponents); dashed: evaluation in one seat, same deals</text>',
             f'<text x="{w / 2}" y="{h - 10}" text-anchor="middle">decisions played (all players)</text>',
             f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="black"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" stroke="black"/>']
    for y in np.arange(np.ceil(y0 * 4) / 4, y1, 0.25):
        parts.append(f'<text x="{pad - 5}" y="{sy(y) + 4:.1f}" text-anchor="end">{y:.2f}</text>')
    for x in np.linspace(0, x1, 5):
        parts.append(f'<text x="{sx(x):.1f}" y="{h - pad + 15}" text-anchor="middle">{x / 1e6:.1f}M</text>')
    for (name, y), colour in zip(baselines.items(), ["#c33", "#393", "#33c"]):
        parts.append(f'<line x1="{pad}" y1="{sy(y):.1f}" x2="{w - pad}" y2="{sy(y):.1f}" stroke="{colour}" stroke-dasharray="4 3"/>')
        parts.append(f'<text x="{w - pad - 4}" y="{sy(y) - 4:.1f}" text-anchor="end" fill="{colour}">{name} {y:.2f}</text>')
    points = " ".join(f"{sx(c[0]):.1f},{sy(c[2]):.1f}" for c in curve)
    parts.append(f'<polyline points="{points}" fill="none" stroke="black" stroke-width="1.5"/></svg>')
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--opponents", default="greedy", help="bot spec for the other players")
    ap.add_argument("--games", type=int, default=64, help="games played at once")
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--steps-per-update", type=int, default=32)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--eval-games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plot", help="learning curve as SVG")
    ap.add_argument("--csv", help="learning curve as CSV")
    ap.add_argument("--save", help="the policy's weights (.json or .npz), for agent.py")
    args = ap.parse_args()

    theta, curve = train(args)
    print("weights:", {n: round(float(t), 2) for n, t in zip(FEATURES, theta)})
    policy = make_policy(theta, args.players)
    rng = np.random.default_rng(args.seed)
    greedy = _dalmuti.Bot("greedy", args.seed)
    contenders = {
        "random": lambda t, s: int(rng.choice(np.flatnonzero(t.action_mask(s)))),
        "greedy": lambda t, s: t.space.index(greedy.decide(t, s)),
        "learned": lambda t, s: policy(t.observation(s), t.action_mask(s)),
    }
    results = {}
    for name, choose in contenders.items():
        results[name] = evaluate(choose, args.players, args.opponents, args.eval_games, 10**6)
        print(f"{name:>8} as one player vs {args.opponents}: mean place "
              f"{results[name][0]:.3f} ± {results[name][1]:.3f} ({args.eval_games} hands, same deals)")
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("decisions,seconds,mean_place\n")
            f.writelines(f"{d},{s},{p:.4f}\n" for d, s, p in curve)
    if args.plot:
        write_svg(curve, {k: v[0] for k, v in results.items()}, args.plot)
    if args.save and args.save.endswith(".json"):
        with open(args.save, "w") as f:
            weights = {n: float(t) for n, t in zip(FEATURES, theta)}
            json.dump({"players": args.players, "rules": {}, "opponents": args.opponents,
                       "minutes": args.minutes, "seed": args.seed, "weights": weights}, f, indent=1)
            f.write("\n")
    elif args.save:
        np.savez(args.save, theta=theta, players=args.players, rules="{}")


if __name__ == "__main__":
    main()
