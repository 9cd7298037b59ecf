"""The SVG charts moved from simulation to presentation (issue 28), and speak a learner's words (issue 27).

The old path ``safari_kit.simulation.charts`` stays a release: it warns and is the new module itself. Its one
upward import (simulation -> presentation) is declared by name in the layers contract's ``ignore_imports``;
these tests keep that exception honest: it is the only one, the stub imports nothing else of the kit, and no
module of the kit imports the old path (so the ignored edge hides no real dependency of simulation on
presentation). The charts' words: no "SE shrinks like 1/√n", "trials n", "c/√n" on a learner's picture.
"""
from __future__ import annotations

import ast
import importlib
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

from safari_kit.presentation import charts

ROOT = Path(__file__).resolve().parents[2]
STUB = ROOT / "safari_kit" / "simulation" / "charts.py"


def test_old_path_warns_and_is_the_new_module():
    sys.modules.pop("safari_kit.simulation.charts", None)
    with pytest.warns(DeprecationWarning, match="safari_kit.presentation.charts"):
        old = importlib.import_module("safari_kit.simulation.charts")
    assert old is charts
    assert old.convergence_svg is charts.convergence_svg and old.Chart is charts.Chart
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from safari_kit.simulation.charts import bars_svg  # the names an old notebook imports
    assert bars_svg is charts.bars_svg


def test_the_layers_contract_ignores_only_the_stubs_import():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    ignored = [(c["name"], i) for c in contracts for i in c.get("ignore_imports", [])]
    stub = "safari_kit.simulation.charts -> safari_kit.presentation.charts"
    # the no-circles contract ignores it too: the labs' widget-free flows in presentation import simulation (issue 28)
    assert ignored == [("Layers: each imports only the layers below it", stub),
                       ("No import circles between the modules of any package", stub)], ignored


def _kit_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("safari_kit")}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("safari_kit"):
            found |= {f"{node.module}.{a.name}" for a in node.names} | {node.module}
    return found


def test_the_stub_imports_only_the_new_module_and_nothing_imports_the_stub():
    assert _kit_imports(STUB) <= {"safari_kit.presentation", "safari_kit.presentation.charts"}
    users = [str(p.relative_to(ROOT)) for p in (ROOT / "safari_kit").rglob("*.py") if p != STUB
             and any(m.startswith("safari_kit.simulation.charts") for m in _kit_imports(p))]
    assert users == [], users
    assert not any(m.startswith("safari_kit.simulation") for m in _kit_imports(ROOT / "safari_kit" / "presentation"
                                                                                / "charts.py"))


def test_the_learners_charts_speak_plain_words():
    """Issue 27: the Simulation lab's pictures said "SE shrinks like 1/√n", "trials n (log scale)" and
    "slope −1/2: c/√n"; now the same things in words (the lab explains SE and the slope under the picture)."""
    xs = [10, 100, 1000]
    svg = charts.convergence_svg(xs, [0.2, 0.19, 0.189], [0.12, 0.04, 0.012], 0.1892,
                                 others=[(xs, [0.3, 0.2, 0.19])])
    cov = charts.coverage_svg([(0.1, 0.3, True), (0.25, 0.4, False)], exact=0.2)
    for old in ("SE shrinks", "1/√n", "trials n", "c/√n", "running estimate", "confidence band", "confidence "):
        assert old not in svg + cov, old
    for new in ("trials (log scale: each step is 10 times more)", "Standard error shrinks with more trials",
                "line of slope −1/2", "estimate so far", "exact chance 0.1892", "95% interval", "earlier runs"):
        assert new in svg, new
    assert "exact chance" in cov and "covers it" in cov and "misses it" in cov
