"""Nagle off on the kit's kernel websockets (safari_kit.server): unit, installed config, and real servers.

The end-to-end tests start a Jupyter server (what ``make lab`` and Binder run)
and Voilà with the arguments ``make app`` passes, in the venv's Python, open a
kernel websocket, and read TCP_NODELAY on the server's side of it with
``getsockopt`` (tests/server/probe_nodelay.py). Controls, with the extension
disabled or the class left out, read 0: jupyter_server leaves Nagle on, so the
checks are not vacuous. Each control runs in the probe's process after the real
case has stopped (``--then``; issue 28: a process each cost the imports of a
Jupyter server again), with a server of its own.
"""
from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jupyter_server")

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection  # noqa: E402

import safari_kit.server as S  # noqa: E402
from safari_kit.server.nodelay import NoDelayMixin, nodelay_class, set_nodelay  # noqa: E402
from tests.conftest import quick_server_env  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("probe_nodelay.py")
CONFIG = REPO / "safari_kit" / "server" / "jupyter_server_config.d" / "safari_kit.json"


# ----------------------------------------------------------------------------- the class
class _Handler:
    def __init__(self, open_=True):
        self.ws_connection = object() if open_ else None
        self.calls = []

    def set_nodelay(self, value):
        self.calls.append(value)


class _Base:
    def connect(self):
        return "the base's future"


def test_connect_turns_nagle_off_then_connects_as_before():
    cls = nodelay_class(_Base)
    assert issubclass(cls, NoDelayMixin) and issubclass(cls, _Base) and nodelay_class(_Base) is cls
    conn = cls()
    conn.websocket_handler = _Handler()
    assert conn.connect() == "the base's future"
    assert conn.websocket_handler.calls == [True]
    closed = cls()
    closed.websocket_handler = _Handler(open_=False)  # not open (yet): nothing to set, connect still runs
    assert closed.connect() == "the base's future" and closed.websocket_handler.calls == []
    assert set_nodelay(None) is False


def test_the_default_class_and_what_voila_is_given():
    assert nodelay_class(ZMQChannelsWebsocketConnection) is S.NoDelayZMQChannelsWebsocketConnection
    module, name = S.VOILA_CONNECTION_CLASS.rsplit(".", 1)
    assert getattr(__import__(module, fromlist=[name]), name) is S.NoDelayZMQChannelsWebsocketConnection


def test_extension_wraps_whatever_class_the_server_has():
    class Gatewayish(ZMQChannelsWebsocketConnection):
        pass

    class App:
        kernel_websocket_connection_class = Gatewayish
        log = __import__("logging").getLogger("test")

        class web_app:  # noqa: N801
            settings = {"kernel_websocket_connection_class": Gatewayish}

    S._load_jupyter_server_extension(App)
    cls = App.web_app.settings["kernel_websocket_connection_class"]
    assert issubclass(cls, Gatewayish) and issubclass(cls, NoDelayMixin)
    assert App.kernel_websocket_connection_class is cls
    assert S._jupyter_server_extension_points() == [{"module": "safari_kit.server"}]


# ----------------------------------------------------------------------------- where the install puts it
def test_installed_config_enables_the_extension_where_jupyter_reads_it():
    from jupyter_core.paths import jupyter_config_path
    from jupyter_server.extension.config import ExtensionConfigManager

    assert json.loads(CONFIG.read_text()) == {"ServerApp": {"jpserver_extensions": {"safari_kit.server": True}}}
    installed = Path(sys.prefix) / "etc" / "jupyter" / "jupyter_server_config.d" / "safari_kit.json"
    assert installed.exists(), "reinstall the kit: pip install -e '.[lab,test]' (hatch shared-data)"
    assert json.loads(installed.read_text()) == json.loads(CONFIG.read_text())
    assert str(installed.parent.parent) in jupyter_config_path()
    manager = ExtensionConfigManager(read_config_path=jupyter_config_path())
    assert manager.get_jpserver_extensions().get("safari_kit.server") is True


def test_pyproject_ships_the_config_file():
    import tomllib

    meta = tomllib.loads((REPO / "pyproject.toml").read_text())
    shared = meta["tool"]["hatch"]["build"]["targets"]["wheel"]["shared-data"]
    assert shared[str(CONFIG.relative_to(REPO))] == "etc/jupyter/jupyter_server_config.d/safari_kit.json"


# ----------------------------------------------------------------------------- real servers
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _probe(mode: str, runs: list[list[str]], tmp_path: Path) -> list[dict]:
    """One probe process, one server of ``mode`` after the other, each with its arguments from ``runs``: their
    results, in order."""
    env = {k: v for k, v in os.environ.items() if k not in {"JUPYTER_CONFIG_PATH", "JUPYTER_PATH"}}
    env.update(JUPYTER_CONFIG_DIR=str(tmp_path / "config"), JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTER_DATA_DIR=str(tmp_path / "data"), IPYTHONDIR=str(tmp_path / "ipython"))
    env = quick_server_env(env)  # no IRI grammars in the probe's servers (tests/quick_servers, issue 28)
    root = ["--allow-root"] if mode == "server" and os.geteuid() == 0 else []
    argv, ports = [], set()
    for i, args in enumerate(runs):
        port = _free_port()
        while port in ports:  # a port each
            port = _free_port()
        ports.add(port)
        argv += [*(["--then"] if i else []), str(port), *args, *root]
    proc = subprocess.run([sys.executable, str(PROBE), mode, *argv],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=180 * len(runs))
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0 and len(lines) == len(runs), \
        f"probe failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
    results = [json.loads(line[len("RESULT "):]) for line in lines]
    for result in results:
        assert result["handlers"] == 1, result
    return results


@pytest.mark.slow
def test_jupyter_server_from_this_venv_sets_nodelay(tmp_path):
    """What make lab and Binder run: the installed config alone turns Nagle off."""
    on, off = _probe("server", [
        [f"--ServerApp.root_dir={tmp_path}"],
        # control: with the extension disabled the server leaves Nagle on
        [f"--ServerApp.root_dir={tmp_path}", "--ServerApp.jpserver_extensions=safari_kit.server=False"],
    ], tmp_path)
    assert on == {"handlers": 1, "class": "NoDelayZMQChannelsWebsocketConnection", "nodelay": [1]}
    assert off == {"handlers": 1, "class": "ZMQChannelsWebsocketConnection", "nodelay": [0]}


def _make_app_args() -> list[str]:
    out = subprocess.run(["make", "-n", "app"], cwd=REPO, capture_output=True, text=True, timeout=60).stdout
    line = next(line for line in out.splitlines() if "/voila " in line)
    args = shlex.split(line)
    return args[args.index(next(a for a in args if a.endswith("/voila"))) + 1:]


@pytest.mark.slow
def test_voila_as_make_app_runs_it_sets_nodelay(tmp_path):
    args = _make_app_args()
    assert "notebooks/app.ipynb" in args
    assert f"--Voila.kernel_websocket_connection_class={S.VOILA_CONNECTION_CLASS}" in args
    on, off = _probe("voila", [args, ["notebooks/app.ipynb"]], tmp_path)  # then the control: Voilà's default
    assert on["class"] == "NoDelayZMQChannelsWebsocketConnection" and on["nodelay"] == [1]
    assert off["class"] == "ZMQChannelsWebsocketConnection" and off["nodelay"] == [0]
