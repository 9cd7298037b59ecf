"""The Rules tutorials, their quiz and the learners' rules pages: what the kit teaches of the rules.

- ``tutorials``: the scripted Rules tutorials of Safari Witness and Safari Knockout;
- ``tutorial_quiz``: the quiz at the end of a tutorial (its questions and their wording);
- ``rulebook``: each ruling's text from docs/rules.md, as the tutorial shows it;
- ``learner_rules``: the learners' own rules pages (``witness.md``, ``knockout.md`` and their pictures).

Why a package of its own (issue 28 split it out of ``teaching``): it is content, played in the learner's
kernel and in the browser's Python, with no exercise checks and no class records. It sits just above
``safari_kit.presentation`` (whose words it shows) and below ``safari_kit.class_results`` (the class tables
word the quiz's questions from here).
"""
