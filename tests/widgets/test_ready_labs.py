"""Issue 31, item 2: the chooser builds labs ahead, so "Open lab" shows one at once (safari_kit/widgets/ready_labs.py).

Driven from Python with the kernel's event loop replaced by "run it now" (``now``), except the last test: a real
kernel (ipykernel, as Voilà's) gets the page's "chooser shown" message and builds the labs on its own loop.
What is checked: nothing is built before the page has drawn the chooser; then the chosen lab and the game's first
lab that deals cards are ready, and "Open lab" shows a ready one without making a single widget; a ready lab is
used once, so every opening and every tab still deals afresh (issue 9); a class seed ticked after the build is not
given a lab dealt for no seed; a crafted message or a lab that cannot be built changes nothing; the shelf closes
what it drops; and off the browser (Voilà, notebooks) the chooser is what it was: no lab is built ahead.
"""
from __future__ import annotations

import ast
import json
import os
import time

import pytest
from ipywidgets.widgets.widget import _instances

from safari_kit.widgets.app import LABS, LabChooser
from safari_kit.widgets.ready_labs import ReadyLabs, ShownSignal, ready_by_default, widget_tree


def now(_delay, fn):
    fn()


def chooser(**kw) -> LabChooser:
    app = LabChooser(seed=1, ready=True, **kw)
    app.ready_labs._schedule = now
    return app


def shown(app: LabChooser) -> None:
    app.shown_signal._message(app.shown_signal, {"shown": True}, [])


def ready_titles(app: LabChooser) -> list[str]:
    return [key[0].title for key in app.ready_labs.labs]


def test_labs_are_built_once_the_chooser_is_shown_and_open_at_once(monkeypatch):
    monkeypatch.delenv("SAFARI_KIT_CLASS_SEED", raising=False)
    app = chooser()
    assert ready_titles(app) == [] and app.shown_signal in app.widget.children
    shown(app)
    assert ready_titles(app) == ["Rules tutorial", "Identification"]
    ready = app.ready_labs.labs[next(k for k in app.ready_labs.labs if k[0].title == "Identification")]
    before = len(_instances)
    lab = app.open("Safari Witness", "Identification")
    assert lab is ready and app.stage.children == (lab.layout,)
    assert len(_instances) == before, "Open lab made widgets: the lab was not the one built ahead"
    assert lab.secret and app.errors == [] and app.ready_labs.used == 1
    # the other game: its tutorial and its Knockout lab, ready once picked
    app.game.value = "Safari Knockout"
    assert ready_titles(app)[-2:] == ["Rules tutorial", "Knockout"]
    before = len(_instances)
    assert type(app.open(lab="Knockout")).__name__ == "KnockoutLab" and len(_instances) == before


def test_a_ready_lab_is_used_once_and_every_tab_deals_afresh(monkeypatch):
    monkeypatch.delenv("SAFARI_KIT_CLASS_SEED", raising=False)
    one, two = chooser(), chooser()
    shown(one)
    shown(two)
    a = one.open("Safari Witness", "Identification")
    b = two.open("Safari Witness", "Identification")
    again = one.open()  # the same lab again: built now, a new deal
    assert a.secret and b.secret and again.secret
    assert len({a.seed, b.seed, again.seed}) == 3 and again is not a
    assert one.errors == [] and two.errors == []


def test_a_class_seed_ticked_after_the_build_gets_its_own_deal(monkeypatch):
    monkeypatch.setenv("SAFARI_KIT_CLASS_SEED", "on")  # a class server with the box offered
    app = chooser()
    shown(app)
    dealt_for_no_seed = [lab for key, lab in app.ready_labs.labs.items() if key[0].title == "Identification"]
    app.shared.value, app.seed.value = True, 5
    lab = app.open("Safari Witness", "Identification")
    assert lab.seed == 5 and not lab.secret and lab not in dealt_for_no_seed and dealt_for_no_seed[0].secret


