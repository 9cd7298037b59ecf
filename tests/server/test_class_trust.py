"""The class server's notebook is trusted for its own run (issue 26: 30 "Notebook app.ipynb is not trusted" warnings).

jupyter_server checks a notebook's signature each time it reads it: once per
page and per ready lab. The class server signs the notebook it serves in a
store of its own (its temporary folder, a secret of its own), so the warning
no longer comes, other warnings still do, and the teacher's own store is left alone.
"""
from __future__ import annotations

import json
import logging

import pytest

pytest.importorskip("jupyter_server")

from jupyter_server.services.contents.largefilemanager import LargeFileManager  # noqa: E402
from traitlets.config import Config  # noqa: E402

from safari_kit.classroom.serve import trust_notebook  # noqa: E402
from tests.server.class_server import TINY_NOTEBOOK  # noqa: E402


def _read(root, config, caplog) -> str:
    """What the server's contents manager logs when a page reads the notebook."""
    manager = LargeFileManager(root_dir=str(root), config=config)
    manager.log = logging.getLogger("test-trust")
    with caplog.at_level(logging.WARNING, "test-trust"):
        manager.get("app.ipynb")
    return caplog.text


def test_the_served_notebook_is_read_without_the_not_trusted_warning(tmp_path, caplog, monkeypatch):
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "teacher"))  # the teacher's own store
    (tmp_path / "app.ipynb").write_text(json.dumps(TINY_NOTEBOOK))
    folder = tmp_path / "run"
    folder.mkdir()
    untrusted = Config()
    untrusted.NotebookNotary.db_file, untrusted.NotebookNotary.secret = ":memory:", b"another secret"
    assert "is not trusted" in _read(tmp_path, untrusted, caplog)  # what 9bdb9c7 printed for every lab
    caplog.clear()

    config = Config()
    trust_notebook(str(tmp_path / "app.ipynb"), folder, config)
    assert "is not trusted" not in _read(tmp_path, config, caplog)
    assert not (tmp_path / "teacher").exists()  # nothing written into the teacher's Jupyter folder

    # a notebook edited while the server runs is no longer signed: the warning comes back
    edited = dict(TINY_NOTEBOOK, cells=[dict(TINY_NOTEBOOK["cells"][0], source=["print('hi')"])])
    (tmp_path / "app.ipynb").write_text(json.dumps(edited))
    caplog.clear()
    assert "is not trusted" in _read(tmp_path, config, caplog)


def test_a_file_that_is_no_notebook_does_not_stop_the_server_from_starting(tmp_path):
    (tmp_path / "app.ipynb").write_text("not json")
    config = Config()
    trust_notebook(str(tmp_path / "app.ipynb"), tmp_path, config)  # no exception: Voilà's page says what is wrong
    assert "NotebookNotary" not in config
