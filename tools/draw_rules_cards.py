"""Draw the card pictures of the learners' rules pages, with the kit's own card table (table.js) in Chromium.

Why pictures drawn here and stored: the rules pages must show their cards without running a cell (JupyterLab,
JupyterLite, Voici) and in the app without a card-table widget, so each picture is a file shipped in the wheel
(``safari_kit/tutorial/learner_rules/pictures/``) and embedded in the pages as a ``data:`` URL. Drawing them
with table.js (the code that draws every lab's cards) keeps them exactly the cards a learner meets in the labs.

A Mugshot picture is one SVG (the cards side by side, the table's text styles inlined); a Safari Pals picture
is a PNG screenshot (the Pal cards are HTML bars), with the named data item outlined as in the Knockout lab.

Each language with a page of its own (``witness.es.md``) gets its own drawings (``knockout-K04.es.png``: the Pals'
names and the data items in its words). Run after changing a picture in a page's text, or table.js's drawing::

    .venv/bin/python tools/draw_rules_cards.py            # draw every picture the two pages name
    .venv/bin/python tools/draw_rules_cards.py --check    # only say which pictures are missing

then ``python -m safari_kit.tutorial.learner_rules.notebook --write`` to put them in the notebooks.
Needs Debian's chromium and playwright (the test extra), like the browser tests.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from safari_kit.tutorial import learner_rules as LR  # noqa: E402
from safari_kit.core.i18n import language  # noqa: E402
from safari_kit.presentation.table_page_words import table_words_for  # noqa: E402

STATIC = ROOT / "safari_kit" / "widgets" / "static"
#: the table's text styles an SVG needs once it is out of the table (table.css, without the .safari-table scope)
SVG_STYLE = """
svg { font-family: "Trebuchet MS", "Segoe UI", system-ui, sans-serif; }
.st-card-colour { font-size: 15px; font-weight: 800; fill: #1f2933; letter-spacing: 0.3px; }
.st-card-words { font-size: 8.5px; font-weight: 700; fill: #1f2933; }
.st-card-animal { font-size: 10.5px; font-weight: 800; fill: #1f2933; }
.st-card-name { font-family: "Courier New", ui-monospace, monospace; font-size: 21px; font-weight: 900; fill: #1f2933; }
.st-back-q { font-size: 34px; font-weight: 900; fill: #23395d; }
.st-back-label { font-size: 12px; font-weight: 800; fill: #23395d; }
"""

PAGE_JS = """
window.__mugshots = (faces, style) => {
  const NS = "http://www.w3.org/2000/svg";
  const gap = 12, w = 120, hgt = 170;
  const outer = document.createElementNS(NS, "svg");
  const width = faces.length * w + (faces.length - 1) * gap;
  outer.setAttribute("xmlns", NS);
  outer.setAttribute("viewBox", `0 0 ${width} ${hgt}`);
  outer.setAttribute("width", String(width));
  outer.setAttribute("height", String(hgt));
  const st = document.createElementNS(NS, "style");
  st.textContent = style;
  outer.appendChild(st);
  faces.forEach((face, i) => {
    const card = typeof face === "number" ? backSVG(face, `b${i}`, window.__say) : mugshotSVG(face, `m${i}`);
    card.removeAttribute("class");
    card.setAttribute("x", String(i * (w + gap)));
    card.setAttribute("width", String(w));
    card.setAttribute("height", String(hgt));
    outer.appendChild(card);
  });
  return new XMLSerializer().serializeToString(outer);
};
// the table's words come from Python (table.js writes none): the rules pages' pictures take the English ones
window.__setWords = (words) => { window.__say = sayer(words); };
window.__pals = (faces, item) => {
  const box = document.getElementById("pals");
  box.innerHTML = "";
  for (const face of faces) {
    const slot = document.createElement("div");
    slot.className = "st-pal-box";
    slot.appendChild(palCard(face, { item }, window.__say));
    box.appendChild(slot);
  }
};
"""


def faces(picture):
    """The faces table.js draws for ``picture`` (a number: the back of a face-down card at that place)."""
    from safari_kit.cards import load_cards
    from safari_kit.presentation.views import deck_ranges, mugshot_face, pal_face

    cards = load_cards()
    if picture.game == "witness":
        return [int(cid[4:]) if cid.startswith("back") else mugshot_face(cards.mugshot(cid))
                for cid in picture.cards]
    ranges = deck_ranges(cards.knockout)
    return [pal_face(cards.pal(cid), ranges) for cid in picture.cards]


def draw(pictures, out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    source = (STATIC / "table.js").read_text(encoding="utf-8")
    module = source + "\n" + PAGE_JS.replace("window.__", "globalThis.__") + "\nwindow.__ready = true;\n"
    css = (STATIC / "table.css").read_text(encoding="utf-8")
    written = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True)
        page = browser.new_page(device_scale_factor=1.5, viewport={"width": 1000, "height": 400})
        page.set_content(f"<html><head><style>{css}</style></head><body style='margin:0;background:#fff'>"
                         "<div class='safari-table' style='background:#fff;border:none;border-radius:0;"
                         "padding:4px;display:inline-block'>"
                         "<div id='pals' style='display:flex;gap:10px;align-items:flex-start'></div></div>"
                         "</body></html>")
        page.add_script_tag(content=module, type="module")
        page.wait_for_function("window.__ready === true")
        for picture in pictures:  # each in its page's language: a Spanish page's cards say Spanish words
            path = out / picture.file_name
            with language(picture.lang):
                page.evaluate("(w) => window.__setWords(w)", table_words_for(None))
                drawn = faces(picture)
            if picture.game == "witness":
                svg = page.evaluate("([f, s]) => window.__mugshots(f, s)", [drawn, SVG_STYLE.strip()])
                path.write_text(svg + "\n", encoding="utf-8")
            else:
                page.evaluate("([f, i]) => window.__pals(f, i)", [json.loads(json.dumps(drawn)), picture.item])
                page.locator(".safari-table").screenshot(path=str(path))
            written.append(path)
        browser.close()
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only list the pictures that are missing")
    parser.add_argument("--out", type=Path, default=LR.PICTURES,
                        help="the folder to draw into (default: the package's pictures/; a test draws elsewhere)")
    args = parser.parse_args(argv)
    from safari_kit.tutorial.learner_rules.notebook import page_languages

    # every language with a page of its own (notebooks/es/...): its pictures are drawn in its words
    pictures = [p for lang in page_languages() for game in LR.GAMES for p in LR.pictures(game, lang)]
    if args.check:
        missing = [p.file_name for p in pictures if not (LR.PICTURES / p.file_name).is_file()]
        print("missing: " + ", ".join(missing) if missing else f"all {len(pictures)} pictures are there")
        return 1 if missing else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for path in draw(pictures, args.out):
        print(f"{path}: {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
