"""The static site in each language of the lessons (site-src/site_languages.py, issue 30), without a site build.

* the landing page: a block a language (Spanish first and hidden, English last: the block shown without
  JavaScript), a choice of language, the Spanish block's words all from the catalogue and its links to the
  Spanish lessons and app (``lang=es``);
* the start-up sentences: starting.js's own English is the catalogue's English (the Spanish is the catalogue's);
* JupyterLite's config-utils.js and the app page are patched once, and a build whose config-utils.js lacks the
  line stops, naming the file.

In chromium: tests/browser/test_site_spanish_browser.py.
"""
from __future__ import annotations

import json
import re
import sys

import pytest

from tests.test_site_contents import build_site  # noqa: F401 - the fixture
from tests.test_site_starting_words import _said


@pytest.fixture
def site_languages(build_site):  # noqa: F811
    import site_languages

    return site_languages


def test_the_landing_page_has_a_block_a_language_and_a_choice(build_site, site_languages, tmp_path):  # noqa: F811
    from safari_kit.core.i18n import language
    from safari_kit.presentation import site_words

    out = tmp_path / "site"
    out.mkdir()
    contents = build_site.stage(tmp_path / "lite")
    assert (contents / "notebooks" / "es" / "02-identification.ipynb").is_file()  # the Spanish lessons, staged
    build_site.landing_page(out, contents)
    page = (out / "index.html").read_text()
    assert "{{" not in page and "<block>" not in page
    assert re.search(r'<nav class="safari-languages" aria-label="Language / Idioma"><a href="\?lang=en" hreflang='
                     r'"en" lang="en">English</a> <a href="\?lang=es" hreflang="es" lang="es">Español</a></nav>', page)
    spanish, english = page.split('<div class="safari-lang" lang="en"')
    assert '<div class="safari-lang" lang="es" data-safari-lang="es"' in spanish and " hidden>" in spanish
    assert " hidden>" not in english.split(">")[0]
    with language("es"):
        for key, text in site_words.LANDING.items():
            assert site_words.words({key: text}, "es")[key] != text, f"{key}: not translated"
    words = site_words.words(site_words.LANDING, "es")
    for key in ("play", "lessons_link", "rules_heading", "lessons_heading", "kept_here"):
        assert words[key] in spanish and words[key] not in english
    assert f'id="safari-play-es" href="./voici/render/notebooks/app.html?lang=es">{words["play"]}</a>' in spanish
    assert 'href="./lab/index.html?path=notebooks/es/02-identification.ipynb&amp;lang=es"' in spanish
    assert "path=notebooks/es/" not in english


def test_the_start_up_sentences_english_is_the_catalogues(site_languages):
    from safari_kit.presentation import site_words

    def plain(text: str) -> str:
        return re.sub(r"\s+", " ", re.sub(r"\{\w+\}", " N ", text)).strip()

    said = [plain(s) for s in _said()]
    assert said == [plain(site_words.STARTING["cannot_start"]), plain(site_words.STARTING["starting"])]
    words = site_languages.starting_words(["en", "es"])
    assert list(words) == ["es"] and words["es"]["starting"].startswith("Python se está poniendo en marcha")


def test_config_utils_and_the_app_page_are_patched_once(site_languages, tmp_path):
    out = tmp_path / "site"
    (out / "api" / "translations").mkdir(parents=True)
    (out / "api" / "translations" / "all.json").write_text(json.dumps({"data": {"en": {}, "es_ES": {}}}))
    (out / "api" / "translations" / "es_ES.json").write_text("{}")
    (out / "config-utils.js").write_text("async function main() {\n  const config = {};\n  "
                                         + site_languages.CONFIG_WRITE + "\n}\n")
    assert site_languages.patch_lab_language(out, ["en", "es"]) == {"es": "es_ES"}
    once = (out / "config-utils.js").read_text()
    assert once.count("safariLabLanguage(config);") == 1 and '"es": "es_ES"' in once
    site_languages.patch_lab_language(out, ["en", "es"])
    assert (out / "config-utils.js").read_text() == once
    (out / "config-utils.js").write_text("// another jupyterlite-core\n")
    with pytest.raises(site_languages.SiteLanguageError, match=r"config-utils\.js: .*not found"):
        site_languages.patch_lab_language(out, ["en", "es"])

    app = tmp_path / "app.html"
    app.write_text('<head><script id="jupyter-config-data" type="application/json">{}</script></head>')
    site_languages.patch_app_page(app, ["en", "es"])
    site_languages.patch_app_page(app, ["en", "es"])
    html = app.read_text()
    assert html.count('id="safari-page-language"') == 1
    assert html.index("jupyter-config-data") < html.index("safari-page-language") and "QUERY_STRING" in html
    app.write_text("<head></head>")
    with pytest.raises(site_languages.SiteLanguageError, match="no jupyter-config-data"):
        site_languages.patch_app_page(app, ["en", "es"])
    assert sys.modules["site_languages"] is site_languages
