"""safari_kit: a teaching and exploration kit for Safari Witness and Safari Knockout.

The public face: the card loader, the errors and the two games. Names are
imported lazily so ``import safari_kit`` stays quick in a notebook.

>>> import safari_kit
>>> game = safari_kit.WitnessGame(players=3)
>>> state = game.new_initial_state(seed=42)
>>> state.phase
'choose'
"""
from __future__ import annotations

import sys
from importlib import import_module

if sys.version_info < (3, 11):  # pragma: no cover - the package metadata refuses older Pythons too
    raise RuntimeError(f"safari_kit needs Python 3.11 or newer; this is {sys.version.split()[0]}. "
                       "Install a newer Python and run `make lab PYTHON=python3.12`.")

from safari_kit.core.errors import CardDataError, IllegalActionError, RecordError, SafariKitError

__version__ = "0.1.0"  # the one place the version is written (pyproject.toml reads it: [tool.hatch.version])

_LAZY = {
    "load_cards": "safari_kit.cards.load",
    "Cards": "safari_kit.cards.load",
    "Mugshot": "safari_kit.cards.model",
    "SafariPal": "safari_kit.cards.model",
    "WitnessGame": "safari_kit.witness.game",
    "WitnessState": "safari_kit.witness.state",
    "KnockoutGame": "safari_kit.knockout",
    "KnockoutState": "safari_kit.knockout",
}

__all__ = ["CardDataError", "IllegalActionError", "RecordError", "SafariKitError", "load_record",
           "__version__", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'safari_kit' has no attribute {name!r}")


def load_record(record):
    """Replay a saved game record of either game (dict, JSON text or file path)."""
    from safari_kit.core.records import read_record

    doc = read_record(record)
    if doc["game"] == "witness":
        from safari_kit.witness import load
    elif doc["game"] == "knockout":
        from safari_kit.knockout import load
    else:
        raise RecordError(f"unknown game {doc['game']!r}; expected 'witness' or 'knockout'")
    return load(doc)
