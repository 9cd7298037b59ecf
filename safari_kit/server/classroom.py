"""The class server (``make class``): the standalone Voilà app with every classroom setting, in one place.

``make app`` is the one-laptop way in: Voilà's defaults, on localhost. A class
of 25-30 learners on the school network needs more, and :class:`ClassSettings`
holds all of it; :func:`voila_config` turns it into Voilà's traitlets config
using only documented hooks (no installed file is changed):

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

Recording needs the kit's teaching layer, which this package may not import: with
``results`` set, :func:`run` is called by :func:`safari_kit.classroom_web.app.run`, which
passes the Voilà app with the teacher's page and the kernels' environment.

Ready labs are Voilà's preheated kernels (``VoilaConfiguration.preheat_kernel``,
``default_pool_size``), sized from the class by :mod:`safari_kit.server.ready_labs`,
which starts them a few at a time, hands out only a lab whose page rendered whole,
gives a page that comes too early a page saying the lab is starting, and prints
"30 labs ready: the class can come in now." once (issue 26). A page's render waits
:data:`IOPUB_TIMEOUT_SECONDS` for a cell's output (nbclient's 4 s lost it on a busy
laptop). The served notebook is signed as trusted for the server's run only
(:func:`trust_notebook`): 30 "is not trusted" warnings at each start said nothing.

Hooks: ``Voila.identity_provider_class`` (kernel ownership,
:mod:`safari_kit.server.owners`), ``VoilaConfiguration.multi_kernel_manager_class``
(owners, caps, memory: :mod:`safari_kit.server.kernels`), jupyter_server's own
culler (``MappingKernelManager.cull_idle_timeout``), ``Voila.tornado_settings``
(``websocket_max_message_size``), ``Voila.kernel_websocket_connection_class``
(TCP_NODELAY, and the pages' sockets known to the kernel manager), and the
kit's Voilà template read from the kit itself (``JUPYTER_PATH``), so the
page can say why its kernel was stopped even when the installed copy is older.
"""
from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import tempfile
from pathlib import Path

from safari_kit.server import request_log

__all__ = ["ClassSettings", "voila_config", "learner_urls", "template_root", "trust_notebook", "run"]

MiB = 1024 * 1024
CONNECTION_CLASS = "safari_kit.server.kernels.ClassroomWebsocketConnection"
KERNEL_MANAGER_CLASS = "safari_kit.server.kernels.ClassroomKernelManager"
IDENTITY_PROVIDER_CLASS = "safari_kit.server.owners.KernelOwnerIdentityProvider"
#: seconds a page's render waits for a cell's output after the cell's reply (nbclient's default: 4)
IOPUB_TIMEOUT_SECONDS = 30


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
    results: str = ""  # a folder: record the class's results there (safari_kit.classroom_web.app.run)
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


