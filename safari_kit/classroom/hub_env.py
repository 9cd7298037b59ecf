"""What JupyterHub tells a managed service (issue 29), read without importing JupyterHub.

``safari-kit class --hub`` runs as one of the hub's managed services
(``c.JupyterHub.services``: the kit's ``hub_config/jupyterhub_config.py``). The hub
starts it with its settings in the environment: where to listen
(``JUPYTERHUB_SERVICE_URL``, ``http://127.0.0.1:<port>``), the path the hub's proxy
sends it (``JUPYTERHUB_SERVICE_PREFIX``, ``/services/<name>/``), and what its login
needs (``JUPYTERHUB_API_TOKEN``, ``JUPYTERHUB_CLIENT_ID``,
``JUPYTERHUB_OAUTH_CALLBACK_URL``; JupyterHub's ``HubOAuth`` reads those itself).

:func:`read_service` checks them and names the one that is missing or wrong, so
a service started by hand outside a hub says so in one line instead of failing
at a learner's first click. :func:`hub_settings` turns the class settings into the
ones the hub gave (ip, port, path), and counts labs per hub user, not per
address: every request reaches the service from the hub's proxy.
:func:`public_address` is the address to print: never the internal 127.0.0.1 one
(learners cannot reach it), but the hub's public URL and the prefix.

This module is plain Python (no JupyterHub), so it is unit tested without a hub and
``safari-kit class`` without ``--hub`` never needs the ``hub`` extra.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from urllib.parse import urlsplit

from safari_kit.classroom.settings import ClassSettings

__all__ = ["HubEnvError", "HubService", "read_service", "require_jupyterhub", "hub_settings", "public_address",
           "NEEDED"]

#: the variables the hub sets for a managed service with a URL, which the class service needs
NEEDED = ("JUPYTERHUB_SERVICE_URL", "JUPYTERHUB_SERVICE_PREFIX", "JUPYTERHUB_API_TOKEN", "JUPYTERHUB_CLIENT_ID",
          "JUPYTERHUB_OAUTH_CALLBACK_URL")


class HubEnvError(ValueError):
    """``--hub`` without what the hub gives a managed service (the message names the variable)."""


@dataclasses.dataclass(frozen=True)
class HubService:
    """The hub's settings for this service: where it listens, its path, its OAuth callback, its public URL."""

    name: str
    ip: str
    port: int
    prefix: str
    callback_path: str
    public_url: str  # the service's public address (prefix included), or "" when the hub has none


def _url_or_error(environ: Mapping[str, str], key: str) -> tuple[str, str, int | None, str]:
    value = environ.get(key, "")
    parts = urlsplit(value)
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise HubEnvError(f"{key}={value!r} is not an http(s) address: the hub sets it for a service with a "
                          f"'url' (c.JupyterHub.services)")
    return parts.scheme, parts.hostname, port, parts.path


def read_service(environ: Mapping[str, str], public_url: str = "") -> HubService:
    """The hub's settings for this service from ``environ``; ``public_url``: ``--public-url`` (the hub's public
    address), which wins over ``JUPYTERHUB_PUBLIC_URL``.

    >>> env = {"JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:8073", "JUPYTERHUB_SERVICE_PREFIX": "/services/7b/",
    ...        "JUPYTERHUB_API_TOKEN": "t", "JUPYTERHUB_CLIENT_ID": "service-7b", "JUPYTERHUB_SERVICE_NAME": "7b",
    ...        "JUPYTERHUB_OAUTH_CALLBACK_URL": "/services/7b/oauth_callback"}
    >>> s = read_service(env, "https://hub.school.org")
    >>> s.ip, s.port, s.prefix, s.callback_path, s.public_url
    ('127.0.0.1', 8073, '/services/7b/', '/services/7b/oauth_callback', 'https://hub.school.org/services/7b/')
    """
    missing = [key for key in NEEDED if not environ.get(key)]
    if missing:
        raise HubEnvError(f"--hub needs the environment JupyterHub gives a managed service; missing: "
                          f"{', '.join(missing)}. Start it from the hub's config (c.JupyterHub.services, with a "
                          f"'url'): python -m safari_kit.classroom.hub_config prints where the kit's is")
    _scheme, host, port, _path = _url_or_error(environ, "JUPYTERHUB_SERVICE_URL")
    if port is None:
        raise HubEnvError(f"JUPYTERHUB_SERVICE_URL={environ['JUPYTERHUB_SERVICE_URL']!r} names no port: give the "
                          f"service a 'url' with a port, e.g. http://127.0.0.1:8073")
    prefix = environ["JUPYTERHUB_SERVICE_PREFIX"]
    if not (prefix.startswith("/") and prefix.endswith("/")):
        raise HubEnvError(f"JUPYTERHUB_SERVICE_PREFIX={prefix!r} must start and end with '/'")
    callback = urlsplit(environ["JUPYTERHUB_OAUTH_CALLBACK_URL"]).path
    if not callback.startswith(prefix):
        raise HubEnvError(f"JUPYTERHUB_OAUTH_CALLBACK_URL={environ['JUPYTERHUB_OAUTH_CALLBACK_URL']!r} is not under "
                          f"the service's prefix {prefix!r}")
    if public_url:
        _url_or_error({"--public-url": public_url}, "--public-url")
        public = public_url.rstrip("/") + prefix
    else:
        public = environ.get("JUPYTERHUB_PUBLIC_URL", "")
        if public:
            _url_or_error(environ, "JUPYTERHUB_PUBLIC_URL")
            public = public if public.endswith("/") else public + "/"
    name = environ.get("JUPYTERHUB_SERVICE_NAME") or prefix.rstrip("/").rsplit("/", 1)[-1]
    return HubService(name=name, ip=host, port=port, prefix=prefix, callback_path=callback, public_url=public)


def require_jupyterhub() -> None:
    """Raise :class:`HubEnvError` with the install line when JupyterHub (the ``hub`` extra) is not installed."""
    import importlib.util

    if importlib.util.find_spec("jupyterhub") is None:
        raise HubEnvError("--hub needs JupyterHub in this environment: pip install 'safari_kit[hub]' (in a "
                          "checkout: pip install -e '.[hub]')")


def hub_settings(settings: ClassSettings, service: HubService) -> ClassSettings:
    """``settings`` as the hub's service: the hub's ip, port and prefix; labs held per address off (every
    request comes from the hub's proxy: the per-user caps count instead)."""
    return dataclasses.replace(settings, ip=service.ip, port=service.port, base_url=service.prefix,
                               labs_per_address=0)


def public_address(service: HubService) -> str:
    """The learners' address: the hub's public URL and the prefix, or, when the hub has none, a sentence.

    >>> public_address(HubService("7b", "127.0.0.1", 8073, "/services/7b/", "/services/7b/oauth_callback", ""))
    "the hub's address followed by /services/7b/ (set c.JupyterHub.public_url or --public-url to print it whole)"
    """
    if service.public_url:
        return service.public_url
    return (f"the hub's address followed by {service.prefix} (set c.JupyterHub.public_url or --public-url to "
            f"print it whole)")
