"""Lessons 04–07: every exercise's hint leads a learner who has only the lesson's text to the answer, and no
printout of a lesson answers an exercise (issue 27, part C).

The wrong answers are recounted here from ``data/cards.csv`` with the csv module and this file's own reading of
the rules (K3: a later card must be strictly higher; a seen card is in nobody's hand), not with the kit's
probability code; then ``check`` must answer each with the hint that names the mistake.
"""
from __future__ import annotations

import csv
import re
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from safari_kit.teaching import check

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SPEED = "top_speed_kmh"


def _pals() -> dict[str, dict]:
    with open(ROOT / "data" / "cards.csv", newline="", encoding="utf-8") as f:
        return {row["id"]: row for row in csv.DictReader(f) if row["deck"] == "knockout"}


def _faster(card: str, pool) -> int:
    pals = _pals()
    return sum(float(pals[c][SPEED]) > float(pals[card][SPEED]) for c in pool)


def _lead(U: int, H: int, k: int) -> Fraction:
    return Fraction(comb(U - H, k), comb(U, k))


def _text(key: str, answer) -> str:
    return check(key, answer).text


def _code_cells(lesson: str) -> list[str]:
    text = next(NOTEBOOKS.glob(f"{lesson}-*.md")).read_text(encoding="utf-8")
    return re.findall(r"```\{code-cell\}\n(.*?)```", text, flags=re.S)


# ----------------------------------------------------------------------------- lesson 04
def test_04_lead_one_card_is_asked_at_a_k_no_table_of_the_lesson_prints():
    """On the old lesson the cell right under the exercise printed the Lion's row "17/44 ≈ 0.3864" (same H, same
    k = 21) and the next table the Impala's own 0.386364: the exercise is now set at a k no cell prints."""
    from safari_kit.teaching import lesson_04

    pals = _pals()
    N = len(pals)
    H = _faster("K10", pals)
    answer = _lead(N - 1, H, lesson_04.LEAD_K)
    assert check("04.lead-one-card", answer).correct
    printed_k = set()
    for cell in _code_cells("04"):
        if "solution" in cell.split("\n", 1)[0]:
            continue
        printed_k |= {int(k) for k in re.findall(r"p_win_leading_card_only\([^)]*?,\s*(?:k=)?(\d+)\)", cell)}
        printed_k |= {int(k) for k in re.findall(r"\bU, k = N - 1, (\d+)", cell)}
    assert printed_k and lesson_04.LEAD_K not in printed_k, printed_k
    # no card on any item at a printed k has the answer's chance (to the 3 decimals the tables show)
    for k in printed_k:
        for card in pals:
            for item in ("weight_kg", "size_cm", SPEED, "lifespan_years"):
                h = sum(float(pals[c][item]) > float(pals[card][item]) for c in pals)
                assert round(float(_lead(N - 1, h, k)), 3) != round(float(answer), 3), (card, item, k)


def test_04_best_item_table_leaves_out_the_impala():
    """The table under 04.best-item shows its first rows only: the Impala (the 10th card) was one of them."""
    cell = next(c for c in _code_cells("04") if 'ranks["best item"]' in c)
    shown = int(re.search(r"\.head\((\d+)\)", cell).group(1))
    assert "K10" not in list(_pals())[:shown]


def test_04_lead_one_card_hints():
    pals = _pals()
    N, H, k = len(pals), _faster("K10", _pals()), 14
    assert check("04.lead-one-card", _lead(N - 1, H, k)).correct
    assert check("04.lead-one-card", round(float(_lead(N - 1, H, k)), 3)).correct
    assert "not 57" in _text("04.lead-one-card", _lead(N, H, k))                 # U = 57: own card not seen
    assert "rank minus 1" in _text("04.lead-one-card", _lead(N - 1, H + 1, k))   # H = the rank
    assert "k = 14" in _text("04.lead-one-card", _lead(N - 1, H, 21))            # the 4-player k of the examples
    assert "ONE opponent card" in _text("04.lead-one-card", Fraction(N - 1 - H, N - 1))
    assert "putting them back" in _text("04.lead-one-card", float(Fraction(N - 1 - H, N - 1) ** k))
    general = check("04.lead-one-card", Fraction(1, 3)).text
    assert "rank on top speed minus 1" in general and "Lion's cell" in general


