"""One browser, one learner: the kernel's side of the class server's owner tags (issue 26).

Every page of the class server has a kernel of its own, and each kernel made up
a random learner id: a learner who opened a second tab (or reloaded) was a new
learner, with a new nickname, a new quota and a new weight in the class's
tables. The class server knows which browser each kernel belongs to (its owner:
the random user id in the browser's signed, HttpOnly cookie). When it records
a session it writes, for every kernel it hands to a browser, a small file
``<tags folder>/<kernel id>`` holding that browser's *tag*: an HMAC of the user
id under a secret the server made at start and keeps in memory
(:mod:`safari_kit.classroom.owner_tags`). The cookie itself is never written.

The tags folder sits beside the session's database (:func:`tags_folder`), is
created private (0700) and removed when the server stops. A kernel finds its
own id in its connection file's name (``kernel-<id>.json``) and, when the
learner joins, reads its tag: :func:`learner_for_kernel` turns it into the
learner id, so every page of one browser records as one learner. Without a
class server that records (a notebook, the static site, Binder) there is no
tag, and the learner id stays random, as before.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

__all__ = ["TAGS_SUFFIX", "tags_folder", "learner_from_tag", "learner_for_kernel", "kernel_id_from_connection_file"]

TAGS_SUFFIX = ".owners"
_DB_SUFFIX = ".sqlite3"
_KERNEL_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_TAG = re.compile(r"[0-9a-f]{64}")


def tags_folder(database: str | Path) -> Path:
    """The owner tags' folder of the session whose database is ``database`` (``FOLDER/SESSION.owners``).

    >>> tags_folder("/r/2026-12-04-1905.sqlite3").as_posix()
    '/r/2026-12-04-1905.owners'
    """
    path = Path(database)
    stem = path.name[:-len(_DB_SUFFIX)] if path.name.endswith(_DB_SUFFIX) else path.name
    return path.with_name(stem + TAGS_SUFFIX)


def kernel_id_from_connection_file(path: str | Path | None) -> str | None:
    """The kernel id in a connection file's name (``kernel-<uuid>.json``), or None.

    >>> kernel_id_from_connection_file("/run/kernel-1b2c3d4e-0000-4000-8000-123456789abc.json")
    '1b2c3d4e-0000-4000-8000-123456789abc'
    >>> kernel_id_from_connection_file("/run/kernel-../../x.json") is None
    True
    """
    if not path:
        return None
    name = Path(path).name
    if not (name.startswith("kernel-") and name.endswith(".json")):
        return None
    kid = name[len("kernel-"):-len(".json")]
    return kid if _KERNEL_ID.fullmatch(kid) else None


def learner_from_tag(tag: str) -> str:
    """The learner id of a browser's tag (a hash of it: the id in records and file names is not the tag)."""
    return "B" + hashlib.sha256(tag.encode("ascii")).hexdigest()[:20]


def learner_for_kernel(database: str | Path, kernel_id: str | None) -> str | None:
    """The learner id of the browser that owns ``kernel_id``, from its tag beside ``database``; None when there
    is no (well-formed) tag: the page then records under a random id."""
    if not kernel_id or not _KERNEL_ID.fullmatch(kernel_id):
        return None
    try:
        tag = (tags_folder(database) / kernel_id).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return learner_from_tag(tag) if _TAG.fullmatch(tag) else None
