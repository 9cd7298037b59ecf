"""What the labs share about a Witness game in progress: the bots at the other
seats, and the public log told in a learner's words.

Every line comes from one seat's observation log, so it holds only what that
seat saw: public reveals, and its own TOM looks (other seats' looks appear
without the card).
"""
from __future__ import annotations

import numpy as np

from safari_kit.widgets.view import mugshot_face

TYPE_WORDS = {"animal": "Animal", "texture": "Texture", "color": "Color", "name": "Name"}
MAX_BOT_ACTIONS = 20_000


def types_label(types) -> str:
    return " + ".join(TYPE_WORDS[t] for t in types)


def card_label(game, cid: str) -> str:
    """A card as words, readable without color: e.g. "Violet Owl, Wood, named TAM"."""
    return mugshot_face(game.cards[game.index[cid]])["label"]


def who(player, viewer) -> str:
    return "You" if player == viewer else f"Player {player}"


def describe_event(event: dict, game, viewer: int | None) -> str | None:
    """One log event of ``viewer``'s observation in words (None for events not worth a line)."""
    kind = event.get("kind")
    name = who(event.get("player"), viewer)

    def face(cid: str) -> str:
        return card_label(game, cid)

    if kind == "clue":
        return f"{name}: clue card {face(event['card'])} revealed."
    if kind == "identify":
        ok = "match" if event["success"] else "no match"
        return (f"{name} declared {types_label(event['types'])} at place {event['place']}: "
                f"{face(event['card'])} — {ok}.")
    if kind == "challenge":
        return f"{name} challenged with {face(event['card'])}."
    if kind == "challenge_reveal":
        return (f"{name} revealed place {event['place']}: {face(event['card'])} — "
                f"{'safe' if event['safe'] else 'NOT safe'}.")
    if kind == "fail":
        places = ", ".join(str(m["place"]) for m in event["to_places"])
        shown = "; ".join(f"place {m['place']}: {face(m['card'])}" for m in event.get("face_up", []))
        text = f"{name} failed; the clue card(s) went face up to place(s) {places}."
        return text + (f" Face up for everyone: {shown}." if shown else "")
    if kind == "face_down":
        return "The face-up cards were turned face down."
    if kind == "archive":
        n = len(event["cards"])
        return f"{name} archived {n} card{'s' if n != 1 else ''}."
    if kind == "tom":
        if "card" in event:
            return f"{name} looked at place {event['place']} with TOM: {face(event['card'])}."
        return f"{name} looked at place {event['place']} with TOM."
    if kind == "sam":
        a, b = event["places"]
        return f"{name} shuffled places {a} and {b} with SAM (swapped or not: nobody knows)."
    if kind == "tam":
        return f"{name} swapped {event['first']} and {event['second']} with TAM."
    if kind == "kim":
        return f"{name} sent {face(event['card'])} back face down to place {event['place']} with KIM."
    if kind == "kris":
        return (f"{name} named {event['element']} with KRIS at place {event['place']}: {face(event['card'])}, "
                f"{'archived' if event['archived'] else 'back face down'}.")
    if kind == "alan_take":
        return f"{name} took {face(event['card'])} back into the Clue Area with ALAN."
    if kind == "end":
        return f"Game over ({event['reason']}). Scores: {event['scores']}."
    return None


class BotSeats:
    """The other seats, played by bots from :mod:`safari_kit.simulation.registry` (spec like ``"greedy"``)."""

    def __init__(self, game, learner: int, spec: str, seed: int):
        from safari_kit.simulation.registry import make_bot

        self.learner = learner
        self.bots = {}
        for p in range(game.players):
            if p != learner:
                bot = make_bot("witness", spec)
                bot.start(game, p, np.random.default_rng([int(seed) & 0xFFFFFFFF, p]))
                self.bots[p] = bot

    def play_one(self, state) -> None:
        p = state.current_player
        bot = self.bots[p]
        obs = state.observation(p) if getattr(bot, "needs_observation", True) else None
        state.apply(bot.choose(obs, state.legal_sequence()))

    def play_until_learner(self, state, stop=None, show_failures: bool = True) -> int:
        """Let the bots act until it is the learner's turn (or the game ends); returns how many actions.

        With ``show_failures`` the bots also pause right after one of them fails
        (phase ``face_up``, W4/W5): the revealed cards lie face up on the
        learner's table until the next call, whose first action turns them down.
        """
        n = 0
        while not state.is_terminal() and state.current_player != self.learner:
            if stop is not None and stop(state):
                break
            if show_failures and n > 0 and state.phase == "face_up":
                break
            self.play_one(state)
            n += 1
            if n > MAX_BOT_ACTIONS:  # pragma: no cover - a bot that never ends its turn
                raise RuntimeError("the bots did not hand the turn back")
        return n
