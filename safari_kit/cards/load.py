"""Loading the card CSV: validation, then immutable card objects (and pandas frames on request).

The card objects come from the validated rows alone (the standard library's
``csv``), so playing a game never imports pandas; the frames a learner explores
(``witness_frame``, ``knockout_frame``) are built with pandas on first use.

>>> cards = load_cards()
>>> len(cards.witness)
75
>>> cards.mugshot("W03").name
'TAM'
>>> cards.witness_frame.groupby("animal", observed=True).size().tolist()
[15, 15, 15, 15, 15]
"""
from __future__ import annotations

import functools
import io
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from safari_kit.cards.model import Mugshot, SafariPal
from safari_kit.cards.schema import (
    DECK_COLUMNS, ELEMENT_COLUMNS, KNOCKOUT, STAT_COLUMNS, WITNESS,
)
from safari_kit.cards.validate import Problem, ValidatedRows, validate_bytes
from safari_kit.core.errors import CardDataError

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["Cards", "load_cards", "default_cards_path"]


def default_cards_path() -> Path:
    """The deck shipped with safari_kit.

    In an installed wheel it is ``safari_kit/data/cards.csv`` (hatch
    force-include); in a source checkout (editable install) it is the repo's
    ``data/cards.csv`` next to the package.
    """
    shipped = resources.files("safari_kit") / "data" / "cards.csv"
    if shipped.is_file():
        return Path(str(shipped))
    return Path(__file__).resolve().parents[2] / "data" / "cards.csv"


@dataclass(frozen=True, eq=False)
class Cards:
    """Both decks as loaded from one CSV.

    ``witness`` and ``knockout`` are tuples of frozen card objects in file
    order. ``witness_frame`` and ``knockout_frame`` (pandas, built on first
    use) return a fresh *copy* of the frame on each access, so changing one
    never changes the deck.
    """

    path: Path
    witness: tuple[Mugshot, ...]
    knockout: tuple[SafariPal, ...]
    _rows: ValidatedRows = field(repr=False)
    _by_id: dict = field(repr=False)
    _frames: dict = field(repr=False, default_factory=dict)  # "witness"/"knockout" -> DataFrame, once built

    def _frame(self, deck: str) -> "pd.DataFrame":
        if not self._frames:
            self._frames["witness"], self._frames["knockout"] = _frames(self._rows, self.path.name or str(self.path),
                                                                        self.path)
        return self._frames[deck].copy()

    @property
    def witness_frame(self) -> "pd.DataFrame":
        """The Mugshots: id, name (str), animal, texture, color (categoricals), ink (bool)."""
        return self._frame("witness")

    @property
    def knockout_frame(self) -> "pd.DataFrame":
        """The Safari Pals: id, name (str) and the four data items (float)."""
        return self._frame("knockout")

    def mugshot(self, card_id: str) -> Mugshot:
        """The Mugshot with this id; ``KeyError`` when there is none."""
        card = self._by_id.get(card_id)
        if not isinstance(card, Mugshot):
            raise KeyError(f"no witness card with id {card_id!r} in {self.path.name} "
                           f"(ids run {self._id_range(self.witness)})")
        return card

    def pal(self, card_id: str) -> SafariPal:
        """The Safari Pal with this id; ``KeyError`` when there is none."""
        card = self._by_id.get(card_id)
        if not isinstance(card, SafariPal):
            raise KeyError(f"no knockout card with id {card_id!r} in {self.path.name} "
                           f"(ids run {self._id_range(self.knockout)})")
        return card

    @staticmethod
    def _id_range(deck) -> str:
        return f"{deck[0].id}..{deck[-1].id}" if deck else "nowhere: the deck is empty"

    def __repr__(self) -> str:
        return (f"Cards({str(self.path)!r}: {len(self.witness)} witness, "
                f"{len(self.knockout)} knockout)")


def _frames(rows: ValidatedRows, file: str, path: Path) -> tuple["pd.DataFrame", "pd.DataFrame"]:
    import pandas as pd  # only here: the frames are for exploring the data, the games never need them

    try:
        df = pd.read_csv(io.StringIO(rows.text), dtype=str, keep_default_na=False)
    except (ValueError, pd.errors.ParserError) as exc:  # pragma: no cover - the validator read it
        raise CardDataError([Problem(file, None, None, None, "CSV that pandas can read",
                                     issue=f"pandas cannot read the file ({exc})")], path) from None
    df.columns = [c.strip() for c in df.columns]
    if len(df) != len(rows.rows):  # pragma: no cover - pandas and csv disagree on the shape
        raise CardDataError([Problem(file, None, None, None, f"{len(rows.rows)} card lines",
                                     issue=f"pandas reads {len(df)} card lines")], path)
    deck = df["deck"].str.strip()
    w = df.loc[deck == WITNESS, list(DECK_COLUMNS[WITNESS])].drop(columns="deck").reset_index(drop=True)
    for col, allowed in ELEMENT_COLUMNS.items():
        w[col] = pd.Categorical(w[col], categories=list(allowed))
    w["id"] = w["id"].astype(str)
    w["name"] = w["name"].astype(str)
    w["ink"] = w["name"].str.contains("?", regex=False).astype(bool)
    k = df.loc[deck == KNOCKOUT, list(DECK_COLUMNS[KNOCKOUT])].drop(columns="deck").reset_index(drop=True)
    k["id"] = k["id"].astype(str)
    k["name"] = k["name"].astype(str)
    for col in STAT_COLUMNS:
        k[col] = k[col].str.strip().astype(float)
    return w, k


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        reason = {FileNotFoundError: "does not exist", IsADirectoryError: "is a directory",
                  PermissionError: "cannot be read (permission denied)"}.get(
            type(exc), f"cannot be read ({exc.strerror or exc})")
        raise CardDataError([Problem(str(path), None, None, None, "a readable CSV file",
                                     issue=f"the file {reason}")], path) from None


@functools.lru_cache(maxsize=32)
def _build(path: Path, data: bytes, strict: bool) -> Cards:
    file = path.name or str(path)
    rows = validate_bytes(data, file, strict=strict, path=path)
    cells = [r.cells for r in rows.rows]
    witness = tuple(Mugshot(c["id"], c["animal"], c["texture"], c["color"], c["name"])
                    for c in cells if c["deck"].strip() == WITNESS)
    knockout = tuple(SafariPal(c["id"], c["name"], *(float(c[col].strip()) for col in STAT_COLUMNS))
                     for c in cells if c["deck"].strip() == KNOCKOUT)
    by_id = {c.id: c for c in witness + knockout}
    return Cards(path, witness, knockout, rows, by_id)


def load_cards(path: str | os.PathLike | None = None, *, strict: bool = True) -> Cards:
    """Load and validate the card CSV (the shipped deck when ``path`` is None).

    Every problem is collected and raised at once as one
    :class:`~safari_kit.core.errors.CardDataError` (also for a missing or
    unreadable file). ``strict=True`` also checks the decks as a whole: the
    W1 balance of the 75 Mugshots and at least 49 Safari Pals (K1);
    ``strict=False`` (a teacher's own deck) skips those but never the checks of
    each row. Loads are cached by path and file content, so creating many
    games costs one small read and no parsing; an edited file is read anew.
    The result is immutable (the frames are copies).
    """
    p = default_cards_path() if path is None else Path(os.fspath(path))
    return _build(p, _read(p), bool(strict))
