#!/usr/bin/env python3
"""An example bot for dalmuti, speaking the bot protocol dalmuti-bot/2.

Copy this file to start your own bot. It uses only Python's standard library.

The protocol (docs/BOT-PROTOCOL.md) is JSON lines: the game writes one JSON
object per line to this program's standard input, and reads one JSON object
per line from its standard output. Everything the bot wants to say to a human
(debugging, logs) must go to standard error: standard output is only for
answers.

Run it against the built-in bots:

    dalmuti sim --bots 'cmd:python3 examples/bot.py,greedy,greedy,greedy,greedy'

An optional first argument is the name the bot reports:

    cmd:python3 examples/bot.py my-bot

The strategy is a few rules of thumb; against four greedy bots it finishes
about a place ahead of them on average:

- Go out whenever one legal set is our whole hand.
- Lead: our worst rank, all of its cards, without Jesters: the bad cards go
  while the good ones stay to win the lead back.
- Follow: top the table with a whole group (all our cards of one rank, no
  Jesters) when one can, keeping our three best ranks (Dalmuti, Archbishop,
  Earl Marshal): it sheds cards without breaking anything. Otherwise pass
  while we hold many cards; later, play the worst set that tops.
- Tax (as a Dalmuti): give our worst lone cards first (each one given is a
  set we will not have to play), never a Jester or one of our best ranks.
- Revolution: when dealt both Jesters (the view's "revolution_offer"), call
  one when it saves us tax (we sit in the lower half of the table); otherwise
  keep quiet by making our setup choice as usual ("ready", or the tax gift).
- Merchant exchange: never offer; when asked for a card back, give the worst.
"""

import json
import sys
from collections import Counter

PROTOCOL = "dalmuti-bot/2"
NAME = sys.argv[1] if len(sys.argv) > 1 else "example-bot"


# --- Cards -------------------------------------------------------------------
#
# Cards are written as the tokens of game records: "1" (the Dalmuti, best) to
# "12" (the Peasant, worst), and "J" for a Jester (wild). A group of cards is a
# string of tokens separated by spaces, best first, Jesters last: "6 6 J".


def tokens(cards):
    """The list of tokens in a string of cards: "6 6 J" -> ["6", "6", "J"]."""
    return cards.split()


def rank_of_set(cards):
    """The rank of a set: the number of its numbered cards (the Jesters take
    that rank), or 13 for Jesters played alone (worse than a Peasant)."""
    numbers = [int(t) for t in tokens(cards) if t != "J"]
    return numbers[0] if numbers else 13


def jesters_in(cards):
    """How many Jesters a string of cards holds."""
    return tokens(cards).count("J")


# --- Actions -----------------------------------------------------------------
#
# Actions are JSON values (see docs/BOT-PROTOCOL.md):
#   "pass", "ready", "call_revolution", "decline_exchange",
#   {"play": "6 6 J"}, {"give_tax": "10 10"},
#   {"offer_exchange": {"partner": 3, "card": "7"}}, {"answer_exchange": "9"}
# The decide message lists the legal ones, worst first; answering with one of
# them copied as it is (or with its index in the list) is always legal.


def plays(legal):
    """The legal sets to play, as (action, cards) pairs, in the game's order."""
    return [(a, a["play"]) for a in legal if isinstance(a, dict) and "play" in a]


def choose(decision, view, legal):
    """Picks one action from `legal` for `decision`, seeing `view`."""
    kind = decision["kind"]
    hand = tokens(view["hand"] or "")
    held = Counter(hand)  # how many of each card we hold: held["7"], held["J"]
    options = plays(legal)

    # Going out ends our hand: always do it when we can.
    for action, cards in options:
        if len(tokens(cards)) == len(hand):
            return action

    if view.get("revolution_offer"):
        # Dealt both Jesters: we may call a revolution instead of our setup
        # choice. Seats are numbered from 0 (the Greater Dalmuti) to
        # players - 1 (the Greater Peon). A revolution cancels the taxes: good
        # for the bottom. Keeping quiet is simply making the choice below.
        if view["seat"] >= view["players"] / 2:
            return "call_revolution"

    if kind == "ready":
        # The hand is being set up: nothing to choose but to say so.
        return "ready"

    if kind == "tax":
        # Our worst lone cards first, then our other worst cards; never a
        # Jester, and one of our three best ranks only if nothing else is
        # left. Any `count` cards we hold are legal, in any order.
        numbered = [t for t in hand if t != "J"]
        numbered.sort(key=lambda t: (int(t) <= 3, held[t] != 1, -int(t)))
        gift = numbered[: decision["count"]]
        if len(gift) < decision["count"]:
            return legal[0]  # not enough numbered cards: the worst ones
        return {"give_tax": " ".join(gift)}

    if kind == "exchange_offer":
        return "decline_exchange"

    if kind == "exchange_answer":
        return legal[0]  # worst first: our worst card

    if kind == "lead":
        # Our worst rank, as many of its cards as we hold, no Jesters. With
        # only Jesters left, the game lists them first, so legal[0] works.
        without_jesters = [(a, c) for a, c in options if jesters_in(c) == 0]
        if not without_jesters:
            return legal[0]
        worst = max(rank_of_set(c) for _, c in without_jesters)
        of_worst = [(a, c) for a, c in without_jesters if rank_of_set(c) == worst]
        action, _ = max(of_worst, key=lambda pair: len(tokens(pair[1])))
        return action

    if kind == "follow":
        # `options` are the sets that top the table, worst first.
        for action, cards in options:
            rank = rank_of_set(cards)
            whole_group = jesters_in(cards) == 0 and held[str(rank)] == len(tokens(cards))
            if whole_group and rank > 3:
                return action
        # Early in the hand (more than three quarters of a fair share of the
        # 80 cards), keep our cards for later; then play the worst set that
        # tops, breaking a group or spending a Jester if need be.
        if options and len(hand) <= 60 / view["players"]:
            return options[0][0]
        return "pass"

    # A decision this bot does not know (a newer protocol?): the first legal
    # action is always a safe answer.
    return legal[0]


# --- The protocol loop ---------------------------------------------------------


def send(message):
    """Writes one message as one line, and flushes: the game waits for it."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:  # ends at end of input: the game has gone
        line = line.strip()
        if not line:
            continue
        message = json.loads(line)
        kind = message.get("type")

        if kind == "hello":
            if message.get("protocol") != PROTOCOL:
                print(f"{NAME}: unexpected protocol {message.get('protocol')}", file=sys.stderr)
            send({"type": "ready", "name": NAME})

        elif kind == "decide":
            action = choose(message["decision"], message["view"], message["legal"])
            # Echoing the id is optional; it lets the game tell this answer
            # from a late one.
            send({"id": message["id"], "action": action})

        elif kind == "seed":
            pass  # this bot has no randomness; a random bot would seed it here

        elif kind == "quit":
            break

        # Any other message type: ignore it (later versions may add some).


if __name__ == "__main__":
    main()
