"""What left ``safari_kit.teaching`` in issue 28 (authoring tools, class results, the Rules tutorials) still imports
from its old path for a release, with a DeprecationWarning naming the new path; what stays (``check``) warns not."""
from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from safari_kit.teaching._moved import MOVED


def _warnings_of(code: str) -> list[str]:
    """Each in a fresh interpreter: a module warns once, when first imported."""
    script = ("import warnings\n"
              "with warnings.catch_warnings(record=True) as caught:\n"
              "    warnings.simplefilter('always')\n"
              + "".join(f"    {line}\n" for line in code.splitlines()) +
              "print('|'.join(f'{w.category.__name__}: {w.message} @ {w.filename}' for w in caught))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return [w for w in out.strip().split("|") if w]


def test_every_module_that_left_has_an_old_path():
    """The list of old paths is the old package's modules: nothing that left is forgotten."""
    left = {"student", "workspace", "answer_leaks", "learner_words", "bounded_numbers", "class_export", "class_files",
            "class_hold", "class_learner", "class_records", "class_session", "class_store", "class_tables",
            "learner_tags", "nicknames", "recorder", "results_file", "results_pool", "teacher_page", "tutorials",
            "tutorial_quiz", "rulebook", "learner_rules"}
    assert {old.split(".")[2] for old in MOVED} == left
    for old, new in MOVED.items():
        assert importlib.util.find_spec(new) is not None, new


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_warns_names_the_new_one_and_is_the_new_module(old):
    caught = _warnings_of(f"import importlib, sys\n"
                          f"old = importlib.import_module({old!r})\n"
                          f"assert old is importlib.import_module({MOVED[old]!r}), 'not the same module'\n"
                          f"assert sys.modules[{old!r}] is old\n")
    moved = [w for w in caught if w.startswith(f"DeprecationWarning: {old} has moved to {MOVED[old]} ")]
    assert len(moved) == 1, caught


def test_the_warning_names_the_line_that_imported_the_old_path():
    """Not the import system's frames: a lesson's cell or a script sees its own line."""
    (warning,) = [w for w in _warnings_of("from safari_kit.teaching import tutorials") if "has moved" in w]
    assert warning.endswith("@ <string>"), warning


@pytest.mark.parametrize("code", [
    "from safari_kit.teaching import tutorials as T\nfrom safari_kit.tutorial import tutorials\nassert T is tutorials",
    "from safari_kit.teaching.class_store import ResultStore\n"
    "from safari_kit.class_results.class_store import ResultStore as R\nassert ResultStore is R",
    "import safari_kit.teaching.learner_rules.notebook as N\nimport safari_kit.tutorial.learner_rules.notebook as M\n"
    "assert N is M",
])
def test_the_forms_users_typed_give_the_new_objects(code):
    caught = _warnings_of(code)
    assert caught and all(w.startswith("DeprecationWarning") for w in caught), caught


def test_python_dash_m_with_an_old_path_runs_the_new_module():
    """docs/teachers.md told teachers to run ``python -m safari_kit.teaching.learner_rules.agreement``."""
    new = subprocess.run([sys.executable, "-m", "safari_kit.tutorial.learner_rules.agreement"], capture_output=True,
                         text=True)
    old = subprocess.run([sys.executable, "-W", "always::DeprecationWarning", "-m",
                          "safari_kit.teaching.learner_rules.agreement"], capture_output=True, text=True)
    assert (old.returncode, old.stdout) == (new.returncode, new.stdout)
    assert ("DeprecationWarning: safari_kit.teaching.learner_rules.agreement has moved to "
            "safari_kit.tutorial.learner_rules.agreement") in old.stderr


def test_what_every_lesson_types_warns_not():
    """``from safari_kit.teaching import check`` (and the lessons' own modules) stay here: no warning at all."""
    assert _warnings_of("from safari_kit.teaching import check, Hint\nfrom safari_kit.teaching import lesson_04, deck\n"
                        "import safari_kit.teaching.lessons") == []


def test_old_paths_not_moved_are_still_missing():
    """The finder answers only for the modules that moved; a typo is still a ModuleNotFoundError."""
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("safari_kit.teaching.no_such_module")
    assert importlib.util.find_spec("safari_kit.teaching.facts") is None


def test_nothing_in_the_kit_imports_an_old_path():
    """The old paths are for users: the kit, its tests and tools use the new ones (but the tests of the old paths)."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    names = "|".join(old.split(".", 2)[2] for old in MOVED)
    pattern = re.compile(rf"safari_kit[./]teaching[./]({names})\b|from safari_kit\.teaching import [^\n]*\b({names})\b")
    found = []
    for folder in ("safari_kit", "tests", "tools", "site-src", "notebooks"):
        for path in (root / folder).rglob("*"):
            if path.suffix not in {".py", ".md", ".ipynb", ".txt", ".toml", ".cfg"} or path.name in {
                    "_moved.py", "test_old_paths.py", "test_packaging_split.py"} or ".ipynb_checkpoints" in path.parts:
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert found == []