def test_a_crafted_message_and_a_lab_that_cannot_be_built_change_nothing(monkeypatch):
    monkeypatch.delenv("SAFARI_KIT_CLASS_SEED", raising=False)
    app = chooser()
    for crafted in ({"shown": "yes"}, {"shown": 1}, ["shown"], {}):
        app.shown_signal._message(app.shown_signal, crafted, [])
    assert not app.shown_signal.shown and ready_titles(app) == []
    def cannot(_key):
        raise ModuleNotFoundError("No module named 'numpy'", name="numpy")

    app.ready_labs._build = cannot
    shown(app)
    assert ready_titles(app) == [] and app.ready_labs.errors and app.errors == []
    lab = app.open("Safari Witness", "Identification")  # built on Open lab, as before
    assert type(lab).__name__ == "IdentificationLab" and app.errors == []


def test_a_learner_who_opened_a_lab_before_the_page_was_idle_gets_no_labs_built_behind_them(monkeypatch):
    monkeypatch.delenv("SAFARI_KIT_CLASS_SEED", raising=False)
    app = chooser()
    app.open("Safari Witness", "Identification")  # before the page said "shown": built on the click
    shown(app)
    assert ready_titles(app) == [] and app.ready_labs.built == 0


def test_the_simulation_lab_is_never_built_ahead(monkeypatch):
    monkeypatch.delenv("SAFARI_KIT_CLASS_SEED", raising=False)
    app = chooser()
    shown(app)
    app.game.value = "Both games"  # its only lab: the Simulation lab
    assert all(key[0].cls != "SimulationLab" for key in app.ready_labs.labs)


def test_the_shelf_keeps_a_few_labs_and_closes_the_oldest():
    made = []

    def build(key):
        lab = LABS[1].build(None, fair=True)  # Identification
        made.append(lab)
        return lab

    shelf = ReadyLabs(build, schedule=now, size=2)
    shelf.want(["a", "b", "c"])
    assert list(shelf.labs) == ["b", "c"] and shelf.built == 3
    assert all(w.comm is None for w in widget_tree(made[0].layout)), "the dropped lab's widgets are still open"
    assert all(w.comm is not None for w in widget_tree(made[2].layout))
    assert shelf.take("c") is made[2] and shelf.take("c") is None


def test_off_the_browser_the_chooser_builds_nothing_ahead(monkeypatch):
    monkeypatch.delenv("SAFARI_KIT_READY_LABS", raising=False)
    assert ready_by_default() is False  # Voilà, notebooks: this is no browser kernel
    app = LabChooser(seed=1)
    assert app.ready_labs is None and app.shown_signal is None
    assert not any(isinstance(w, ShownSignal) for w in widget_tree(app.widget))
    monkeypatch.setenv("SAFARI_KIT_READY_LABS", "on")
    assert ready_by_default() is True and LabChooser(seed=1).ready_labs is not None
    assert ready_by_default(False) is False


@pytest.fixture(scope="module")
def kernel():
    pytest.importorskip("ipykernel")
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", cwd=os.getcwd())
    try:
        yield kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def run(kc, code: str):
    reply = kc.execute_interactive(code, timeout=120, output_hook=lambda _m: None,
                                   user_expressions={"out": "_probe_out"})
    assert reply["content"]["status"] == "ok", reply["content"]
    return json.loads(ast.literal_eval(reply["content"]["user_expressions"]["out"]["data"]["text/plain"]))


def test_a_kernel_builds_the_labs_on_its_own_loop_once_the_page_says_shown(kernel):
    t0 = time.perf_counter()
    signal = run(kernel, "from safari_kit.widgets.app import LabChooser\nimport json\n"
                         "app = LabChooser(seed=1, ready=True)\n_probe_out = json.dumps(app.shown_signal.model_id)")
    assert run(kernel, "_probe_out = json.dumps(len(app.ready_labs.labs))") == 0
    # what the page's ShownSignal sends once the browser is idle after drawing the chooser
    kernel.shell_channel.send(kernel.session.msg("comm_msg", {"comm_id": signal, "data": {
        "method": "custom", "content": {"shown": True}}}))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        titles = run(kernel, "_probe_out = json.dumps([k[0].title for k in app.ready_labs.labs])")
        if len(titles) == 2:
            break
        time.sleep(0.1)
    assert titles == ["Rules tutorial", "Identification"]
    assert run(kernel, "lab = app.open('Safari Witness', 'Identification')\n"
                       "_probe_out = json.dumps([app.ready_labs.used, app.errors, lab.secret])") == [1, [], True]
    print(f"\nkernel: two labs built ahead on its loop, the ready one opened: {time.perf_counter() - t0:.1f} s")
