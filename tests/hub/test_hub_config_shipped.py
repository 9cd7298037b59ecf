"""The jupyterhub_config.py the kit ships (issue 29), read as JupyterHub reads it (traitlets' config loader)."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from traitlets.config.loader import PyFileConfigLoader

from safari_kit.classroom.hub_config import CONFIG, LESSONS_SERVERS


def load(path=CONFIG):
    return PyFileConfigLoader(path.name, path=str(path.parent)).load_config()


def test_one_service_and_one_role_per_class():
    c = load()
    # (lessons_servers.py, when beside it, adds its own: the idle culler)
    services = [s for s in c.JupyterHub.services if "--hub" in s.get("command", ())]
    roles = [r for r in c.JupyterHub.load_roles if r["name"].startswith("class-")]
    names = [s["name"] for s in services]
    assert names == ["7b", "8c"] and len({s["url"] for s in services}) == 2
    for service in services:
        name = service["name"]
        command = service["command"]
        assert command[1:4] == ["-m", "safari_kit", "class"] and "--hub" in command
        assert command[command.index("--teacher-group") + 1] == f"teachers-{name}"
        assert command[command.index("--results") + 1].endswith(f"/{name}")  # results per class
        assert service["url"].startswith("http://127.0.0.1:")
        assert service["oauth_no_confirm"] is True
        assert service["timeout"] >= 120  # ready labs start while the hub waits
        assert service["environment"]["PYTHONUNBUFFERED"] == "1"
    assert [(r["name"], r["scopes"], r["groups"]) for r in roles] == [
        ("class-7b", ["access:services!service=7b"], ["7b", "teachers-7b"]),
        ("class-8c", ["access:services!service=8c"], ["8c", "teachers-8c"])]
    assert set(c.JupyterHub.load_groups) == {"7b", "teachers-7b", "8c", "teachers-8c"}


def test_lessons_servers_is_loaded_when_beside_it(tmp_path):
    """H2's per-learner servers for the lessons: a file lessons_servers.py beside the config is loaded at its end."""
    copy = tmp_path / CONFIG.name
    shutil.copy(CONFIG, copy)
    assert "default_url" not in load(copy).Spawner  # without the file: nothing of it
    (tmp_path / LESSONS_SERVERS.name).write_text("c.Spawner.default_url = '/lessons-test'\n")
    assert load(copy).Spawner.default_url == "/lessons-test"


def test_its_path_is_printed_and_it_ships_in_the_wheel():
    out = subprocess.run([sys.executable, "-m", "safari_kit.classroom.hub_config"], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == str(CONFIG) and CONFIG.is_file()
    # the wheel takes the whole safari_kit package (pyproject: packages = ["safari_kit"]), .py files included
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((CONFIG.parents[3] / "pyproject.toml").read_text())
    assert project["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["safari_kit"]
    assert "jupyterhub>=6.0" in project["project"]["optional-dependencies"]["hub"]
