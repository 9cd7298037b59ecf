"""Bot names -> bots: the one place tournaments, runners and the CLI turn text into players.

A bot is named by a short spec, ``name`` or ``name:argument``:

=============  =========================  ==============================================
spec           games                      bot
=============  =========================  ==============================================
``random``     witness, knockout          :class:`~safari_kit.simulation.bots.RandomBot`
``greedy``     witness, knockout          ``GreedyWitnessBot`` / ``GreedyKnockoutBot``
               (takes the exact-probability best action)
``memory:P``   witness                    ``MemoryWitnessBot(remember_prob=P)``, 0 <= P <= 1:
               remembers each face-up card it sees with probability P
``lastk:K``    witness                    ``MemoryWitnessBot(last_k=K)``, K >= 0:
               remembers only the last K cards it saw
``highcard``   knockout                   ``HighCardBot()``: leads the card x item with the
               fewest higher cards in the deck, follows at random
               (``highcard:best``: follows with its highest card)
=============  =========================  ==============================================

Specs (plain strings) are what travels to worker processes and Dask workers:
each worker builds its own bots with :func:`make_bot`, so nothing unpicklable
ever crosses a process boundary.

>>> canonical_spec("witness", " Memory:0.50 ")
'memory:0.5'
>>> make_bot("knockout", "random").name
'random'
>>> parse_bots("random, greedy")
['random', 'greedy']
>>> make_bot("knockout", "memory:0.5")
Traceback (most recent call last):
...
safari_kit.simulation.registry.BotSpecError: bot 'memory:0.5' does not play knockout (it plays: witness)
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable

from safari_kit.core.errors import SafariKitError

GAMES = ("witness", "knockout")


class BotSpecError(SafariKitError):
    """A bot spec that names no bot, has a bad argument, or needs code not installed."""


@dataclass(frozen=True)
class BotKind:
    """One entry of the registry: how to build a bot from its argument, per game."""

    name: str
    help: str
    builders: dict  # game name -> callable(arg) -> bot
    arg: str | None = None  # the argument's meaning ("P", "K"), None: takes none
    parse: Callable[[str], object] | None = None  # text -> argument value (raises ValueError)
    canon: Callable[[object], str] | None = None  # argument value -> canonical text
    default: object = None  # the argument when the spec gives none (None: it must be given)


REGISTRY: dict[str, BotKind] = {}


def register(kind: BotKind) -> BotKind:
    """Add (or replace) a kind of bot; ``kind.name`` is the spec's name part."""
    REGISTRY[kind.name] = kind
    return kind


def _lazy(module: str, cls: str, **fixed):
    """A builder that imports ``module.cls`` only when a bot is made."""
    def build(arg=None):
        try:
            mod = importlib.import_module(module)
            klass = getattr(mod, cls)
        except (ImportError, AttributeError):
            raise BotSpecError(f"{cls} is not available: {module} is missing or incomplete in this "
                               f"installation of safari_kit") from None
        kwargs = dict(fixed)
        if arg is not None:
            kwargs[build.arg_name] = arg
        return klass(**kwargs)
    build.arg_name = None
    return build


def _with_arg(builder, arg_name: str):
    builder.arg_name = arg_name
    return builder


def _random(arg=None):
    from safari_kit.simulation.bots import RandomBot

    return RandomBot()


def _parse_prob(text: str) -> float:
    p = float(text)
    if not 0.0 <= p <= 1.0:  # NaN fails too
        raise ValueError("must be a probability from 0 to 1")
    return p


def _parse_k(text: str) -> int:
    k = int(text)
    if k < 0:
        raise ValueError("must be a whole number >= 0")
    return k


register(BotKind("random", "a uniformly random legal action (the baseline)",
                 {"witness": _random, "knockout": _random}))
register(BotKind("greedy", "the action with the best exact probability",
                 {"witness": _lazy("safari_kit.simulation.witness_bots", "GreedyWitnessBot"),
                  "knockout": _lazy("safari_kit.simulation.knockout_bots", "GreedyKnockoutBot")}))
register(BotKind("memory", "greedy with a leaky memory: remembers each face-up card with probability P",
                 {"witness": _with_arg(_lazy("safari_kit.simulation.witness_bots", "MemoryWitnessBot"),
                                       "remember_prob")},
                 arg="P", parse=_parse_prob, canon=lambda p: repr(float(p))))
register(BotKind("lastk", "greedy that remembers only the last K cards it saw",
                 {"witness": _with_arg(_lazy("safari_kit.simulation.witness_bots", "MemoryWitnessBot"),
                                       "last_k")},
                 arg="K", parse=_parse_k, canon=str))



def _parse_follow(text: str) -> str:
    if text not in ("random", "best"):
        raise ValueError("must be 'random' or 'best'")
    return text


register(BotKind("highcard", "Knockout rank rule: lead the card x item with the fewest higher cards in the deck; "
                             "follow with a random card (highcard) or the highest one (highcard:best)",
                 {"knockout": _with_arg(_lazy("safari_kit.simulation.knockout_bots", "HighCardBot"), "follow")},
                 arg="FOLLOW", parse=_parse_follow, canon=str, default="random"))


