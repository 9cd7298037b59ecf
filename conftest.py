"""pytest, for the whole repository: the kit's stubs of old import paths are not collected for doctests.

``addopts = --doctest-modules`` imports every module of ``safari_kit``. An old path kept for one release (issue
28: ``safari_kit/server/_moved.py``'s stubs, ``safari_kit/simulation/charts.py``) warns when imported and, when it
hands over the new module itself (``sys.modules[__name__] = ...``), makes pytest stop with "import file
mismatch". Such a stub has no doctest of its own: it is left out here, and its own tests import it on purpose
(tests/server/test_old_paths.py, tests/simulation/test_charts_moved.py).
"""
from __future__ import annotations

from pathlib import Path

_KIT = Path(__file__).resolve().parent / "safari_kit"
_STUB_MARKS = ("from safari_kit.server._moved import", "sys.modules[__name__] =")


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    path = Path(collection_path)
    if path.suffix != ".py" or _KIT not in path.resolve().parents:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    return True if any(mark in text for mark in _STUB_MARKS) else None
