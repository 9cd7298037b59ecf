"""The architecture the docs describe is the one the import-linter contracts enforce (issue 28).

CONTRIBUTING.md, "The layers", draws the layers as a block of ``safari_kit.X`` lines (top first) and names
every contract; README's "How it is built" gives the same order as one arrow line (bottom first).
pyproject.toml's ``[tool.importlinter]`` is what ``lint-imports`` checks. When a package is added, moved or
a contract renamed, these tests fail until the docs say so too. The controls show that each comparison
fails on a changed copy.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: packages that are only stubs of old import paths, kept one release (safari_kit/server/_moved.py)
STUB_PACKAGES = {"safari_kit.classroom_web"}


def _contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]


def _layers() -> list[str]:
    (layers,) = [c["layers"] for c in _contracts() if c["type"] == "layers"]
    return [" | ".join(sorted(p.strip() for p in layer.split("|"))) for layer in layers]


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start:end if end >= 0 else len(text)]


def contributing_layers(text: str) -> list[str]:
    """The layers block of CONTRIBUTING's "The layers", top first: each line's package names."""
    block = _section(text, "## The layers").split("```")[1]
    rows = []
    for line in block.splitlines():
        if line.startswith("safari_kit."):
            names = re.match(r"((?:safari_kit\.\w+)(?: \| safari_kit\.\w+)*)", line).group(1)
            rows.append(" | ".join(sorted(n.strip() for n in names.split("|"))))
    return rows


def readme_layers(text: str) -> list[str]:
    """README's arrow line, turned top first like the contract."""
    line = next(ln for ln in _section(text, "## How it is built").splitlines() if "→" in ln)
    return [" | ".join(sorted(f"safari_kit.{p.strip()}" for p in part.split("|")))
            for part in reversed(line.split("→"))]


def packages() -> set[str]:
    """Every package of the kit, by dotted name."""
    return {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "safari_kit").rglob("__init__.py")
            if "__pycache__" not in p.parts}


def test_contributing_draws_the_contracts_layers_in_order():
    assert contributing_layers((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")) == _layers()


def test_readme_gives_the_same_order():
    assert readme_layers((ROOT / "README.md").read_text(encoding="utf-8")) == _layers()


def test_every_top_level_package_is_in_a_layer():
    top = {p for p in packages() if p.count(".") == 1} - STUB_PACKAGES
    layered = {name for layer in _layers() for name in layer.split(" | ")}
    assert top == layered, f"not in a layer: {sorted(top - layered)}; no such package: {sorted(layered - top)}"


def test_the_architecture_section_names_every_package_and_contract():
    section = _section((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"), "## The layers")
    flat = re.sub(r"\s+", " ", section)
    missing = [p for p in sorted(packages() - {"safari_kit"}) if p not in flat]
    assert not missing, f"CONTRIBUTING's 'The layers' does not name {missing}"
    names = [c["name"] for c in _contracts()]
    unnamed = [n for n in names if n not in flat]
    assert not unnamed, f"CONTRIBUTING's 'The layers' does not name the contracts {unnamed}"


def test_every_package_is_under_the_no_circles_contract():
    (acyclic,) = [c for c in _contracts() if c["type"] == "acyclic_siblings"]
    missing = packages() - set(acyclic["ancestors"])
    assert not missing, f"add {sorted(missing)} to the ancestors of {acyclic['name']!r}"


@pytest.mark.parametrize("change", ["swap", "drop"])
def test_control_a_changed_diagram_fails(change):
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    if change == "swap":
        text = text.replace("safari_kit.simulation     bots", "safari_kit.simulatio_     bots").replace(
            "safari_kit.probability    exact", "safari_kit.simulation     exact").replace(
            "safari_kit.simulatio_     bots", "safari_kit.probability    bots")
    else:
        text = text.replace("safari_kit.presentation   what", "(presentation)   what")
    assert contributing_layers(text) != _layers()


def test_control_a_reordered_readme_fails():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    text = text.replace("probability → simulation", "simulation → probability")
    assert readme_layers(text) != _layers()
