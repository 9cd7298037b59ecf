"""Run in the browser's kernel right after its memory snapshot is restored (issue 31, item 1).

A snapshot (site-src/snapshot.py) is Python's memory as it was at build time, so every visit starts from the
same memory: every generator seeded at import holds the same state, and would draw the same numbers on every
learner's computer. This module gives each one fresh entropy (``os.urandom``: the browser's
``crypto.getRandomValues``):

* the ``random`` module's own generator (``random.random``, ``random.shuffle``, ...);
* every other ``random.Random`` at the top level of an imported module (none today but ``random``'s own: a
  module of the kit or of a dependency that adds one is covered without a change here);
* ``tempfile``'s name generator, made on first use.

The kit deals from ``secrets`` (``safari_kit.core.chance.fresh_seed``), which reads ``os.urandom`` at each call
and needs nothing; tests/browser/test_site_snapshot.py checks that two visits deal apart. Python's string hash
seed is fixed at start-up and cannot change afterwards: with a snapshot it is the build's, the same on every
visit (set and dict order of strings; nothing the kit deals depends on it: a seeded deal is the same in every
process). The build runs this once in node to check it (site-src/make_snapshot.mjs).
"""
from __future__ import annotations

import random
import sys


def reseed() -> int:
    """Reseed every module-level ``random.Random`` (``random``'s own first); returns how many were reseeded."""
    random.seed()
    seen = {id(random._inst)}  # type: ignore[attr-defined]  # random's module-level generator
    count = 1
    for module in list(sys.modules.values()):
        try:
            values = list(vars(module).values())
        except TypeError:  # a module without a __dict__
            continue
        for value in values:
            if isinstance(value, random.Random) and not isinstance(value, random.SystemRandom) \
                    and id(value) not in seen:
                seen.add(id(value))
                value.seed()
                count += 1
    tempfile = sys.modules.get("tempfile")
    if tempfile is not None:
        tempfile._name_sequence = None  # type: ignore[attr-defined]  # made again, from fresh entropy
    return count


def rebase_micropip() -> bool:
    """micropip (in the lessons' snapshot) copied Pyodide's ``lockfileBaseUrl`` at import: the build's folder in
    node. Give it this page's (used by ``micropip.freeze``); returns whether micropip was there."""
    compat = sys.modules.get("micropip._compat._compat_in_pyodide")
    if compat is None:
        return False
    import pyodide_js

    url = pyodide_js.lockfileBaseUrl
    compat.lockfileBaseUrl = url
    compat.CompatibilityInPyodide.lockfile_base_url = url
    sys.modules["micropip._compat"].lockfile_base_url = url  # type: ignore[attr-defined]
    return True


reseed()
rebase_micropip()
