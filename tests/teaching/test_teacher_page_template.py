"""The teacher's page is a Jinja2 template with autoescape (issue 28): escaping is the template's, not each call's.

The page's HTML stayed the same to a teacher (the numbers, the words, the tables: test_teacher_page*.py); what
changed is who escapes. A text from the records put anywhere in the page, even where a future edit forgets to
escape it, is text.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

jinja2 = pytest.importorskip("jinja2")

from safari_kit.class_results import teacher_page  # noqa: E402
from safari_kit.class_results.class_records import Guess, KnockoutPlay  # noqa: E402
from safari_kit.class_results.class_tables import pool  # noqa: E402
from tests.teaching.test_teacher_page import AT, Tables, page_of  # noqa: E402

NASTY = ["<script>alert(1)</script>", '=HYPERLINK("http://x","y")']


def test_the_page_is_a_template_with_autoescape():
    template = teacher_page._template()
    assert template.environment.autoescape is True
    assert template.name == "teacher_page.html.j2"


@pytest.mark.parametrize("nickname", NASTY)
def test_a_nasty_nickname_is_text_in_every_section_that_shows_nicknames(nickname):
    from fractions import Fraction

    recs = [Guess(learner="L1", nickname=nickname, lab="identification", at=AT, seq=1, guess=Fraction(1, 2),
                  exact=Fraction(1, 3), outcome=1),
            KnockoutPlay(learner="L1", nickname=nickname, lab="knockout", at=AT, seq=2, chance=Fraction(1, 2),
                         best=Fraction(1, 2), outcome=1)]
    page = page_of(pool(recs))
    assert "<script" not in page
    tables = Tables(page).tables
    shown = [cell for table in tables for row in table for cell in row if nickname in cell]
    assert len(shown) >= 3  # Brier, Knockout, and who is in which lab: each shows it as text


def test_the_page_is_one_line_as_before():
    page = page_of(pool([]))
    assert "\n" not in page.split("<style>")[0] and "\n" not in page.split("</style>")[1]


def test_a_learners_kernel_never_needs_jinja2():
    """The labs (and the static site's Python) do not import the teacher's page, so not jinja2 either."""
    code = ("import sys, safari_kit.widgets.app, safari_kit.class_results.class_session, "
            "safari_kit.class_results.recorder\n"
            "print('jinja2' in sys.modules, 'safari_kit.class_results.teacher_page' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]
