"""Accessibility helpers for the browser tests (issue 20): axe-core run offline, scoped to the kit's DOM.

The axe-core engine is the ``axe.min.js`` that the PyPI package ``axe-playwright-python`` ships (pinned in
pyproject.toml's test extra, so ``make test`` installs it with everything else; nothing is fetched at run
time). It is evaluated into the page as it is and run with ``axe.run(context, options)``: only impacts
*critical* and *serious* fail a test, and the context names the kit's own nodes (the app's ``.safari-app``,
the lessons' widget outputs), because JupyterLab's and Voilà's own page is not the kit's to fix.
"""
from __future__ import annotations

from importlib import resources

FAILING_IMPACTS = ("critical", "serious")
#: WCAG 2.0/2.1 A and AA rules, and axe's best practices (heading order, landmarks are not ours: left out)
RUN_ONLY = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe_source() -> str:
    """The pinned axe-core engine, read from the installed ``axe_playwright_python`` package."""
    try:
        return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")
    except ModuleNotFoundError as exc:  # pragma: no cover - the test extra installs it
        raise RuntimeError("axe-playwright-python is not installed: pip install -e '.[test]'") from exc


def run_axe(page, include: list[str] | str, exclude: list[str] | None = None) -> list[dict]:
    """axe's violations (every impact) in the nodes matching ``include`` (CSS selectors), as plain dicts.

    Each violation: ``id``, ``impact``, ``help`` and ``nodes`` (each with ``target`` and ``summary``).
    """
    if isinstance(include, str):
        include = [include]
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(axe_source())
    context = {"include": [[sel] for sel in include]}
    if exclude:
        context["exclude"] = [[sel] for sel in exclude]
    return page.evaluate(
        """async ([context, tags]) => {
            const r = await window.axe.run(context, {runOnly: {type: 'tag', values: tags},
                                                     resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary,
                                          html: n.html.slice(0, 200)}))}));
        }""",
        [context, RUN_ONLY],
    )


def failing(violations: list[dict]) -> list[dict]:
    return [v for v in violations if v["impact"] in FAILING_IMPACTS]


def describe(violations: list[dict], limit: int = 4) -> str:
    """Violations in a few lines each: what the rule is, where, and axe's summary of the first nodes."""
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} nodes)")
        for n in v["nodes"][:limit]:
            summary = " ".join((n["summary"] or "").split())[:300]
            lines.append(f"    {n['target']}  {n['html'][:120]!r}\n      {summary}")
    return "\n".join(lines)
