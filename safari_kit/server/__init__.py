"""The kit's Jupyter servers: Nagle's algorithm off on the kernel websocket (a jupyter_server extension).

Where it applies (README, "Quick clicks"):

* ``make lab``, Binder, and Voilà inside a Jupyter server (``/voila/render/...``):
  the install puts ``etc/jupyter/jupyter_server_config.d/safari_kit.json`` in
  place (``[tool.hatch.build.targets.wheel.shared-data]``), which enables this
  package as a server extension, the same way JupyterLab and Voilà enable
  theirs. On load it swaps the server's ``kernel_websocket_connection_class``
  for :func:`~safari_kit.server.nodelay.nodelay_class` of it (a subclass, so a
  gateway or custom class keeps working). ``jupyter server extension list``
  shows it; ``jupyter server extension disable safari_kit.server`` (or
  ``--ServerApp.jpserver_extensions=safari_kit.server=False``) turns it off.
* ``make app`` (Voilà on its own, which loads no server extensions): the Makefile
  passes ``--Voila.kernel_websocket_connection_class=`` :data:`VOILA_CONNECTION_CLASS`.
"""
from __future__ import annotations

from safari_kit.server.nodelay import NoDelayMixin, NoDelayZMQChannelsWebsocketConnection, nodelay_class, set_nodelay

__all__ = ["NoDelayMixin", "NoDelayZMQChannelsWebsocketConnection", "nodelay_class", "set_nodelay",
           "VOILA_CONNECTION_CLASS"]

#: the value ``make app`` passes to ``voila --Voila.kernel_websocket_connection_class=...``
VOILA_CONNECTION_CLASS = "safari_kit.server.NoDelayZMQChannelsWebsocketConnection"


def _jupyter_server_extension_points():
    return [{"module": "safari_kit.server"}]


def _load_jupyter_server_extension(serverapp) -> None:
    """Use the TCP_NODELAY subclass of whatever kernel websocket connection class the server has."""
    settings = serverapp.web_app.settings
    base = settings.get("kernel_websocket_connection_class") or serverapp.kernel_websocket_connection_class
    cls = nodelay_class(base)
    settings["kernel_websocket_connection_class"] = cls
    serverapp.kernel_websocket_connection_class = cls
    serverapp.log.info("safari_kit.server: TCP_NODELAY on kernel websockets (%s)", cls.__name__)
