"""Issue 30: a lab and the app's chooser tell the page their language (``lang`` on their root), so a screen reader
reads Spanish words with a Spanish voice and axe checks them against it (tests/browser/test_pseudo_locale_browser.py
checks the page itself)."""
from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from safari_kit.core.i18n import language  # noqa: E402


@pytest.mark.parametrize("lang, page_lang", [("es", "es"), ("en", "en"), ("en_XA", "en-XA")])
def test_each_lab_and_the_chooser_say_their_language(lang, page_lang):
    from safari_kit.widgets.app import LabChooser
    from safari_kit.widgets.labs import ChallengeLab, SimulationLab

    with language(lang):
        made = [LabChooser(seed=1), ChallengeLab(), SimulationLab(seed=1, trials=100)]
    assert [m.live.lang for m in made] == [page_lang] * 3
    assert made[0].live in made[0].widget.children  # the chooser's own region, on the page


def test_the_region_puts_the_language_on_its_lab_or_the_app():
    from safari_kit.widgets.live import LiveRegion

    assert 'el.closest(".safari-lab") || el.closest(".safari-app")' in LiveRegion._esm
    assert 'root.setAttribute("lang", lang)' in LiveRegion._esm