def voila_config(settings: ClassSettings):
    """Voilà's traitlets config for ``settings`` (a ``traitlets.config.Config``)."""
    from traitlets.config import Config

    c = Config()
    c.Voila.ip = settings.ip
    c.Voila.port = settings.port
    c.Voila.base_url = settings.base_url
    c.Voila.port_retries = 0  # the address printed for the learners is the one served, or a clear error
    c.Voila.open_browser = False
    c.Voila.kernel_websocket_connection_class = CONNECTION_CLASS
    c.Voila.identity_provider_class = IDENTITY_PROVIDER_CLASS
    # the owner cookie: HttpOnly (jupyter_server's default), and never sent by another site's page
    c.PasswordIdentityProvider.cookie_options = {"samesite": "Strict"}
    c.Voila.tornado_settings = {
        "websocket_max_message_size": settings.max_message_bytes or None,
        # request lines without addresses or keys (safari_kit.server.request_log)
        "log_function": request_log.log_request,
        # jupyter_server's error pages (a refused or unknown kernel's websocket: old pages reconnecting after a
        # restart) link its static files with static_url, which needs this setting: without it each one was a
        # traceback instead of a 404
        "static_path": _jupyter_server_static(),
    }
    # no learner's address in the log, and a flood of refusals as a summary line (request_log)
    c.Voila.logging_config = request_log.logging_config()
    c.VoilaConfiguration.multi_kernel_manager_class = KERNEL_MANAGER_CLASS
    c.VoilaConfiguration.show_tracebacks = False  # a learner never sees a traceback or a server path
    # the kit's template for every page, its error page too (the learner's sentence, nothing from a CDN)
    c.VoilaConfiguration.template = "safari"
    km = c.ClassroomKernelManager
    km.max_kernels = settings.max_kernels
    km.new_kernels_per_minute = settings.new_kernels_per_minute
    km.max_starting = settings.max_starting
    km.ready_labs = settings.ready_labs
    km.spare_labs = settings.spare_labs
    if settings.pool_size:  # Voilà's pool: started before anyone comes, refilled 2 s after a page takes a lab
        c.VoilaConfiguration.preheat_kernel = True
        c.VoilaConfiguration.default_pool_size = settings.pool_size
        c.VoilaKernelManager.fill_delay = 2.0
    # the app cell's output (the widget view) arrives after its reply; nbclient waits 4 s for it, then renders
    # the page without it (a white page). A busy laptop starting labs took longer (issue 26). Its timings
    # (record_timing) tell a page that lost output: safari_kit.server.lab_pages.why_not_whole
    c.VoilaExecutor.iopub_timeout = IOPUB_TIMEOUT_SECONDS
    c.VoilaExecutor.record_timing = True
    km.memory_limit_mb = settings.memory_limit_mb
    km.memory_check_interval = settings.memory_check_seconds
    km.page_bytes_per_window = settings.page_bytes_per_10s
    km.max_sockets_per_lab = settings.sockets_per_lab
    km.labs_per_browser = settings.labs_per_browser
    km.labs_per_address = settings.labs_per_address
    km.reclaim_silent_seconds = settings.reclaim_after_seconds
    km.cull_idle_timeout = settings.cull_idle_seconds
    km.cull_interval = settings.cull_interval_seconds or 60
    km.cull_connected = False  # a kernel with an open page is never culled
    km.cull_busy = False
    return c


def _jupyter_server_static() -> str:
    """jupyter_server's own static folder (its error pages' styles and icon)."""
    import jupyter_server

    return str(jupyter_server.DEFAULT_STATIC_FILES_PATH)


