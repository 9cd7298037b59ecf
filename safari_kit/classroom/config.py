"""Voilà's traitlets config for the class server, from :class:`~safari_kit.classroom.settings.ClassSettings`.

Only documented hooks are used (no installed file is changed): ``Voila.identity_provider_class`` (kernel ownership,
:mod:`safari_kit.classroom.owners`), ``VoilaConfiguration.multi_kernel_manager_class``
(owners, caps, memory: :mod:`safari_kit.classroom.kernels`), jupyter_server's own
culler (``MappingKernelManager.cull_idle_timeout``), ``Voila.tornado_settings``
(``websocket_max_message_size``), ``Voila.kernel_websocket_connection_class``
(TCP_NODELAY, and the pages' sockets known to the kernel manager), and the
kit's Voilà template read from the kit itself (``JUPYTER_PATH``), so the
page can say why its kernel was stopped even when the installed copy is older.
"""
from __future__ import annotations

from safari_kit.classroom import request_log
from safari_kit.classroom.settings import SETTINGS, ClassSettings

__all__ = ["voila_config", "CONNECTION_CLASS", "KERNEL_MANAGER_CLASS", "IDENTITY_PROVIDER_CLASS",
           "IOPUB_TIMEOUT_SECONDS"]

CONNECTION_CLASS = "safari_kit.classroom.kernels.ClassroomWebsocketConnection"
KERNEL_MANAGER_CLASS = "safari_kit.classroom.kernels.ClassroomKernelManager"
IDENTITY_PROVIDER_CLASS = "safari_kit.classroom.owners.KernelOwnerIdentityProvider"
#: seconds a page's render waits for a cell's output after the cell's reply (nbclient's default: 4)
IOPUB_TIMEOUT_SECONDS = 30


def voila_config(settings: ClassSettings):
    """Voilà's traitlets config for ``settings`` (a ``traitlets.config.Config``)."""
    from traitlets.config import Config

    c = Config()
    for setting in SETTINGS:  # each setting's own trait, as declared (safari_kit.classroom.settings)
        if setting.config is not None:
            section, trait = setting.config
            c[section][trait] = getattr(settings, setting.name)
    c.Voila.port_retries = 0  # the address printed for the learners is the one served, or a clear error
    c.Voila.open_browser = False
    c.Voila.kernel_websocket_connection_class = CONNECTION_CLASS
    c.Voila.identity_provider_class = IDENTITY_PROVIDER_CLASS
    # the owner cookie: HttpOnly (jupyter_server's default), and never sent by another site's page
    c.PasswordIdentityProvider.cookie_options = {"samesite": "Strict"}
    c.Voila.tornado_settings = {
        "websocket_max_message_size": settings.max_message_bytes or None,
        # request lines without addresses or keys (safari_kit.classroom.request_log)
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
    # the browser's languages reach a page's own kernel as $HTTP_ACCEPT_LANGUAGE (issue 30: the app speaks them
    # when the class has no --lang), as voila.json does for make app; a ready lab was started before its page
    c.VoilaConfiguration.http_header_envs = ["Accept-Language"]
    km = c.ClassroomKernelManager
    if settings.pool_size:  # Voilà's pool: started before anyone comes, refilled 2 s after a page takes a lab
        c.VoilaConfiguration.preheat_kernel = True
        c.VoilaConfiguration.default_pool_size = settings.pool_size
        c.VoilaKernelManager.fill_delay = 2.0
    # the app cell's output (the widget view) arrives after its reply; nbclient waits 4 s for it, then renders
    # the page without it (a white page). A busy laptop starting labs took longer (issue 26). Its timings
    # (record_timing) tell a page that lost output: safari_kit.classroom.lab_pages.why_not_whole
    c.VoilaExecutor.iopub_timeout = IOPUB_TIMEOUT_SECONDS
    c.VoilaExecutor.record_timing = True
    km.cull_interval = settings.cull_interval_seconds or 60  # (ClassSettings refuses 0 when culling)
    km.cull_connected = False  # a kernel with an open page is never culled
    km.cull_busy = False
    return c


def _jupyter_server_static() -> str:
    """jupyter_server's own static folder (its error pages' styles and icon)."""
    import jupyter_server

    return str(jupyter_server.DEFAULT_STATIC_FILES_PATH)
