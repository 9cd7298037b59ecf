"""The card table's own words for a 15-year-old (issue 27, part E2).

The Knockout hand's title read "Your hand · weight bars on a log scale" (shown in capitals): "log scale" is a
term a learner meets there unexplained. Now the table says what it means for the weight bars: each step along
a bar is 10 times heavier (the learners' rules page says the same: each step along it multiplies the weight).
Checked on the table's code: no text it draws says "log scale"; the browser test of Knockout's round-over
reads the title on the screen.
"""
from __future__ import annotations

import re
from pathlib import Path

TABLE_JS = Path(__file__).resolve().parents[2] / "safari_kit" / "widgets" / "static" / "table.js"


def drawn_strings() -> list[str]:
    """The string literals of table.js outside its comments (what it can put on the page)."""
    code = re.sub(r"/\*.*?\*/", "", re.sub(r"^\s*//[^\n]*", "", TABLE_JS.read_text(), flags=re.M), flags=re.S)
    return re.findall(r'"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`', code)


def test_no_log_scale_on_the_table():
    from safari_kit.core.i18n import language
    from safari_kit.presentation.table_page_words import static_words

    with language("en"):  # since issue 30 the table's words come from Python (table.js keeps no sentence)
        said = list(static_words().values())
    texts = [a or b for a, b in drawn_strings()] + said
    assert not [t for t in texts if "log scale" in t.lower()], [t for t in texts if "log scale" in t.lower()]
    assert "Your hand · weight bars: each step along a bar is 10 times heavier" in texts
