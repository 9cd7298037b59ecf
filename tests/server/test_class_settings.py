"""The class server's settings (safari_kit.classroom.settings, .config, .serve) and its command line, without
starting Voilà."""
from __future__ import annotations

import socket

import pytest

pytest.importorskip("voila")

from safari_kit.cli import main  # noqa: E402
from safari_kit.classroom.addresses import learner_urls  # noqa: E402
from safari_kit.classroom.config import voila_config  # noqa: E402
from safari_kit.classroom.serve import check_port_free, template_root  # noqa: E402
from safari_kit.classroom.settings import ClassSettings  # noqa: E402
from safari_kit.classroom.owners import kernel_id_of  # noqa: E402


def test_the_settings_reach_voilas_config():
    c = voila_config(ClassSettings(ip="10.0.0.5", port=9000, max_kernels=7, new_kernels_per_minute=2, max_starting=3,
                                   cull_idle_seconds=30, cull_interval_seconds=5, memory_limit_mb=300,
                                   max_message_bytes=2 * 1024 * 1024))
    assert (c.Voila.ip, c.Voila.port, c.Voila.port_retries, c.Voila.open_browser) == ("10.0.0.5", 9000, 0, False)
    assert c.Voila.identity_provider_class == "safari_kit.classroom.owners.KernelOwnerIdentityProvider"
    assert c.Voila.kernel_websocket_connection_class == "safari_kit.classroom.kernels.ClassroomWebsocketConnection"
    assert c.VoilaConfiguration.multi_kernel_manager_class == "safari_kit.classroom.kernels.ClassroomKernelManager"
    assert c.VoilaConfiguration.show_tracebacks is False and c.VoilaConfiguration.template == "safari"
    assert c.Voila.tornado_settings["websocket_max_message_size"] == 2 * 1024 * 1024
    km = c.ClassroomKernelManager
    assert (km.max_kernels, km.new_kernels_per_minute, km.max_starting, km.memory_limit_mb) == (7, 2, 3, 300)
    assert (km.cull_idle_timeout, km.cull_interval, km.cull_connected, km.cull_busy) == (30, 5, False, False)
    assert c.PasswordIdentityProvider.cookie_options == {"samesite": "Strict"}
    # ready labs: Voilà's preheated pool, never more than the cap on live labs
    assert (km.ready_labs, km.spare_labs) == (30, 2)
    assert c.VoilaConfiguration.preheat_kernel is True and c.VoilaConfiguration.default_pool_size == 7
    off = voila_config(ClassSettings(ready_labs=0))
    assert "preheat_kernel" not in off.VoilaConfiguration and off.ClassroomKernelManager.ready_labs == 0


def test_the_documented_defaults():
    d = ClassSettings()
    assert (d.ip, d.port, d.max_kernels, d.new_kernels_per_minute, d.max_starting, d.cull_idle_seconds,
            d.memory_limit_mb, d.max_message_bytes, d.ready_labs, d.spare_labs) == (
        "0.0.0.0", 8866, 80, 4, 2, 600, 512, 1024 * 1024, 30, 2)


@pytest.mark.parametrize("bad", [{"port": 0}, {"max_kernels": -1}, {"max_message_bytes": 1000},
                                 {"cull_interval_seconds": 0}])
def test_bad_settings_are_refused_by_name(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        ClassSettings(**bad)


def test_learner_urls():
    assert learner_urls("192.168.1.20", 8866) == ["http://192.168.1.20:8866/"]
    urls = learner_urls("0.0.0.0", 8000)
    assert urls and all(u.startswith("http://") and u.endswith(":8000/") and "0.0.0.0" not in u for u in urls)


def test_a_busy_port_is_named():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(OSError, match=f"127.0.0.1:{port}.*--port"):
            check_port_free("127.0.0.1", port)


def test_the_template_comes_from_the_kit(tmp_path):
    root = template_root()
    try:
        assert (root / "voila" / "templates" / "safari" / "index.html.j2").is_file()
        assert "SafariWebSocket" in (root / "voila" / "templates" / "safari" / "index.html.j2").read_text()
        assert (root / "voila" / "templates" / "safari" / "error.html").is_file()
    finally:
        import shutil
        shutil.rmtree(root)


def test_kernel_routes():
    class H:
        path_kwargs = {"kernel_id": "abc"}

        class request:
            path = "/api/kernels/abc/channels"

    assert kernel_id_of(H()) == "abc"
    H.path_kwargs = {}
    H.request.path = "/voila/api/shutdown/1234-5"
    assert kernel_id_of(H()) == "1234-5"
    H.request.path = "/"
    assert kernel_id_of(H()) is None


def test_the_command_line_refuses_a_missing_notebook_in_one_line(capsys):
    assert main(["class", "no-such.ipynb", "--ip", "127.0.0.1", "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such.ipynb" in err
    assert main(["class", "--max-labs", "-3"]) == 2
    assert "--max-labs" in capsys.readouterr().err
