"""site-src/trim_wheels.py: the static site's wheels without what the browser kernel never reads (issue 18).

The trimmed pygments must still give IPython its lexers (tracebacks, ``?``, ipython_pygments_lexers); anywidget
keeps its Python and loses its bundled JavaScript; tests folders go; a rule that finds nothing to drop stops the
build. Uses the wheels the site build caches (.site-build/wheels): skipped where no site was ever built.
"""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "site-src"))

import trim_wheels  # noqa: E402

CACHE = REPO / ".site-build" / "wheels"


def _wheel(pattern: str) -> Path:
    found = sorted(CACHE.glob(pattern))
    if not found:
        pytest.skip(f"no {pattern} in {CACHE} (build the site once: make site OFFLINE=1)")
    return found[0]


def test_trimmed_pygments_still_highlights_python_and_tracebacks(tmp_path):
    trimmed, files, size = trim_wheels.trim_wheel(_wheel("pygments-*.whl"), "pygments", tmp_path / "out")
    assert files > 200 and size > 3_000_000
    for wheel in (trimmed, _wheel("ipython_pygments_lexers-*.whl")):
        zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    code = ("import ipython_pygments_lexers\n"
            "from pygments import highlight\n"
            "from pygments.formatters import TerminalFormatter, HtmlFormatter\n"
            "from pygments.lexers import get_lexer_by_name\n"
            "for alias in ['python', 'pytb', 'py3tb', 'ipython3', 'ipythonconsole', 'pycon', 'text']:\n"
            "    get_lexer_by_name(alias)\n"
            "print(highlight('x = 1', get_lexer_by_name('python'), HtmlFormatter()))\n")
    # isolated (-I): only the trimmed copy is importable, not the test venv's pygments
    proc = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(tmp_path / 'site')!r})\n"
                           + code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    names = zipfile.ZipFile(trimmed).namelist()
    assert "pygments/lexers/python.py" in names and "pygments/lexers/rust.py" not in names
    record = next(n for n in names if n.endswith("RECORD"))
    assert "pygments/lexers/rust.py" not in zipfile.ZipFile(trimmed).read(record).decode()


def test_trimmed_anywidget_keeps_its_python_without_its_javascript(tmp_path):
    trimmed, files, _ = trim_wheels.trim_wheel(_wheel("anywidget-*.whl"), "anywidget", tmp_path / "out")
    names = zipfile.ZipFile(trimmed).namelist()
    assert files > 0 and "anywidget/__init__.py" in names and "anywidget/widget.py" in names
    assert not [n for n in names if n.endswith(".js") or "/labextension/" in n or ".data/" in n]


def test_tests_folders_go_from_every_wheel(tmp_path):
    trimmed, files, _ = trim_wheels.trim_wheel(_wheel("traitlets-*.whl"), "traitlets", tmp_path / "out")
    assert files > 0 and not [n for n in zipfile.ZipFile(trimmed).namelist() if "/tests/" in n]


def test_a_rule_that_drops_nothing_stops_the_build(tmp_path):
    wheel = tmp_path / "anywidget-9.9.9-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("anywidget/__init__.py", "")
    with pytest.raises(SystemExit, match="anywidget"):
        trim_wheels.trim_wheel(wheel, "anywidget", tmp_path / "out")