def _lan_addresses() -> list[str]:
    """This machine's addresses other machines can use (best effort, no packet sent)."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # UDP connect: picks the outgoing interface, sends nothing
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    return [a for a in dict.fromkeys(found) if not a.startswith("127.")]


def learner_urls(ip: str, port: int, base_url: str = "/") -> list[str]:
    """The addresses to give learners, best first.

    >>> learner_urls("192.168.1.20", 8866)
    ['http://192.168.1.20:8866/']
    """
    if ip in ("", "0.0.0.0", "::"):
        hosts = _lan_addresses() or ["localhost"]
        name = socket.gethostname()
        if name and name not in hosts:
            hosts.append(name)
    else:
        hosts = [ip]
    return [f"http://{h}:{port}{base_url}" for h in hosts]


def template_root() -> Path:
    """A Jupyter data folder holding the kit's Voilà template (``voila/templates/safari``), from the kit itself.

    The install copies the template into the environment's ``share/jupyter``; an
    edit of the kit reaches that copy only at the next install. Put first on
    ``JUPYTER_PATH``, this folder makes the class server use the kit's own.
    """
    root = Path(tempfile.mkdtemp(prefix="safari-kit-class-"))
    dest = root / "voila" / "templates" / "safari"
    dest.parent.mkdir(parents=True)
    shutil.copytree(Path(__file__).resolve().parents[1] / "voila_template" / "safari", dest)
    return root


def trust_notebook(notebook: str, folder: Path, config) -> None:
    """Sign ``notebook`` as trusted for this server only (a signature store in ``folder``, a secret of its own).

    jupyter_server checks a notebook's signature each time it reads it, and
    warned "Notebook app.ipynb is not trusted" for every page and ready lab (30
    lines at each start). Voilà runs the notebook afresh for each page and
    trusts the outputs it makes, so the check says nothing here; the teacher's
    own signature store is left alone. A notebook edited while the server runs
    is no longer signed, and jupyter_server warns again, as it should.
    """
    import secrets

    import nbformat
    from nbformat.sign import NotebookNotary

    try:
        nb = nbformat.read(notebook, as_version=4)
    except (OSError, ValueError):  # not a notebook Voilà can read either: its page says so, not this
        return
    secret, db_file = secrets.token_bytes(32), str(folder / "nbsignatures.db")
    config.NotebookNotary.secret = secret
    config.NotebookNotary.db_file = db_file
    notary = NotebookNotary(secret=secret, db_file=db_file)
    try:
        notary.sign(nb)
    finally:
        notary.store.close()


def check_port_free(ip: str, port: int) -> None:
    """Raise OSError naming the address when ``ip:port`` cannot be listened on."""
    with socket.socket(socket.AF_INET6 if ":" in ip else socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((ip, port))
        except OSError as exc:
            raise OSError(f"cannot listen on {ip}:{port} ({exc.strerror or exc}); pick another --port "
                          f"or --ip") from None


def run(notebook: str, settings: ClassSettings, print_fn=print, *, app_class=None,
        kernel_env: dict[str, str] | None = None, extra_lines: tuple[str, ...] | list[str] = ()) -> int:
    """Serve ``notebook`` to a class with ``settings`` until Ctrl+C; return the exit code.

    ``app_class``: a subclass of Voilà's app to launch instead (the teacher's page);
    ``kernel_env``: variables every kernel inherits (set in this process before any starts);
    ``extra_lines``: printed after the learners' address. :func:`safari_kit.classroom_web.app.run`
    passes all three when ``settings.results`` is set; without them recording is refused.
    """
    if settings.results and app_class is None:
        raise ValueError("recording results (--results) needs safari_kit.classroom_web.app.run")
    if not Path(notebook).is_file():
        raise OSError(f"notebook not found: {notebook}")
    check_port_free(settings.ip, settings.port)
    root = template_root()
    config = voila_config(settings)
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(root), os.environ.get("JUPYTER_PATH")) if p)
    # every kernel keeps tracebacks off its page, a ready lab's too (safari_kit.widgets.quiet.QUIET_ENV)
    os.environ["SAFARI_KIT_QUIET_ERRORS"] = "1"
    os.environ.update(kernel_env or {})
    if app_class is None:
        from voila.app import Voila

        app_class = Voila

    trust_notebook(notebook, root, config)
    urls = learner_urls(settings.ip, settings.port, settings.base_url)
    print_fn("Safari kit class server: give learners this address" + (" (or one of these)" if len(urls) > 1 else "")
             + ":\n" + "\n".join(f"    {u}" for u in urls))
    for line in extra_lines:
        print_fn(line)
    print_fn(f"Limits: {settings.max_kernels or 'no'} labs at most, {settings.new_kernels_per_minute or 'no limit of'}"
             f" new labs per computer per minute, {settings.memory_limit_mb or 'no limit of'} MB per lab, idle labs "
             f"closed after {settings.cull_idle_seconds or 'never'} s. Stop with Ctrl+C.")
    if settings.pool_size:
        print_fn(f"Getting {settings.pool_size} labs ready (about {max(10, settings.pool_size * 2)} s on a 2-core "
                 f"laptop; --ready-labs sets how many, 0: none). This terminal says when the class can come in; "
                 f"a learner who comes earlier sees a page saying the lab is starting.")
    try:
        app_class.launch_instance(argv=[notebook], config=config)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0