def test_04_best_item_hints():
    assert check("04.best-item", "top speed").correct
    assert "biggest number" in _text("04.best-item", "size")   # the Impala's biggest number is its size
    assert "K10 in place of K23" in _text("04.best-item", "weight").replace("id, K10,", "K10")


def test_04_follow_hints():
    """You hold K10, K20, K30; the Warthog (K36) led on top speed; one player with 3 cards after you."""
    pals = _pals()
    seen = {"K10", "K20", "K30", "K36"}
    unseen = [c for c in pals if c not in seen]
    U, H, k = len(unseen), _faster("K10", unseen), 3
    right = _lead(U, H, k)
    assert check("04.follow", right).correct and check("04.follow", round(float(right), 3)).correct
    assert "57 − 3 − 1" in _text("04.follow", _lead(U + 3, H, k))            # only the Impala seen: U = 56
    assert "Warthog too" in _text("04.follow", _lead(U + 1, H, k))           # the Warthog left in U
    assert "Warthog too" in _text("04.follow", round(float(_lead(U + 1, H, k)), 3))
    assert "strictly faster" in _text("04.follow", _lead(U, H + 1, k))       # H = the Impala's rank
    assert "faster card" in _text("04.follow", 1)
    assert "leading chance" in _text("04.follow", check_lead := _lead(len(pals) - 1, H, 14))
    assert check_lead != right


# ----------------------------------------------------------------------------- lesson 05
def test_05_trials_for_se_hints():
    p = Fraction(14, 74)  # identify by animal: 14 other Elephants among 74 unseen cards (lesson 02)
    n = p * (1 - p) / Fraction(1, 100) ** 2
    assert check("05.trials-for-se", float(n)).correct
    assert "p = 1/2" in _text("05.trials-for-se", 2500)           # the worst case p(1 − p) = 1/4
    assert "forgets the factor" in _text("05.trials-for-se", 10_000)
    assert "0.0001" in _text("05.trials-for-se", 39)              # √(p(1 − p))/0.01: 0.01 not squared
    general = _text("05.trials-for-se", 1000)
    assert "Square both sides" in general and "7/37" in general


def test_05_misses_and_se_ratio_hints():
    assert "share of intervals" in _text("05.misses", 0.05)
    assert "share of intervals" in _text("05.misses", "5%")
    assert "square root" in _text("05.se-ratio", 4)


def test_05_class_trials_hint_for_every_question_added():
    from safari_kit.teaching import lesson_05

    runs = lesson_05.example_class().of_kind("simulation-run")
    every = sum(r.trials for r in runs)
    assert every != lesson_05.class_trials()
    assert "every question" in _text("05.class-trials", every)


def test_05_brier_table_below_the_exercise_says_it_is_a_recap():
    """The table under 05.lowest-brier lists every score, lowest first: it must say it is a recap."""
    text = next(NOTEBOOKS.glob("05-*.md")).read_text(encoding="utf-8")
    after = text.split('check("05.lowest-brier", my_answer)')[-1]
    cell = after.split("```{code-cell}")[1]
    assert "results.brier()" in cell and "Recap" in cell.split("results.brier()")[0]


def test_05_teachers_section_says_how_a_class_seed_is_set_now():
    """The app offers no *Shared class seed* box unless the server is started with SAFARI_KIT_CLASS_SEED."""
    text = next(NOTEBOOKS.glob("05-*.md")).read_text(encoding="utf-8")
    teachers = text.split("## For teachers", 1)[1]
    assert "tick *Shared class seed*" not in teachers and "*Shared class seed* ticked" not in teachers
    assert "SAFARI_KIT_CLASS_SEED=" in teachers and "off by default" in teachers


# ----------------------------------------------------------------------------- lesson 06
def test_06_colors_hints():
    # 10 draws WITH replacement, each color 1/5 (inclusion–exclusion): the common mistake
    with_replacement = sum((-1) ** j * comb(5, j) * Fraction(5 - j, 5) ** 10 for j in range(6))
    assert "no card is put back" in _text("06.colors-10", float(with_replacement))
    assert "Add 10 to the list" in _text("06.colors-10", 0.47)   # a value read between the 8- and 15-card rows


