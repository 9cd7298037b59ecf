"""What a learner sees, as plain data and words: no widget package needed.

- :mod:`~safari_kit.presentation.views`: one seat's view of a table (what the
  card table widget draws), the click targets from ``legal_actions()``, and why
  a click is refused;
- :mod:`~safari_kit.presentation.narration`: the log told in a learner's words;
- :mod:`~safari_kit.presentation.numbers`: reading a typed answer (``14/74``).

The widgets (``safari_kit.widgets``) put these on the page; the teaching layer
and the tests use them without ipywidgets or anywidget.
"""
