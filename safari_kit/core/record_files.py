"""The one folder where the labs save and load game records, and the names allowed in it.

The labs' File box is typed into by whoever has the page, so it must never
become a way to read or write files on the server. Every record a lab saves or
loads lives in one **records folder**:

* ``$SAFARI_KIT_RECORDS`` when that environment variable is set, else
* ``records/`` in the current working directory (JupyterLab and Voilà run a
  notebook's kernel in the notebook's folder, so the classroom app uses
  ``notebooks/records/``).

A record **name** is a bare file name: 1 to 64 letters, digits, ``-`` or
``_``, then ``.json`` (``.json`` is added to a bare stem: ``my-game`` is
``my-game.json``). Anything else (a slash, ``..``, an absolute path, another
extension, a space, a non-ASCII letter, an empty name) is refused with
:class:`RecordNameError` *before the file system is touched*, so the answer
never depends on what exists outside the folder: ``/etc/passwd`` and
``/no/such/file`` get the same message.

Some stems are **reserved** and refused like any bad name: ``app`` (the
classroom app's own files), the Windows device names (``CON``, ``PRN``,
``AUX``, ``NUL``, ``COM1``-``COM9``, ``LPT1``-``LPT9``, any case) and the
names this kit writes beside records. A shared folder is typed into by a
whole class, so :func:`learner_record_name` (what the app's Save uses) adds a
server-chosen suffix to the learner's name: nobody can take a name before
someone else needs it, and the learner reads the full name on the page.

**A quota** (:func:`check_quota`): at most :func:`quota` records and bytes in
the folder (``$SAFARI_KIT_RECORDS_MAX_FILES``, default 500;
``$SAFARI_KIT_RECORDS_MAX_BYTES``, default 50 MB) and at most
``$SAFARI_KIT_RECORDS_PER_LEARNER`` (default 20) saved by one kernel (one
learner's page); a save past it is refused with a message saying which limit.

Inside the folder: a record is a plain file (a symbolic link is refused, even
one pointing inside), at most :data:`MAX_RECORD_BYTES` bytes, UTF-8 JSON text.
Saving never overwrites an existing record (another learner's game stays as it
was) and never leaves a half-written file behind. Everything refused raises a
:class:`RecordFileError` (or :class:`RecordNameError`) whose message says what
was wrong and what is allowed, and never quotes the file's content (it may be
anything a learner typed); nothing is changed on disk when a call fails.

>>> record_name("my-game")
'my-game.json'
>>> record_name("../../x.json")
Traceback (most recent call last):
...
safari_kit.core.record_files.RecordNameError: '../../x.json' is not a record name: ...
"""
from __future__ import annotations

import errno
import json
import logging
import os
import re
import secrets
import stat
from pathlib import Path

from safari_kit.core.errors import SafariKitError

__all__ = ["RECORDS_ENV", "MAX_RECORD_BYTES", "RecordNameError", "RecordFileError", "records_folder",
           "record_name", "record_path", "write_record_file", "read_record_file", "load_record_file",
           "parse_record_text", "list_record_files", "ALLOWED_NAMES", "RESERVED_STEMS", "learner_record_name",
           "quota", "check_quota"]

RECORDS_ENV = "SAFARI_KIT_RECORDS"
MAX_RECORD_BYTES = 1_000_000
_STEM = re.compile(r"[A-Za-z0-9_-]{1,64}")
ALLOWED_NAMES = ("a bare file name: 1 to 64 letters (A-Z, a-z), digits, '-' or '_', "
                 "ending in .json (added when left out), e.g. my-game.json")
#: stems no record may have (compared in lower case): the app's own name and the Windows device names
RESERVED_STEMS = frozenset({"app", "con", "prn", "aux", "nul", "clock$", "conin$", "conout$",
                            *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))})
#: the quota's settings (environment variable, default)
QUOTA_ENV = {"files": ("SAFARI_KIT_RECORDS_MAX_FILES", 500), "bytes": ("SAFARI_KIT_RECORDS_MAX_BYTES", 50_000_000),
             "per_learner": ("SAFARI_KIT_RECORDS_PER_LEARNER", 20)}
_SUFFIX_CHARS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud and typed back without mistakes
_saved_here = 0  # records this process (one kernel: one learner's page) has saved
log = logging.getLogger("safari_kit.records")