# ----------------------------------------------------------------------------- names for learners (issue 27)
#: a plain name per kind of bot, for a learner's screen (the spec stays the code name: teachers and code use it)
_LEARNER_NAMES: dict[str, Callable[[object], str]] = {
    "random": lambda _arg: "Bot that plays at random",
    "greedy": lambda _arg: "Bot that makes the move with the best chance",
    "memory": lambda p: f"Bot that remembers {_share_words(float(p))} the cards it sees",
    "lastk": lambda k: ("Bot that remembers none of the cards it sees" if int(k) == 0 else
                        "Bot that remembers only the last card it saw" if int(k) == 1 else
                        f"Bot that remembers only the last {int(k)} cards it saw"),
    "highcard": lambda follow: ("Bot that leads its card least likely to be beaten"
                                + (", then follows with its highest card" if follow == "best" else "")),
}
_SHARES = {0.0: "none of", 0.25: "a quarter of", 0.5: "half of", 0.75: "three quarters of", 1.0: "all of"}


def _share_words(p: float) -> str:
    """0.25 -> "a quarter of"; a share with no plain word -> "about 3 in 10 of" (tenths) or "about 37 in 100 of"."""
    if p in _SHARES:
        return _SHARES[p]
    tenths = round(p * 10)
    if abs(p * 10 - tenths) < 1e-9:
        return f"about {tenths} in 10 of"
    return f"about {round(p * 100)} in 100 of"


def learner_name(game_name: str, spec: str) -> str:
    """The name a learner sees for a bot spec (the spec itself is a code name, kept for teachers and code).

    Several specs (``"greedy,random"``) are named one by one, joined with "and".

    >>> learner_name("witness", "memory:0.25")
    'Bot that remembers a quarter of the cards it sees'
    >>> learner_name("witness", "lastk:6")
    'Bot that remembers only the last 6 cards it saw'
    >>> learner_name("witness", "greedy, random")
    'Bot that makes the move with the best chance, and Bot that plays at random'
    """
    specs = parse_bots(spec)
    names = []
    for one in specs:
        kind, value = _split(game_name, one)
        words = _LEARNER_NAMES.get(kind.name)
        names.append(words(value) if words is not None else kind.name)
    return ", and ".join(names)


def _split(game_name: str, spec) -> tuple[BotKind, object]:
    if game_name not in GAMES:
        raise BotSpecError(f"unknown game {game_name!r}; expected one of {', '.join(GAMES)}")
    if not isinstance(spec, str) or not spec.strip():
        raise BotSpecError(f"a bot spec must be a non-empty string such as 'random', got {spec!r}")
    text = spec.strip().lower()
    name, sep, arg_text = text.partition(":")
    kind = REGISTRY.get(name)
    if kind is None:
        raise BotSpecError(f"unknown bot {spec.strip()!r}; known bots: {known_bots()}")
    if game_name not in kind.builders:
        raise BotSpecError(f"bot {spec.strip()!r} does not play {game_name} "
                           f"(it plays: {', '.join(kind.builders)})")
    if kind.arg is None:
        if sep:
            raise BotSpecError(f"bot {name!r} takes no argument, got {spec.strip()!r}")
        return kind, None
    if not sep and kind.default is not None:
        return kind, kind.default
    if not sep or not arg_text:
        raise BotSpecError(f"bot {name!r} needs an argument: '{name}:{kind.arg}' ({kind.help})")
    try:
        value = kind.parse(arg_text)
    except ValueError as exc:
        reason = str(exc) if "must be" in str(exc) else "is not a number"
        raise BotSpecError(f"bot {spec.strip()!r}: {kind.arg}={arg_text!r} {reason}") from None
    return kind, value


def canonical_spec(game_name: str, spec: str) -> str:
    """The spec written the one canonical way (checks it; raises :class:`BotSpecError`)."""
    kind, value = _split(game_name, spec)
    if value is None or (kind.default is not None and value == kind.default):
        return kind.name
    return f"{kind.name}:{kind.canon(value)}"


def make_bot(game_name: str, spec: str):
    """A fresh bot for ``game_name`` ("witness" or "knockout") from its spec."""
    kind, value = _split(game_name, spec)
    bot = kind.builders[game_name](value) if value is not None else kind.builders[game_name]()
    return bot


def parse_bots(text) -> list[str]:
    """``"random,greedy"`` (or a list) -> a list of specs, stripped; empty entries rejected."""
    items = text.split(",") if isinstance(text, str) else list(text)
    specs = [s.strip() if isinstance(s, str) else s for s in items]
    if not specs or any(not isinstance(s, str) or not s for s in specs):
        raise BotSpecError(f"expected a comma-separated list of bots such as 'random,greedy', got {text!r}")
    return specs


def known_bots(game_name: str | None = None) -> str:
    """The registry as one line, e.g. ``"random, greedy, memory:P, lastk:K"``."""
    return ", ".join(k.name if k.arg is None else f"{k.name}[:{k.arg}]" if k.default is not None
                     else f"{k.name}:{k.arg}" for k in REGISTRY.values()
                     if game_name is None or game_name in k.builders)


__all__ = ["BotSpecError", "BotKind", "REGISTRY", "register", "make_bot", "canonical_spec",
           "parse_bots", "known_bots", "learner_name"]
