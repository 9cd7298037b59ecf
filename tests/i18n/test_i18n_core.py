"""Issue 30, the machinery: gettext catalogues read per learner, plural forms, numbers in the learner's language.

Each test here fails on the code before issue 30 (no ``safari_kit.core.i18n``, English-only numbers).
"""
from __future__ import annotations

import contextvars
import subprocess
import sys
import threading
from fractions import Fraction
from pathlib import Path

import pytest

from safari_kit.core.i18n import (LOCALE_DIR, UnknownLanguageError, _, available_languages, best_language,
                                  current_language, language, ngettext, set_language)
from safari_kit.presentation.numbers import as_number, count_first, decimal, percent, whole

REPO = Path(__file__).resolve().parents[2]


def test_english_is_the_marked_text_and_spanish_reads_the_catalogue():
    assert _("Reset") == "Reset"
    with language("es"):
        assert _("Reset") == "Reiniciar"
        assert current_language() == "es"
    assert current_language() == "en"


def test_a_region_falls_back_to_its_language_and_an_unknown_one_is_refused_with_the_list():
    with language("es-MX"):
        assert current_language() == "es"
    with pytest.raises(UnknownLanguageError, match=r"no catalogue for the language 'xx'.*en, "):
        with language("xx"):
            pass
    assert isinstance(UnknownLanguageError("x"), ValueError)
    assert {"en", "es", "en_XA"} <= set(available_languages())


def test_plural_forms_come_from_the_catalogue_not_from_if_n_equals_1():
    from safari_kit.presentation.spoken_turns import _cards

    assert [_cards(n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    with language("es"):
        assert [_cards(n) for n in (0, 1, 2, 1000000)] == ["0 cartas", "1 carta", "2 cartas", "1000000 cartas"]
        assert ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 carta"


def test_the_language_is_per_context_so_one_learner_never_switches_another():
    """Two learners' code in one process (threads, or two contexts of one event loop): each keeps its own."""
    seen: dict[str, str] = {}
    ready = threading.Barrier(2)

    def learner(name: str, lang: str) -> None:
        with language(lang):
            ready.wait(timeout=10)  # both switched before either reads
            seen[name] = _("Reset")

    threads = [threading.Thread(target=learner, args=("a", "es")), threading.Thread(target=learner, args=("b", "en"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"a": "Reiniciar", "b": "Reset"}
    ctx = contextvars.copy_context()
    ctx.run(set_language, "es")
    assert ctx.run(_, "Reset") == "Reiniciar" and _("Reset") == "Reset"


def test_the_kernels_default_comes_from_its_environment(monkeypatch):
    monkeypatch.setenv("SAFARI_KIT_LANG", "es_ES.UTF-8")  # not a tag the kit knows: English
    assert current_language() == "en"
    monkeypatch.setenv("SAFARI_KIT_LANG", "es")
    assert _("Reset") == "Reiniciar"
    with language("en"):
        assert _("Reset") == "Reset"


def test_the_browsers_accept_language_picks_the_best_catalogue():
    assert best_language("es-ES,es;q=0.9,en-US;q=0.8") == "es"
    assert best_language("en-US,en;q=0.9,es;q=0.8") == "en"
    assert best_language("fr-FR,es;q=0.5") == "es"
    assert best_language("es;q=0,en") == "en"
    assert best_language("de") == best_language(None) == best_language("x" * 10_000) == "en"
    assert best_language("es;q=abc, en;q=0.1") == "en"  # a malformed q: that part is skipped


def test_numbers_and_percents_in_the_learners_language():
    assert (decimal(0.18919), percent(0.18919), whole(1234), whole(999)) == ("0.189", "18.9%", "1,234", "999")
    assert count_first(Fraction(7, 37), (14, 74)) == "14/74 (= 7/37) ≈ 0.189"
    with language("es"):
        assert (decimal(0.18919), percent(0.18919)) == ("0,189", "18,9\u00a0%")
        assert (whole(1234), whole(12345)) == ("1234", "12.345")  # Spanish groups from five digits
        assert count_first(Fraction(7, 37), (14, 74)) == "14/74 (= 7/37) ≈ 0,189"
        assert count_first(Fraction(1, 2), (37, 74)) == "37/74 (= 1/2) = 0,5"


def test_a_spanish_learner_types_a_decimal_comma():
    with language("es"):
        assert as_number("0,189") == 0.189 and as_number("18,9 %") == pytest.approx(0.189)
        assert as_number("14/74") == Fraction(7, 37) and as_number("0.189") == 0.189
    assert as_number("0,189") is None  # in English a comma is no decimal mark: unchanged


def test_a_spanish_learners_check_accepts_the_decimal_comma():
    from safari_kit.teaching.exercises import check

    with language("es"):
        assert check("02.animal", "0,189").correct
        assert check("02.animal", "14/74").correct


def test_the_catalogues_are_extracted_compiled_and_complete():
    """tools/i18n.py check: the .pot holds every marked string, each .mo is its .po compiled, no language lacks
    a string (Spanish: none untranslated or fuzzy)."""
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "i18n.py"), "check"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_the_catalogues_are_package_data_that_git_keeps():
    """The wheel packs the whole safari_kit folder (pyproject: packages = ["safari_kit"]); a catalogue ships
    if git keeps it (hatch leaves out git-ignored files). Checked by hand too: `pip wheel --no-deps .` lists
    safari_kit/locale/es/LC_MESSAGES/safari_kit.mo."""
    mos = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/safari_kit.mo"))
    assert {p.parent.parent.name for p in mos} >= {"es", "en_XA"}
    assert LOCALE_DIR == REPO / "safari_kit" / "locale"
    ignored = subprocess.run(["git", "check-ignore", *map(str, mos)], cwd=REPO, capture_output=True, text=True)
    assert ignored.stdout == "", f"git ignores {ignored.stdout}: the wheel would not ship them"


def test_control_a_fuzzy_or_untranslated_spanish_string_is_reported(tmp_path, monkeypatch):
    """The check the test above runs: a copy of the catalogues with one Spanish string made fuzzy and one
    emptied is refused, each by file, line and words."""
    import shutil

    sys.path.insert(0, str(REPO / "tools"))
    try:
        import i18n as tool
    finally:
        sys.path.remove(str(REPO / "tools"))
    shutil.copytree(LOCALE_DIR, tmp_path / "locale")
    monkeypatch.setattr(tool, "LOCALE", tmp_path / "locale")
    monkeypatch.setattr(tool, "POT", tmp_path / "locale" / "safari_kit.pot")
    po = tmp_path / "locale" / "es" / "LC_MESSAGES" / "safari_kit.po"
    text = po.read_text(encoding="utf-8")
    text = text.replace('msgid "Reset"\nmsgstr "Reiniciar"', '#, fuzzy\nmsgid "Reset"\nmsgstr "Reiniciar"')
    text = text.replace('msgid "Seed"\nmsgstr "Semilla"', 'msgid "Seed"\nmsgstr ""')
    po.write_text(text, encoding="utf-8")
    found = "\n".join(tool.problems())
    assert "es/LC_MESSAGES/safari_kit.po:" in found and "fuzzy" in found, found
    assert "not translated: 'Seed'" in found, found


def test_an_empty_message_stays_empty_not_the_catalogues_header():
    with language("es"):
        assert _("") == ""
