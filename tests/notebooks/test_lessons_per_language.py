"""Lessons per language (issue 30): the copies, the cuts and the checks work for ``notebooks/es/`` as for English.

A language's lessons live in a folder named by the language (``notebooks/es/``), one MyST text and its
notebook per lesson, paired like the English ones. These are unit tests on small made-up lessons in
``tmp_path`` (no kernel): the working and student copies keep the folder (``my-lessons/es/``,
``student/es/``), a Spanish teacher section is cut, a Spanish learner's answers are read, and a Spanish
copy that writes an answer with a decimal comma is caught. Each of them fails on the code before issue 30's
lessons step (the copies had no ``es/``, "Para docentes" was kept, ``0,189`` was read as 189 ...).
"""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from safari_kit.authoring.answer_leaks import find_leaks, notebook_language
from safari_kit.authoring.student import language_folders, strip_teacher_sections, write_student_copies
from safari_kit.authoring.workspace import sync_copies
from safari_kit.core.i18n import language
from safari_kit.teaching.exercises import Exercise, check

META = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}}


def _nb(*cells: tuple[str, str, list[str]]) -> dict:
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": dict(META),
            "cells": [{"cell_type": kind, "id": f"c{i}", "metadata": {"tags": tags} if tags else {},
                       "source": source, **({"outputs": [], "execution_count": None} if kind == "code" else {})}
                      for i, (kind, source, tags) in enumerate(cells)]}


SPANISH = _nb(("code", 'from safari_kit.core.i18n import set_language\nset_language("es")', []),
              ("markdown", "# 00 · Empieza aquí\n\nLee [los datos](../../docs/data.md).", []),
              ("markdown", "**Ejercicio `01.owl`.** ¿Qué probabilidad hay de sacar un búho?", []),
              ("code", "my_answer = ...  # tu respuesta aquí", []),
              ("code", 'check("01.owl", my_answer)', []),
              ("code", "my_answer = Fraction(15, 75)", ["solution"]),
              ("markdown", "## Para docentes\n\n**Respuestas erróneas frecuentes.** 1/15 (dividir entre los búhos).",
               []))
ENGLISH = _nb(("markdown", "# 00 · Start here\n\nRead [the data](../docs/data.md).", []),
              ("code", "my_answer = ...", []))


@pytest.fixture
def lessons(tmp_path: Path) -> Path:
    src = tmp_path / "notebooks"
    for folder, name, nb in ((src, "00-start-here.ipynb", ENGLISH), (src / "es", "00-start-here.ipynb", SPANISH),
                             (src / "old", "00-start-here.ipynb", ENGLISH), (src / "es" / "empty", "x.txt", None)):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(json.dumps(nb) if nb else "", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "data.md").write_text("# data\n", encoding="utf-8")
    return src


def test_a_language_folder_is_a_known_language_with_lessons(lessons):
    assert language_folders(lessons) == [lessons / "es"]   # not old/ (no such language), not a file
    assert language_folders(lessons / "es") == []          # es/empty/ is no language and has no lessons


def test_working_copies_keep_the_language_folder_and_its_links_to_the_docs(lessons, tmp_path):
    done = sync_copies(lessons, tmp_path / "mine", metadata=META)
    mine = tmp_path / "mine"
    assert [str(c.path.relative_to(mine)) for c in done] == ["00-start-here.ipynb", "es/00-start-here.ipynb"]
    spanish = json.loads((mine / "es" / "00-start-here.ipynb").read_text(encoding="utf-8"))
    assert "[los datos](../docs/data.md)" in spanish["cells"][1]["source"]   # mine/es/../docs/ = mine/docs/
    assert (mine / "docs" / "data.md").is_file() and not (mine / "old").exists()
    english = json.loads((mine / "00-start-here.ipynb").read_text(encoding="utf-8"))
    assert "[the data](docs/data.md)" in english["cells"][0]["source"]       # unchanged
    assert [c.action for c in sync_copies(lessons, mine, metadata=META)] == ["unchanged", "unchanged"]


