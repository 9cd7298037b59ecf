"""Student copies of the lessons: built from the lesson texts, without anything that gives an answer away.

Each lesson is one MyST-markdown text, ``notebooks/NN-*.md`` (the source),
paired by jupytext with the notebook learners open, ``notebooks/NN-*.ipynb``.
A student copy is the lesson as JupyterLab opens it: the cells of the text,
with the notebook's cell ids (jupytext matches them up), outputs cleared, and
without the two things written for the teacher:

* **worked solutions**: every exercise is written the same way (question,
  ``my_answer = ...`` stub, ``check`` cell, worked solution tagged ``solution``);
  the copy drops the cells tagged ``solution``, so each exercise keeps its stub
  and its check;
* **teacher sections**: a markdown heading ``For teachers`` (also "Notes for
  teachers", "Teacher notes", "Teaching notes"), at any level, opens a teacher
  section; it runs to the next heading of the same or a higher level, or to the
  end of the lesson, and the copy drops all of it, whether the heading starts a
  cell or not (the common wrong answers there answer the exercises). A cell
  tagged ``teacher`` is dropped too, wherever it stands.

The build stops, with an error naming the lesson file and the cell, when a lesson
cannot be cut cleanly: a teacher section that would swallow an exercise's stub or
check, or text that looks teacher-only ("Common wrong answers", "Answer key", a
bold "For teachers") outside a teacher section. Nothing is guessed: move the text
under the teacher heading, or tag its cell ``teacher``.

A notebook without a text twin (one a teacher wrote, say) is read as it is. Whether
a copy still shows an answer some other way (a number in the prose, an output) is
what :mod:`safari_kit.authoring.answer_leaks` looks for; the tests run it on every copy.

Run: ``python -m safari_kit.authoring.student notebooks student`` (or ``make student``).
Reading a lesson text needs jupytext (the kit's ``lab`` extra).
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

SOLUTION_TAG = "solution"
TEACHER_TAG = "teacher"
#: the title of a teacher section (the words of a markdown heading, any level); the Spanish lessons' titles too
#: (notebooks/es/, issue 30: "Para docentes", "Notas para el profesorado"), so their copies are cut the same way
TEACHER_TITLE = (r"(?:for (?:the )?teachers?|notes? for (?:the )?teachers?|teachers?'?s? notes?|teaching notes|"
                 r"(?:notas? )?para (?:el |los |las )?(?:docentes?|profesorado|profesor(?:es|as?)?)|"
                 r"notas? (?:del|de los|de las) (?:docentes?|profesorado|profesor(?:es|as?)?))")
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_RULE = re.compile(r"^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")
#: text that is written for the teacher only: it must stand in a teacher section (or a cell tagged `teacher`)
TEACHER_ONLY = re.compile(
    rf"^[ \t>*_-]*(?:#{{1,6}}[ \t]+|\*\*|__)[ \t]*(?:{TEACHER_TITLE}|common (?:wrong answers|mistakes|"
    rf"misunderstandings)|answer key|answers to the exercises|solutions?|"
    rf"(?:respuestas (?:err[oó]neas|equivocadas)|errores|malentendidos|confusiones)(?: (?:m[aá]s )?"
    rf"(?:frecuentes|comunes|habituales))?|clave de respuestas|respuestas de los ejercicios|soluci[oó]n(?:es)?)"
    rf"(?![\w])", re.I | re.M)
_CHECK = re.compile(r"^\s*(?:my_answer = \.\.\.|check\(['\"]\d\d\.[\w-]+['\"], my_answer\))", re.M)


@dataclass
class Removed:
    """What a student copy left out: solution cells, and teacher cells or parts of cells."""

    solutions: int = 0
    teacher_cells: int = 0
    teacher_parts: int = 0  # markdown cells cut at a teacher heading (the text before it is kept)

    def __str__(self) -> str:
        text = f"{self.solutions} solution cell(s) removed"
        teacher = []
        if self.teacher_cells:
            teacher.append(f"{self.teacher_cells} cell(s)")
        if self.teacher_parts:
            teacher.append(f"part of {self.teacher_parts} cell(s)")
        return text + (f", and the teacher notes ({' and '.join(teacher)})" if teacher else "")


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _outside_code(text: str) -> list[tuple[int, str]]:
    """(line number, line) of the lines of markdown ``text`` outside fenced code blocks."""
    found, fence = [], None
    for n, line in enumerate(text.split("\n")):
        m = _FENCE.match(line)
        if m:
            closes = fence is not None and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)
            fence = None if closes else (fence or m.group(1))
        elif fence is None:
            found.append((n, line))
    return found


def _headings(text: str) -> list[tuple[int, int, str]]:
    """(line number, level, title) of each markdown heading of ``text``, outside code fences."""
    return [(n, len(h.group(1)), h.group(2)) for n, line in _outside_code(text) if (h := _HEADING.match(line))]


def _without_code(text: str) -> str:
    """Markdown without its fenced code blocks (a heading shown as code is no heading)."""
    return "\n".join(line for _, line in _outside_code(text))


def is_teacher_title(title: str) -> bool:
    """Is a heading's title that of a teacher section ("For teachers", "Notes for teachers", ...)?"""
    return re.fullmatch(rf"\W*{TEACHER_TITLE}\W*", title.strip(), re.I) is not None


