"""Suspect names and ink patterns (ruling W2).

A name on a Mugshot is a *pattern*: ``?`` hides one letter and the length is
visible. A clear name has no ``?``.

>>> sorted(possible_names("T?M"))
['TAM', 'TOM']
>>> sorted(shared_names("T?M", "??M"))
['TAM', 'TOM']
>>> sorted(shared_names("?AM", "T?M"))
['TAM']
>>> shared_names("AL??", "??M")
frozenset()
"""
from __future__ import annotations

import re
from functools import lru_cache

NAMES = ("TAM", "TOM", "SAM", "KIM", "KRIS", "ALAN", "ALEX")
PATTERN_RE = re.compile(r"^[A-Z?]+$")


def matches(pattern: str, name: str) -> bool:
    """True when ``pattern`` could be ``name``: equal length, every clear letter equal."""
    return len(pattern) == len(name) and all(p == "?" or p == n for p, n in zip(pattern, name))


@lru_cache(maxsize=None)
def possible_names(pattern: str) -> frozenset[str]:
    """The names among the 7 that ``pattern`` matches (one for a clear name)."""
    return frozenset(n for n in NAMES if matches(pattern, n))


def shared_names(a: str, b: str) -> frozenset[str]:
    """The names two Mugshots can share: those matching both patterns (W2)."""
    return possible_names(a) & possible_names(b)


def is_ink(pattern: str) -> bool:
    """An ink name hides at least one letter."""
    return "?" in pattern


def pattern_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a valid name pattern, or None when it is."""
    if not isinstance(pattern, str) or not pattern:
        return "a name such as TAM or an ink pattern such as T?M"
    if not PATTERN_RE.match(pattern):
        return "capital letters A-Z and '?' only (e.g. TAM, T?M, AL??)"
    if not possible_names(pattern):
        return f"a pattern matching at least one of {', '.join(NAMES)}"
    return None
