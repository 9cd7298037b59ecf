"""The class server (``make class``): the standalone Voilà app, served with the class's settings.

``make app`` is the one-laptop way in: Voilà's defaults, on localhost. A class
of 25-30 learners on the school network needs more: :mod:`~safari_kit.classroom.settings`
holds every setting, :mod:`~safari_kit.classroom.config` turns them into Voilà's
config, and :func:`run` serves the class (with ``--results``, recording its results
and serving the teacher's page: :mod:`~safari_kit.classroom.recording`).

Ready labs are Voilà's preheated kernels (``VoilaConfiguration.preheat_kernel``,
``default_pool_size``), sized from the class by :mod:`safari_kit.classroom.ready_labs`,
which starts them a few at a time, hands out only a lab whose page rendered whole,
gives a page that comes too early a page saying the lab is starting, and prints
"30 labs ready: the class can come in now." once (issue 26). A page's render waits
:data:`~safari_kit.classroom.config.IOPUB_TIMEOUT_SECONDS` for a cell's output (nbclient's 4 s lost it on a busy
laptop). The served notebook is signed as trusted for the server's run only
(:func:`trust_notebook`): 30 "is not trusted" warnings at each start said nothing.
"""
from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from safari_kit.classroom.addresses import learner_urls
from safari_kit.classroom.config import voila_config
from safari_kit.classroom.hub_env import HubService, public_address
from safari_kit.classroom.page_words import write_template_words
from safari_kit.classroom.settings import ClassSettings
from safari_kit.core.i18n import LANGUAGE_NAMES

__all__ = ["template_root", "trust_notebook", "check_port_free", "serve", "run", "flushed"]


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


def flushed(print_fn: Callable[[str], object]) -> Callable[[str], None]:
    """``print_fn``, then stdout flushed: under JupyterHub a service's stdout is a pipe, block-buffered, and the
    addresses printed at the start never reached the hub's log (issue 29)."""
    def out(text: str) -> None:
        print_fn(text)
        sys.stdout.flush()

    return out


def run(notebook: str, settings: ClassSettings, print_fn=print, environ: Mapping[str, str] | None = None) -> int:
    """``safari-kit class``: serve ``notebook`` to a class with ``settings`` until Ctrl+C; return the exit code.

    With ``settings.results`` the class's results are recorded and the teacher's page is served
    (:func:`safari_kit.classroom.recording.recording` sets both up, and tidies up after). With ``settings.hub``
    the server is a JupyterHub service: its address, port and path are the hub's (read from ``environ``, the
    process's environment unless given: :mod:`safari_kit.classroom.hub_env`), and the hub's login comes first.
    """
    print_fn = flushed(print_fn)
    service = None
    if settings.hub:
        from safari_kit.classroom.hub_env import hub_settings, read_service, require_jupyterhub

        require_jupyterhub()
        service = read_service(os.environ if environ is None else environ, settings.public_url)
        settings = hub_settings(settings, service)
    if not settings.results:
        return serve(notebook, settings, print_fn=print_fn, hub=service)
    from safari_kit.classroom.recording import recording  # the teaching layer: only when recording

    address = (service.public_url or service.prefix) if service else None
    with recording(settings, print_fn=print_fn, address=address) as rec:
        lines = list(rec.lines)
        if service is not None and rec.app_class.teacher_access is not None:
            from safari_kit.classroom.hub import HubTeacherDoor

            rec.app_class.teacher_access = dataclasses.replace(rec.app_class.teacher_access,
                                                               door=HubTeacherDoor(settings.teacher_group))
            who = f"the hub's admins and the group {settings.teacher_group}" if settings.teacher_group else \
                "the hub's admins (--teacher-group names the teachers' group)"
            lines.append(f"On the hub, {who} open it after the hub's login, without the key: "
                         f"{address}teacher")
        return serve(notebook, settings, print_fn=print_fn, app_class=rec.app_class, kernel_env=rec.kernel_env,
                     extra_lines=lines, hub=service)