class RecordNameError(SafariKitError):
    """A record name that is not a bare ``name.json`` (refused without looking at any file)."""

    def __init__(self, name):
        self.name = name
        shown = repr(name) if len(repr(name)) <= 80 else repr(name)[:77] + "..."
        super().__init__(f"{shown} is not a record name: use {ALLOWED_NAMES}. "
                         "Records are kept in the records folder only.")


class RecordFileError(SafariKitError):
    """A record file in the records folder that cannot be saved or loaded (the message says why)."""


def records_folder(create: bool = False) -> Path:
    """The records folder (absolute, symlinks resolved); made when ``create`` and missing."""
    raw = os.environ.get(RECORDS_ENV, "").strip()
    folder = Path(raw).expanduser() if raw else Path.cwd() / "records"
    if create:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RecordFileError(f"cannot make the records folder ({exc.strerror})") from None
    return folder.resolve()


def record_name(name) -> str:
    """The checked file name for ``name`` (``.json`` added to a bare stem); :class:`RecordNameError` otherwise."""
    if not isinstance(name, str):
        raise RecordNameError(name)
    stem = name[:-5] if name.endswith(".json") else name
    if not _STEM.fullmatch(stem):  # ASCII only; no '.', '/', '\\', NUL, space or empty stem
        raise RecordNameError(name)
    if stem.lower() in RESERVED_STEMS:
        raise RecordNameError(name)
    return stem + ".json"


def learner_record_name(name=None) -> str:
    """A record name for a learner's Save in a shared folder: their stem plus a server-chosen suffix.

    The suffix (5 random letters and digits) means no learner can take a name
    before another needs it, nor guess the next one; the stem is checked like
    any record name first. Without a name, ``game-<suffix>.json``.

    >>> import re; bool(re.fullmatch(r"my-game-[a-z2-9]{5}\\.json", learner_record_name("my-game")))
    True
    """
    stem = record_name(name)[:-5] if name else "game"
    suffix = "".join(secrets.choice(_SUFFIX_CHARS) for _ in range(5))
    return record_name(f"{stem[:58]}-{suffix}")


def quota() -> dict[str, int]:
    """The records quota now in force: ``files`` and ``bytes`` in the folder, ``per_learner`` saves a kernel."""
    out = {}
    for key, (env, default) in QUOTA_ENV.items():
        raw = os.environ.get(env, "").strip()
        try:
            out[key] = int(raw) if raw else default
        except ValueError:
            raise RecordFileError(f"{env}={raw[:20]!r} is not a whole number (the server's records quota)") from None
    return out


def check_quota(size: int, folder: str | Path | None = None, learner: bool = False) -> None:
    """Refuse a save of ``size`` bytes that would pass the quota, saying which limit (nothing is written).

    ``learner``: a save from the classroom app's page, which also counts against this kernel's own limit.
    """
    q = quota()
    if learner and _saved_here >= q["per_learner"]:
        raise RecordFileError(f"you have saved {_saved_here} records on this page, the most one learner may "
                              f"({q['per_learner']}): the record is in the box below, copy it from there")
    base = _folder_for(folder, create=False)
    count, used = 0, 0
    try:
        with os.scandir(base) as entries:
            for e in entries:
                try:
                    if e.is_file(follow_symlinks=False):
                        count += 1
                        used += e.stat(follow_symlinks=False).st_size
                except OSError:
                    continue
    except OSError:
        return  # no folder yet: nothing used
    if count >= q["files"]:
        raise RecordFileError(f"the records folder is full ({count} records, the most this server keeps is "
                              f"{q['files']}): ask your teacher to clear it; the record is in the box below")
    if used + size > q["bytes"]:
        raise RecordFileError(f"the records folder is full ({used:,} of {q['bytes']:,} bytes used): ask your "
                              "teacher to clear it; the record is in the box below")


def record_path(name, folder: str | Path | None = None) -> Path:
    """Where the record ``name`` lives: always directly inside the records folder."""
    base = Path(folder).resolve() if folder is not None else records_folder()
    path = base / record_name(name)
    if path.parent != base:  # cannot happen with a checked name; a second lock on the door
        raise RecordNameError(name)
    return path


def _folder_for(folder, create: bool) -> Path:
    if folder is None:
        return records_folder(create=create)
    base = Path(folder)
    if create:
        base.mkdir(parents=True, exist_ok=True)
    return base.resolve()


