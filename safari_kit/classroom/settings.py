"""Every setting of the class server (``make class``, ``safari-kit class``), in one place.

=========================  =======================================  ============================================
setting (CLI option)       default                                  what it does
=========================  =======================================  ============================================
``ip`` (--ip)              ``0.0.0.0``: every interface             where learners reach the server
``port`` (--port)          8866                                     Voilà's port
``base_url`` (--base-url)  ``/``                                    the path it serves under (behind a proxy)
``max_kernels``            80 live kernels                          a page beyond it: "the class server is full"
``new_kernels_per_minute`` 4 per client (IP address)                a page beyond it: "wait a minute"
``ready_labs``             30 labs kept ready (in use or not)       a page takes a lab that already ran the app:
                                                                    it opens at once (0: each page starts one)
``spare_labs``             2 ready labs however many are in use     for latecomers and reloads
``max_starting``           2 labs starting at once                  ready labs too; further pages get "Your lab is
                                                                    starting" (a start ends when its page is
                                                                    rendered, sent or connects, or after 30 s)
``cull_idle_seconds``      600 s idle, checked every 60 s           a kernel no page is connected to is shut
                                                                    (one never connected: not before 120 s)
``memory_limit_mb``        512 MB per kernel, checked every 5 s     a kernel over it is stopped; its page says so
``max_message_bytes``      1 MiB per websocket frame                a larger frame closes that page's socket
``page_bytes_per_10s``     4 MiB from one lab's pages in any 10 s   more closes the lab's sockets, with a sentence
``sockets_per_lab``        3 websockets open at once on one lab     a new one closes the oldest, with a sentence
``labs_per_browser``       3 labs held at once by one browser       a page beyond it: "close a tab you no longer
                                                                    use" (a lab whose page has gone is taken back)
``labs_per_address``       6 labs held at once by one address       the same, per computer (a hotspot: a few
                                                                    learners behind one address)
``reclaim_after_seconds``  150 s                                    when full, a newcomer takes the lab whose page
                                                                    has sent nothing the longest beyond it (0: never)
``results`` (--results)    off: nothing recorded                    record the class's results in this folder and
                                                                    serve the teacher's page (issue 21)
``session`` (--session)    the start's date and time                the session's name (its file SESSION.sqlite3)
=========================  =======================================  ============================================

:class:`ClassSettings` holds them; :func:`safari_kit.classroom.config.voila_config` turns them into
Voilà's traitlets config, and :func:`safari_kit.classroom.serve.run` serves the class with them.
"""
from __future__ import annotations

import dataclasses

__all__ = ["ClassSettings", "MiB"]

MiB = 1024 * 1024


@dataclasses.dataclass(frozen=True)
class ClassSettings:
    """Every setting of the class server; the defaults are the documented ones (docs/teachers.md)."""

    ip: str = "0.0.0.0"
    port: int = 8866
    base_url: str = "/"
    max_kernels: int = 80
    new_kernels_per_minute: int = 4
    ready_labs: int = 30
    spare_labs: int = 2
    max_starting: int = 2
    cull_idle_seconds: int = 600
    cull_interval_seconds: int = 60
    memory_limit_mb: int = 512
    memory_check_seconds: float = 5.0
    max_message_bytes: int = 1 * MiB
    page_bytes_per_10s: int = 4 * MiB
    sockets_per_lab: int = 3
    labs_per_browser: int = 3
    labs_per_address: int = 6
    reclaim_after_seconds: int = 150
    results: str = ""  # a folder: record the class's results there (safari_kit.classroom.recording)
    session: str = ""  # the session's name; "" = the start's date and time

    @property
    def pool_size(self) -> int:
        """The ready labs started before the class comes: :attr:`ready_labs`, never more than :attr:`max_kernels`."""
        return min(self.ready_labs, self.max_kernels) if self.max_kernels else self.ready_labs

    def __post_init__(self):
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name in ("ip", "base_url", "results", "session"):
                if not isinstance(value, str):
                    raise ValueError(f"class setting {field.name} must be text, got {value!r}")
                continue
            if not isinstance(value, int | float) or value < 0:
                raise ValueError(f"class setting {field.name} must be a number >= 0, got {value!r}")
        if not (self.base_url.startswith("/") and self.base_url.endswith("/")) or any(
                c.isspace() or c in "?#\\" for c in self.base_url):
            raise ValueError(f"class setting base_url must be a path that starts and ends with '/', such as "
                             f"'/7b/', got {self.base_url!r}")
        if not 0 < self.port < 65536:
            raise ValueError(f"class setting port must be from 1 to 65535, got {self.port}")
        if self.cull_idle_seconds and self.cull_interval_seconds <= 0:
            raise ValueError("class setting cull_interval_seconds must be > 0 when kernels are culled")
        if self.page_bytes_per_10s and self.page_bytes_per_10s < (self.max_message_bytes or 64 * 1024):
            raise ValueError(f"class setting page_bytes_per_10s must be at least max_message_bytes "
                             f"({self.max_message_bytes}), got {self.page_bytes_per_10s}")
        if self.max_message_bytes and self.max_message_bytes < 64 * 1024:
            raise ValueError(f"class setting max_message_bytes must be at least 65536 (the app's own messages), "
                             f"got {self.max_message_bytes}")
