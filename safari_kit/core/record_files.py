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

Inside the folder: a record is a plain file (a symbolic link is refused, even
one pointing inside), at most :data:`MAX_RECORD_BYTES` bytes, UTF-8 JSON text.
Saving never overwrites an existing record (another learner's game stays as it
was) and never leaves a half-written file behind. Everything refused raises a
:class:`RecordFileError` (or :class:`RecordNameError`) whose message says what
was wrong and what is allowed; nothing is changed on disk when a call fails.

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
import os
import re
import stat
from pathlib import Path

from safari_kit.core.errors import SafariKitError

__all__ = ["RECORDS_ENV", "MAX_RECORD_BYTES", "RecordNameError", "RecordFileError", "records_folder",
           "record_name", "record_path", "write_record_file", "read_record_file", "load_record_file",
           "parse_record_text", "list_record_files", "ALLOWED_NAMES"]

RECORDS_ENV = "SAFARI_KIT_RECORDS"
MAX_RECORD_BYTES = 1_000_000
_STEM = re.compile(r"[A-Za-z0-9_-]{1,64}")
ALLOWED_NAMES = ("a bare file name: 1 to 64 letters (A-Z, a-z), digits, '-' or '_', "
                 "ending in .json (added when left out), e.g. my-game.json")


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
    return stem + ".json"


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


def write_record_file(name, text: str, folder: str | Path | None = None) -> Path:
    """Save ``text`` as the new record ``name``; refuses to overwrite, to follow a link or to exceed the size cap."""
    fname = record_name(name)  # check the name before anything is made on disk
    data = text if text.endswith("\n") else text + "\n"
    raw = data.encode("utf-8")
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordFileError(f"the record is {len(raw):,} bytes; a record file holds at most "
                              f"{MAX_RECORD_BYTES:,} bytes")
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
        if ok and e.name.endswith(".json") and _STEM.fullmatch(e.name[:-5]):
            names.append(e.name)
    return sorted(names)
