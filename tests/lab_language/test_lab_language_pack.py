"""JupyterLab's own menus in Spanish where the lessons run (issue 30): its language pack, installed, not downloaded.

* the pack is named where each route installs JupyterLab: the kit's ``lab`` extra (``make lab``), Binder's
  requirements, the static site's build venv (site-src/requirements.txt), and it is installed in this venv
  (nothing is downloaded here);
* ``make lab LAB_LANG=es`` (tools/lab_language.py): a folder of JupyterLab's application settings with the kit's
  own overrides and the pack's locale; a language without a pack is refused in one sentence naming what to
  install;
* a real JupyterLab started as the Makefile starts it serves Spanish: its translation setting's default is
  ``es_ES`` and ``/lab/api/translations/es_ES`` holds JupyterLab's menus in Spanish ("Ejecutar todas las
  celdas" for "Run All Cells");
  started without the folder, the default stays JupyterLab's own (the control).
"""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
import lab_language  # noqa: E402

PACK = "jupyterlab-language-pack-es-ES"


def test_every_route_names_the_spanish_pack_and_this_venv_has_it():
    pyproject = (REPO / "pyproject.toml").read_text()
    lab_extra = pyproject.split("[project.optional-dependencies]")[1].split("\ntest = [")[0]
    assert f'"{PACK}>=' in lab_extra
    assert re.search(rf"^{PACK}==4\.5\.\*", (REPO / "binder" / "requirements.txt").read_text(), re.M)
    assert re.search(rf"^{PACK}==4\.5\.post3$", (REPO / "site-src" / "requirements.txt").read_text(), re.M)
    assert "es_ES" in lab_language.installed_packs()


def test_the_settings_folder_holds_the_kits_overrides_and_the_locale(tmp_path):
    kit = tmp_path / "kit.json"
    kit.write_text(json.dumps({"@jupyterlab/apputils-extension:notification": {"fetchNews": "false"}}))
    folder = lab_language.write_settings("es-MX", tmp_path / "es", packs={"es_ES": "Español"}, kit_overrides=kit)
    overrides = json.loads((folder / "overrides.json").read_text())
    assert overrides[lab_language.TRANSLATION_PLUGIN] == {"locale": "es_ES"}
    assert overrides["@jupyterlab/apputils-extension:notification"] == {"fetchNews": "false"}
    english = json.loads((lab_language.write_settings("en", tmp_path / "en", packs={}, kit_overrides=kit)
                          / "overrides.json").read_text())
    assert lab_language.TRANSLATION_PLUGIN not in english


def test_a_language_without_a_pack_is_refused_in_one_sentence(tmp_path, capsys):
    with pytest.raises(lab_language.LabLanguageError, match=r"no JupyterLab language pack for 'de'.*es_ES"):
        lab_language.pack_for("de", {"es_ES": "Español"})
    assert lab_language.main(["xx", str(tmp_path / "xx")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("make lab LAB_LANG=xx: no JupyterLab language pack") and "Traceback" not in err


def test_make_lab_passes_the_folder_to_jupyter_lab():
    makefile = (REPO / "Makefile").read_text()
    lab = makefile.split("\nlab: ")[1].split("\n\n")[0]
    assert "tools/lab_language.py $(LAB_LANG) $(LAB_SETTINGS)" in lab
    assert "--LabApp.app_settings_dir=$(LAB_SETTINGS)" in lab


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


@pytest.mark.slow
def test_jupyterlab_started_as_make_lab_starts_it_speaks_spanish(tmp_path):
    folder = lab_language.write_settings("es", tmp_path / "settings")
    found = {}
    for name, extra in (("es", [f"--LabApp.app_settings_dir={folder}"]), ("control", [])):
        port = _port()
        env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg"), "JUPYTERLAB_SETTINGS_DIR":
               str(tmp_path / f"user-{name}"), "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / f"ws-{name}")}
        proc = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
                                 "--ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
                                 "--ServerApp.disable_check_xsrf=True", f"--ServerApp.root_dir={tmp_path}",
                                 "--allow-root", *extra], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            base = f"http://127.0.0.1:{port}/lab/api/"
            deadline = time.monotonic() + 90
            while True:
                try:
                    setting = _get(base + "settings/@jupyterlab/translation-extension:plugin")
                    break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        pytest.fail(f"jupyter lab did not answer on port {port} (rc={proc.poll()})")
                    time.sleep(0.3)
            found[name] = setting["schema"]["properties"]["locale"]["default"]
            if name == "es":
                pack = _get(base + "translations/es_ES")
                assert not pack["message"], pack["message"]
                assert pack["data"]["jupyterlab"]["Run All Cells"] == ["Ejecutar todas las celdas"]
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
    assert found == {"es": "es_ES", "control": "default"}, found
