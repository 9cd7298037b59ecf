"""docs/teachers.md says which Challenge lab position to use for which step of lesson 03 (issue 12).

Every position of safari_kit/simulation/challenge_positions.py appears in the table, each row names
a section of lesson 03 that exists, and no row names a position the lab does not have.
"""
import re
from pathlib import Path

from safari_kit.simulation.challenge_positions import POSITIONS

ROOT = Path(__file__).resolve().parents[2]


def _rows():
    text = (ROOT / "docs" / "teachers.md").read_text(encoding="utf-8")
    section = text.split("## The Challenge lab's starting positions (lesson 03)", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("| §")]


def test_every_position_has_a_lesson_step():
    keys = [re.search(r'\(`"([a-z-]+)"`', row).group(1) for row in _rows()]
    assert sorted(keys) == sorted(p.key for p in POSITIONS)


def test_each_step_names_a_section_of_lesson_03():
    lesson = (ROOT / "notebooks" / "03-challenge.md").read_text(encoding="utf-8")
    sections = {int(n) for n in re.findall(r"^## (\d+)\.", lesson, re.M)}
    for row in _rows():
        steps = {int(n) for n in re.findall(r"§(\d+)", row.split("|")[1])}
        assert steps and steps <= sections, row
