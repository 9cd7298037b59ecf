"""The lessons' exercises and hints: what a learner's kernel checks when a lesson calls ``check``.

- ``exercises``: ``check``, ``Exercise``, ``Hint``, ``Feedback`` and the register of every exercise;
- ``lesson_NN``: each lesson's exercises (answers computed with the kit, never typed in) and its hints;
- ``lessons``: imports every ``lesson_NN`` so the register is complete; ``deck``: the card table the lessons use.

Why this package holds only these: it runs in the learner's kernel (and in the browser's Python), where the
build-time tools and the class server's store have no business. Issue 28 moved the other concerns out:
the authoring tools run when the lessons are built to :mod:`safari_kit.authoring` (the layer above: they read
the exercises), the class's results to :mod:`safari_kit.class_results` and the Rules tutorials with the
learners' rules pages to :mod:`safari_kit.tutorial` (the layers below: lesson 05 reads the class tables, lesson
07 the tutorials). Their old import paths (under ``safari_kit.teaching``) still work for a release, with
a DeprecationWarning naming the new one (:mod:`safari_kit.teaching._moved`).

``from safari_kit.teaching import check`` is what every lesson types: it stays here, without a warning.
"""
from safari_kit.teaching import _moved
from safari_kit.teaching.exercises import Exercise, Feedback, Hint, check, exercises, register

_moved.install()

__all__ = ["Exercise", "Feedback", "Hint", "check", "exercises", "register"]
