"""The results file: one learner session's records as JSON lines, to download where there is no class server.

On Binder, the static site or a notebook there is no class database; a lab offers
the learner's records as a small file instead, and a teacher pools a folder of them
(:func:`safari_kit.class_results.class_tables.pool_files`). The format::

    {"format": "safari-kit-results", "version": 1, "learner": "k3f9", "nickname": "Zed"}
    {"kind": "simulation-run", "learner": "k3f9", "nickname": "Zed", "lab": "simulation", ...}
    ...

The first line (the header) names the format, its version and whose session it is;
every further line is one record (:func:`safari_kit.class_results.class_records.to_dict`),
of that learner. Reading never drops a line silently: a line that is not a record of
the header's learner raises :class:`ResultsFileError` naming the file, the line and
the field; a file of a newer version is refused, not guessed at.

Anyone can edit a file before the teacher pools it, so reading is bounded (issue 26): at most
:data:`MAX_BYTES` per file and :data:`MAX_LINE` characters per line, whole numbers of at most
:data:`~safari_kit.class_results.bounded_numbers.DIGITS_MAX` digits, and every count and chance
checked by :mod:`~safari_kit.class_results.bounded_numbers` before it costs anything. Lines end at
``\n`` only: a nickname may hold U+2028 (a line separator to ``str.splitlines``), and the kit
writes it (and U+2029, U+0085) as a JSON escape anyway, so any JSON-lines reader reads the file.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from safari_kit.class_results.bounded_numbers import DIGITS_MAX, shown
from safari_kit.class_results.class_records import Record, RecordError, check_who, from_dict, to_dict

__all__ = ["FORMAT", "VERSION", "SUFFIX", "ResultsFileError", "results_text", "write_results", "parse_results",
           "read_results", "file_name", "file_name_for", "parse_results_lines", "read_results_lines", "MAX_BYTES",
           "MAX_LINE"]

FORMAT = "safari-kit-results"
VERSION = 1
SUFFIX = ".safari-results.jsonl"
MAX_BYTES = 10_000_000  # one learner's session: about 30,000 records
MAX_LINE = 20_000       # characters of one line: a record's texts are short (200 characters at most)


class ResultsFileError(ValueError):
    """A results file that cannot be read: the message names the file, the line and the field."""


def _one_learner(records: list[Record]) -> tuple[str, str]:
    if not records:
        raise ResultsFileError("a results file needs at least one record (whose learner and nickname it names)")
    who = {(r.learner, r.nickname) for r in records}
    if len(who) > 1:
        raise ResultsFileError(f"a results file holds one learner's session, got {sorted(who)}")
    return next(iter(who))


def results_text(records: Iterable[Record]) -> str:
    """The file's text for one learner's records (the header first, then one line per record, by seq)."""
    recs = sorted(records, key=lambda r: r.seq)
    learner, nickname = _one_learner(recs)
    seqs = [r.seq for r in recs]
    if len(set(seqs)) != len(seqs):
        raise ResultsFileError(f"two records share a seq number: {sorted(s for s in seqs if seqs.count(s) > 1)}")
    header = {"format": FORMAT, "version": VERSION, "learner": learner, "nickname": nickname}
    lines = [_line(header)] + [_line(to_dict(r)) for r in recs]
    return "\n".join(lines) + "\n"


#: characters other readers take for a line break (str.splitlines, JavaScript), escaped even with ensure_ascii=False
_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def _line(data: dict) -> str:
    """One JSON line: readable letters (ensure_ascii=False) but no character any reader splits a line at (JSON
    escapes the control characters; these three are only inside strings, where the escape means the same)."""
    return json.dumps(data, ensure_ascii=False).translate(_BREAKS)


def file_name(records: Iterable[Record]) -> str:
    """A file name for the download: the nickname's letters and digits, the learner id, the suffix."""
    return file_name_for(*_one_learner(list(records)))


def file_name_for(learner: str, nickname: str) -> str:
    """:func:`file_name` from the learner id and nickname (``Zed-L1a2b.safari-results.jsonl``)."""
    safe = "".join(c for c in nickname if c.isascii() and c.isalnum())[:20] or "learner"
    return f"{safe}-{learner}{SUFFIX}"


def write_results(path: str | Path, records: Iterable[Record]) -> Path:
    """Write :func:`results_text` to ``path`` (UTF-8); returns the path."""
    path = Path(path)
    path.write_text(results_text(records), encoding="utf-8")
    return path


class _BigNumber(ValueError):
    pass


