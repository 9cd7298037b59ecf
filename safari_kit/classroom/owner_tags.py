"""Owner tags: telling a lab's kernel which browser it belongs to, without giving it the browser's cookie (issue 26).

Every page of the class server has a kernel of its own, and the labs made up a
random learner id per kernel: a second tab, or a reload, was a new learner in
the class's results (a new nickname, a new quota, a new weight). The class
server knows each kernel's owner, the random user id of the browser's signed
login cookie (:mod:`safari_kit.classroom.owners`), but a kernel never sees the
cookie, and must not: the cookie's user id is what lets a browser use its labs.

So, when the class server records a session (``safari-kit class --results``),
:func:`start` is given a private folder beside the session's database and a
secret made at start and kept only in this process's memory; the kernel
manager calls :func:`tag` each time it hands a kernel to a browser
(``ReadyLabsMixin._handed_out``, ``ClassroomKernelManager.owned_by``), which
writes the file ``<folder>/<kernel id>`` holding the browser's *tag*,
``HMAC-SHA256(secret, user id)`` in hex: the same for every kernel of one
browser, different between browsers, and no use to anyone without the secret
(the user id cannot be recovered from it). The lab reads its own tag when its
learner joins (:mod:`safari_kit.class_results.learner_tags`, a layer below the class
server: the lab's kernel imports it, never the class server).

The folder is created 0700 (files 0600) and removed by :func:`stop` when the
server stops. Without :func:`start` (no recording, a plain Jupyter server),
:func:`tag` does nothing.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import os
import re
import shutil
import threading
from pathlib import Path

__all__ = ["start", "stop", "tag", "tag_of", "folder"]

log = logging.getLogger("safari_kit.classroom")

_KERNEL_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_lock = threading.Lock()
_where: Path | None = None
_secret: bytes | None = None


def tag_of(secret: bytes, user_id: str) -> str:
    """The tag of a browser whose user id is ``user_id`` (64 hex digits).

    >>> tag_of(b"k" * 32, "u1") == tag_of(b"k" * 32, "u1") != tag_of(b"k" * 32, "u2")
    True
    """
    return hmac.new(secret, user_id.encode("utf-8"), hashlib.sha256).hexdigest()


def folder() -> Path | None:
    """The tags' folder while tags are written, else None."""
    return _where


def start(where: str | Path, secret: bytes | None = None) -> Path:
    """Write tags into ``where`` from now on (a new, private folder: one left by a server that crashed is
    emptied first); ``secret``: 32 random bytes unless given (tests)."""
    global _where, _secret
    path = Path(where)
    with _lock:
        shutil.rmtree(path, ignore_errors=True)
        path.mkdir(mode=0o700, parents=False)
        os.chmod(path, 0o700)  # whatever the umask
        _where, _secret = path, secret if secret is not None else os.urandom(32)
    return path


def stop() -> None:
    """Stop writing tags and remove the folder with every tag in it."""
    global _where, _secret
    with _lock:
        where, _where, _secret = _where, None, None
    if where is not None:
        shutil.rmtree(where, ignore_errors=True)


def tag(kernel_id: str, user_id: str | None) -> None:
    """Write the tag of the browser ``user_id`` for ``kernel_id`` (nothing when tags are off, or either is
    missing or malformed). Never raises: a tag that cannot be written only makes the lab's learner id random."""
    with _lock:
        where, secret = _where, _secret
    if where is None or secret is None or not user_id or not isinstance(kernel_id, str) \
            or not _KERNEL_ID.fullmatch(kernel_id):
        return
    path = where / kernel_id
    tmp = where / f".{kernel_id}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(tag_of(secret, user_id))
        os.replace(tmp, path)  # a lab reading at that moment sees the whole tag or none
    except OSError as exc:
        log.warning("Could not write the owner tag of kernel %s: %s", kernel_id, exc)
