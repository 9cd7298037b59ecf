"""Print, per lesson, how long the sentences a learner reads are (issue 27).

Reads the learners' copies (as ``make student`` makes them: no solutions, no teacher notes) and prints
per lesson: sentences, the share over 25 words, the longest; ``-v`` lists the sentences over the limits.
What a sentence and a word are: :mod:`safari_kit.authoring.learner_words`. The test that holds every lesson
to the limits is tests/notebooks/test_learner_words.py.

Run:   .venv/bin/python tools/measure_learner_words.py                 # every lesson of notebooks/
       .venv/bin/python tools/measure_learner_words.py notebooks/02-identification.ipynb -v
       .venv/bin/python tools/measure_learner_words.py --at 9bdb9c7    # the lessons as they were at a commit
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from safari_kit.authoring.learner_words import LONG, MAX_LONG_SHARE, MAX_WORDS, LessonWords, measure  # noqa: E402

LESSONS = "[0-9][0-9]-*.ipynb"


def lessons_at(commit: str, folder: Path) -> list[Path]:
    """Write the lessons (notebook and text twin) of ``commit`` into ``folder``; their notebooks."""
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", commit, "notebooks/"],
                           check=True, capture_output=True, text=True).stdout.split()
    for name in names:
        if name.endswith((".ipynb", ".md")):
            blob = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{name}"],
                                  check=True, capture_output=True).stdout
            (folder / Path(name).name).write_bytes(blob)
    return sorted(folder.glob(LESSONS))


def report(results: list[LessonWords], verbose: bool) -> None:
    print(f"{'lesson':34} {'sentences':>9} {'over ' + str(LONG):>8} {'longest':>8}")
    for r in results:
        flag = "" if not r.problems() else "   <- over the limits"
        print(f"{r.lesson:34} {len(r.sentences):9d} {r.long_share:8.0%} {r.longest:8d}{flag}")
        if verbose:
            for line in r.problems():
                print("   " + line)
    every = [s for r in results for s in r.sentences]
    if every:
        share = sum(s.words > LONG for s in every) / len(every)
        print(f"{'all':34} {len(every):9d} {share:8.0%} {max(s.words for s in every):8d}")
    print(f"(limits per lesson: no sentence over {MAX_WORDS} words, at most {MAX_LONG_SHARE:.0%} over {LONG})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("lessons", nargs="*", type=Path, help="lesson notebooks (default: notebooks/NN-*.ipynb)")
    parser.add_argument("--at", metavar="COMMIT", help="measure the lessons of this commit instead")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the sentences over the limits")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        paths = args.lessons
        if not paths:
            paths = lessons_at(args.at, Path(tmp)) if args.at else sorted((ROOT / "notebooks").glob(LESSONS))
        report([measure(p) for p in paths], args.verbose)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
