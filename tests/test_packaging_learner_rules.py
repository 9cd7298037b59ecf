"""The wheel carries the learners' rules pages (issue 27): their two sources and every card picture.

The app's "Rules of Safari Witness" page and the Rules tutorial's rulings read them from the installed
package (safari_kit/tutorial/learner_rules/), so a wheel without them would break both. Built once with pip,
as tests/test_packaging.py does (its fixture).
"""
from __future__ import annotations

import zipfile

import pytest

from safari_kit.tutorial import learner_rules as LR
from tests.test_packaging import wheel  # noqa: F401  (the fixture: the wheel, built once)


@pytest.mark.slow
def test_the_wheel_carries_the_rules_pages_and_their_pictures(wheel):  # noqa: F811
    _repo, path = wheel
    names = set(zipfile.ZipFile(path).namelist())
    folder = "safari_kit/tutorial/learner_rules/"
    assert {f"{folder}witness.md", f"{folder}knockout.md"} <= names
    # every language's page (witness.es.md, the pseudo-locale's witness.en_XA.md) and its own pictures (issue 30)
    assert {f"{folder}{LR.source_path(g, lang).name}" for g in LR.GAMES for lang in LR.languages(g)} <= names
    pictures = {p.path.name for game in LR.GAMES for lang in LR.languages(game) for p in LR.pictures(game, lang)}
    assert {f"{folder}pictures/{name}" for name in pictures} <= names
