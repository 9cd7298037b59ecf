"""The static site's start-up sentences (site-src/starting.js) in a 15-year-old's words (issue 27).

Read from the script's string literals without a browser (tests/browser/test_site_startup.py shows them in
chromium): no unit abbreviation ("about 8 s"), no "runtime", at most about 25 words a sentence.
"""
from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[1] / "site-src" / "starting.js"


def _said() -> list[str]:
    """The sentences the script writes into the page: its textContent assignments, literals joined."""
    code = re.sub(r"/\*.*?\*/", "", JS.read_text(), flags=re.S)
    out = []
    # the sentence is put in directly (textContent = "...") or built first (var text = "..."; issue 31 writes it
    # only when its words change); an assignment of a variable alone has no words of its own
    for m in re.finditer(r"(?:textContent|var text)\s*=\s*(.*?);\n", code, flags=re.S):
        pieces = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))
        if pieces:
            out.append(" N ".join(p.strip() for p in pieces))
    return out


def test_the_start_up_sentences_are_plain():
    said = _said()
    assert len(said) == 2, said
    for text in said:
        assert "runtime" not in text and not re.search(r"\bN s\b|\bs so far\b", text), text
        for sentence in re.split(r"(?<=[.;])\s+", text):
            assert len(sentence.split()) <= 25, sentence
    assert said[1].startswith("Starting Python in your browser: about N seconds on this computer"), said[1]
