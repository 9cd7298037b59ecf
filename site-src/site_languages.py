"""The static site in every language the kit has lessons in (issue 30): build time only, called by build_site.py.

What a Spanish learner gets from ``make site`` (and ``make site OFFLINE=1``):

* **the landing page** in their language: one block a language (site-src/index.html's ``<block>``), the words
  from the kit's catalogue (safari_kit/presentation/site_words.py), a choice of language at the top (plain links,
  ``?lang=es``). The page shows the address's ``?lang=``, else the learner's last choice on this site (kept in
  the browser), else the browser's own language, else English. English comes last in the page's source and is
  the block shown without JavaScript;
* **the Spanish lessons**, ``notebooks/es/`` (the student copies: build_site's ``stage`` asks
  ``write_student_copies`` for the language folders), listed in the Spanish block with their titles;
* **the app page in the chosen language**: a script right after the page's config gives the kernel
  ``QUERY_STRING=lang=es``, as Voilà does for ``app.ipynb?lang=es`` (``safari_kit.widgets.app.page_language``
  reads it). The kernel reads it from Pyodide's start options (site-src/safari_site/page_language.py), since a
  restored memory snapshot keeps the build's environment;
* **JupyterLab's own menus** in the lessons through JupyterLab's Spanish language pack: JupyterLite serves the
  packs installed in the build venv (site-src/requirements.txt) from ``api/translations/``, and config-utils.js
  (every JupyterLite page reads its config through it) is patched to make the learner's language JupyterLab's
  default locale (``settingsOverrides``; a learner who picks another language in JupyterLab's Settings menu keeps
  it);
* **the start-up sentences** (site-src/starting.js) in the page's language (:func:`starting_words`).

Adding a language is files only: a catalogue (``safari_kit/locale/<lang>``), a folder of lessons
(``notebooks/<lang>/``) and, for JupyterLab's menus, its language pack in site-src/requirements.txt.
"""
from __future__ import annotations

import json
import re
import sys
from html import escape
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "site-src"
#: where the landing page keeps the learner's choice (the site's other pages read it too)
STORE_KEY = "safari_kit.lang"
#: the landing page's block of one language, inside an HTML comment of site-src/index.html
BLOCK = re.compile(r"<!--[^<]*<block>\n(.*?)</block>\n-->\n", re.S)
WORD = re.compile(r"\{\{ w\.(\w+) \}\}")
#: beside a lesson (issue 27): where a new player starts, and the two lessons whose subject is pandas and numpy
#: (the offline build has neither: tests/test_offline_lessons.py, ONLINE)
LESSON_NOTES = {"07": ("<b>", "start_here", "</b>"), "01": ("", "needs_online", ""), "05": ("", "needs_online", "")}
#: JupyterLite's config-utils.js (0.7.6): the line that writes a page's merged config, before its bundle loads
CONFIG_WRITE = "CONFIG_SCRIPT.textContent = JSON.stringify(config, null, 2);"
TRANSLATION_PLUGIN = "@jupyterlab/translation-extension:plugin"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">.*?</script>', re.S)


class SiteLanguageError(ValueError):
    """A file the language staging patches lacks what it looks for (the message names the file and the text)."""


def _kit():
    """The kit's words and languages from this checkout (standard library only: the build venv has no kit)."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from safari_kit.authoring.student import language_folders
    from safari_kit.core import i18n
    from safari_kit.presentation import site_words

    return i18n, site_words, language_folders


def languages(folder: Path) -> list[str]:
    """The site's languages: English, then each language whose lessons ``folder`` holds (``folder/es/``)."""
    _i18n, _words, language_folders = _kit()
    return ["en"] + [path.name for path in language_folders(folder)]


def _title(notebook: Path) -> str:
    """A page's name: its first heading ("Rules of Safari Witness"), else its file name."""
    cells = json.loads(notebook.read_text(encoding="utf-8")).get("cells", [])
    first = "".join(cells[0].get("source", "")) if cells else ""
    return escape(first[2:].splitlines()[0].strip() if first.startswith("# ") else notebook.stem)


