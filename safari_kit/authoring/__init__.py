"""Tools run when the lessons are built, never in a learner's kernel (issue 28 split them out of ``teaching``).

- ``student``: the learners' copies of the lessons (solutions and teacher cells taken out);
- ``workspace``: working copies of the lessons, to run, edit and save without touching the kit's own files;
- ``answer_leaks``: the detector that fails the build when a learner's copy shows an exercise's answer;
- ``learner_words``: the sentences a learner reads in a lesson's student copy, and how long they are.

Why a package of its own: these read the lessons and their exercises (``safari_kit.teaching``, the layer
below) but nothing of a learner's or a teacher's run imports them. The static site's build imports
``safari_kit.authoring.student`` from the checkout without installing the kit, so this ``__init__`` imports
nothing.
"""
