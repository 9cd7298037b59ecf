"""Every number in a lesson's prose and teacher notes is tied to the kit's computation (issue 12, part 3).

``tests/notebooks/facts/lesson_NN.py`` lists, per lesson, the wording of each number
the text states and how the kit computes it (or, for a number that is a choice
and not a result, why it is given). This test renders every fact, checks that
the lesson says exactly that, and that no number in the prose is left untied.
"""
import re
from pathlib import Path

import pytest

from tests.notebooks import facts as F
from tests.notebooks.facts import lesson_05 as L05
from tests.notebooks.facts.es import check_text_es

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("0[0-7]-*.md"))
#: the Spanish lessons (issue 30): each number tied to the English fact's computation (tests/notebooks/facts/es)
SPANISH = sorted((ROOT / "notebooks" / "es").glob("0[0-7]-*.md"))
# lessons whose every prose number is tied (the others: only their listed facts are checked)
COMPLETE = ("00", "01", "02", "03", "04", "05", "06", "07")


def _check(path: Path, text: str) -> list[str]:
    lesson = path.name[:2]
    problems = F.check_text(lesson, text)
    if lesson not in COMPLETE:
        problems = [p for p in problems if "is not tied to a fact" not in p]
    return problems


@pytest.mark.parametrize("path", LESSONS, ids=[p.name for p in LESSONS])
def test_lesson_prose_states_the_kits_numbers(path):
    problems = _check(path, path.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", SPANISH, ids=[f"es-{p.name}" for p in SPANISH])
def test_spanish_lesson_prose_states_the_kits_numbers_in_spanish_style(path):
    """0,189 and 18,9 % where the English says 0.189 and 18.9%: the same computation, the Spanish wording."""
    problems = check_text_es(path.name[:2], path.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


def test_a_changed_number_in_a_spanish_text_fails():
    """Control: in a copy of the Spanish lesson 00, 4 safe cards become 5; the check names the fact and the 5."""
    text = (ROOT / "notebooks" / "es" / "00-start-here.md").read_text(encoding="utf-8")
    changed = text.replace("Tras 4 seguras", "Tras 5 seguras")
    assert changed != text
    problems = check_text_es("00", changed)
    assert any("Tras 4 seguras puedes parar" in p for p in problems) and any("'5'" in p for p in problems), problems


def test_every_lesson_has_facts():
    for path in LESSONS:
        assert F.facts_of(path.name[:2]), path.name


def test_a_changed_number_in_the_text_fails():
    """Control: in a copy of lesson 02, 15/75 becomes 16/75 once; the check names the fact."""
    path = next(p for p in LESSONS if p.name.startswith("02"))
    text = path.read_text(encoding="utf-8")
    changed = text.replace("an Elephant with probability 15/75", "an Elephant with probability 16/75")
    assert changed != text
    problems = _check(path, changed)
    assert any("an Elephant with probability 15/75 = 1/5" in p for p in problems), problems


def test_a_new_untied_number_fails():
    """Control: a sentence with a number no fact computes is reported."""
    path = next(p for p in LESSONS if p.name.startswith("03"))
    text = path.read_text(encoding="utf-8") + "\nA Challenge succeeds 3 times in 10.\n"
    problems = _check(path, text)
    assert any("'3'" in p for p in problems) and any("'10'" in p for p in problems), problems


def test_ink_is_written_with_question_marks_everywhere():
    """One ink notation in the lessons' text: '?' as in the card data (T?M), never '*' or '_'."""
    for path in LESSONS:
        text = F.prose(path.read_text(encoding="utf-8"))
        assert not re.search(r"\b[A-Z]{1,3}[*_]+[A-Z]*\b|[*_][A-Z]{1,3}\b", text), path.name


def test_lesson_05_facts_use_the_simulation_labs_defaults():
    """The facts layer cannot import the widgets: the lab's defaults it states are checked here."""
    from safari_kit.teaching import lesson_05
    from safari_kit.widgets.labs.simulation import COVERAGE_SIZES, SimulationLab

    lab = SimulationLab(seed=1)
    assert L05.LAB_05 == {"trials": lab.trials_slider.value, "size": lab.cov_size.value, "small": COVERAGE_SIZES[0]}
    assert lab.cov_count.value == lesson_05.INTERVALS


def test_the_facts_are_not_shipped_to_learners():
    """The facts are checks, not kit: they live beside the tests, not in the wheel or a learner's browser
    download (issue 28). A stale ``safari_kit/teaching/facts.py`` would be shipped again."""
    import importlib.util

    assert importlib.util.find_spec("safari_kit.teaching.facts") is None
    assert sorted(p.name for p in Path(F.__file__).parent.glob("lesson_*.py")) == \
        [f"lesson_{p.name[:2]}.py" for p in LESSONS]
