"""What a learner sees, as plain data and words: no widget package needed.

- :mod:`~safari_kit.presentation.views`: one seat's view of a table (what the
  card table widget draws); it re-exports the names of
  :mod:`~safari_kit.presentation.targets` (the click targets from
  ``legal_actions()``, the safety net, and why a click is refused) and of
  :mod:`~safari_kit.presentation.table_words` (words and card faces both use);
- :mod:`~safari_kit.presentation.narration`: the log told in a learner's words;
- :mod:`~safari_kit.presentation.numbers`: reading a typed answer (``14/74``).

The widgets (``safari_kit.widgets``) put these on the page; the teaching layer
and the tests use them without ipywidgets or anywidget.
"""
