"""Issue 30: a third language is files only: a catalogue and a folder of lessons, no line of code.

A French catalogue is written beside a copy of the kit's own (``locale/fr/LC_MESSAGES/safari_kit.mo``, made with
Babel here, as ``tools/i18n.py compile`` makes one) and the kit is pointed at that copy: from then on it
offers French everywhere a learner or a teacher picks a language, by the name its catalogue gives it, and a
``notebooks/fr/`` folder of lessons is taken as French lessons. Nothing of the kit's code names French.
"""
from __future__ import annotations

import shutil

import pytest

from safari_kit.core import i18n


def _clear_caches() -> None:
    for cached in (i18n.available_languages, i18n._known_text, i18n.translations):
        cached.cache_clear()


@pytest.fixture
def french(tmp_path, monkeypatch):
    """The kit's catalogues and a French one (three strings and the language's own name)."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    catalog = Catalog(locale="fr", domain=i18n.DOMAIN)
    catalog.add("English", "Français", context=i18n.OWN_NAME_CONTEXT)
    catalog.add("Reset", "Réinitialiser")
    catalog.add(("{n} card", "{n} cards"), ("{n} carte", "{n} cartes", "{n} cartes"))  # French: 3 forms (CLDR)
    folder = locale / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / f"{i18n.DOMAIN}.mo").open("wb") as out:
        write_mo(out, catalog)
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    _clear_caches()
    yield locale
    monkeypatch.undo()
    _clear_caches()


def test_the_language_is_named_by_its_own_catalogue():
    """The names the learner picks from come from each catalogue (the own-name message), not from the code."""
    assert i18n.OWN_NAME_CONTEXT in open(i18n.__file__, encoding="utf-8").read().split("def language_name")[1]
    assert dict(i18n.LANGUAGE_NAMES)["es"] == "Español"
    assert i18n.language_name("en") == "English"


def test_a_third_language_is_files_only(french, tmp_path):
    assert "fr" in i18n.available_languages()
    assert i18n.LANGUAGE_NAMES["fr"] == "Français"
    assert i18n.known_language("fr-CA") == "fr"
    assert i18n.best_language("fr-FR,fr;q=0.9,en;q=0.5") == "fr"
    with i18n.language("fr"):
        assert i18n._("Reset") == "Réinitialiser"
        assert i18n.ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 carte"
        assert i18n.ngettext("{n} card", "{n} cards", 2).format(n=2) == "2 cartes"
        assert i18n._("Next turn") == "Next turn"  # a string not translated yet: the English

    # the class server's --lang, and its list of languages when a teacher mistypes one
    from safari_kit.classroom.settings import ClassLanguageError, class_language

    assert class_language("fr-FR") == "fr"
    with pytest.raises(ClassLanguageError, match=r"fr \(Français\)"):
        class_language("de")

    # the app's Language list offers it by its own name
    from safari_kit.widgets.app import LabChooser

    assert ("Français", "fr") in list(LabChooser().language_list.options)

    # a folder of lessons named by the language is taken for its lessons (make lab, make student, the site)
    from safari_kit.authoring.student import language_folders

    notebooks = tmp_path / "notebooks"
    (notebooks / "fr").mkdir(parents=True)
    (notebooks / "fr" / "00-start-here.ipynb").write_text("{}", encoding="utf-8")
    (notebooks / "old").mkdir()
    (notebooks / "old" / "00-start-here.ipynb").write_text("{}", encoding="utf-8")
    assert [p.name for p in language_folders(notebooks)] == ["fr"]


def test_without_the_files_there_is_no_french():
    """The control: the kit's own catalogues hold no French, so the test above saw only what its files added."""
    assert "fr" not in i18n.available_languages()
    assert i18n.known_language("fr") is None
