"""The results file: one learner session's records as JSON lines, to download where there is no class server.

On Binder, the static site or a notebook there is no class database; a lab offers
the learner's records as a small file instead, and a teacher pools a folder of them
(:func:`safari_kit.teaching.class_tables.pool_files`). The format::

    {"format": "safari-kit-results", "version": 1, "learner": "k3f9", "nickname": "Zed"}
    {"kind": "simulation-run", "learner": "k3f9", "nickname": "Zed", "lab": "simulation", ...}
    ...

The first line (the header) names the format, its version and whose session it is;
every further line is one record (:func:`safari_kit.teaching.class_records.to_dict`),
of that learner. Reading never drops a line silently: a line that is not a record of
the header's learner raises :class:`ResultsFileError` naming the file, the line and
the field; a file of a newer version is refused, not guessed at.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from safari_kit.teaching.class_records import Record, RecordError, from_dict, to_dict

__all__ = ["FORMAT", "VERSION", "SUFFIX", "ResultsFileError", "results_text", "write_results", "parse_results",
           "read_results", "file_name", "file_name_for"]

FORMAT = "safari-kit-results"
VERSION = 1
SUFFIX = ".safari-results.jsonl"


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
    lines = [json.dumps(header, ensure_ascii=False)] + [json.dumps(to_dict(r), ensure_ascii=False) for r in recs]
    return "\n".join(lines) + "\n"


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


def parse_results(text: str, source: str = "<results>") -> list[Record]:
    """The records of a results file's text; ``source`` names it in errors."""
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise ResultsFileError(f"{source}: line 1: empty, expected the header {{\"format\": \"{FORMAT}\", ...}}")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as exc:
        raise ResultsFileError(f"{source}: line 1: not JSON ({exc.msg}): {lines[0][:80]!r}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        got = header.get("format") if isinstance(header, dict) else header
        raise ResultsFileError(f"{source}: line 1: field format: expected {FORMAT!r}, got {got!r}")
    version = header.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ResultsFileError(f"{source}: line 1: field version: expected a whole number, got {version!r}")
    if version > VERSION:
        raise ResultsFileError(f"{source}: line 1: field version: the file is version {version}, this kit reads "
                               f"up to version {VERSION}: update safari-kit to read it")
    if version < 1:
        raise ResultsFileError(f"{source}: line 1: field version: expected 1 to {VERSION}, got {version}")
    records: list[Record] = []
    seen: dict[int, int] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            if any(rest.strip() for rest in lines[number:]):
                raise ResultsFileError(f"{source}: line {number}: empty line between records")
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ResultsFileError(f"{source}: line {number}: not JSON ({exc.msg}): {line[:80]!r}") from None
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
        records.append(record)
    return records


def read_results(path: str | Path) -> list[Record]:
    """The records of the results file at ``path``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ResultsFileError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse_results(text, str(path))
