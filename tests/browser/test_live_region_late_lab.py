"""The lab's focus keeper and slider names start even when the lab reaches the page late (issue 20's guard).

ipywidgets draws a box's children one by one; on a busy machine the live region's view is put into its lab
more than one frame after it was drawn. The guard looked for its lab once, at the next frame, and gave up:
the sliders' handles kept no name (a CI run of lesson 06 met axe's aria-input-field-name on the Full game's
Players slider) and focus was no longer kept in the lab. Here the live region's own script
(safari_kit/widgets/live.py) is drawn into a node that joins a lab half a second later, as a slow page does.
"""
from __future__ import annotations

import pytest

from safari_kit.widgets.live import _ESM

pytestmark = pytest.mark.browser

LATE_LAB = """async ([esm, delay]) => {
    const url = URL.createObjectURL(new Blob([esm], {type: "text/javascript"}));
    const widget = (await import(url)).default;
    const values = {n: 0, text: "", focus_to: {}};
    const model = {get: (k) => values[k], on() {}, off() {}};
    const el = document.createElement("div");
    widget.render({model, el});
    await new Promise((r) => setTimeout(r, delay));
    const lab = document.createElement("div");
    lab.className = "safari-lab";
    lab.innerHTML = '<div class="widget-slider"><label class="widget-label">Players</label>' +
                    '<div class="noUi-handle" role="slider" tabindex="0"></div></div>';
    lab.appendChild(el);
    document.body.appendChild(lab);
    for (let i = 0; i < 40; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const name = lab.querySelector(".noUi-handle").getAttribute("aria-label");
        if (name) return {name, guarded: !!lab.__safariFocusGuard};
    }
    return {name: null, guarded: !!lab.__safariFocusGuard};
}"""


@pytest.mark.parametrize("delay", [0, 500])
def test_a_lab_that_arrives_late_is_guarded_and_its_sliders_named(browser, delay):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content("<html><body></body></html>")
        found = page.evaluate(LATE_LAB, [_ESM, delay])
        assert found == {"name": "Players", "guarded": True}, found
    finally:
        context.close()
