"""A class session's records as a table: CSV (always), a pandas frame, Parquet (when pandas has an engine).

The export is one row per record, one column per field of any kind (``kind`` first,
then the shared fields, then each kind's own; a field a kind does not have is empty).
Chances are written exactly, as fractions like ``7/37``: :func:`read_csv` reads the
file back into the same records, so a teacher's export can be pooled again
(:mod:`safari_kit.class_results.class_tables`) and lesson 05 ships one
(``data/example-class-results.csv``).

**Formulas never run** (issue 26): a spreadsheet runs a cell that starts with ``=``, ``+``,
``-`` or ``@`` (and some run one starting with a tab or a carriage return), so a nickname
like ``=HYPERLINK("//x.test","Zed")`` would be a live link on the teacher's screen. As
OWASP recommends for CSV injection, every text cell whose first character (after any
spaces and single quotes) is one of those gets a single quote in front (:func:`formula_safe`),
which the spreadsheet shows as text; :func:`parse_csv` takes that quote off again
(:func:`from_formula_safe`), so the kit reads back the very nickname the learner typed.
Number cells (counts, fractions like ``7/37``) are never changed: they cannot start so.
"""
from __future__ import annotations

import csv
import dataclasses
import importlib.util
import io
import typing
from collections.abc import Iterable
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from safari_kit.class_results.bounded_numbers import NumberError, shown, whole_text
from safari_kit.class_results.class_records import COMMON, KINDS, Record, RecordError, from_dict, to_dict

__all__ = ["COLUMNS", "EXAMPLE", "example_path", "ExportError", "csv_text", "write_csv", "parse_csv", "read_csv",
           "frame", "write_parquet", "parquet_engine", "parse_csv_lines", "read_csv_lines", "formula_safe",
           "from_formula_safe", "FORMULA_STARTS"]


#: the shipped example export's file name (made by tools/make_example_class_results.py)
EXAMPLE = "example-class-results.csv"


def example_path() -> Path:
    """The example class export lesson 05 loads: ``safari_kit/data/`` in an installed wheel (hatch
    force-include, like the cards), the repository's ``data/`` in a source checkout."""
    shipped = resources.files("safari_kit") / "data" / EXAMPLE
    if shipped.is_file():
        return Path(str(shipped))
    return Path(__file__).resolve().parents[2] / "data" / EXAMPLE


class ExportError(ValueError):
    """An export that cannot be written or read back: the message names the file, the row and the field."""


def _columns() -> list[str]:
    cols = ["kind", *COMMON]
    for cls in KINDS.values():
        cols += [f.name for f in dataclasses.fields(cls) if f.name not in cols]
    return cols


#: the export's columns, in order
COLUMNS = _columns()


def _types() -> dict[tuple[str, str], str]:
    """(kind, field) -> "int", "int?", "str" or "fraction" (None allowed for "?" and optional fractions)."""
    out = {}
    for kind, cls in KINDS.items():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            hint = str(hints[f.name])
            base = "fraction" if "Fraction" in hint else "int" if "int" in hint else "str"
            out[kind, f.name] = base + ("?" if "None" in hint else "")
    return out


_TYPES = _types()


#: a cell starting with one of these is a formula to some spreadsheet: OWASP's list (= + - @ tab CR), the line
#: feed and NUL (ASVS 1.2.10), and their full-width forms (an input method types them)
FORMULA_STARTS = frozenset("=+-@\t\r\n\0\uff1d\uff0b\uff0d\uff20")


def _lead(text: str) -> str:
    """The first character after any spaces and single quotes: what decides whether a cell is a formula."""
    return text.lstrip(" '")[:1]


def formula_safe(text: str) -> str:
    """``text`` as a cell no spreadsheet runs: a single quote in front when its first character (after spaces and
    quotes) starts a formula, else unchanged. :func:`from_formula_safe` undoes it exactly, whatever the text.

    >>> print(formula_safe('=HYPERLINK("//x.test","Zed")'), formula_safe("Zed"), formula_safe("'=1"))
    '=HYPERLINK("//x.test","Zed") Zed ''=1
    """
    return "'" + text if _lead(text) in FORMULA_STARTS else text


def from_formula_safe(cell: str) -> str:
    """The text :func:`formula_safe` wrote: one leading quote off when what follows would start a formula (a cell
    such as ``'Zed`` that needed no quote keeps its own)."""
    return cell[1:] if cell.startswith("'") and _lead(cell) in FORMULA_STARTS else cell


def _cell(kind: str, field: str, value: Any) -> str:
    if value is None:
        return ""
    if field == "kind" or _TYPES[kind, field].startswith("str"):
        return formula_safe(str(value))
    return str(value)


