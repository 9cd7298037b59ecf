"""No lab's HTML holds a link that depends on the page's address (issue 18, item 5).

A link in a widget's HTML resolves against the address of the page that shows it: ``/lab/tree/...`` in
JupyterLab (whose root is ``my-lessons/``), ``/`` in the Voilà app, ``lab/index.html`` or
``voici/render/notebooks/app.html`` in the static site, under any sub-path. No relative address works in all
of them (the Rules tutorial's ``../docs/rules.md`` worked in none), and a link to another host does not work
offline. So the labs' HTML holds no ``href``/``src`` but in-page anchors and ``data:`` pictures: what a
learner needs is on the page (the tutorial's rulings open their text in place). The HTML is collected from
every widget of every lab the app opens, and from every step of both tutorials.
"""
from __future__ import annotations

import re

import pytest

pytest.importorskip("anywidget")

import ipywidgets as W  # noqa: E402

from safari_kit.widgets.app import LABS, LabChooser  # noqa: E402
from safari_kit.widgets.labs.tutorial import RulesTutorial  # noqa: E402

LINK = re.compile(r"""\b(?:href|src|action)\s*=\s*["']?([^"'\s>]*)""", re.I)


def html_of(widget, seen=None) -> list[str]:
    """The HTML strings of a widget tree: HTML/HTMLMath/Label values and descriptions, every child's."""
    seen = set() if seen is None else seen
    if id(widget) in seen:
        return []
    seen.add(id(widget))
    found = []
    for name in ("value", "description", "placeholder", "tooltip"):
        value = getattr(widget, name, None)
        if isinstance(value, str):
            found.append(value)
    for child in getattr(widget, "children", ()) or ():
        found += html_of(child, seen)
    return found


def bad_links(texts: list[str]) -> list[str]:
    return [url for text in texts for url in LINK.findall(text)
            if not (url.startswith("#") or url.startswith("data:"))]


@pytest.mark.parametrize("entry", LABS, ids=[f"{e.game}-{e.title}" for e in LABS])
def test_no_lab_links_to_an_address(entry):
    chooser = LabChooser(seed=4, fair=False)
    lab = chooser.open(entry.game, entry.title)
    assert chooser.stage.children == (lab.layout,)
    texts = html_of(chooser.widget)  # the chooser and, on its stage, the lab
    assert sum(len(t) for t in texts) > 200, "no HTML collected: is the walk reading the lab?"
    assert not bad_links(texts), (entry.title, bad_links(texts))


@pytest.mark.parametrize("game", ["witness", "knockout"])
def test_the_tutorials_rulings_open_in_place_at_every_step(game):
    lab = RulesTutorial(game)
    for k in range(lab.steps):
        lab.go(k)
        texts = html_of(lab.layout)
        assert not bad_links(texts), (k, bad_links(texts))
        rulings = re.findall(r"<details class='safari-ruling' data-ruling='(\w+)'>", lab.explanation.value)
        assert rulings == list(lab.script.steps[k].rulings), k


def test_the_check_sees_a_relative_link():
    """Control: the tutorial as it was (a link to ../docs/rules.md) is caught."""
    old = "<li><a href='../docs/rules.md#w4-identification' target='_blank'><b>W4</b></a></li>"
    assert bad_links([old, W.HTML("<img src='data:image/png;base64,AA'>").value]) == [
        "../docs/rules.md#w4-identification"]
