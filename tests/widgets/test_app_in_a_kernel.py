"""Issue 19: the app in a real kernel like Voilà's, driven by raw messages as the page sends them.

**Stop is heard.** A click's tournament plays beside the kernel's message loop, so a Stop click sent while
it runs is handled and ends it at its next step (a synchronous tournament would only read the click after
all its games).

**No traceback or server path reaches the page.**

A kernel is started with ``VOILA_KERNEL_ID`` set (as Voilà does), the app is built in it, and then the page's
side is played with raw messages: a ``comm_open`` for a widget that cannot be built (this sent "Exception
opening comm with target: jupyter.widget" and a whole traceback with the server's paths), an update the
widget refuses (ipywidgets' ``_show_traceback`` sent an ``error`` message), and a message to a comm that does
not exist. Every iopub message the page would receive is read: none may hold a traceback or a path.
"""
from __future__ import annotations

import ast
import json
import os
import sys
import time
import uuid

import pytest

pytest.importorskip("ipykernel")
jupyter_client = pytest.importorskip("jupyter_client")


def read_iopub(kc, seconds: float) -> list[dict]:
    out, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            out.append(kc.get_iopub_msg(timeout=0.2))
        except Exception:  # noqa: BLE001 - queue.Empty: nothing yet
            continue
    return out


def run(kc, code: str) -> dict:
    reply = kc.execute_interactive(code, timeout=120, output_hook=lambda _m: None,
                                   user_expressions={"out": "_probe_out"})
    assert reply["content"]["status"] == "ok", reply["content"]
    return json.loads(ast.literal_eval(reply["content"]["user_expressions"]["out"]["data"]["text/plain"]))


def leaks(messages: list[dict]) -> list[str]:
    found = []
    for m in messages:
        text = json.dumps(m["content"])
        if m["msg_type"] == "error" or "Traceback" in text or "site-packages" in text or sys.prefix in text \
                or os.getcwd() in text:
            found.append(f"{m['msg_type']}: {text[:300]}")
    return found


@pytest.fixture(scope="module")
def app_kernel():
    from jupyter_client.manager import start_new_kernel

    env = dict(os.environ, VOILA_KERNEL_ID="test-kernel")
    km, kc = start_new_kernel(kernel_name="python3", env=env, cwd=os.getcwd())
    try:
        yield kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_a_failed_comm_open_and_refused_updates_send_no_traceback(app_kernel):
    kc = app_kernel
    ids = run(kc, "from safari_kit.widgets.app import LabChooser\napp = LabChooser()\nimport json\n"
                  "_probe_out = json.dumps({'lab': app.lab.model_id, 'game': app.game.model_id})")
    read_iopub(kc, 1)  # the app's own display: not under test
    # 1. a crafted comm_open: a widget model that cannot be built
    for state in ({"_model_name": "NoSuchModel", "_model_module": "@jupyter-widgets/controls",
                   "_model_module_version": "2.0.0"},
                  {"_model_name": "IntSliderModel", "_model_module": "@jupyter-widgets/controls",
                   "_model_module_version": "2.0.0", "value": "not a number"}):
        kc.shell_channel.send(kc.session.msg("comm_open", {"comm_id": uuid.uuid4().hex, "target_name": "jupyter.widget",
                                                            "data": {"state": state, "buffer_paths": []}}))
    # 2. updates the widgets refuse (an index past the options, a value of the wrong type)
    for comm_id, state in ((ids["lab"], {"index": 10**6}), (ids["game"], {"index": "x"})):
        kc.shell_channel.send(kc.session.msg("comm_msg", {"comm_id": comm_id, "data": {
            "method": "update", "state": state, "buffer_paths": []}}))
    # 3. a message to a comm that does not exist
    kc.shell_channel.send(kc.session.msg("comm_msg", {"comm_id": "no-such-comm", "data": {"method": "update"}}))
    messages = read_iopub(kc, 4)
    assert any(m["msg_type"] == "comm_close" for m in messages), "the failed comm_open was not answered"
    assert leaks(messages) == []
    # the kernel still serves the app: the errors were logged on the server, not lost
    assert run(kc, "_probe_out = json.dumps(app.lab.value)") == 0


def click(kc, model_id: str) -> None:
    kc.shell_channel.send(kc.session.msg("comm_msg", {"comm_id": model_id, "data": {
        "method": "custom", "content": {"event": "click"}}}))


def test_stop_is_heard_while_a_tournament_plays(app_kernel):
    kc = app_kernel
    ids = run(kc, "from safari_kit.widgets.labs.simulation import SimulationLab\nimport json\n"
                  "sim = SimulationLab(seed=None, fair=True, run_tournament=False, tournament_game='witness')\n"
                  "sim.players_slider.value = 5\nsim.games_slider.value = 500\n"
                  "_probe_out = json.dumps({'run': sim.tour_button.model_id, 'stop': sim.stop_button.model_id})")
    click(kc, ids["run"])  # 500 games of Witness for 5 bots: about a minute of one core
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done = run(kc, "_probe_out = json.dumps(sim.progress.bar.value)")
        if done >= 10:
            break
        time.sleep(0.2)
    assert done >= 10, "the tournament did not start"
    t0 = time.monotonic()
    click(kc, ids["stop"])
    while time.monotonic() < t0 + 30:
        state = run(kc, "_probe_out = json.dumps([sim._job is None, sim.status.value, sim.progress.bar.value])")
        if state[0]:
            break
        time.sleep(0.2)
    seconds = time.monotonic() - t0
    assert state[0] and "you pressed Stop" in state[1], state
    assert state[2] < 500 and seconds < 15, (state, seconds)
    print(f"\nStop heard after {state[2]} games; the run ended {seconds:.1f} s after the click")