def _trim(lines: list[str]) -> list[str]:
    """Lines kept before a teacher heading, without the blank lines and rules that led to it."""
    lines = list(lines)
    while lines and (not lines[-1].strip() or _RULE.match(lines[-1])):
        lines.pop()
    return lines


def strip_teacher_sections(notebook: dict, source: str | Path = "the notebook") -> tuple[dict, Removed]:
    """Return a copy of ``notebook`` without its teacher sections and cells tagged ``teacher``.

    Raises ValueError (naming ``source`` and the cell) when a teacher section would take an
    exercise's stub or check with it, or when text that looks teacher-only stands outside one.
    """
    removed = Removed()
    cells: list[dict] = []
    section: int | None = None   # the level of the open teacher section
    for index, cell in enumerate(notebook.get("cells", [])):
        tags = cell.get("metadata", {}).get("tags", [])
        text = _source(cell)
        where = f"{source}: cell {index + 1}"
        if TEACHER_TAG in tags:
            removed.teacher_cells += 1
            continue
        if cell.get("cell_type") != "markdown":
            if section is not None:
                if _CHECK.search(text) and SOLUTION_TAG not in tags:
                    raise ValueError(f"{where} (an exercise's stub or check) follows the teacher section; "
                                     "end the section with a heading before the exercise, or move the exercise "
                                     "above it")
                removed.teacher_cells += 1
                continue
            cells.append(cell)
            continue
        lines = text.split("\n")
        heads = {n: (level, title) for n, level, title in _headings(text)}
        kept: list[str] = []
        teacher_lines = 0
        for n, line in enumerate(lines):
            if n in heads:
                level, title = heads[n]
                if is_teacher_title(title):
                    if section is None:
                        kept = _trim(kept)  # the rule and blank lines that led to the teacher heading go too
                    section = level if section is None else min(section, level)
                elif section is not None and level <= section:
                    section = None
                    if kept:
                        kept.append("")  # a blank line between the text before the section and after it
            if section is None:
                kept.append(line)
            else:
                teacher_lines += 1
        if teacher_lines:
            new_text = "\n".join(kept).strip("\n")
            if not new_text.strip() or all(_RULE.match(x) for x in new_text.split("\n") if x.strip()):
                removed.teacher_cells += 1
                continue
            removed.teacher_parts += 1
            cell = json.loads(json.dumps(cell))
            cell["source"] = new_text
        else:
            new_text = text
        m = TEACHER_ONLY.search(_without_code(new_text))
        if m:
            raise ValueError(f"{where} has teacher-only text outside a teacher section ({m.group(0).strip()!r}); "
                             "put it under a '## For teachers' heading, or tag the cell 'teacher'")
        cells.append(cell)
    out = dict(notebook)
    out["cells"] = cells
    return out, removed


def strip_solutions(notebook: dict, source: str | Path = "the notebook") -> tuple[dict, int]:
    """The student copy of ``notebook`` (no solution cells, no teacher sections, no outputs), and how many
    solution cells were removed. ``source`` names the lesson in error messages."""
    student, removed = student_copy(notebook, source)
    return student, removed.solutions


