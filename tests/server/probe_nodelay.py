"""Start a Jupyter server (or Voilà) in this process, open a kernel websocket, print its TCP_NODELAY.

    python tests/server/probe_nodelay.py server PORT [ServerApp arguments...] [--then PORT [arguments...]]
    python tests/server/probe_nodelay.py voila PORT [voila arguments...] [--then PORT [arguments...]]

Prints one line ``RESULT {"class": ..., "nodelay": 0 or 1, "handlers": n}`` per server:
the server side of the websocket (what the browser's messages arrive on and
the kernel's leave by), read with ``getsockopt`` from the open handler.
Run by tests/server/test_nodelay.py with the venv's Python, in a scratch
Jupyter config/runtime folder (see there).

``--then``: once the server before has stopped, another one of the same kind, with its own arguments, in the
same process (issue 28: the control runs after the real case, not in a Python of its own: a Jupyter server's
imports cost about 3 CPU-s a process). Each server counts only its own websocket handlers (their tornado
application is that server's), so one server's handler cannot be counted for the next.
"""
from __future__ import annotations

import asyncio
import gc
import json
import socket
import sys
import uuid

from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

TOKEN = "probe-token"


async def _kernel_info(port: int, kernel_id: str, application) -> None:
    url = f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}"
    ws = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {TOKEN}"}))
    msg_id = uuid.uuid4().hex
    await ws.write_message(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "kernel_info_request", "username": "probe", "session": "probe",
                   "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "content": {}, "channel": "shell", "buffers": []}))
    while True:  # the reply proves the websocket is open end to end
        raw = await asyncio.wait_for(ws.read_message(), 60)
        if raw is None:
            raise RuntimeError("the server closed the kernel websocket")
        m = json.loads(raw)
        if m.get("parent_header", {}).get("msg_id") == msg_id and m["header"]["msg_type"] == "kernel_info_reply":
            break
    handlers = [o for o in gc.get_objects()
                if isinstance(o, KernelWebsocketHandler) and o.ws_connection and o.application is application]
    result = {"handlers": len(handlers),
              "class": type(handlers[0].connection).__name__ if handlers else None,
              "nodelay": [h.ws_connection.stream.socket.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                          for h in handlers]}
    ws.close()
    print("RESULT " + json.dumps(result), flush=True)


async def server(port: int, argv: list[str]) -> None:
    from jupyter_server.serverapp import ServerApp

    app = ServerApp()
    app.init_signal = lambda: None
    app.initialize(argv=[f"--port={port}", "--ip=127.0.0.1", "--ServerApp.port_retries=0",
                         f"--IdentityProvider.token={TOKEN}", "--ServerApp.open_browser=False", *argv])
    try:
        kernel_id = await app.kernel_manager.start_kernel()
        await _kernel_info(port, kernel_id, app.web_app)
    finally:
        await app.kernel_manager.shutdown_all()
        app.http_server.stop()


async def voila(port: int, argv: list[str]) -> None:
    from voila.app import Voila

    class ProbeVoila(Voila):
        server = None

        def listen(self):  # Voila.listen also runs the loop; here the probe's loop runs it
            self.server = self.app.listen(self.port, self.ip)

    app = ProbeVoila()
    app.initialize([f"--port={port}", "--Voila.ip=127.0.0.1", "--no-browser", f"--token={TOKEN}", *argv])
    app.start()
    try:
        kernel_id = await app.kernel_manager.start_kernel()
        await _kernel_info(port, kernel_id, app.app)
    finally:
        await app.kernel_manager.shutdown_all()
        if app.server is not None:  # ProbeVoila.listen leaves tornado's listen() to hold the port
            app.server.stop()


def runs(args: list[str]) -> list[tuple[int, list[str]]]:
    """``PORT args... --then PORT args...`` -> [(port, args), ...]"""
    out, cur = [], []
    for a in [*args, "--then"]:
        if a == "--then":
            out.append((int(cur[0]), cur[1:]))
            cur = []
        else:
            cur.append(a)
    return out


async def main(mode: str, args: list[str]) -> None:
    for port, rest in runs(args):
        await {"server": server, "voila": voila}[mode](port, rest)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2:]))
