"""The app never says "in secret" on a server the learner owns (issue 29).

On a per-learner JupyterHub server (``$JUPYTERHUB_USER`` set; Binder's servers too) the learner can open
JupyterLab and read their own kernel: a learner printed her lab's seed and every card. There the chooser and
every lab say the server is the learner's own and the cards are not hidden from them. The class server
(``safari-kit class``) marks every kernel it starts (``$SAFARI_KIT_QUIET_ERRORS=1``): a class server a teacher
starts from their own hub server inherits ``JUPYTERHUB_USER`` and must still say "in secret".
"""
from __future__ import annotations

import os

import pytest

from safari_kit.widgets.app import LABS, LabChooser
from safari_kit.widgets.labs.base import learner_owns_the_server

SECRET_WORDS = ("in secret", "fair deal", "secret seed")


@pytest.fixture
def own_server(monkeypatch):
    """A learner's single-user server: JupyterHub's user name, no class server's mark."""
    monkeypatch.setenv("JUPYTERHUB_USER", "amina")
    monkeypatch.delenv("SAFARI_KIT_QUIET_ERRORS", raising=False)


def _words(chooser: LabChooser, lab) -> str:
    return f"{chooser.intro.value} {lab.deal_note.value} {chooser.blurb.value}".lower()


def test_no_page_says_in_secret_on_the_learners_own_server(own_server):
    assert learner_owns_the_server()
    chooser = LabChooser(fair=True, class_seed="off")
    assert "your own server" in chooser.intro.value and "not hidden from you" in chooser.intro.value
    seen = set()
    for entry in LABS:
        if (entry.cls, entry.kwargs) in seen:  # the same lab under two games' lists: its words are the same
            continue
        seen.add((entry.cls, entry.kwargs))
        lab = chooser.open(entry.game, entry.title)
        words = _words(chooser, lab)
        assert not [w for w in SECRET_WORDS if w in words], (entry, words)
        if getattr(lab, "secret", False):  # a lab that deals: its note says whose server it is
            assert "your own server" in lab.deal_note.value, entry
    assert chooser.errors == []


def test_the_class_server_still_says_in_secret(monkeypatch):
    """The class server's kernels (its mark set), even one started from a teacher's hub server; and make app."""
    monkeypatch.setenv("JUPYTERHUB_USER", "ms-okafor")
    monkeypatch.setenv("SAFARI_KIT_QUIET_ERRORS", "1")
    assert not learner_owns_the_server()
    chooser = LabChooser(fair=True, class_seed="off")
    assert "in secret on the server" in chooser.intro.value and "your own server" not in chooser.intro.value
    lab = chooser.open("Safari Witness", "Identification")
    assert "Fair deal" in lab.deal_note.value and "in secret" in lab.deal_note.value
    monkeypatch.delenv("JUPYTERHUB_USER")
    monkeypatch.delenv("SAFARI_KIT_QUIET_ERRORS")  # make app: no hub, no class server
    assert not learner_owns_the_server()
    assert "in secret on the server" in LabChooser(fair=True, class_seed="off").intro.value


def test_the_words_are_short_sentences(own_server):
    """For a 15-year-old: no sentence over 25 words, no code names."""
    from safari_kit.widgets.labs.base import OWN_SERVER_DEAL_WORDS

    for sentence in OWN_SERVER_DEAL_WORDS.replace(": ", ". ").split(". "):
        assert len(sentence.split()) <= 25, sentence
    assert "JUPYTERHUB" not in OWN_SERVER_DEAL_WORDS and "kernel" not in OWN_SERVER_DEAL_WORDS


def test_the_class_server_marks_every_kernel_it_starts(tmp_path, monkeypatch):
    """What the words above rely on: serve() sets the mark in its own environment before Voilà starts any
    kernel (kernels inherit it), whatever environment it was started from."""
    from safari_kit.classroom import serve as serve_module
    from safari_kit.classroom.settings import ClassSettings
    from tests.server.class_server import free_port

    seen = {}

    class FakeVoila:
        @classmethod
        def launch_instance(cls, argv, config):
            seen["mark"] = os.environ.get("SAFARI_KIT_QUIET_ERRORS")

    monkeypatch.setattr(serve_module, "trust_notebook", lambda *args: None)  # Jupyter's signing: not the point
    monkeypatch.setenv("JUPYTERHUB_USER", "ms-okafor")
    monkeypatch.delenv("SAFARI_KIT_QUIET_ERRORS", raising=False)
    monkeypatch.setenv("JUPYTER_PATH", os.environ.get("JUPYTER_PATH", ""))  # serve() prepends to it: restored
    notebook = tmp_path / "app.ipynb"
    notebook.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    settings = ClassSettings(ip="127.0.0.1", port=free_port())
    assert serve_module.serve(str(notebook), settings, print_fn=lambda _text: None, app_class=FakeVoila) == 0
    assert seen == {"mark": "1"}
    assert not learner_owns_the_server()
