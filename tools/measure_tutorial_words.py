"""Issue 27 (part E2): the Rules tutorials' own sentences (intros, steps, the rulings' one-line summaries).

Prints how many sentences a learner reads there, how many are over 25 words, the longest, and the rulings'
summaries over 25 words, with the lessons' measure (safari_kit.authoring.learner_words).

Run: ``.venv/bin/python tools/measure_tutorial_words.py`` (this checkout), or with ``--file`` an older
tutorials.py, e.g. ``git show 72da1b8:safari_kit/tutorial/tutorials.py > /tmp/t.py`` then ``--file /tmp/t.py``.
"""
from __future__ import annotations

import argparse
import importlib.util
import sys

from safari_kit.authoring.learner_words import count_words, split_sentences


def load(path: str | None):
    if path is None:
        from safari_kit.tutorial import tutorials

        return tutorials
    spec = importlib.util.spec_from_file_location("old_tutorials", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_tutorials"] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", help="a tutorials.py to measure instead of this checkout's")
    T = load(parser.parse_args(argv).file)
    texts = []
    for script in (T.witness_script(), T.knockout_script()):
        texts.append(script.intro)
        texts += [script.explain(k) for k in range(len(script.steps))]
    n = [count_words(s) for text in texts for s in split_sentences(text)]
    over = sum(x > 25 for x in n)
    print(f"intros and steps: {len(n)} sentences, {over} over 25 words ({100 * over / len(n):.1f} %), "
          f"longest {max(n)} words")
    long = {code: count_words(line) for code, (_name, line) in T.RULINGS.items() if count_words(line) > 25}
    print(f"rulings' one-line summaries over 25 words: {long or 'none'}")


if __name__ == "__main__":
    main()
