"""TCP_NODELAY on the kernel websocket: no ~40 ms Nagle stalls between a click and its answer.

A widget click is a few small websocket frames each way (the comm message, the
kernel's busy/idle status, the state update). tornado's ``WebSocketHandler``
leaves Nagle's algorithm on, so a small frame written while an earlier one is
not yet acknowledged waits for the ACK, and Linux delays ACKs by up to 40 ms:
on loopback about a third of widget round trips stall ~40 ms. tornado's own
advice (``WebSocketHandler.set_nodelay``) is to turn Nagle off for interactive
sockets; jupyter_server does not (2.x), so the kit does, for its own servers.

It uses the documented hook ``kernel_websocket_connection_class`` (a trait of
``ServerApp`` and of Voilà's ``Voila`` app): :func:`nodelay_class` makes a
subclass of the connection class in use that calls ``set_nodelay(True)`` when
the kernel websocket opens; everything else is the original class's. Nothing is
monkeypatched. Only tornado and jupyter_server are imported, never the rest of
the kit (``import-linter`` checks it).
"""
from __future__ import annotations

import logging

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

__all__ = ["NoDelayMixin", "NoDelayZMQChannelsWebsocketConnection", "nodelay_class", "set_nodelay"]

log = logging.getLogger("safari_kit.server")


def set_nodelay(handler) -> bool:
    """Turn Nagle's algorithm off on an open tornado websocket ``handler``; True if it could."""
    if handler is None or getattr(handler, "ws_connection", None) is None:
        return False
    try:
        handler.set_nodelay(True)
    except Exception:  # noqa: BLE001 - a closed stream must not break the kernel connection
        log.debug("could not set TCP_NODELAY on the kernel websocket", exc_info=True)
        return False
    return True


class NoDelayMixin:
    """Mix into a kernel websocket connection class: TCP_NODELAY on as the websocket opens.

    ``KernelWebsocketHandler.open`` opens the websocket, then awaits
    ``connection.connect()``; by then the handler's stream exists, so the first
    kernel message already goes out without Nagle. ``connect`` may return a
    future (the ZMQ connection) or a coroutine (the gateway one): it is passed on.
    """

    def connect(self):
        set_nodelay(getattr(self, "websocket_handler", None))
        return super().connect()  # type: ignore[misc]


class NoDelayZMQChannelsWebsocketConnection(NoDelayMixin, ZMQChannelsWebsocketConnection):
    """jupyter_server's default kernel websocket connection, with TCP_NODELAY (Voilà: ``make app``)."""


_MADE: dict[type, type] = {ZMQChannelsWebsocketConnection: NoDelayZMQChannelsWebsocketConnection}


def nodelay_class(base: type) -> type:
    """``base`` (a kernel websocket connection class) with TCP_NODELAY; the same class for the same base.

    >>> nodelay_class(ZMQChannelsWebsocketConnection) is NoDelayZMQChannelsWebsocketConnection
    True
    >>> nodelay_class(NoDelayZMQChannelsWebsocketConnection) is NoDelayZMQChannelsWebsocketConnection
    True
    """
    if issubclass(base, NoDelayMixin):
        return base
    if base not in _MADE:
        _MADE[base] = type(f"NoDelay{base.__name__}", (NoDelayMixin, base),
                           {"__module__": __name__, "__doc__": f"{base.__qualname__} with TCP_NODELAY."})
    return _MADE[base]
