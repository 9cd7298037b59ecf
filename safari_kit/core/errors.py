"""The few precise exceptions of safari_kit.

All are ``ValueError`` subclasses, so ``except ValueError`` still works in a
notebook, and each message shows the input that caused it.
"""
from __future__ import annotations


class SafariKitError(ValueError):
    """Base class of every error safari_kit raises on purpose."""


class CardDataError(SafariKitError):
    """The card CSV is malformed; ``problems`` lists every problem found.

    Each problem is a :class:`safari_kit.cards.validate.Problem` with file,
    line, column, value and what was expected, so a teacher editing the CSV can
    fix every row in one go.
    """

    def __init__(self, problems, path=None):
        self.problems = list(problems)
        self.path = path
        head = f"{len(self.problems)} problem(s) in card data"
        if path is not None:
            head += f" {path}"
        lines = [head + ":"] + ["  " + str(p) for p in self.problems]
        super().__init__("\n".join(lines))


class IllegalActionError(SafariKitError):
    """An action that is not legal now; the state is left exactly as it was."""

    def __init__(self, action, reason: str):
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason}")


class RecordError(SafariKitError):
    """A game record that is corrupt, truncated, of an unknown version or does not replay."""