def _int(text: str) -> int:
    """json's parse_int, bounded: a 5,000-digit number is refused before int() (which names no line) sees it."""
    if len(text.lstrip("-")) > DIGITS_MAX:
        raise _BigNumber(f"a whole number of at most {DIGITS_MAX} digits, got one of {len(text.lstrip('-')):,} digits")
    return int(text)


def _json(line: str, number: int, source: str):
    """One line's JSON value, or a :class:`ResultsFileError` naming the file, the line and the column."""
    if len(line) > MAX_LINE:
        raise ResultsFileError(f"{source}: line {number}: longer than {MAX_LINE:,} characters "
                               f"({len(line):,}): {shown(line)}")
    try:
        return json.loads(line, parse_int=_int)
    except json.JSONDecodeError as exc:
        raise ResultsFileError(f"{source}: line {number}: not JSON ({exc.msg} at column {exc.colno}): "
                               f"{shown(line, 80)}") from None
    except _BigNumber as exc:
        raise ResultsFileError(f"{source}: line {number}: expected {exc}: {shown(line, 80)}") from None
    except (ValueError, RecursionError) as exc:  # nesting deeper than Python's stack, a huge float text, ...
        raise ResultsFileError(f"{source}: line {number}: not a record ({type(exc).__name__}): "
                               f"{shown(line, 80)}") from None


def parse_results(text: str, source: str = "<results>") -> list[Record]:
    """The records of a results file's text; ``source`` names it in errors."""
    return [record for _, record in parse_results_lines(text, source)]


def parse_results_lines(text: str, source: str = "<results>") -> list[tuple[int, Record]]:
    """:func:`parse_results` with each record's line number (the pool names it when it refuses a record)."""
    lines = text.split("\n")  # never splitlines(): U+2028 in a nickname is no line break (issue 26)
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]  # a file saved on Windows
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or not lines[0].strip():
        raise ResultsFileError(f"{source}: line 1: empty, expected the header {{\"format\": \"{FORMAT}\", ...}}")
    header = _json(lines[0], 1, source)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        got = header.get("format") if isinstance(header, dict) else header
        raise ResultsFileError(f"{source}: line 1: field format: expected {FORMAT!r}, got {shown(got)}")
    version = header.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ResultsFileError(f"{source}: line 1: field version: expected a whole number, got {shown(version)}")
    if version > VERSION:
        raise ResultsFileError(f"{source}: line 1: field version: the file is version {version}, this kit reads "
                               f"up to version {VERSION}: update safari-kit to read it")
    if version < 1:
        raise ResultsFileError(f"{source}: line 1: field version: expected 1 to {VERSION}, got {version}")
    try:
        check_who(header.get("learner"), header.get("nickname"))
    except RecordError as exc:
        raise ResultsFileError(f"{source}: line 1: {exc}") from None
    records: list[tuple[int, Record]] = []
    seen: dict[int, int] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            if any(rest.strip() for rest in lines[number:]):
                raise ResultsFileError(f"{source}: line {number}: empty line between records")
            continue
        data = _json(line, number, source)
        try:
            record = from_dict(data)
        except (RecordError, TypeError) as exc:
            raise ResultsFileError(f"{source}: line {number}: {exc}") from None
        for field in ("learner", "nickname"):
            if getattr(record, field) != header.get(field):
                raise ResultsFileError(f"{source}: line {number}: field {field}: {getattr(record, field)!r} is not "
                                       f"the header's {header.get(field)!r}")
        if record.seq in seen:
            raise ResultsFileError(f"{source}: line {number}: field seq: {record.seq} already on line "
                                   f"{seen[record.seq]}")
        seen[record.seq] = number
        records.append((number, record))
    return records


def read_results(path: str | Path) -> list[Record]:
    """The records of the results file at ``path``."""
    return [record for _, record in read_results_lines(path)]


def read_results_lines(path: str | Path) -> list[tuple[int, Record]]:
    """:func:`read_results` with each record's line number; a file over :data:`MAX_BYTES` is refused unread."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ResultsFileError(f"{path}: {size:,} bytes, more than a results file holds (at most {MAX_BYTES:,})")
        with path.open("rb") as file:
            raw = file.read(MAX_BYTES + 1)  # it may have grown since stat
    except OSError as exc:
        raise ResultsFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(raw) > MAX_BYTES:
        raise ResultsFileError(f"{path}: more than a results file holds (at most {MAX_BYTES:,} bytes)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ResultsFileError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse_results_lines(text, str(path))