def csv_text(records: Iterable[Record]) -> str:
    """The CSV export of ``records`` (in the order given); text cells made :func:`formula_safe`."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for record in records:
        writer.writerow({k: _cell(record.kind, k, v) for k, v in to_dict(record).items()})
    return out.getvalue()


def write_csv(path: str | Path, records: Iterable[Record], header: str = "") -> Path:
    """Write the CSV export to ``path``; ``header``: comment lines (each starting with '#') put above it."""
    path = Path(path)
    lines = [line if line.startswith("#") else f"# {line}" for line in header.splitlines()]
    path.write_text("".join(line + "\n" for line in lines) + csv_text(records), encoding="utf-8")
    return path


def _value(kind: str, field: str, text: str) -> Any:
    kind_type = _TYPES[kind, field]
    if text == "" and kind_type.endswith("?"):
        return None
    if kind_type.startswith("int"):
        try:  # at most 30 digits: int() of a 5,000-digit cell fails naming nothing (issue 26)
            return whole_text(text, field)
        except NumberError as exc:
            raise RecordError(str(exc)) from None
    if kind_type.startswith("str"):
        return from_formula_safe(text)
    return text  # a fraction: the record reads it with the bounded parser (as_chance)


def parse_csv(text: str, source: str = "<csv>") -> list[Record]:
    """The records of an export's text (lines starting with '#' before the header are comments)."""
    return [record for _, record in parse_csv_lines(text, source)]


def parse_csv_lines(text: str, source: str = "<csv>") -> list[tuple[int, Record]]:
    """:func:`parse_csv` with the line each record ends on, so that a later refusal (a learner under two nicknames,
    :func:`safari_kit.class_results.class_tables.pool`) can name it."""
    lines = text.splitlines(keepends=True)
    skipped = 0
    while skipped < len(lines) and lines[skipped].startswith("#"):
        skipped += 1
    reader = csv.DictReader(io.StringIO("".join(lines[skipped:])))
    try:
        fieldnames = reader.fieldnames or []
        missing = [c for c in ("kind", *COMMON) if c not in fieldnames]
        if missing:
            raise ExportError(f"{source}: line {skipped + 1}: the header lacks the "
                              f"column{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
        unknown = [shown(c, 40) for c in fieldnames if c not in COLUMNS]
        if unknown:
            raise ExportError(f"{source}: line {skipped + 1}: unknown column{'s' if len(unknown) > 1 else ''} "
                              f"{', '.join(u.strip(chr(39)) for u in unknown[:5])}")
        records = []
        for row in reader:
            line = skipped + reader.line_num
            if None in row:
                raise ExportError(f"{source}: line {line}: more cells than columns")
            kind = row.get("kind") or ""
            try:
                if kind not in KINDS:
                    raise RecordError(f"kind must be one of {', '.join(KINDS)}, got {shown(kind)}")
                names = {f.name for f in dataclasses.fields(KINDS[kind])}
                stray = [c for c, v in row.items() if c not in names and c != "kind" and v not in ("", None)]
                if stray:
                    raise RecordError(f"a {kind} record has no field {stray[0]} (got {shown(row[stray[0]])})")
                data = {"kind": kind, **{n: _value(kind, n, row.get(n) or "") for n in names}}
                records.append((line, from_dict(data)))
            except RecordError as exc:
                raise ExportError(f"{source}: line {line}: {exc}") from None
    except csv.Error as exc:  # a cell over the csv module's 128 kB, a NUL byte, ...: named, never a traceback
        raise ExportError(f"{source}: line {skipped + reader.line_num}: not a CSV row ({exc})") from None
    return records


def read_csv(path: str | Path) -> list[Record]:
    """The records of the CSV export at ``path``."""
    return [record for _, record in read_csv_lines(path)]


def read_csv_lines(path: str | Path) -> list[tuple[int, Record]]:
    """:func:`read_csv` with each record's line (:func:`parse_csv_lines`)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # a spreadsheet's "CSV UTF-8" starts with a BOM
    except UnicodeDecodeError as exc:
        raise ExportError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse_csv_lines(text, str(path))


def frame(records: Iterable[Record]):
    """The records as a pandas DataFrame with the export's columns; chances as floats beside their
    exact fractions (``exact`` is a float column, ``exact_fraction`` the Fraction)."""
    import pandas as pd

    rows = []
    for record in records:
        row: dict[str, Any] = dict.fromkeys(COLUMNS)
        row.update({k: getattr(record, k) if k != "kind" else record.kind for k in to_dict(record)})
        rows.append(row)
    df = pd.DataFrame(rows, columns=COLUMNS)
    for col in COLUMNS:
        if any(isinstance(v, Fraction) for v in df[col]):
            df[f"{col}_fraction"] = df[col]
            df[col] = [None if v is None else float(v) for v in df[col]]
            df[col] = df[col].astype(float)
    return df


def parquet_engine() -> str | None:
    """The Parquet engine pandas would use ("pyarrow" or "fastparquet"), or None if neither is installed."""
    for name in ("pyarrow", "fastparquet"):
        if importlib.util.find_spec(name) is not None:
            return name
    return None


def write_parquet(path: str | Path, records: Iterable[Record]) -> Path:
    """Write the records as Parquet (fractions as text like "7/37"); needs pyarrow or fastparquet."""
    engine = parquet_engine()
    if engine is None:
        raise ExportError("Parquet needs pyarrow or fastparquet, and neither is installed "
                          "(pip install pyarrow); the CSV export needs nothing extra")
    df = frame(records)
    for col in [c for c in df.columns if c.endswith("_fraction")]:
        df[col] = [None if v is None else str(v) for v in df[col]]
    path = Path(path)
    df.to_parquet(path, engine=engine, index=False)
    return path
