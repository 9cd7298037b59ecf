"""Issue 30: every lab of the app in the pseudo-locale and in Spanish, in Chromium, at 1366x768 and 1024x768.

The pseudo-locale ``en_XA`` (``tools/i18n.py pseudo``: every catalogued letter accented, every string ~35 %
longer) shows what the Python test (tests/i18n/test_pseudo_locale.py) cannot: the page as drawn. Two visits of
the classroom app (Voilà), each walking every lab of the chooser (both viewports in the same visit: the window
is resized, the lab stays open; issue 28: one visit a language, not one a lab or a size):

* ``?lang=en_XA``: each lab just opened and after one action of the learner (the card-table labs), at both sizes:
  no plain English word is seen (text) or named for a screen reader (aria-label, title, alt, placeholder, the
  list's options): anything left is a string outside the catalogue; the page never scrolls sideways; no button,
  tab or control label is cut (its words wider than its box);
* ``?lang=es``: each lab just opened, at both sizes: no button, tab or label cut ("Juntar mis tandas", the
  Simulation lab's pool box, was cut at 130 px), no sideways scroll; at 1366x768 axe-core finds no critical or
  serious violation, with ``lang="es"`` on the app and on each lab (the kit sets it: a screen reader reads the
  words with a Spanish voice); then, after those checks, one turn of the lab played as a Spanish learner plays
  it (tests/browser/spanish_turns.py): the buttons found by their Spanish names, the outcome sentence read from
  the Spanish catalogue (``_()`` in ``language("es")``, never written Spanish), chances with a decimal comma,
  no error on the page. A lab whose turn goes wrong is named ("Safari Witness / Identification, a turn in
  Spanish: ...") and the walk goes on to the next lab.

Screenshots: ``test-artifacts/xa-<lab>-<width>.png``, ``es-<lab>-<width>.png``. The walk's time is printed (and
the turns' share of it); with ``-s``, each turn's outcome sentence as the learner read it.
"""
from __future__ import annotations

import re
import time

import pytest

from safari_kit.widgets.app import LABS
from tests.browser.a11y import describe, failing, run_axe
from tests.browser.app_pages import new_app_context
from tests.browser.helpers import screenshot
from tests.browser.spanish_turns import play_turn
from tests.i18n.visible import SYMBOLS, data_words, english_words

pytestmark = pytest.mark.browser

SIZES = ((1366, 768), (1024, 768))
APP = ".safari-app"
#: a selector that shows each kind of lab is drawn (by the lab's class in safari_kit.widgets.app.LABS)
READY = {"RulesTutorial": ".safari-lab .safari-table .st-card", "IdentificationLab": ".safari-table .st-card",
         "ChallengeLab": ".safari-table .st-card", "FullGameLab": ".safari-table .st-card",
         "KnockoutLab": ".safari-table .st-card", "SimulationLab": ".safari-sim-round",
         "RulesPage": ".safari-rules-page"}
#: words that are no catalogue string: card data, symbols, the kit's name, the language list's entries (each
#: language in its own words), the rules pages' notebook names (rules-safari-witness.ipynb: file names)
ALLOWED = data_words() | SYMBOLS | {"English", "rules", "safari", "witness", "knockout", "ipynb"}

#: every word a learner reads or hears in the app, with where: text of visible elements (CSS capitals left
#: out), the names a screen reader reads (aria-label, title, alt, placeholder, aria-valuetext), list options
_WORDS = """(root) => {
  const out = [];
  const seen = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const where = (el) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
      ? '.' + el.className.trim().split(/\\s+/).slice(0, 2).join('.') : '');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.textContent.trim() || el.closest('style, script, .safari-live')) continue;
    if (el.closest('option') || seen(el)) out.push([where(el), n.textContent.trim()]);
  }
  for (const el of root.querySelectorAll('[aria-label], [title], [alt], [placeholder], [aria-valuetext]')) {
    for (const a of ['aria-label', 'title', 'alt', 'placeholder', 'aria-valuetext']) {
      const v = el.getAttribute(a);
      if (v && v.trim()) out.push([where(el) + '@' + a, v.trim()]);
    }
  }
  return out;
}"""

#: controls whose words are cut (wider or taller than their box: ipywidgets' ellipsis), and sideways scroll
_CUT = """(root) => {
  const cut = [];
  const sel = 'button, .widget-label, .widget-label-basic, label, .lm-TabBar-tabLabel, .widget-toggle-button';
  for (const n of root.querySelectorAll(sel)) {
    if (!n.getClientRects().length || !n.textContent.trim()) continue;
    if (n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1)
      cut.push(`cut: "${n.textContent.trim().slice(0, 60)}" ${n.scrollWidth}x${n.scrollHeight}`
               + ` in ${n.clientWidth}x${n.clientHeight}`);
  }
  const page = document.scrollingElement;
  if (page.scrollWidth > page.clientWidth + 1)
    cut.push(`the page scrolls sideways: ${page.scrollWidth} > ${page.clientWidth}`);
  for (const n of root.querySelectorAll('*')) {
    const s = getComputedStyle(n);
    if (/(auto|scroll)/.test(s.overflowX) && n.scrollWidth > n.clientWidth + 1 && n.clientWidth > 0
        && !n.matches('.safari-table, .safari-table *, .jp-OutputArea-output')) {
      const edge = n.getBoundingClientRect().right;  // the element that sticks out furthest: what to fix
      let far = null, right = edge;
      for (const c of n.querySelectorAll('*')) {
        const r = c.getBoundingClientRect();
        if (r.width && r.right > right + 1) { far = c; right = r.right; }
      }
      const what = far ? ` <${far.tagName.toLowerCase()} class="${String(far.className).slice(0, 60)}">`
          + ` "${(far.textContent || '').trim().slice(0, 40)}"` : '';
      cut.push(`scrolls sideways: <${n.tagName.toLowerCase()} class="${String(n.className).slice(-40)}">`
               + ` ${n.scrollWidth} > ${n.clientWidth}:${what}`);
    }
  }
  return cut;
}"""


