"""``safari-kit class --lang es`` (issue 30): the class's default language, declared once with the other class
settings (safari_kit.classroom.settings), reaches every lab's kernel as ``$SAFARI_KIT_LANG``, which the app's
chooser reads before the browser's ``Accept-Language``; a learner can still pick another in the Language list."""
from __future__ import annotations

import os
import socket

import pytest

pytest.importorskip("voila")

from safari_kit.classroom.settings import ClassLanguageError, ClassSettings, from_arguments  # noqa: E402
from safari_kit.cli import build_parser, main  # noqa: E402
from safari_kit.core.i18n import LANGUAGE_ENV  # noqa: E402

ACCEPT = "HTTP_ACCEPT_LANGUAGE"


def _settings(*options: str) -> ClassSettings:
    return from_arguments(build_parser().parse_args(["class", "app.ipynb", *options]))


@pytest.fixture
def clean_env():
    """The process's environment as it was before the test (serve() writes the kernels' variables into it)."""
    saved = dict(os.environ)
    for name in (LANGUAGE_ENV, ACCEPT, "QUERY_STRING"):
        os.environ.pop(name, None)
    try:
        yield os.environ
    finally:
        os.environ.clear()
        os.environ.update(saved)


def test_lang_is_read_as_the_kits_name_and_becomes_the_kernels_language():
    assert _settings("--lang", "es").lang == "es"
    assert _settings("--lang", "es-MX").lang == "es"  # a region the kit has no catalogue of: its language
    assert _settings("--lang", "es").kernel_env() == {LANGUAGE_ENV: "es"}
    assert _settings().lang == "" and _settings().kernel_env() == {}  # no class language: each browser's own


def test_an_unknown_language_is_one_clear_line_naming_it_and_the_kits_languages(capsys):
    assert main(["class", "app.ipynb", "--lang", "klingon"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "--lang" in err and "'klingon'" in err and "en (English)" in err and "es (Español)" in err, err
    assert "en_XA" not in err  # the tests' pseudo-locale is not offered to teachers
    with pytest.raises(ClassLanguageError, match="klingon"):
        ClassSettings(lang="klingon")
    with pytest.raises(ValueError, match="'es-MX'"):  # a setting holds the kit's name, as the flag gives it
        ClassSettings(lang="es-MX")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _kernel_env_of_a_class(settings: ClassSettings, tmp_path) -> dict[str, str]:
    """The environment a lab's kernel inherits from ``serve`` (Voilà gives each kernel a copy of the server's
    environment), caught where Voilà would start: no server runs."""
    from safari_kit.classroom.serve import serve

    notebook = tmp_path / "app.ipynb"
    notebook.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}', encoding="utf-8")
    seen: dict[str, str] = {}

    class Launched:
        @classmethod
        def launch_instance(cls, argv, config):
            seen.update(os.environ)

    lines: list[str] = []
    assert serve(str(notebook), settings, print_fn=lines.append, app_class=Launched) == 0
    return seen


def test_a_class_started_with_lang_es_gives_the_app_spanish_and_a_learner_may_pick_another(clean_env, tmp_path):
    from safari_kit.widgets.app import LabChooser

    settings = _settings("--lang", "es", "--ip", "127.0.0.1", "--port", str(_free_port()))
    kernel = _kernel_env_of_a_class(settings, tmp_path)
    assert kernel[LANGUAGE_ENV] == "es"
    clean_env.update({LANGUAGE_ENV: kernel[LANGUAGE_ENV], ACCEPT: "en-GB,en;q=0.9"})  # an English browser
    chooser = LabChooser(seed=4)
    assert chooser.language == "es" and chooser.open_button.description == "Abrir laboratorio"
    assert chooser.language_list.value == "es"
    chooser.language_list.value = "en"  # the learner's own choice still wins
    assert chooser.open_button.description == "Open lab"


def test_without_lang_the_browsers_language_decides(clean_env, tmp_path):
    from safari_kit.widgets.app import LabChooser

    settings = _settings("--ip", "127.0.0.1", "--port", str(_free_port()))
    kernel = _kernel_env_of_a_class(settings, tmp_path)
    assert LANGUAGE_ENV not in kernel
    clean_env[ACCEPT] = "es-ES,es;q=0.9"
    assert LabChooser(seed=4).language == "es"
    clean_env[ACCEPT] = "de-DE,en;q=0.5"
    assert LabChooser(seed=4).language == "en"


def test_the_class_servers_voila_passes_the_browsers_languages_to_a_pages_kernel():
    from safari_kit.classroom.config import voila_config
    from safari_kit.widgets.app import ACCEPT_LANGUAGE_ENV

    headers = voila_config(ClassSettings()).VoilaConfiguration.http_header_envs
    assert ["HTTP_" + h.upper().replace("-", "_") for h in headers] == [ACCEPT_LANGUAGE_ENV]


def test_the_teachers_page_keeps_its_english_words_in_a_spanish_class(clean_env):
    from safari_kit.classroom.lab_words import lab_words

    clean_env[LANGUAGE_ENV] = "es"  # the server's own environment, as serve() leaves it with --lang es
    lab_words.cache_clear()
    try:
        words = lab_words()
    finally:
        lab_words.cache_clear()
    assert words.questions["challenge-4"] == "Challenge: 4 safe reveals in a row"
