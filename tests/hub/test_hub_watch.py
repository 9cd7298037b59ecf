"""Issue 29: a ``--hub`` class service whose JupyterHub is gone stops, with one line saying why
(safari_kit/classroom/hub_watch.py). Unit tests: the parent process and the hub's API are fakes."""
from __future__ import annotations

import http.server
import threading

from safari_kit.classroom.hub_watch import HubWatch, api_problem, hub_parent


def _watch(ppid: list[int], problem=lambda url: None, parent: int | None = 4242):
    lines, stops = [], []
    watch = HubWatch({"JUPYTERHUB_API_URL": "http://127.0.0.1:8081/hub/api"}, lines.append, parent=parent,
                     stop=lambda: stops.append(1), getppid=lambda: ppid[0], problem=problem)
    return watch, lines, stops


def test_a_service_whose_hub_process_is_gone_stops_with_one_line():
    ppid = [4242]
    watch, lines, stops = _watch(ppid)
    assert watch.check_parent() and not lines and not stops
    ppid[0] = 1  # the hub was killed: the service is the init process's now
    assert not watch.check_parent()
    assert stops == [1] and len(lines) == 1
    assert "The JupyterHub that started this class service (process 4242) is gone: the service stops" in lines[0]


def test_a_service_not_started_by_a_hub_is_never_stopped_by_the_watch():
    ppid = [1]
    watch, lines, stops = _watch(ppid, parent=None)  # started by hand, systemd, a container: an external service
    assert watch.check_parent() and not stops and not lines
    assert hub_parent(777, lambda pid: "/usr/bin/python3 -m jupyterhub -f jupyterhub_config.py") == 777
    assert hub_parent(777, lambda pid: "/bin/bash") is None and hub_parent(1, lambda pid: "jupyterhub") is None


def test_a_hub_that_does_not_answer_is_said_once_and_again_when_it_answers():
    answers = ["[Errno 111] Connection refused", "[Errno 111] Connection refused", None, None]
    watch, lines, stops = _watch([4242], problem=lambda url: answers.pop(0))
    for _ in range(4):
        watch.check_api()
    assert lines == ["The hub at http://127.0.0.1:8081/hub/api did not answer: [Errno 111] Connection refused. "
                     "Logins wait for it; the labs in use go on.",
                     "The hub at http://127.0.0.1:8081/hub/api answers again."]
    assert not stops  # a hub that restarts comes back: the service is not stopped for that


def test_api_problem_tells_an_answer_from_none():
    class Hub(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's name
            self.send_response(403 if self.path.startswith("/denied") else 200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Hub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        assert api_problem(f"http://127.0.0.1:{port}/hub/api") is None
        assert api_problem(f"http://127.0.0.1:{port}/denied/api") is None  # any HTTP answer is an answer
    finally:
        server.shutdown()
        server.server_close()
    assert api_problem(f"http://127.0.0.1:{port}/hub/api", timeout=2)  # nobody listens there now
