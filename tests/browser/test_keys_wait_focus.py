"""tests/browser/keys.py's ``wait_focus`` on a small page of its own (no Jupyter): the keyboard tests read where the
lab put the focus after an action, and on a busy machine the message that moves it can come seconds after the
sentence (issue 28: focus still on the Stop button when the sentence was read). It waits for the move, and fails
when the focus never gets there."""
from __future__ import annotations

import pytest

from tests.browser.keys import button_named, wait_focus

pytestmark = pytest.mark.browser

LAB = """<style>button:focus { outline: 3px solid black; }</style>
<div class="safari-lab safari-challenge-lab">
  <button id="stop">Stop: archive 5</button><button id="next">Next turn</button></div>
<script>document.getElementById('stop').focus();</script>"""

MOVE_LATE = """() => setTimeout(() => { const stop = document.getElementById('stop'); stop.disabled = true;
    document.getElementById('next').focus(); }, 800)"""


def test_wait_focus_waits_for_a_late_move_and_fails_when_none_comes(page):
    page.set_content(LAB)
    page.evaluate(MOVE_LATE)
    f = wait_focus(page, ".safari-challenge-lab", button_named("Next turn"), "Stop", seconds=10)
    assert f["text"] == "Next turn" and f["ring"], f
    # control: the focus never leaves Stop, so waiting ends in a failure that names the action and the focus
    page.set_content(LAB)
    with pytest.raises(AssertionError, match=r"after Stop focus is not where it should be .*Stop: archive 5"):
        wait_focus(page, ".safari-challenge-lab", button_named("Next turn"), "Stop", seconds=1)