def write_record_file(name, text: str, folder: str | Path | None = None, *, learner: bool = False) -> Path:
    """Save ``text`` as the new record ``name``; refuses to overwrite, to follow a link or to exceed the size cap
    or the quota (``learner``: a save from the app's page, see :func:`check_quota`)."""
    fname = record_name(name)  # check the name before anything is made on disk
    data = text if text.endswith("\n") else text + "\n"
    raw = data.encode("utf-8")
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordFileError(f"the record is {len(raw):,} bytes; a record file holds at most "
                              f"{MAX_RECORD_BYTES:,} bytes")
    check_quota(len(raw), folder, learner)
    base = _folder_for(folder, create=True)
    path = record_path(fname, base)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except FileExistsError:
        raise RecordFileError(f"a record named {fname!r} already exists in the records folder: "
                              "choose another name (records are never overwritten)") from None
    except OSError as exc:
        raise RecordFileError(f"cannot save {fname!r} in the records folder ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
    except OSError as exc:
        path.unlink(missing_ok=True)
        raise RecordFileError(f"cannot save {fname!r} in the records folder ({exc.strerror})") from None
    if learner:
        global _saved_here
        _saved_here += 1
    return path


def read_record_file(name, folder: str | Path | None = None) -> str:
    """The text of the record ``name`` in the records folder (a plain UTF-8 file of at most the size cap)."""
    fname = record_name(name)
    base = _folder_for(folder, create=False)
    path = record_path(fname, base)
    missing = RecordFileError(f"there is no record named {fname!r} in the records folder")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        if path.is_symlink():
            raise RecordFileError(f"{fname!r} in the records folder is a link, not a record file: "
                                  "records are plain files")
        fd = os.open(path, flags)
    except RecordFileError:
        raise
    except FileNotFoundError:
        raise missing from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise RecordFileError(f"{fname!r} in the records folder is a link, not a record file: "
                                  "records are plain files") from None
        raise RecordFileError(f"cannot read {fname!r} in the records folder ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RecordFileError(f"{fname!r} in the records folder is not a plain file")
        if info.st_size > MAX_RECORD_BYTES:
            raise RecordFileError(f"{fname!r} is {info.st_size:,} bytes: too big for a game record "
                                  f"(at most {MAX_RECORD_BYTES:,} bytes)")
        chunks, size = [], 0
        while size <= MAX_RECORD_BYTES:
            chunk = os.read(fd, MAX_RECORD_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        raw = b"".join(chunks)
    except OSError as exc:
        raise RecordFileError(f"cannot read {fname!r} in the records folder ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordFileError(f"{fname!r} is too big for a game record (at most {MAX_RECORD_BYTES:,} bytes)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordFileError(f"{fname!r} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def load_record_file(name, folder: str | Path | None = None) -> dict:
    """The JSON object in the record ``name`` (the game code then checks it is a record it can replay)."""
    fname = record_name(name)
    text = read_record_file(fname, folder)
    return parse_record_text(text, fname)


def parse_record_text(text: str, origin: str = "record text") -> dict:
    """Parse record JSON text into a dict, with a clear error (never treated as a file path)."""
    if len(text.encode("utf-8", errors="replace")) > MAX_RECORD_BYTES:
        raise RecordFileError(f"{origin} is too big for a game record (at most {MAX_RECORD_BYTES:,} bytes)")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordFileError(f"{origin}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise RecordFileError(f"{origin}: JSON nested too deeply to be a game record") from None
    except Exception as exc:  # noqa: BLE001 - e.g. ValueError: an integer of more than 4300 digits
        log.info("record text refused by the JSON reader: %s: %s", type(exc).__name__, exc)
        raise RecordFileError(f"{origin}: not a game record (it holds something a game record never has, "
                              "such as a number thousands of digits long)") from None
    if not isinstance(doc, dict):
        raise RecordFileError(f"{origin}: a game record is a JSON object, not {type(doc).__name__}")
    return doc


def list_record_files(folder: str | Path | None = None) -> list[str]:
    """The names of the records in the folder (plain ``*.json`` files with allowed names), sorted."""
    base = _folder_for(folder, create=False)
    try:
        entries = list(os.scandir(base))
    except OSError:
        return []
    names = []
    for e in entries:
        try:
            ok = e.is_file(follow_symlinks=False)
        except OSError:
            ok = False
        if ok and e.name.endswith(".json") and _STEM.fullmatch(e.name[:-5]) and \
                e.name[:-5].lower() not in RESERVED_STEMS:
            names.append(e.name)
    return sorted(names)
