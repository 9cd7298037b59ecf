"""The Full game lab's records without widgets: what Save writes and what Load accepts, in notebook and fair mode.

**Records** are saved to and loaded from the records folder only (:mod:`safari_kit.core.record_files`: a bare
name such as ``my-game.json``; anything else is refused and no other file is read or written). A record holds the
seed and every action, so a record of an unfinished game shows every hidden card. In **fair mode** (the classroom
app): Save works once the game is over; Load is refused while a game is in progress and loads finished games
only; a saved name gets a server-chosen ending (``my-game-k3f9x.json``: nobody can take a name before another
learner needs it) and counts against the records quota; a record that does not replay is refused without quoting
it. Kept apart from :mod:`safari_kit.widgets.labs.fullgame` (issue 28) so these refusals are tested without widgets.
"""
from __future__ import annotations

import logging
from pathlib import Path

from safari_kit.core.i18n import N_
from safari_kit.core.record_files import (RecordFileError, learner_record_name, load_record_file, parse_record_text,
                                          record_name, write_record_file)

__all__ = ["LOAD_IN_PROGRESS", "NOT_OVER", "RECORDS_NOTE", "UNFINISHED", "load_state", "save_text", "write"]
log = logging.getLogger("safari_kit.widgets")

NOT_OVER = ("You can save once the game is over. A record holds every move, so a record of an unfinished game "
            "would show every face-down card.")
LOAD_IN_PROGRESS = "Load is refused while a game is in progress: finish this game first."
UNFINISHED = ("This record is of an unfinished game: the classroom app loads finished games only, because such a "
              "record shows every hidden card.")
RECORDS_NOTE = N_("Records: you can save a game once it is over. A record holds every move, so a record of an "
                "unfinished game would show every face-down card. Load is for finished games, between games.")


def save_text(state, name: str | None, fair: bool) -> tuple[str, str | None]:
    """The record's JSON text and the file name it was saved as (None: shown only). A bad name is refused
    (:class:`~safari_kit.core.record_files.RecordFileError`) before anything is written; the caller refuses an
    unfinished game in fair mode (:data:`NOT_OVER`) before calling."""
    fname = record_name(name) if name is not None else None  # refuse a bad name before anything else
    if fname is not None and fair:  # a shared folder: the server picks the end of the name
        fname = learner_record_name(fname)
    text = state.save()
    return text, fname


def write(fname: str, text: str, fair: bool) -> None:
    write_record_file(fname, text, learner=fair)


def load_state(record, fair: bool):
    """The replayed state of ``record`` (a dict, JSON text, a record name, or in notebook mode a Path)."""
    from safari_kit.witness import WitnessGame

    if isinstance(record, Path):
        if fair:
            raise ValueError("in the classroom app records are loaded by name from the records folder")
    elif isinstance(record, str):
        record = parse_record_text(record) if record.lstrip().startswith("{") else load_record_file(record)
    try:
        return WitnessGame.replay(record)
    except Exception as exc:  # noqa: BLE001 - any record that does not replay is refused the same way
        if not fair:
            raise
        log.info("a record did not replay: %s: %s", type(exc).__name__, exc)
        raise RecordFileError("this is not a Safari Witness game record that replays here (a move, an "
                              "option or the seed in it is not what a saved game holds)") from None
