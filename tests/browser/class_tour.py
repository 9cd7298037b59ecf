"""One visit of a class server, several checks: a module fixture plays the class once and records each step; each
test asserts on its own steps (as tests/browser/test_a11y_axe.py's ``app_tour``).

Issue 28: a test that started its own class server, its own browsers and its own kernels to look at one more
thing of the same visit cost the machine those again. A :class:`ClassTour` runs the steps in order; a step that
fails is recorded with its message, the last frames of its traceback and a screenshot
(``test-artifacts/class-tour-<step>.png``), and the visit goes on with the steps that do not need it. A test then
fails on its own steps only, naming each one; a step that needed one that failed says so.

    tour.run("Zed joins", join_zed, page=zed)
    tour.run("the second tab", second_tab, page=zed, needs=("Zed joins",))
    ...
    def test_...(tour): tour.assert_passed("Zed joins", "the second tab")
"""
from __future__ import annotations

import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.browser.helpers import screenshot


@dataclass
class ClassTour:
    """What the one visit found: ``failed[step]`` (how it failed), ``done`` (the steps that ran to their end),
    ``values[step]`` (what a step returned, for its test to look at)."""
    failed: dict[str, str] = field(default_factory=dict)
    done: set[str] = field(default_factory=set)
    values: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:  # what pytest prints of the fixture beside a failure: short
        return f"ClassTour({len(self.done)} steps passed, {len(self.failed)} failed)"

    def run(self, step: str, action: Callable[[], Any], page=None, needs: tuple[str, ...] = ()) -> Any:
        """Run ``action`` as ``step``; a failure is recorded (not raised) so the visit goes on. A step whose
        ``needs`` did not all pass is not run (recorded as failed, naming them). Returns what ``action`` returned
        (None when it failed or did not run)."""
        missing = [n for n in needs if n not in self.done]
        if missing:
            self.failed[step] = f"not run: it needs {', '.join(missing)}, which did not pass"
            return None
        try:
            value = action()
        except Exception as exc:  # noqa: BLE001 - an assertion or a wait that timed out: recorded for its test
            frames = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-3))
            shot = "(no page)"
            if page is not None:
                try:
                    shot = str(screenshot(page, f"class-tour-{re.sub(r'[^A-Za-z0-9]+', '-', step)}"))
                except Exception:  # noqa: BLE001 - the page may be gone
                    shot = "(no screenshot)"
            self.failed[step] = f"{type(exc).__name__}: {exc}\n{frames}screenshot: {shot}"
            return None
        self.done.add(step)
        self.values[step] = value
        return value

    def problems(self, *steps: str) -> list[str]:
        out = []
        for step in steps:
            if step in self.failed:
                out.append(f"[{step}] {self.failed[step]}")
            elif step not in self.done:
                out.append(f"[{step}] did not run")
        return out

    def assert_passed(self, *steps: str) -> None:
        problems = self.problems(*steps)
        assert not problems, "\n".join(problems)
