"""Versioned JSON game records: options, seed, setup and the actions taken.

A record is enough to replay a game to the identical state, because every
chance event is derived from the seed (see :mod:`safari_kit.core.chance`).

Document shape (version 3)::

    {"format": "safari-kit-game-record", "version": 3,
     "game": "witness" | "knockout",
     "options": {...game options...},
     "seed": 12345,
     "setup": {...e.g. a given deck order, or null...},
     "actions": [{"type": "...", ...}, ...]}

Version 3 (issue 13) changed the dealer, not the actions: every chance event
now comes from the standard library's generator (:mod:`safari_kit.core.chance`),
so the same seed deals other cards than before. Records of versions 1 and 2
were dealt by numpy's generator; replaying one here would silently give a
different game, so :func:`read_record` refuses them with a message naming the
version (replay them with the safari_kit that wrote them). Version 2 had added
two Safari Witness actions: ``TurnFaceDown`` after a failed turn and
``ArchiveCard`` (the full archive order, W4) in place of version 1's
``ArchiveTop``; version 3 keeps version 2's actions for both games.

What a record reveals: the seed and every action, so whoever holds a record can
rebuild every card of the game, hidden ones included. A record of an unfinished
game is therefore a window onto every face-down card and every hand; the
classroom app writes records of finished games only.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from safari_kit.core.errors import RecordError

RECORD_FORMAT = "safari-kit-game-record"
RECORD_VERSION = 3
READABLE_VERSIONS = (3,)
NUMPY_DEALT_VERSIONS = (1, 2)  # dealt by numpy's generator: refused (see the module docstring)
_KEYS = {"format", "version", "game", "options", "seed", "setup", "actions"}


def make_record(game: str, options: dict, seed: int, setup: dict | None, actions: list[dict]) -> dict:
    """Assemble a record document (plain JSON types only)."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": game,
        "options": options,
        "seed": seed,
        "setup": setup,
        "actions": actions,
    }


def read_record(source: str | Path | dict, game: str | None = None) -> dict:
    """Parse and check a record from a dict, a JSON string or a file path.

    Raises :class:`RecordError` naming what is wrong: not JSON, truncated, an
    unknown format or version, a missing field, or a record of the other game.
    """
    origin = "record"
    if isinstance(source, dict):
        doc = source
    elif isinstance(source, (str, Path)):
        text = str(source) if isinstance(source, str) else None
        looks_like_json = text is not None and (text.lstrip()[:1] in ("{", "[", '"') or "\n" in text)
        if not looks_like_json:
            path = Path(source)
            origin = str(path)
            if path.is_file():
                try:
                    text = path.read_text(encoding="utf-8")
                except UnicodeDecodeError as exc:
                    raise RecordError(f"{origin}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
                except OSError as exc:
                    raise RecordError(f"{origin}: cannot read the file ({exc.strerror})") from None
            elif isinstance(source, Path) or text is None:
                raise RecordError(f"{origin}: no such file")
            else:
                origin = "record text"
                try:
                    json.loads(text)
                except json.JSONDecodeError:
                    raise RecordError(f"{text[:60]!r} is neither a record file that exists "
                                      "nor JSON record text") from None
        assert text is not None  # every branch above either read the text or raised
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            hint = " (the record looks truncated)" if exc.msg.startswith(("Expecting", "Unterminated")) and \
                exc.pos >= len(text.rstrip()) - 1 else ""
            raise RecordError(f"{origin}: not valid JSON at line {exc.lineno}, column {exc.colno}: "
                              f"{exc.msg}{hint}") from None
    else:
        raise RecordError(f"a record is a dict, JSON text or a file path, not {type(source).__name__}")
    if not isinstance(doc, dict):
        raise RecordError(f"{origin}: expected a JSON object, got {type(doc).__name__}")
    if doc.get("format") != RECORD_FORMAT:
        raise RecordError(f"{origin}: 'format' is {doc.get('format')!r}, expected {RECORD_FORMAT!r}")
    if doc.get("version") in NUMPY_DEALT_VERSIONS and not isinstance(doc.get("version"), bool):
        raise RecordError(f"{origin}: this record is version {doc['version']}, written by a safari_kit from before "
                          f"issue 13 whose dealer was numpy's generator; this safari_kit deals with the standard "
                          f"library's generator (the same seed deals other cards) and replays version "
                          f"{RECORD_VERSION} only. Replay it with the safari_kit that wrote it.")
    if doc.get("version") not in READABLE_VERSIONS or isinstance(doc.get("version"), bool):
        readable = " and ".join(str(v) for v in READABLE_VERSIONS)
        raise RecordError(f"{origin}: 'version' is {doc.get('version')!r}; this safari_kit reads versions {readable}")
    missing = sorted(_KEYS - doc.keys())
    if missing:
        raise RecordError(f"{origin}: missing field(s) {', '.join(missing)}")
    if game is not None and doc["game"] != game:
        raise RecordError(f"{origin}: a record of {doc['game']!r}, expected {game!r}")
    if not isinstance(doc["options"], dict):
        raise RecordError(f"{origin}: 'options' must be an object, got {doc['options']!r}")
    if not isinstance(doc["seed"], int) or isinstance(doc["seed"], bool) or doc["seed"] < 0:
        raise RecordError(f"{origin}: 'seed' must be a non-negative integer, got {doc['seed']!r}")
    if not isinstance(doc["actions"], list) or not all(isinstance(a, dict) for a in doc["actions"]):
        raise RecordError(f"{origin}: 'actions' must be a list of objects")
    return doc


def write_record(doc: dict, path: str | Path | None = None) -> str:
    """Serialise a record as indented JSON; also write it to ``path`` when given."""
    text = json.dumps(doc, indent=1, sort_keys=False)
    if path is not None:
        Path(path).write_text(text + "\n", encoding="utf-8")
    return text


def action_from_dict(doc: dict, types: dict[str, Any], index: int):
    """Rebuild one action from ``{"type": name, **fields}`` using ``types``."""
    kind = doc.get("type")
    cls = types.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RecordError(f"action #{index}: unknown type {kind!r}; expected one of {', '.join(sorted(types))}")
    fields = {k: v for k, v in doc.items() if k != "type"}
    try:
        return cls.from_dict(fields)
    except (TypeError, ValueError, KeyError) as exc:
        raise RecordError(f"action #{index}: cannot read {doc!r}: {exc}") from None
