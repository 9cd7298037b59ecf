"""Per-learner servers for the lessons (issue 29): the kit's ``hub_config/lessons_servers.py``, loaded at the
end of its ``jupyterhub_config.py``, and the learner's start step (``safari_kit.classroom.learner_server``).

Unit tests: the config is read as JupyterHub reads it (traitlets' loader, ``load_subconfig``), no hub runs.
"""
from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest
from traitlets.config.loader import PyFileConfigLoader

from safari_kit.authoring.workspace import kit_lessons
from safari_kit.classroom import learner_server
from safari_kit.classroom.hub_config import CONFIG, LESSONS_SERVERS


def _hub_config(monkeypatch, **env):
    for key in ("SAFARI_KIT_HUB_SPAWNER", "SAFARI_KIT_LEARNER_PYTHON", "SAFARI_KIT_CULL_TIMEOUT",
                "SAFARI_KIT_CULL_MAX_AGE"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return PyFileConfigLoader(CONFIG.name, str(CONFIG.parent)).load_config()


CULLER = "pip install jupyterhub-idle-culler (the hub's idle culler)"


def test_the_kits_hub_config_loads_the_lessons_servers_beside_its_class_services(monkeypatch):
    assert LESSONS_SERVERS.is_file()
    pytest.importorskip("jupyterhub_idle_culler", reason=CULLER)
    c = _hub_config(monkeypatch)
    names = [s["name"] for s in c.JupyterHub.services]
    assert "idle-culler" in names and len(names) >= 2, names  # appended: the class services are still there
    assert all(any(s["name"] == n for s in c.JupyterHub.services) for n in names)
    roles = {r["name"]: r for r in c.JupyterHub.load_roles}
    assert roles["idle-culler"]["services"] == ["idle-culler"] and any(n.startswith("class-") for n in roles)
    # the culler may stop servers, never delete users or touch the class services
    assert set(roles["idle-culler"]["scopes"]) == {"list:users", "read:users:activity", "read:servers",
                                                  "delete:servers"}


def test_the_culler_has_both_an_idle_timeout_and_a_maximum_age(monkeypatch):
    """An open page nobody clicks kept a server 'active' for over 5 minutes at --timeout=90: --max-age too."""
    culler_app = pytest.importorskip("jupyterhub_idle_culler", reason=CULLER).IdleCuller
    c = _hub_config(monkeypatch)
    culler = next(s for s in c.JupyterHub.services if s["name"] == "idle-culler")
    command = culler["command"]
    assert command[:3] == [sys.executable, "-m", "jupyterhub_idle_culler"]
    options = dict(arg[2:].split("=", 1) for arg in command[3:])
    assert int(options["timeout"]) == 3600 and int(options["max-age"]) == 28800
    assert 0 < int(options["cull-every"]) <= int(options["timeout"])
    assert "cull-users" not in options  # learners' accounts stay
    assert {f"--{name}" for name in options} <= {f"--{a}" for a in culler_app.aliases}, options
    short = _hub_config(monkeypatch, SAFARI_KIT_CULL_TIMEOUT="90", SAFARI_KIT_CULL_MAX_AGE="600")
    command = next(s for s in short.JupyterHub.services if s["name"] == "idle-culler")["command"]
    assert "--timeout=90" in command and "--max-age=600" in command and "--cull-every=45" in command
    short_age = _hub_config(monkeypatch, SAFARI_KIT_CULL_MAX_AGE="60")
    command = next(s for s in short_age.JupyterHub.services if s["name"] == "idle-culler")["command"]
    assert "--cull-every=30" in command  # looks often enough for the shorter of the two


def test_without_the_culler_installed_the_hub_starts_and_says_so(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "jupyterhub_idle_culler" else real(name, *a))
    c = _hub_config(monkeypatch)
    assert "idle-culler" not in [s["name"] for s in c.JupyterHub.services]
    assert "jupyterhub-idle-culler is not installed" in capsys.readouterr().err


def test_a_learners_server_opens_jupyterlab_on_their_own_copies(monkeypatch):
    c = _hub_config(monkeypatch)
    assert c.Spawner.cmd == [sys.executable, "-m", "safari_kit.classroom.learner_server"]
    assert importlib.util.find_spec("safari_kit.classroom.learner_server") is not None
    url = c.Spawner.default_url
    assert url.startswith("/lab/tree/lessons/")  # JupyterLab, in the folder the start step fills
    assert (kit_lessons() / Path(url).name).is_file(), url
    assert c.Spawner.start_timeout >= 60 and c.Spawner.http_timeout >= 30


def test_the_spawner_that_runs_learners_as_the_hubs_user_is_only_chosen_on_purpose(monkeypatch):
    """SimpleLocalProcessSpawner runs every learner's code as the hub's user (who runs the class services too):
    never by default. JupyterHub's default runs each learner as their own system user."""
    assert "spawner_class" not in _hub_config(monkeypatch).JupyterHub
    simple = _hub_config(monkeypatch, SAFARI_KIT_HUB_SPAWNER="simple")
    assert simple.JupyterHub.spawner_class == "simple"
    assert _hub_config(monkeypatch, SAFARI_KIT_HUB_SPAWNER="systemdspawner").JupyterHub.spawner_class == \
        "systemdspawner"
    text = LESSONS_SERVERS.read_text(encoding="utf-8")
    assert all(name in text for name in ("systemdspawner", "dockerspawner", "KubeSpawner", "test machine"))


def test_the_start_step_makes_the_copies_keeps_saved_work_then_becomes_the_server(tmp_path, monkeypatch):
    started = []
    monkeypatch.setattr(os, "execvp", lambda program, argv: started.append(argv))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(learner_server.LESSONS_DIR_ENV, raising=False)
    learner_server.main(["--debug"])
    lessons = tmp_path / "lessons"
    assert (lessons / "00-start-here.ipynb").is_file() and (lessons / "app.ipynb").is_file()
    assert started[-1][0].endswith("jupyterhub-singleuser") and started[-1][1:] == ["--debug"]
    mine = lessons / "03-challenge.ipynb"
    notebook = json.loads(mine.read_text(encoding="utf-8"))
    notebook["cells"][0]["source"] = "my answer, saved"
    mine.write_text(json.dumps(notebook), encoding="utf-8")
    (lessons / "00-start-here.ipynb").unlink()  # deleted by the learner: made again
    learner_server.main([])
    assert json.loads(mine.read_text(encoding="utf-8"))["cells"][0]["source"] == "my answer, saved"
    assert (lessons / "00-start-here.ipynb").is_file() and len(started) == 2


def test_the_server_starts_even_when_the_copies_cannot_be_made(tmp_path, monkeypatch, capsys):
    started = []
    monkeypatch.setattr(os, "execvp", lambda program, argv: started.append(argv))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lessons").write_text("a file where the folder should be")
    learner_server.main([])
    assert started and "the lessons were not copied into" in capsys.readouterr().err


def test_the_lessons_folder_can_be_named(tmp_path):
    assert learner_server.lessons_folder({}, tmp_path) == tmp_path / "lessons"
    assert learner_server.lessons_folder({"SAFARI_KIT_LESSONS_DIR": "maths/safari"}, tmp_path) == \
        tmp_path / "maths" / "safari"