def _block(block: str, lang: str, contents: Path, learners: str, teacher_section: str) -> str:
    """One language's block of the landing page."""
    i18n, site_words, _folders = _kit()
    w = site_words.words(site_words.LANDING, lang)
    english = lang == "en"
    folder = learners if english else f"{learners}/{lang}"
    and_lang = "" if english else f"&amp;lang={lang}"

    def link(path: str) -> str:
        return f"./lab/index.html?path={path}{and_lang}"

    def note(stem: str) -> str:
        if stem[:2] not in LESSON_NOTES:
            return ""
        before, key, after = LESSON_NOTES[stem[:2]]
        return f" <small>{before}{w[key]}{after}</small>"

    lessons = sorted((contents / folder).glob("[0-9]*.ipynb"))
    items = "\n".join(f'      <li><a href="{link(f"{folder}/{nb.name}")}">{nb.stem if english else _title(nb)}</a>'
                      f'{note(nb.stem)}</li>' for nb in lessons)
    # the rules pages: the language's own if its folder has them, else the English pages under their names in the
    # language (the app's list names them so: the catalogue has them)
    rules_pages = sorted((contents / folder).glob("rules-*.ipynb"), reverse=True) or \
        sorted((contents / learners).glob("rules-*.ipynb"), reverse=True)
    with i18n.language(lang):
        rules = "\n".join(f'      <li><a href="{link(f"{nb.parent.relative_to(contents).as_posix()}/{nb.name}")}">'
                          f'{escape(i18n._(_title(nb)))}</a></li>' for nb in rules_pages)
    tutorial = f'<a href="{link(f"{folder}/07-rules-tutorial.ipynb")}">{w["tutorial_link"]}</a>'
    fill = {"lang": lang, "hidden": "" if english else " hidden", "play_id": "safari-play" if english else
            f"safari-play-{lang}", "query": "" if english else f"?lang={lang}", "folder": folder,
            "and_lang": and_lang, "rules": rules, "lessons": items, "teacher": teacher_section if english else ""}
    words = {key: escape(text, quote=True) if key.endswith("title") or key == "labs_frame" else text
             for key, text in w.items()}
    words["new_here"] = w["new_here"].format(link=tutorial)
    out = WORD.sub(lambda m: words[m.group(1)], block)
    for key, value in fill.items():
        out = out.replace("{{ " + key + " }}", value)
    return out


def landing_page(out: Path, contents: Path, teacher_section: str = "", prestart: bool = False,
                 learners: str = "notebooks") -> None:
    """Write ``out/index.html``: one block a language of ``contents`` (English last, shown without JavaScript), the
    choice of language when there is more than one; ``teacher_section``: the English block's teacher list."""
    i18n, site_words, _folders = _kit()
    tmpl = (SRC / "index.html").read_text()
    match = BLOCK.search(tmpl)
    if match is None:
        raise SiteLanguageError(f"{SRC / 'index.html'}: no <block> ... </block> comment to fill in")
    langs = languages(contents / learners)
    blocks = [_block(match.group(1), lang, contents, learners, teacher_section) for lang in langs[1:] + langs[:1]]
    chooser = ""
    if len(langs) > 1:
        label = " / ".join(dict.fromkeys(site_words.words(site_words.LANDING, lang)["choose_language"]
                                         for lang in langs))
        links = " ".join(f'<a href="?lang={lang}" hreflang="{lang}" lang="{lang}">'
                         f'{escape(i18n.LANGUAGE_NAMES.get(lang, lang))}</a>' for lang in langs)
        chooser = f'<nav class="safari-languages" aria-label="{escape(label)}">{links}</nav>'
    english = site_words.words(site_words.LANDING, "en")
    page = (tmpl[:match.start()] + tmpl[match.end():]).replace("{{ languages }}", chooser)
    page = (page.replace("{{ blocks }}", "\n".join(blocks)).replace("{{ title }}", escape(english["title"]))
            .replace("{{ prestart }}", "on" if prestart else "off"))
    (out / "index.html").write_text(page)


# ----------------------------------------------------------------------------- the other pages
def resolve_js(langs: list[str]) -> str:
    """A JS expression: the page's language. The address's ``?lang=``, else the language folder of the lesson it
    opens (``?path=notebooks/es/...``), else the landing page's stored choice, else the browser's languages, else
    English. Only a language of ``langs`` is ever returned (nothing from the address is used as it is)."""
    return ("(function () {\n"
            f"  var langs = {json.dumps(langs)}, lang = null;\n"
            "  function known(tag) {\n"
            "    tag = String(tag || '').slice(0, 20).replace('_', '-').toLowerCase();\n"
            "    return langs.indexOf(tag) >= 0 ? tag : langs.indexOf(tag.split('-')[0]) >= 0 ? tag.split('-')[0]"
            " : null;\n"
            "  }\n"
            "  var q = new URLSearchParams(location.search);\n"
            "  var folder = /(?:^|\\/)notebooks\\/([A-Za-z_]{2,8})\\//.exec(q.get('path') || '');\n"
            "  lang = known(q.get('lang')) || (folder && known(folder[1]));\n"
            f"  try {{ lang = lang || known(localStorage.getItem({json.dumps(STORE_KEY)})); }} catch (e) {{}}\n"
            "  (navigator.languages || [navigator.language]).forEach(function (t) { lang = lang || known(t); });\n"
            "  return lang || 'en';\n"
            "})()")


