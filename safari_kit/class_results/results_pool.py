"""Which records a class's pool may trust, and why the others are left out (issue 26).

A folder of downloaded results files is written by the learners, so any file may be
edited, copied or made up: a record of ``10**15`` trials, a file carrying a classmate's
learner id (it is in the file's name), the same learner under two nicknames. Before
this module, one such file either moved the class's numbers or stopped the whole pool.
The rules now:

* **Each file on its own.** A file that cannot be read (bad JSON, a field out of its
  bounds, too big, not UTF-8) is left out with one sentence naming the file, the line
  and what was expected; every other file is still pooled.
* **A learner id is trusted only with its nickname.** Records of one id under two
  different nicknames are left out, all of them, with the files and lines of both.
* **One id in two files merges only as one session downloaded twice**: the same
  nickname, the same record at every shared number, and one file holding every number
  of the other (a later download holds the earlier one). Then the records count once
  and a note says so. Anything else (two files that each hold records the other lacks,
  or two different records under one number) is a copy or an edit: every record of that
  id is left out, naming both files and the first line where they differ. Nobody can
  tell which file is the real one, so neither is credited; the teacher keeps the right
  file and pools again.

What cannot be told from the files alone: a made-up file under a nickname and id that
appear nowhere else looks like any learner's (the file holds no signature). The bounds
on every number (:mod:`~safari_kit.class_results.bounded_numbers`) keep such a file's weight
that of one learner pressing the lab's largest buttons.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from safari_kit.class_results.class_records import Record, to_dict
from safari_kit.class_results.results_file import ResultsFileError, read_results_lines

__all__ = ["PoolNote", "Located", "trusted", "read_files"]

#: a record with where it was read: (file or source name, line or None, record)
Located = tuple[str, "int | None", Record]


@dataclass(frozen=True)
class PoolNote:
    """One sentence about the pool: a file or a learner's records left out (``skipped``), or records counted once
    although they came twice (not skipped). ``source``: the file it is about."""

    source: str
    text: str
    skipped: bool = True

    def __str__(self) -> str:
        return self.text


def _at(source: str, line: int | None) -> str:
    return f"{source} line {line}" if line is not None else source


def _diff(a: Record, b: Record) -> str:
    x, y = to_dict(a), to_dict(b)
    return "; ".join(f"{k} {x.get(k)!r} and {y.get(k)!r}" for k in dict.fromkeys([*x, *y]) if x.get(k) != y.get(k))


def _one_learner(learner: str, located: list[Located]) -> tuple[list[Record], list[PoolNote]]:
    """The records of one learner id to pool (none, when they cannot be trusted), and what to say about them."""
    first = located[0]
    for source, line, record in located:
        if record.nickname != first[2].nickname:
            return [], [PoolNote(source, f"left out learner id {learner!r}: it appears under two nicknames, "
                                         f"{first[2].nickname!r} ({_at(first[0], first[1])}) and {record.nickname!r} "
                                         f"({_at(source, line)}); a learner id counts only with its own nickname")]
    by_seq: dict[int, Located] = {}
    for source, line, record in located:
        old = by_seq.get(record.seq)
        if old is not None and old[2] != record:
            return [], [PoolNote(source, f"left out learner id {learner!r} ({record.nickname}): two different records "
                                         f"number {record.seq} ({_at(old[0], old[1])} and {_at(source, line)}: "
                                         f"{_diff(old[2], record)}); keep the learner's own file and pool again")]
        by_seq.setdefault(record.seq, (source, line, record))
    sources: dict[str, set[int]] = defaultdict(set)
    for source, _, record in located:
        sources[source].add(record.seq)
    notes: list[PoolNote] = []
    if len(sources) > 1:
        fullest = max(sources, key=lambda s: (len(sources[s]), s))
        others = [s for s in sources if s != fullest]
        apart = [s for s in others if not sources[s] <= sources[fullest]]
        if apart:
            extra = min(sources[apart[0]] - sources[fullest])
            return [], [PoolNote(apart[0], f"left out learner id {learner!r} ({first[2].nickname}): it is in "
                                           f"{fullest} and {apart[0]}, and neither is a later download of the other "
                                           f"(record number {extra} is only in {apart[0]}); keep the learner's own "
                                           f"file and pool again")]
        notes += [PoolNote(s, f"{s} holds records of learner id {learner!r} ({first[2].nickname}) that are also in "
                              f"{fullest} (the same session downloaded twice): counted once", skipped=False)
                  for s in sorted(others)]
    return [by_seq[seq][2] for seq in sorted(by_seq)], notes


def trusted(located: Iterable[Located]) -> tuple[list[Record], list[PoolNote]]:
    """The records to pool (each once, by learner and seq) and the notes on what was left out or merged."""
    by_learner: dict[str, list[Located]] = defaultdict(list)
    for item in located:
        by_learner[item[2].learner].append(item)
    records: list[Record] = []
    notes: list[PoolNote] = []
    for learner in sorted(by_learner):
        kept, said = _one_learner(learner, by_learner[learner])
        records += kept
        notes += said
    return records, notes


def read_files(paths: Iterable[Path]) -> tuple[list[Located], list[PoolNote]]:
    """Every record of the readable files, with file and line; a file that cannot be read is one note, never an
    exception (the rest of the class is still pooled)."""
    located: list[Located] = []
    notes: list[PoolNote] = []
    for path in paths:
        try:
            lines = read_results_lines(path)
        except ResultsFileError as exc:
            notes.append(PoolNote(path.name, f"left out {exc}"))
            continue
        if not lines:
            notes.append(PoolNote(path.name, f"left out {path}: no records after the header"))
        located += [(path.name, line, record) for line, record in lines]
    return located, notes
