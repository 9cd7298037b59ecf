"""The static site's own words (issue 30): its landing page and the sentences its pages say while Python starts.

Why here and not in site-src: every learner-facing sentence of the kit lives in its gettext catalogue
(``safari_kit/locale``), and Babel extracts the catalogue from the kit's packages (babel.cfg). The site's build
(site-src/site_languages.py) reads these words in each language the site offers, at build time: the browser gets
plain HTML and a small table of words, no catalogue.

Short sentences in plain words, for a 15-year-old. A word with HTML in it keeps its tags in every language (the
pseudo-locale test checks the tags survive); ``{link}`` and ``{host}`` are filled in by the build and the page.
"""
from __future__ import annotations

from safari_kit.core.i18n import N_, _, language

#: the landing page (site-src/index.html names each key as ``{{ w.KEY }}``)
LANDING = {
    "title": N_("safari_kit: Safari Witness and Safari Knockout in your browser"),
    "labs_title": N_("safari_kit: the labs"),
    "labs_frame": N_("The labs"),
    "choose_language": N_("Language"),
    "intro": N_("Two card games, Safari Witness and Safari Knockout, with their chances worked out. Everything runs "
                "in <em>this</em> browser: Python starts on this computer at every visit (a few seconds, up to "
                "about 45 on a slow laptop: the page says how long), and your games stay here."),
    "new_here": N_("<b>New to the games? Start with the Rules tutorial.</b> It plays one game of each kind step by "
                   "step and explains every rule. It asks a few quiz questions on the way. Play it in the app "
                   "(choose <b>Rules tutorial</b> in the Lab list), or open {link}."),
    "tutorial_link": N_("lesson 07, the Rules tutorial"),
    "play": N_("Play the labs"),
    "play_note": N_("the app: the labs without code"),
    "lessons_link": N_("Open the lessons"),
    "lessons_note": N_("the notebooks in JupyterLab"),
    "rules_heading": N_("The rules of the games"),
    "rules_note": N_("One page for each game, with pictures of the cards. In the app, they are in the Lab list."),
    "lessons_heading": N_("The lessons"),
    "online_only": N_("<b>Lessons 01 and 05 need the online site.</b> They use pandas and numpy, Python's tools for "
                      "tables and for fast work with numbers. The offline copy of this site has neither. In the "
                      "offline copy the other lessons work, but a few of their cells (pictures, simulations) say "
                      "that they need the online site. So does the Simulation lab."),
    "start_here": N_("new to the games? start here"),
    "needs_online": N_("needs the online site (pandas and numpy)"),
    "kept_here": N_("Changes you make are kept in this browser only."),
    "all_files": N_("All files"),
}

#: what a page says while Python starts (site-src/starting.js); ``{estimate}``, ``{elapsed}`` and ``{host}`` are
#: filled in by the page
STARTING = {
    "starting": N_("Starting Python in your browser: about {estimate} seconds on this computer ({elapsed} seconds "
                   "so far)."),
    "cannot_start": N_("Python cannot start: this computer cannot reach the website that sends Python ({host}). "
                       "Connect to the internet, or ask your teacher for the offline copy of this site."),
}


def words(table: dict[str, str], lang: str) -> dict[str, str]:
    """Every word of ``table`` in ``lang`` (English: the table itself)."""
    with language(lang):
        return {key: _(text) for key, text in table.items()}