def test_06_names_hints():
    clear, inks = 4, 2   # SAM, KIM, KRIS, ALAN and the inks T?M, ?AM (the lesson's archive)
    assert "only the clear names" in _text("06.names", clear)
    assert "ONE name" in _text("06.names", clear + 2 * inks)
    assert "greedy" in _text("06.names", 5)


def test_06_sam_general_hint_points_to_the_printout():
    assert "1 bit" in _text("06.sam", Fraction(1, 4))


# ----------------------------------------------------------------------------- lesson 07
def _lesson_07() -> str:
    return next(NOTEBOOKS.glob("07-*.md")).read_text(encoding="utf-8")


def _learners_part(text: str) -> str:
    return text.split("## For teachers", 1)[0]


def test_07_round3_hints():
    assert check("07.round3-cards", 5).correct
    assert "one card fewer each round" in _text("07.round3-cards", 4)   # 7 − 3
    assert "Round 1 deals 7" in _text("07.round3-cards", 9)


def test_07_sends_learners_to_their_rules_pages_not_the_developers_page():
    learners = _learners_part(_lesson_07())
    assert "docs/rules.md" not in learners
    assert "(rules-safari-witness.ipynb)" in learners and "(rules-safari-knockout.ipynb)" in learners
    for page in ("rules-safari-witness.ipynb", "rules-safari-knockout.ipynb"):
        assert (NOTEBOOKS / page).exists(), page
    teachers = _lesson_07().split("## For teachers", 1)[1]
    reference = teachers.split("**Rules reference:**", 1)[1]
    assert reference.index("(rules-safari-witness.ipynb)") < reference.index("docs/rules.md")


def test_07_names_the_quiz_before_the_tutorials():
    learners = _learners_part(_lesson_07())
    intro = learners.split("## Safari Witness", 1)[0]
    assert "quiz" in intro.lower() and "*Quiz*" in intro and "**Quiz** section" in intro


def test_07_step_lists_that_answer_the_quiz_stand_after_it_as_a_recap():
    """The lists of the scripts' steps ("Set-up: 4 face-down cards", "Stop after 4 safe reveals") answered
    07.refill and 07.safe-stop above the quiz; they now stand under a Recap heading after the last exercise."""
    text = _lesson_07()
    last_check = text.index('check("07.fail-places", my_answer)')
    for listing in ("for k, step in enumerate(script.steps", "for k, step in enumerate(kscript.steps"):
        assert text.index(listing) > last_check, listing
    recap = text.index("## Recap")
    assert last_check < recap < text.index("for k, step in enumerate(script.steps")


# ----------------------------------------------------------------------------- no printout answers an exercise
def _run_in_process(notebook: dict) -> dict:
    """``notebook`` with what each code cell prints and shows (its last expression, as text), run in this process
    (no kernel: the labs are built without a page; matplotlib draws off screen)."""
    import ast
    import contextlib
    import io

    import matplotlib

    matplotlib.use("Agg")
    namespace: dict = {}
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        tree = ast.parse(source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(tree, "<cell>", "exec"), namespace)  # noqa: S102 (the kit's own lesson)
            shown = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace) if last else None  # noqa: S307
        outputs = [{"output_type": "stream", "name": "stdout", "text": buffer.getvalue()}]
        if shown is not None and not hasattr(shown, "_repr_mimebundle_"):
            text = shown.to_string() if hasattr(shown, "to_string") else repr(shown)
            outputs.append({"output_type": "execute_result", "data": {"text/plain": text}, "metadata": {}})
        cell["outputs"] = outputs
    return notebook



@pytest.mark.parametrize("stem", ["04-knockout", "06-cases-and-abilities", "07-rules-tutorial"])
def test_lessons_04_to_07_print_no_answer_below_an_exercise(stem):
    """Lesson 05 is left to the kernel run (tests/notebooks/test_run_notebooks.py): its tournaments take long."""
    from safari_kit.authoring.answer_leaks import find_leaks
    from safari_kit.authoring.student import read_lesson, student_copy

    copy = _run_in_process(student_copy(read_lesson(NOTEBOOKS / f"{stem}.ipynb"))[0])
    leaks = find_leaks(copy, f"{stem}.ipynb")
    assert not leaks, "\n".join(str(leak) for leak in leaks)