def starting_words(langs: list[str]) -> dict[str, dict[str, str]]:
    """The start-up sentences (site-src/starting.js) of every language but English (whose words are the script's
    own)."""
    _i18n, site_words, _folders = _kit()
    return {lang: site_words.words(site_words.STARTING, lang) for lang in langs if lang != "en"}


def lab_locales(out: Path, langs: list[str]) -> dict[str, str]:
    """The kit's language -> the JupyterLab language pack the site serves for it (``es`` -> ``es_ES``), read from
    JupyterLite's ``api/translations/all.json`` (the packs installed in the build venv)."""
    listing = out / "api" / "translations" / "all.json"
    packs = json.loads(listing.read_text()).get("data", {}) if listing.is_file() else {}
    found: dict[str, str] = {}
    for locale in sorted(packs):
        base = locale.replace("-", "_").split("_")[0].lower()
        if base in langs and base != "en" and (out / "api" / "translations" / f"{locale}.json").is_file():
            found.setdefault(base, locale)
    return found


def patch_lab_language(out: Path, langs: list[str]) -> dict[str, str]:
    """Every JupyterLite page (lessons, files) opens with JupyterLab's menus in the learner's language, where the
    site has its pack: config-utils.js sets the translation plugin's default locale. Returns the locales."""
    locales = lab_locales(out, langs)
    script = out / "config-utils.js"
    text = script.read_text()
    if "safariLabLanguage" in text:
        return locales
    if CONFIG_WRITE not in text:
        raise SiteLanguageError(f"{script}: {CONFIG_WRITE!r} not found (jupyterlite-core changed?): the lessons' "
                                "JupyterLab would not speak the learner's language; update site-src/site_languages.py")
    hook = (
        "\n/* safari_kit (site-src/site_languages.py, issue 30): JupyterLab's menus in the learner's language, where\n"
        "   the site has its language pack; the learner's own choice in JupyterLab's Settings menu still wins */\n"
        "function safariLabLanguage(config) {\n"
        f"  var locales = {json.dumps(locales)};\n"
        f"  var lang = {resolve_js(langs)};\n"
        "  if (!locales[lang]) return;\n"
        "  var overrides = config.settingsOverrides = config.settingsOverrides || {};\n"
        f"  overrides[{json.dumps(TRANSLATION_PLUGIN)}] = Object.assign({{}}, "
        f"overrides[{json.dumps(TRANSLATION_PLUGIN)}], {{ locale: locales[lang] }});\n"
        "  document.documentElement.lang = lang;\n"
        "}\n")
    script.write_text(text.replace(CONFIG_WRITE, "safariLabLanguage(config);\n  " + CONFIG_WRITE) + hook)
    return locales


def patch_app_page(page: Path, langs: list[str]) -> None:
    """The app page (Voici) in the learner's language: a script right after its config gives the kernel
    ``QUERY_STRING=lang=..`` (Pyodide's ``env``) and the page its ``lang``."""
    html = page.read_text()
    if "safari-page-language" in html:
        return
    match = CONFIG.search(html)
    if match is None:
        raise SiteLanguageError(f"{page}: no jupyter-config-data script to give the kernel the learner's language")
    script = (
        '<script id="safari-page-language">/* safari_kit (site-src/site_languages.py, issue 30): the app in the '
        'learner\'s language */\n(function () {\n'
        f"  var lang = {resolve_js(langs)};\n"
        "  var el = document.getElementById('jupyter-config-data');\n"
        "  var config = JSON.parse(el.textContent);\n"
        f"  var kernel = (config.litePluginSettings || {{}})[{json.dumps(KERNEL_PLUGIN)}];\n"
        "  if (kernel) {\n"
        "    var options = kernel.loadPyodideOptions = kernel.loadPyodideOptions || {};\n"
        "    options.env = Object.assign({}, options.env, { QUERY_STRING: 'lang=' + lang });\n"
        "    el.textContent = JSON.stringify(config);\n"
        "  }\n"
        "  document.documentElement.lang = lang;\n"
        "})();</script>")
    page.write_text(html[:match.end()] + script + html[match.end():])


def stage_pages(out: Path, contents: Path, app_page: Path, learners: str = "notebooks") -> str:
    """After the build: the app page and JupyterLab in the learner's language. Returns a line for the log."""
    langs = languages(contents / learners)
    patch_app_page(app_page, langs)
    locales = patch_lab_language(out, langs)
    missing = [lang for lang in langs[1:] if lang not in locales]
    return (f"languages {', '.join(langs)}; JupyterLab's menus in "
            f"{', '.join(f'{k} ({v})' for k, v in locales.items()) or 'no other language'}"
            + (f"; no JupyterLab language pack for {', '.join(missing)} in the build venv" if missing else ""))
