"""The static site's build-time start-up pieces that need no browser (issue 18, items 3 and 5).

* site-src/kernel_startup.py: IPython's wheel rewritten so ``import IPython`` does not import its terminal front
  end (prompt_toolkit) and ``IPython.embed`` still exists; the kernel worker's bundle patched (forced list
  cut, no package manager for a page without micropip), and the build refuses a bundle it does not recognise;
* site-src/safari_site/later.py: which packages the online app page loads in the background.
"""
from __future__ import annotations

import importlib.util
import sys
import types
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "site-src"))

import kernel_startup  # noqa: E402

WORKER = ('async initPackageManager(e){let{pipliteWheelUrl:t,loadPyodideOptions:r}=this._options,'
          'i=(r||{}).packages||[];i.includes("micropip")||await this._pyodide.loadPackage(["micropip"])}'
          'async initKernel(e){let t=(e.loadPyodideOptions||{}).packages||[],'
          'n=["sqlite3","ipykernel","comm","pyodide_kernel","jedi","ipython"],s=[];}')


def _later():
    spec = importlib.util.spec_from_file_location("safari_site_later", REPO / "site-src/safari_site/later.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # schedule() does nothing outside Pyodide
    return module


def test_slim_ipython_defers_the_terminal_front_end(tmp_path):
    wheel = tmp_path / "ipython-9.0.2-py3-none-any.whl"
    init = ('import sys\nfrom .core.getipython import get_ipython\nfrom .terminal.embed import embed\n'
            '__all__ = ["embed"]\n')
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("IPython/__init__.py", init)
        zf.writestr("ipython-9.0.2.dist-info/RECORD", "IPython/__init__.py,,\n")
    slim = kernel_startup.slim_ipython(wheel, tmp_path / "out")
    with zipfile.ZipFile(slim) as zf:
        text = zf.read("IPython/__init__.py").decode()
        record = zf.read("ipython-9.0.2.dist-info/RECORD").decode()
    assert "from .terminal.embed import embed\n" not in text.split("def embed")[0]
    assert "def embed(*args, **kwargs)" in text and "from .core.getipython import get_ipython" in text
    assert "IPython/__init__.py,sha256=" in record
    compile(text, "IPython/__init__.py", "exec")


def test_slim_ipython_refuses_an_ipython_it_does_not_know(tmp_path):
    wheel = tmp_path / "ipython-99-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("IPython/__init__.py", "from .terminal import embed\n")
        zf.writestr("ipython-99.dist-info/RECORD", "")
    with pytest.raises(SystemExit, match="not found"):
        kernel_startup.slim_ipython(wheel, tmp_path / "out")


def test_worker_patch():
    patched = kernel_startup.patch_kernel_js(WORKER)
    assert 'i=(r||{}).packages||[];if(!i.includes("micropip"))return;' in patched
    assert '["ipykernel","comm","pyodide-kernel","ipython"]' in patched and '"jedi"' not in patched
    with pytest.raises(SystemExit, match="not found"):
        kernel_startup.patch_kernel_js(WORKER.replace('"jedi",', ""))


def test_the_app_page_starts_without_what_it_does_not_use():
    app, lessons = set(kernel_startup.APP_STARTUP), set(kernel_startup.LESSON_STARTUP)
    assert not app & {"jedi", "prompt-toolkit", "sqlite3", "micropip", "piplite", "numpy", "pandas"}
    assert app < lessons and {"safari-kit", "ipywidgets", "anywidget"} <= app


def test_background_packages_only_where_the_lock_has_them_and_nothing_loaded_them(monkeypatch):
    later = _later()
    for name in later.PACKAGES:  # as in a kernel that never imported them (other tests here may have)
        monkeypatch.delitem(sys.modules, name, raising=False)
    online = types.SimpleNamespace(numpy={}, pandas={})
    assert later.wanted(online, types.SimpleNamespace()) == ["numpy", "pandas"]  # the online app page
    assert later.wanted(online, types.SimpleNamespace(numpy="cdn", pandas="cdn")) == []  # lessons: at start
    assert later.wanted(types.SimpleNamespace(), types.SimpleNamespace()) == []  # offline lock: none
