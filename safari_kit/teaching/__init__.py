"""What the lessons teach with, and what the class leaves behind. Several concerns, for now in one package:

- exercises and hints a learner's kernel checks (``exercises``, ``lesson_NN``, ``deck``, ``learner_words``);
- the Rules tutorials and their quiz (``tutorials``, ``tutorial_quiz``, ``rulebook``) and the learners' rules
  pages (``learner_rules``);
- the class's results: records, recorder, results files, the SQLite store, tables, export and the teacher's
  page (``class_*``, ``results_*``, ``recorder``, ``nicknames``, ``learner_tags``, ``bounded_numbers``,
  ``teacher_page``);
- authoring tools run when the lessons are built: student copies, the learners' workspace and the
  answer-leak detector (``student``, ``workspace``, ``answer_leaks``).

Issue 28 splits them into packages of their own; the names below stay importable from here.
"""
from safari_kit.teaching.exercises import Exercise, Feedback, Hint, check, exercises, register

__all__ = ["Exercise", "Feedback", "Hint", "check", "exercises", "register"]
