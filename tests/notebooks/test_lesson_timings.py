"""Each lesson states its length once, and everybody repeats the same number (issue 12, part 3).

The lesson's opening ("about N minutes"), its teacher notes ("**Timing (about N min).**",
whose parts add up to N), lesson 00's pointer to lesson 07, and the lesson plan table
in docs/teachers.md must agree.
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("0[0-7]-*.md"))


def _opening(text: str) -> int:
    before_code = text.split("```{code-cell}")[0]
    found = re.findall(r"\((?:[^()]*)about (\d+) minutes\)|Time: about (\d+) minutes", before_code)
    found = [a or b for a, b in found]
    assert len(found) == 1, f"the opening states its time {len(found)} times: {found}"
    return int(found[0])


def _teacher_timing(text: str) -> tuple[int, list[int]]:
    notes = text.split("## For teachers", 1)[1]
    m = re.search(r"\*\*Timing \(about (\d+) min\)\.\*\*(.*?)(?:\n\n|\n- \*\*)", notes, re.S)
    assert m, "the teacher notes have no '**Timing (about N min).**' paragraph"
    parts = [int(x) for x in re.findall(r"(\d+) min\b", m.group(2))]
    return int(m.group(1)), parts


def _plan_table() -> dict[str, int]:
    text = (ROOT / "docs" / "teachers.md").read_text(encoding="utf-8")
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^\| (\d\d) [^|]+\| (\d+) min \|", text, re.M)}


def timings(text: str) -> dict:
    total, parts = _teacher_timing(text)
    return {"opening": _opening(text), "teacher notes": total, "sum of the parts": sum(parts)}


@pytest.mark.parametrize("path", LESSONS, ids=[p.name for p in LESSONS])
def test_lesson_timings_agree(path):
    text = path.read_text(encoding="utf-8")
    found = timings(text)
    found["docs/teachers.md"] = _plan_table()[path.name[:2]]
    assert len(set(found.values())) == 1, f"{path.name}: {found}"


def test_lesson_00_points_to_lesson_07s_length():
    text = (ROOT / "notebooks" / "00-start-here.md").read_text(encoding="utf-8")
    seven = next(p for p in LESSONS if p.name.startswith("07"))
    said = re.search(r"it teaches the rules in about (\d+) minutes", text)
    assert said and int(said.group(1)) == _opening(seven.read_text(encoding="utf-8"))


def test_every_lesson_is_in_the_plan_table():
    assert sorted(_plan_table()) == [p.name[:2] for p in LESSONS]


def test_a_changed_timing_fails():
    """Control: edit a copy of lesson 02's teacher notes and the check sees it."""
    text = (LESSONS[2]).read_text(encoding="utf-8")
    assert len(set(timings(text).values())) == 1
    changed = text.replace("the lab: 7 min", "the lab: 12 min")
    assert changed != text and len(set(timings(changed).values())) > 1