def test_student_copies_per_language_cut_the_spanish_teacher_section_and_solutions(lessons, tmp_path):
    assert [p.name for p, _ in write_student_copies(lessons, tmp_path / "a")] == ["00-start-here.ipynb"]
    done = write_student_copies(lessons, tmp_path / "b", languages=True)
    assert [str(p.relative_to(tmp_path / "b")) for p, _ in done] == ["00-start-here.ipynb", "es/00-start-here.ipynb"]
    copy = json.loads((tmp_path / "b" / "es" / "00-start-here.ipynb").read_text(encoding="utf-8"))
    text = json.dumps(copy, ensure_ascii=False)
    assert "Para docentes" not in text and "Respuestas erróneas" not in text and "Fraction(15, 75)" not in text
    assert done[1][1].solutions == 1 and done[1][1].teacher_cells == 1


def test_spanish_teacher_only_text_outside_a_teacher_section_stops_the_build():
    nb = _nb(("markdown", "Texto.\n\n**Respuestas erróneas frecuentes.** 1/15.", []))
    with pytest.raises(ValueError, match="teacher-only text outside a teacher section"):
        strip_teacher_sections(nb, "es/01.md")
    for title in ("Para docentes", "Notas para el profesorado", "Para el profesorado"):
        kept, removed = strip_teacher_sections(_nb(("markdown", f"Texto.\n\n## {title}\n\nNotas.", [])))
        assert kept["cells"][0]["source"] == "Texto." and removed.teacher_parts == 1, title


# ---- check(): what a Spanish learner types ------------------------------------------------------------------

def test_a_spanish_learner_may_type_a_decimal_comma_a_fraction_or_a_percent():
    with language("es"):
        for typed in ("0,2", "15/75", "20 %", "20\u00a0%", "20%", " 0,20 ", (0, 2), "1/5"):
            assert check("01.owl", typed).correct, typed
        assert check("02.animal", (0, 189)).correct          # my_answer = 0,189 (no quotes): Python's (0, 189)
        assert check("02.animal", "18,9 %").correct
        assert not check("01.owl", (0, 3)).correct
        assert not check("01.owl", (1, 2, 3)).correct


def test_english_reads_a_pair_as_before():
    assert check("01.owl", (0, 2)).text.startswith("I could not read (0, 2) as a number")
    assert check("01.owl", "0.2").correct and not check("01.owl", "0,2").correct


def test_the_item_asked_for_may_be_named_in_spanish():
    with language("es"):
        for typed in ("velocidad máxima", "Velocidad maxima", "velocidad máxima (km/h)", "top speed", "top_speed_kmh"):
            assert check("04.best-item", typed).correct, typed
        assert not check("04.best-item", "peso").correct
        assert check("05.lowest-brier", "la clase").text == "Todavía no. La pregunta pide el apodo de un alumno."
    assert check("04.best-item", "Top speed").correct and not check("04.best-item", "velocidad máxima").correct


# ---- answer leaks in a Spanish copy --------------------------------------------------------------------------

def _leaky(sentence: str) -> dict:
    return _nb(("code", 'set_language("es")', []),
               ("markdown", "**Ejercicio `02.demo`.** ¿Qué probabilidad hay?", []),
               ("code", 'check("02.demo", my_answer)', []),
               ("markdown", sentence, []))


def test_a_spanish_copy_that_writes_the_answer_with_a_decimal_comma_leaks():
    demo = {"02.demo": Exercise("02.demo", lambda: Fraction(7, 37))}
    assert notebook_language(_leaky("")) == "es"
    for sentence in ("La probabilidad es 0,189.", "Sale un 18,9 % de las veces.", "Es 14/74."):
        leaks = find_leaks(_leaky(sentence), "02-x.ipynb", demo)
        assert leaks and all(leak.key == "02.demo" for leak in leaks), sentence
    assert not find_leaks(_leaky("Hay 12.345 pruebas y 0,5 de media."), "02-x.ipynb", demo)