def student_copy(notebook: dict, source: str | Path = "the notebook") -> tuple[dict, Removed]:
    """The student copy of ``notebook``: without solution cells, teacher sections and outputs."""
    notebook, removed = strip_teacher_sections(notebook, source)
    cells = []
    for cell in notebook.get("cells", []):
        if SOLUTION_TAG in cell.get("metadata", {}).get("tags", []):
            removed.solutions += 1
            continue
        cell = json.loads(json.dumps(cell))
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        cells.append(cell)
    out = dict(notebook)
    out["cells"] = cells
    return out, removed


def lesson_source(path: str | Path) -> Path:
    """The file a teacher edits for notebook ``path``: its text twin ``path.md`` if there is one."""
    path = Path(path)
    text = path.with_suffix(".md")
    return text if text.exists() else path


def read_lesson(path: str | Path) -> dict:
    """The lesson of notebook ``path``: from its text twin ``path.md`` if there is one, else the notebook itself."""
    path = Path(path)
    raw = path.read_text(encoding="utf-8")
    try:
        notebook = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not a valid notebook (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    text = path.with_suffix(".md")
    if not text.exists():
        return notebook
    try:
        import jupytext
        import nbformat
        from jupytext.combine import combine_inputs_with_outputs
    except ImportError:
        raise ValueError(f"{text}: reading a lesson text needs jupytext; install the kit with "
                         "`pip install -e '.[lab]'` (or run `make student`)") from None
    source = jupytext.read(text)
    lesson = combine_inputs_with_outputs(source, nbformat.reads(raw, as_version=4), fmt="md:myst")
    return json.loads(json.dumps(lesson))


def language_folders(src: str | Path) -> list[Path]:
    """The folders of ``src`` that hold its lessons in another language (``notebooks/es/``, issue 30).

    A folder counts when its name is a language the kit has a catalogue for and it holds lessons: so adding a
    language is adding files (a catalogue and a folder of lessons), and a stray folder (``old/``) is never
    taken for one. The copies keep the layout: ``my-lessons/es/``, ``student/es/``.
    """
    from safari_kit.core.i18n import known_language  # the lowest layer; imported here, where it is needed

    src = Path(src)
    if not src.is_dir():
        return []
    return [path for path in sorted(src.iterdir())
            if path.is_dir() and known_language(path.name) == path.name and any(path.glob("*.ipynb"))]


def write_student_copies(src: str | Path, dst: str | Path, languages: bool = False) -> list[tuple[Path, Removed]]:
    """Write a student copy of every lesson in folder ``src`` to folder ``dst``; [(copy, what was removed)].

    ``languages``: the lessons in other languages too (``src/es/`` -> ``dst/es/``, issue 30; the folders
    :func:`language_folders` finds), listed after the others.
    Every lesson is checked before anything is written, so a lesson that cannot be cut leaves ``dst`` as it was.
    """
    src, dst = Path(src), Path(dst)
    if not src.is_dir():
        raise FileNotFoundError(f"{src}: no such folder of notebooks")
    folders = [(src, dst)] + ([(f, dst / f.name) for f in language_folders(src)] if languages else [])
    copies = [(out / path.name, *student_copy(read_lesson(path), lesson_source(path)))
              for folder, out in folders for path in sorted(folder.glob("*.ipynb"))]
    done = []
    for target, student, removed in copies:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(student, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        done.append((target, removed))
    return done


def make_student_copies(src: str | Path, dst: str | Path) -> list[tuple[Path, int]]:
    """Write a student copy of every lesson in folder ``src`` to folder ``dst``; [(copy, solution cells removed)]."""
    return [(target, removed.solutions) for target, removed in write_student_copies(src, dst)]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    src, dst = (args + ["notebooks", "student"][len(args):])[:2]
    try:
        done = write_student_copies(src, dst, languages=True)
    except (OSError, ValueError) as exc:
        print(f"make student: {exc}", file=sys.stderr)
        return 2
    for target, removed in done:
        print(f"{target}: {removed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
