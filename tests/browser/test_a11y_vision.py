"""Colour vision (issue 20): nothing is said by colour alone, and screenshots under simulated colour blindness.

``test_colour_vision_identification_and_knockout`` (Voilà, ``make app``, 1366x768) opens the Identification
lab (plays to a revealed card, or stops at the "remember these" moment of a bot's failed turn) and the
Knockout lab, and checks in the page what does not need colour:

* every face-up Mugshot names its colour in words, on the card ("Pink · Wavy") and in its accessible name;
* the cards to remember have a *double* frame and a banner in words, not only an orange frame;
* a Pal's white name has at least 4.5:1 contrast on its hue with the shade table.css lays over it
  (computed here from the inline colour: axe cannot read a background image);
* a finished Knockout turn says "You won" / "You lost" in words.

Then it saves each lab, and a strip of the five card colours as table.js fills them, under Chromium's
simulated protanopia, deuteranopia and tritanopia (DevTools protocol
``Emulation.setEmulatedVisionDeficiency``): ``test-artifacts/a11y-vision-<lab>-<deficiency>.png``,
``a11y-vision-colours-<deficiency>.png``. Whether the colours can be told apart is judged by a person
looking at them (issue 20's note); the test only makes them.
"""
from __future__ import annotations

import re

import pytest

from tests.browser.helpers import REPO, screenshot
from tests.browser.test_a11y_axe import APP_LABS, APP_ROOT, choose, laptop  # noqa: F401 - laptop: a fixture
from tests.browser.test_app_voila import button, pick_best_declaration

pytestmark = pytest.mark.browser

DEFICIENCIES = ("none", "protanopia", "deuteranopia", "tritanopia")
COLOURS = ("Teal", "Yellow", "Orange", "Pink", "Violet")
ID_LAB = f"{APP_ROOT} .safari-identification-lab"
KO_LAB = f"{APP_ROOT} .safari-knockout-lab"

#: contrast of white text on the Pal's hue under table.css's shade (rgba(0,0,0,a) over it), in the page
PAL_CONTRAST = """(els) => els.map(el => {
    const lin = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    const style = getComputedStyle(el);
    const bg = style.backgroundColor.match(/[\\d.]+/g).map(Number);
    const shade = (style.backgroundImage.match(/rgba\\(0, 0, 0, ([\\d.]+)\\)/) || [0, "0"])[1];
    const a = Number(shade);
    const under = bg.slice(0, 3).map(c => c * (1 - a));
    const fg = style.color.match(/[\\d.]+/g).map(Number).slice(0, 3);
    const [l1, l2] = [lum(fg), lum(under)].sort((x, y) => y - x);
    return {name: el.textContent, ratio: (l1 + 0.05) / (l2 + 0.05)};
})"""


