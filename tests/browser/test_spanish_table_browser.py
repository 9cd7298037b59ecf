"""Issue 30: the card table and the labs' side panel in Spanish, in JupyterLab at 1366x768.

A Spanish playthrough found the table's own words in English (table.js wrote them), long data-item names
("Velocidad máxima", "Esperanza de vida") running over the bars of a Knockout card, and the side panel's
buttons and labels cut with an ellipsis ("Siguiente t…", "Tu estima…"). One notebook holds an Identification
lab (after Identify: the clue-type step) and a Knockout lab, both built in Spanish; the page is read as a
learner sees it:

- no English word of the old table is seen or said (text, aria-label, title) on either table;
- on every Knockout card a data item's name stays inside its box and left of its bar;
- no button or label of either side panel is cut, and nothing in the side panel is wider than the panel;
- the learner's own seat says "te toca" (second person), not "le toca".

Shots: ``test-artifacts/es-table-*.png``.
"""
from __future__ import annotations

import re
import time

import pytest

from tests.browser.helpers import open_and_run, screenshot, write_notebook
from tests.browser.test_no_scroll import widget_button

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1366, 768
CELLS = [
    "from safari_kit.core.i18n import language\nfrom safari_kit.widgets.labs import IdentificationLab, KnockoutLab\n"
    "with language('es'):\n    idl = IdentificationLab(seed=5)\nidl",
    "with language('es'):\n    ko = KnockoutLab(seed=3)\nko",
]
#: English words the old table.js wrote (tests/i18n/test_table_page_words.py lists its source strings)
OLD_WORDS = ("Round", "pts", "to play", "lead", "dealer", "Played this turn", "No card played yet",
             "Name a data item", "Unidentified Area", "Place", "Your Archive", "Archive", "empty", "Deck", "cards",
             "Won", "ALEX is on top", "Your hand", "weight bars", "heavier", "You", "Player", "winner", "Clue Area",
             "face down", "face up", "arrow keys", "Enter picks", "Turn", "won by", "Named")

#: the badges of the learner's own seat ("Tú"): the verb in the second person (issue 30)
YOUR_BADGES = {"te toca", "empiezas", "repartes", "★ ganas", "fuera"}

#: every text of the table a learner reads or hears (text without CSS capitals, aria-label, title)
_TABLE_WORDS = """(el) => {
  const out = [el.textContent];
  for (const n of el.querySelectorAll('[aria-label], [title]'))
    out.push(n.getAttribute('aria-label') || '', n.getAttribute('title') || '');
  return out.join('\\n');
}"""

#: the side panel's controls whose words are cut, and anything in it wider than the panel
_SIDE_CUT = """(side) => {
  const cut = [];
  const box = side.getBoundingClientRect();
  for (const n of side.querySelectorAll('button, .widget-label, .widget-label-basic, label')) {
    if (!n.offsetParent) continue;  // hidden
    if (n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1)
      cut.push(`cut: "${n.textContent.trim()}" ${n.scrollWidth}x${n.scrollHeight}`
               + ` in ${n.clientWidth}x${n.clientHeight}`);
  }
  for (const n of side.querySelectorAll('*')) {
    if (!n.offsetParent) continue;
    const r = n.getBoundingClientRect();
    if (r.width && r.right > box.right + 1)
      cut.push(`wider than the panel: <${n.tagName.toLowerCase()} class="${n.className}">`
               + ` ends at ${Math.round(r.right)} > ${Math.round(box.right)}`);
  }
  if (side.scrollWidth > side.clientWidth + 1)
    cut.push(`the panel scrolls sideways: ${side.scrollWidth} > ${side.clientWidth}`);
  return cut;
}"""

#: a Knockout card's data-item names that run out of their box or over their bar
_BAR_OVERLAP = """(table) => {
  const bad = [];
  for (const row of table.querySelectorAll('.st-bar-row')) {
    const label = row.querySelector('.st-bar-label'), track = row.querySelector('.st-bar-track');
    const l = label.getBoundingClientRect(), t = track.getBoundingClientRect();
    if (label.scrollWidth > label.clientWidth + 1 || l.right > t.left + 0.5)
      bad.push(`"${label.textContent}": ends at ${l.right.toFixed(1)}, its bar starts at ${t.left.toFixed(1)}`
               + ` (scrollWidth ${label.scrollWidth}, clientWidth ${label.clientWidth})`);
  }
  return bad;
}"""


@pytest.fixture(scope="module")
def spanish(browser, lab_server):
    """The notebook of the two Spanish labs, opened once at 1366x768."""
    started = time.perf_counter()
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, locale="es-ES")
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    write_notebook(lab_server.root / "issue30_spanish_table.ipynb", CELLS)
    run = open_and_run(pg, lab_server, "issue30_spanish_table.ipynb", name="es-table-run", timeout=180_000)
    assert run.ok, run.errors
    pg.errors = errors
    yield pg
    context.close()
    print(f"\nissue 30 Spanish table (browser): {time.perf_counter() - started:.1f} s")


def _english_left(text: str) -> list[str]:
    return [w for w in OLD_WORDS if re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", text)]


def test_spanish_tables_and_side_panels(spanish):
    page = spanish
    ident = page.locator(".safari-identification-lab").first
    ident.evaluate("(el) => el.scrollIntoView({block: 'start'})")
    widget_button(ident, "Identificar").click()
    page.locator(".safari-identification-lab .safari-types button").first.wait_for()
    screenshot(page, "es-table-identification")
    problems = {}
    for name, lab in (("Identification", ident), ("Knockout", page.locator(".safari-knockout-lab").first)):
        lab.evaluate("(el) => el.scrollIntoView({block: 'start'})")
        table = lab.locator(".safari-table").first
        left = _english_left(table.evaluate(_TABLE_WORDS))
        if left:
            problems[f"{name}: English on the table"] = left
        yours = table.locator(".st-seat.st-you .st-badge").evaluate_all("(ns) => ns.map((n) => n.textContent)")
        if "te toca" not in yours or set(yours) - YOUR_BADGES:  # the learner plays now: "te toca", not "le toca"
            problems[f"{name}: the learner's own seat badges"] = yours
        cut = lab.locator(".safari-side").first.evaluate(_SIDE_CUT)
        if cut:
            problems[f"{name}: side panel"] = cut
        if name == "Knockout":
            screenshot(page, "es-table-knockout")
            assert table.locator(".st-bar-row").count() >= 4 * 7, "the learner's hand is drawn"
            bars = table.evaluate(_BAR_OVERLAP)
            if bars:
                problems["Knockout: names over their bars"] = bars
    assert not page.errors, page.errors
    assert not problems, problems
