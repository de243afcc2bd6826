#!/usr/bin/env python3
"""An example bot for dalmuti, speaking the bot protocol dalmuti-bot/2.

It plays both games: The Great Dalmuti and Corporate Shuffle (the view's
"variant" says which).

Copy this file to start your own bot. It uses only Python's standard library.

The protocol (docs/BOT-PROTOCOL.md) is JSON lines: the game writes one JSON
object per line to this program's standard input, and reads one JSON object
per line from its standard output. Everything the bot wants to say to a human
(debugging, logs) must go to standard error: standard output is only for
answers.

Run it against the built-in bots:

    dalmuti sim --bots 'cmd:python3 examples/bot.py,greedy,greedy,greedy,greedy'
    dalmuti sim --variant corporate-shuffle --bots 'cmd:python3 examples/bot.py,greedy,greedy,greedy,greedy'

An optional first argument is the name the bot reports:

    cmd:python3 examples/bot.py my-bot

The strategy is a few rules of thumb; against four greedy bots it finishes
about a place ahead of them on average (half a place in Corporate Shuffle):

- Go out whenever one legal set is our whole hand.
- Lead: our worst rank, all of its cards, without Jesters: the bad cards go
  while the good ones stay to win the lead back (but Ratbert last).
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
- Corporate Shuffle: the same rules, with the Twirling Wedgie (T) counted as
  a 6, Ratbert (R) as 11 and the World Ruler (0) as 0, among our best cards;
  Dogberts (D) are wild like Jesters. A set with the Wedgie names its victim:
  the player with the fewest cards. Dogberts alone come from the legal list,
  which gives each value they may be declared as ("D D as 3").
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
#
# Corporate Shuffle has "0" (the World Ruler, better than a 1, played alone),
# "1" to "10", "T" (the Twirling Wedgie, a 6), "R" (Ratbert, an 11, played
# alone) and "D" (a Dogbert, wild). Dogberts played alone say the value they
# play as after the cards: "D D as 3".

WILD = ("J", "D")
VALUE = {"T": 6, "R": 11}


def tokens(cards):
    """The list of card tokens in a string of cards, without any declared
    value: "6 6 J" -> ["6", "6", "J"], "D D as 3" -> ["D", "D"]."""
    return cards.split(" as ")[0].split()


def value_of(token):
    """What a card is worth (lower is better), or None for a wild card."""
    if token in WILD:
        return None
    return VALUE.get(token) or int(token)


def rank_of_set(cards):
    """The rank of a set: the value of its other cards (the wild cards take
    it), the declared value of Dogberts alone, or 13 for Jesters alone (worse
    than a Peasant)."""
    if " as " in cards:
        return int(cards.split(" as ")[1])
    values = [value_of(t) for t in tokens(cards) if t not in WILD]
    return values[0] if values else 13


def jesters_in(cards):
    """How many wild cards (Jesters or Dogberts) a string of cards holds."""
    return sum(1 for t in tokens(cards) if t in WILD)


# --- Actions -----------------------------------------------------------------
#
# Actions are JSON values (see docs/BOT-PROTOCOL.md):
#   "pass", "ready", "call_revolution", "decline_exchange",
#   {"play": "6 6 J"}, {"give_tax": "10 10"},
#   {"offer_exchange": {"partner": 3, "card": "7"}}, {"answer_exchange": "9"}
# and in Corporate Shuffle {"play": "D D as 3"} and {"play": "6 T", "wedgie": 2}
# (a set with the Twirling Wedgie names the player it makes pass).
# The decide message lists the legal ones, worst first; answering with one of
# them copied as it is (or with its index in the list) is always legal.


def plays(legal):
    """The legal sets to play, as (action, cards) pairs, in the game's order."""
    return [(a, a["play"]) for a in legal if isinstance(a, dict) and "play" in a]


def prefer_victims(options, view):
    """`options` with, among the ways to play the same cards with the
    Twirling Wedgie, only the one naming the player with the fewest cards
    (the nearest to going out). Plays without the Wedgie are kept as they
    are, in the game's order."""
    seats = view["seats"]
    best = {}
    for action, cards in options:
        if "wedgie" in action:
            victim = action["wedgie"]
            kept = best.get(cards)
            if kept is None or seats[victim]["cards"] < seats[kept["wedgie"]]["cards"]:
                best[cards] = action
    return [
        (action, cards)
        for action, cards in options
        if "wedgie" not in action or best[cards] is action
    ]


def choose(decision, view, legal):
    """Picks one action from `legal` for `decision`, seeing `view`."""
    kind = decision["kind"]
    hand = tokens(view["hand"] or "")
    held = Counter(hand)  # how many of each card we hold: held["7"], held["J"]
    # How many of our cards play as each value: the Wedgie with the 6s.
    groups = Counter(value_of(t) for t in hand if t not in WILD)
    options = prefer_victims(plays(legal), view)

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
        numbered = [t for t in hand if t not in WILD]
        numbered.sort(key=lambda t: (value_of(t) <= 3, held[t] != 1, -value_of(t)))
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
        # Ratbert (Corporate Shuffle) can only lead: keep it for our last
        # lead, when we go out with it at once.
        if len(without_jesters) > 1:
            without_jesters = [(a, c) for a, c in without_jesters if c != "R"]
        worst = max(rank_of_set(c) for _, c in without_jesters)
        of_worst = [(a, c) for a, c in without_jesters if rank_of_set(c) == worst]
        action, _ = max(of_worst, key=lambda pair: len(tokens(pair[1])))
        return action

    if kind == "follow":
        # `options` are the sets that top the table, worst first.
        for action, cards in options:
            rank = rank_of_set(cards)
            whole_group = jesters_in(cards) == 0 and groups[rank] == len(tokens(cards))
            if whole_group and rank > 3:
                return action
        # Early in the hand (more than three quarters of a fair share of the
        # deck: 80 cards, 60 in Corporate Shuffle), keep our cards for later;
        # then play the worst set that tops, breaking a group or spending a
        # wild card if need be.
        deck = 60 if view.get("variant") == "corporate-shuffle" else 80
        if options and len(hand) <= 0.75 * deck / view["players"]:
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