def vision_shots(page, name: str, selector: str) -> list[str]:
    """``selector`` scrolled to the top, captured under each simulated deficiency; the paths."""
    cdp = page.context.new_cdp_session(page)
    page.locator(selector).first.evaluate("(el) => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    paths = []
    try:
        for kind in DEFICIENCIES:
            cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": kind})
            page.wait_for_timeout(150)
            paths.append(str(screenshot(page, f"a11y-vision-{name}-{kind}")))
    finally:
        cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
        cdp.detach()
    return paths


def card_fills() -> dict[str, str]:
    """The five card colours as table.js fills a Mugshot (its COLOR_FILL)."""
    js = (REPO / "safari_kit" / "widgets" / "static" / "table.js").read_text()
    block = re.search(r"const COLOR_FILL = \{(.*?)\};", js, re.S).group(1)
    return dict(re.findall(r"(\w+): \"(#[0-9a-fA-F]{6})\"", block))


def test_colour_vision_identification_and_knockout(laptop, js_errors, voila_app):  # noqa: F811
    page = laptop
    page.goto(voila_app.url, wait_until="domcontentloaded", timeout=90_000)
    page.locator(f"{APP_ROOT} .safari-lab-list select").wait_for(timeout=90_000)

    # ---------------------------------------------------------------- Identification
    choose(page, "Safari Witness", "Identification", APP_LABS[0][2])
    remember = page.locator(f"{ID_LAB} .st-remember-banner")
    if not remember.count():  # our turn: identify at the best place and reveal it (a face-up card)
        button(page.locator(ID_LAB), "Identify").click()
        page.wait_for_timeout(500)
        pick_best_declaration(page, ID_LAB)
        before = page.locator(f"{ID_LAB} .safari-table").inner_text()
        button(page.locator(ID_LAB), "Reveal").click()
        # a miss leaves the card face up at its place; a match moves it, face up, off the Unidentified Area
        # (issue 27: the lab opens on the learner's turn, so this path runs on every deal, and a match is
        # likely): wait for the table to change, then look at every face-up card on it
        page.wait_for_function("([sel, before]) => { const t = document.querySelector(sel);"
                               " return t && t.innerText !== before; }",
                               arg=[f"{ID_LAB} .safari-table", before], timeout=30_000)
        page.wait_for_timeout(500)
    # every face-up Mugshot on the table: the clue card, a revealed one, the cards won
    faces = page.locator(f"{ID_LAB} .safari-table .st-card:not(.st-back) svg")
    assert faces.count(), "no face-up card to look at"
    for svg in faces.all():
        words = svg.text_content()
        name = svg.get_attribute("aria-label") or ""
        said = [c for c in COLOURS if c in words]
        assert said and said[0] in name, f"a face-up card's colour is not named in words: {words!r} / {name!r}"
    if remember.count():
        assert "remember" in remember.inner_text().lower(), remember.inner_text()
        framed = page.locator(f"{ID_LAB} .st-card.st-remember").first
        assert framed.evaluate("(el) => getComputedStyle(el).outlineStyle") == "double", \
            "the cards to remember are marked by colour alone"
    print("\nIdentification:", vision_shots(page, "identification", ID_LAB))

    # ---------------------------------------------------------------- Knockout
    choose(page, "Safari Knockout", "Knockout", APP_LABS[5][2])
    heads = page.locator(f"{KO_LAB} .st-pal-head")
    ratios = heads.evaluate_all(PAL_CONTRAST)
    low = [r for r in ratios if r["ratio"] < 4.5]
    print("Pal names, lowest contrast:", sorted(ratios, key=lambda r: r["ratio"])[:3])
    assert ratios and not low, f"Pal names under 4.5:1: {low}"
    print("Knockout:", vision_shots(page, "knockout", KO_LAB))
    table = f"{KO_LAB} .safari-prob-table"
    for _ in range(6):  # play a turn to its result: won / lost in words
        page.locator(f"{table}[data-phase='lead'], {table}[data-phase='follow']").first.wait_for(timeout=30_000)
        card = page.locator(table).get_attribute("data-best-card")
        page.locator(f"{KO_LAB} .safari-table .st-selectable[data-key='card:\"{card}\"']").click()
        page.wait_for_timeout(400)
        if page.locator(table).get_attribute("data-phase") == "lead":
            item = page.locator(table).get_attribute("data-best-item")
            page.locator(f"{KO_LAB} .safari-table .st-selectable[data-key='item:\"{item}\"']").click()
            page.wait_for_timeout(400)
        button(page.locator(KO_LAB), "Play").click()
        page.locator(f"{table}[data-phase='done'], {table}[data-phase='over']").first.wait_for(timeout=30_000)
        break
    result = page.locator(f"{KO_LAB} .safari-ko-result").inner_text()
    assert result.startswith(("You won: ", "You lost: ")), result
    print("Knockout result:", vision_shots(page, "knockout-result", KO_LAB))

    # ---------------------------------------------------------------- the five card colours side by side
    fills = card_fills()
    assert set(fills) == set(COLOURS), fills
    strip = "".join(f"<div style='display:inline-block;width:150px;height:110px;margin:6px;border:2px solid #222;"
                    f"border-radius:10px;background:{fill};font:bold 18px sans-serif;padding:8px'>"
                    f"<span style='background:rgba(255,255,255,.9);padding:1px 6px;border-radius:4px'>{name}</span>"
                    "</div>" for name, fill in fills.items())
    colours = page.context.new_page()
    colours.set_content(f"<body style='margin:10px;background:#fdf3dc'>{strip}</body>")
    print("Colours:", vision_shots(colours, "colours", "body"))
    colours.close()
    assert not js_errors, js_errors