def _open(page, game_index: int, lab_index: int, ready: str) -> None:
    """Open the chooser's ``lab_index``-th lab of its ``game_index``-th game (by place: the words are translated)."""
    app = page.locator(APP)
    app.locator(".widget-toggle-buttons button").nth(game_index).click()
    count = sum(1 for e in LABS if e.game == sorted({x.game for x in LABS}, key=[x.game for x in LABS].index)
                [game_index])
    page.wait_for_function("(n) => { const s = document.querySelector('.safari-app .safari-lab-list select');"
                           " return s && s.options.length === n; }", arg=count)
    app.locator(".safari-lab-list select").first.select_option(index=lab_index)
    page.wait_for_timeout(200)  # the kernel has the choice before Open lab
    app.locator("button.safari-open").click()
    page.locator(f"{APP} .safari-lab {ready}, {APP} {ready}").first.wait_for(timeout=120_000)
    page.wait_for_timeout(400)


def _one_action(page) -> None:
    """The button the lab colours now (Next turn, Identify, Play...), else a selectable card or place."""
    target = page.locator(f"{APP} .safari-lab :is(.mod-warning, .mod-info, .mod-primary):not([disabled])").first
    if not target.count():
        target = page.locator(f"{APP} .safari-table .st-selectable").first
    if target.count():
        target.click()
        page.wait_for_timeout(700)


def _walk(browser, voila_app, lang: str, check, play=None) -> dict[str, list[str]]:
    """One visit of the app in ``lang``: every lab of the chooser opened, ``check(page, where)`` at both sizes;
    then ``play(page, lab class)`` (one turn of the lab, its problems in words), if given."""
    context = new_app_context(browser, {"width": SIZES[0][0], "height": SIZES[0][1]})  # less motion (issue 28)
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    problems: dict[str, list[str]] = {}
    games = sorted({e.game for e in LABS}, key=[e.game for e in LABS].index)
    try:
        page.goto(f"{voila_app.url}?lang={lang}", wait_until="domcontentloaded", timeout=90_000)
        page.locator(f"{APP} .safari-lab-list select").wait_for(timeout=90_000)

        def both_sizes(where: str, shot: str | None = None) -> None:
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                page.wait_for_timeout(250)
                found = check(page, f"{where} at {width}x{height}", width)
                if found:
                    problems[f"{where} at {width}x{height}"] = found
                if shot:
                    screenshot(page, f"{shot}-{width}")
            page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})

        both_sizes("the chooser")
        for g, game in enumerate(games):
            entries = [e for e in LABS if e.game == game]
            for i, entry in enumerate(entries):
                where = f"{game} / {entry.title}"
                _open(page, g, i, READY[entry.cls])
                both_sizes(where, f"{'xa' if lang == 'en_XA' else lang}-{entry.cls}-{g}")
                if lang == "en_XA" and ".st-card" in READY[entry.cls]:
                    _one_action(page)
                    both_sizes(f"{where}, after one action")
                if play is not None:
                    found = play(page, entry.cls)
                    if found:
                        problems[f"{where}, a turn in Spanish"] = found
    finally:
        context.close()
    if errors:
        problems["page errors"] = errors
    return problems


def _english_left(page, where: str, width: int) -> list[str]:
    # title="null": ipywidgets' own attribute on a label without a tooltip, not a word of the kit
    found = [f"English left: {text[:100]!r} ({place})" for place, text in page.locator(APP).evaluate(_WORDS)
             if text != "null" and english_words(re.sub(r"\s+", " ", text), ALLOWED)]
    return page.locator(APP).evaluate(_CUT) + found


def test_pseudo_locale_every_lab_transformed_uncut_no_sideways_scroll(browser, voila_app):
    started = time.perf_counter()
    problems = _walk(browser, voila_app, "en_XA", _english_left)
    print(f"\nissue 30 pseudo-locale walk (every lab, 2 sizes, one visit): {time.perf_counter() - started:.1f} s")
    assert not problems, "\n".join(f"{where}:\n  " + "\n  ".join(found[:12]) for where, found in problems.items())


def _spanish(page, where: str, width: int) -> list[str]:
    found = list(page.locator(APP).evaluate(_CUT))
    langs = page.locator(APP).evaluate(
        "(app) => [app.getAttribute('lang'),"
        " ...[...app.querySelectorAll('.safari-lab')].map(l => l.getAttribute('lang'))]")
    if set(langs) != {"es"}:
        found.append(f"lang of the app and its labs: {langs} (expected es)")
    if width == SIZES[0][0]:
        bad = failing(run_axe(page, APP))
        if bad:
            found.append(describe(bad))
    return found


def test_spanish_every_lab_uncut_axe_clean_and_a_turn_played_in_each(browser, voila_app):
    started, turns = time.perf_counter(), []

    def timed_turn(page, cls: str) -> list[str]:
        t0 = time.perf_counter()
        try:
            return play_turn(page, cls)
        finally:
            turns.append(time.perf_counter() - t0)

    problems = _walk(browser, voila_app, "es", _spanish, play=timed_turn)
    print(f"\nissue 30 Spanish walk (every lab, 2 sizes, axe at 1366x768, a turn in each, one visit): "
          f"{time.perf_counter() - started:.1f} s, of which {len(turns)} turns {sum(turns):.1f} s")
    assert not problems, "\n".join(f"{where}:\n  " + "\n  ".join(found[:12]) for where, found in problems.items())