def serve(notebook: str, settings: ClassSettings, print_fn=print, *, app_class=None,
        kernel_env: dict[str, str] | None = None, extra_lines: tuple[str, ...] | list[str] = (),
        hub: HubService | None = None) -> int:
    """Serve ``notebook`` to a class with ``settings`` until Ctrl+C; return the exit code.

    ``app_class``: a subclass of Voilà's app to launch instead (the teacher's page);
    ``kernel_env``: variables every kernel inherits (set in this process before any starts);
    ``extra_lines``: printed after the learners' address. :func:`run` passes all three when
    ``settings.results`` is set; without them nothing would be recorded, so it is refused.
    ``hub``: the hub's service settings (``--hub``): the hub's login (:func:`safari_kit.classroom.hub.hub_config`)
    and the hub's public address printed.
    """
    if settings.results and app_class is None:
        raise ValueError("recording results (--results) needs the teacher's page: call safari_kit.classroom.serve.run")
    if not Path(notebook).is_file():
        raise OSError(f"notebook not found: {notebook}")
    check_port_free(settings.ip, settings.port)
    root = template_root()
    # the app page's own sentences in the learner's language, the class's by default (issue 30)
    write_template_words(root / "voila" / "templates" / "safari", settings.lang)
    config = voila_config(settings)
    if hub is not None:
        from safari_kit.classroom.hub import hub_config  # JupyterHub: imported with --hub only

        hub_config(config, hub)
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(root), os.environ.get("JUPYTER_PATH")) if p)
    # every kernel keeps tracebacks off its page, a ready lab's too (safari_kit.widgets.quiet.QUIET_ENV)
    os.environ["SAFARI_KIT_QUIET_ERRORS"] = "1"
    # the class's language (--lang, issue 30) and the recording's variables: every kernel inherits them
    os.environ.update({**settings.kernel_env(), **(kernel_env or {})})
    if app_class is None:
        from voila.app import Voila

        app_class = Voila

    trust_notebook(notebook, root, config)
    # on the hub, the hub's public address: the service's own (127.0.0.1) is no use to a learner
    urls = [public_address(hub)] if hub is not None else learner_urls(settings.ip, settings.port, settings.base_url)
    print_fn("Safari kit class server: give learners this address" + (" (or one of these)" if len(urls) > 1 else "")
             + ":\n" + "\n".join(f"    {u}" for u in urls))
    for line in extra_lines:
        print_fn(line)
    per = "hub user" if hub is not None else "computer"
    print_fn(f"Limits: {settings.max_kernels or 'no'} labs at most, {settings.new_kernels_per_minute or 'no limit of'}"
             f" new labs per {per} per minute, {settings.memory_limit_mb or 'no limit of'} MB per lab, idle labs "
             f"closed after {settings.cull_idle_seconds or 'never'} s. Stop with Ctrl+C.")
    if settings.lang:
        name = LANGUAGE_NAMES.get(settings.lang, settings.lang)
        print_fn(f"The app opens in {name} ({settings.lang}); a learner can pick another language in its Language "
                 f"list.")
    if settings.pool_size:
        print_fn(f"Getting {settings.pool_size} labs ready (about {max(10, settings.pool_size * 2)} s on a 2-core "
                 f"laptop; --ready-labs sets how many, 0: none). This terminal says when the class can come in; "
                 f"a learner who comes earlier sees a page saying the lab is starting.")
    watch = None
    if hub is not None:  # a service whose hub is gone stops; a hub that does not answer is said once
        from safari_kit.classroom.hub_watch import HubWatch, hub_parent

        watch = HubWatch(os.environ, print_fn, parent=hub_parent())
        watch.start()
    try:
        app_class.launch_instance(argv=[notebook], config=config)
    finally:
        if watch is not None:
            watch.close()
        shutil.rmtree(root, ignore_errors=True)
    return 0
