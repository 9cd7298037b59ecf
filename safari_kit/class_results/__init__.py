"""The class's results: what the labs record, where it is kept, and what the teacher sees of it.

- the records and their limits (``class_records``, ``bounded_numbers``, ``nicknames``, ``learner_tags``);
- the recorder a lab writes to, and the results files learners hand in (``recorder``, ``results_file``,
  ``results_pool``);
- the class's SQLite store and its session (``class_store``, ``class_files``, ``class_hold``,
  ``class_learner``, ``class_session``);
- the tables, the CSV export and the teacher's page (``class_tables``, ``class_export``, ``teacher_page``
  with ``templates/``).

Why a package of its own (issue 28 split it out of ``teaching``): it is read by the class server, the
labs and lesson 05, and it runs on the teacher's machine with SQLite; its readers are not the learner's
exercise checks. It sits below ``safari_kit.teaching`` (lesson 05 reads the class tables) and above
``safari_kit.tutorial`` (the tables word the quiz's questions as the Rules tutorial asks them).
"""
