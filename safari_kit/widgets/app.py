"""The classroom app: a chooser page (which game, which lab) that opens a lab.

Served without code cells by Voilà (``make app``, or Binder's
``urlpath=voila/render/notebooks/app.ipynb``); it also works in a notebook.
Each lab is made by its own class in :mod:`safari_kit.widgets.labs`; the
chooser only builds the chosen one.

Until a lab is opened, the stage under the controls holds one sentence that
says what to do (``chooser.start_hint``).

**Fair play.** The chooser builds every lab in *fair mode* (``fair=True``, see
:mod:`safari_kit.widgets.labs.base`): each lab deals from a fresh secret seed
drawn on the server, so two tabs never share a deal and Reset deals afresh
(the Simulation lab too: it hides no card, but its questions, trials and
games come from its own secret seed, so the app's sentence "every lab
shuffles its cards in secret" holds for it and it shows no Seed box);
the Full game lab saves finished games only and refuses Load mid-game.

**The shared class seed is off by default** (issue 19: two learners who
ticked it and typed the same number saw each other's face-down cards, and
anyone with the kit computes every card of a known seed). The teacher turns
it on for the server: ``SAFARI_KIT_CLASS_SEED=on`` offers the **Shared class
seed** box (unticked), ``SAFARI_KIT_CLASS_SEED=42`` fixes the shared seed 42
for everyone; unset (or ``off``) there is no box and nobody can pick a seed.
Wherever a class seed is shown, the lab says anyone can compute every card.
In the static site (Python in the learner's browser, which the learner owns)
no class seed is offered and no page says "in secret" or "fair deal"; on a learner's own JupyterHub server
(or Binder: :func:`~safari_kit.widgets.labs.base.learner_owns_the_server`) no page says them either.
``LabChooser(fair=False)`` gives the notebook behaviour (a visible seed).

**Labs ready before "Open lab"** (issue 31, item 2). In the static site (Python in a slow laptop's browser) the
chooser builds a few labs ahead once the page has drawn it: the lab chosen in the list, the game's first lab that
deals cards, and whatever the learner picks next; "Open lab" then shows a ready lab at once. A ready lab is used
once, for the lab and seed it was built for, so the fair-play rules above hold unchanged
(:mod:`safari_kit.widgets.ready_labs`).
"""
from __future__ import annotations

import html
import os
from dataclasses import dataclass
from importlib import import_module
from urllib.parse import parse_qs

import ipywidgets as W

from safari_kit.core.i18n import (LANGUAGE_ENV, LANGUAGE_NAMES, N_, SOURCE_LANGUAGE, _, available_languages,
                                  best_language, chosen_language, known_language, language)
from safari_kit.presentation.offline import data_package_missing, needs_package, when_loaded
from safari_kit.widgets.class_join import JoinPanel, what_is_kept
from safari_kit.widgets.live import LiveRegion
from safari_kit.widgets.labs.base import (BROWSER_DEAL_WORDS, CLASS_SEED_WARNING, OWN_SERVER_DEAL_WORDS, Lab, guarded,
                                          in_own_language, learner_owns_the_server, python_in_browser)
from safari_kit.widgets.labs.limits import bounded_int
from safari_kit.widgets.quiet import keep_errors_off_the_page
from safari_kit.widgets.ready_labs import NEVER_AHEAD, PICK_PAUSE, ReadyLabs, ShownSignal, ready_by_default


@dataclass(frozen=True)
class LabEntry:
    game: str
    title: str
    module: str
    cls: str
    blurb: str
    kwargs: tuple = ()

    def build(self, seed: int | None, fair: bool = False) -> Lab:
        """The lab; ``fair``: app mode (``seed=None`` then means a fresh secret deal)."""
        factory = getattr(import_module(self.module), self.cls)
        kwargs = dict(self.kwargs)
        if self.cls == "RulesTutorial":  # a scripted game: no deal to hide, no seed
            lab = factory(**kwargs)
            return lab
        if fair:
            return factory(seed=seed, fair=True, **kwargs)
        return factory(seed=1 if seed is None else seed, **kwargs)


#: each game's Rules tutorial comes first: it is the lab the list shows when a game is chosen (issue 27: new
#: players start there, everywhere a learner starts)
LABS = (
    LabEntry("Safari Witness", N_("Rules tutorial"), "safari_kit.widgets.labs.tutorial", "RulesTutorial",
             N_("New to the game? Start here: a game played step by step, every rule explained, with a quiz."),
             (("game", "witness"),)),
    LabEntry("Safari Witness", N_("Identification"), "safari_kit.widgets.labs.identification", "IdentificationLab",
             N_("Pick a clue type and a place, guess the chance, then reveal: see how close you were.")),
    LabEntry("Safari Witness", N_("Challenge"), "safari_kit.widgets.labs.challenge", "ChallengeLab",
             N_("Reveal cards one at a time: when should you stop?")),
    LabEntry("Safari Witness", N_("Full game"), "safari_kit.widgets.labs.fullgame", "FullGameLab",
             N_("A whole game against bots, or hot-seat with friends.")),
    LabEntry("Safari Witness", N_("Rules of Safari Witness"), "safari_kit.widgets.rules_page", "RulesPage",
             N_("All the rules on one page, with pictures of the cards."), (("game", "witness"),)),
    LabEntry("Safari Witness", N_("Simulation"), "safari_kit.widgets.labs.simulation", "SimulationLab",
             N_("Watch random trials close in on the exact chance. Let Witness bots play many games."),
             (("tournament_game", "witness"),)),
    LabEntry("Safari Knockout", N_("Rules tutorial"), "safari_kit.widgets.labs.tutorial", "RulesTutorial",
             N_("New to the game? Start here: a game played step by step, every rule explained, with a quiz."),
             (("game", "knockout"),)),
    LabEntry("Safari Knockout", N_("Knockout"), "safari_kit.widgets.labs.knockout", "KnockoutLab",
             N_("Play one seat against bots, with the chance of winning each turn.")),
    LabEntry("Safari Knockout", N_("Rules of Safari Knockout"), "safari_kit.widgets.rules_page", "RulesPage",
             N_("All the rules on one page, with pictures of the cards."), (("game", "knockout"),)),
    LabEntry("Safari Knockout", N_("Simulation"), "safari_kit.widgets.labs.simulation", "SimulationLab",
             N_("Watch random trials close in on the exact chance. Let Knockout bots play many games."),
             (("tournament_game", "knockout"),)),
    LabEntry(N_("Both games"), N_("Simulation"), "safari_kit.widgets.labs.simulation", "SimulationLab",
             N_("Watch random trials close in on the exact chance. Let bots play many games.")),
)


#: the address's ``?lang=es`` (Voilà gives the kernel the page's query string as $QUERY_STRING)
LANG_PARAMETER = "lang"
#: the browser's languages, when Voilà passes that header to the kernel (``http_header_envs``, see voila.json)
ACCEPT_LANGUAGE_ENV = "HTTP_ACCEPT_LANGUAGE"


def page_language(chosen: str | None = None) -> str:
    """The chooser's language (issue 30), the first that the kit has a catalogue for: ``chosen`` (Python's
    ``LabChooser(lang="es")``), the page address's ``?lang=es``, the code's ``with language(...)``, the class's
    language ``$SAFARI_KIT_LANG`` (the teacher's), the browser's languages (``Accept-Language``), else English.
    Each page has its own kernel, so each learner gets their own; nothing the page sends is trusted beyond a
    known catalogue's name."""
    asked = parse_qs(os.environ.get("QUERY_STRING", "")[:2000]).get(LANG_PARAMETER, [None])[0]
    for tag in (chosen, asked, chosen_language(), os.environ.get(LANGUAGE_ENV)):
        lang = known_language(tag) if tag else None
        if lang is not None:
            return lang
    header = os.environ.get(ACCEPT_LANGUAGE_ENV)
    return best_language(header) if header else SOURCE_LANGUAGE


CLASS_SEED_ENV = "SAFARI_KIT_CLASS_SEED"
MAX_SEED = 2**63 - 1  # a class seed a teacher types; anything bigger from the page is cut to it


class LabChooser:
    """Which game, which lab: then the lab opens below the chooser.

    ``fair`` (default True, the classroom app): labs deal from fresh secret
    seeds unless the shared class seed is ticked; ``seed`` is the value the
    class-seed box starts with. ``class_seed``: ``"off"`` (no shared seed
    control), ``"on"`` (the control is offered, unticked), an int (that shared
    seed, fixed) or None (read ``$SAFARI_KIT_CLASS_SEED``; unset: ``"off"``).
    In the learner's browser (the static site) it is always ``"off"``.
    ``ready``: build labs ahead (see the module's docstring); None: only where Python runs in the learner's
    browser, or as ``$SAFARI_KIT_READY_LABS`` says.
    """

    def __init__(self, seed: int = 1, fair: bool = True, class_seed: str | int | None = None,
                 ready: bool | None = None, lang: str | None = None):
        keep_errors_off_the_page()  # in Voilà's kernel: tracebacks and logs go to the server's log, not the page
        self.errors: list[str] = []
        #: the learner's language (issue 30): the chooser's words, and every lab it opens, speak it
        self.language = page_language(lang)
        self._arguments = (seed, fair, class_seed, ready)
        with language(self.language):
            self._build(seed, fair, class_seed, ready)

    def _build(self, seed: int, fair: bool, class_seed, ready) -> None:
        """The chooser's widgets, in the current language (built again when the learner picks another)."""
        self.fair = bool(fair)
        games = sorted({e.game for e in LABS}, key=[e.game for e in LABS].index)
        # the games' own names stay (Safari Witness); "Both games" is said in the learner's words
        self.game = W.ToggleButtons(options=[(_(g), g) for g in games], value=games[0], description=_("Game"))
        self.lab = W.Dropdown(description=_("Lab"))
        self.lab.add_class("safari-lab-list")  # the page's hook for the list of labs (tests, the site's scripts)
        self.seed = W.IntText(value=seed, description=_("Seed"), layout=W.Layout(width="180px"))
        self.shared = W.Checkbox(value=False, description=_("Shared class seed"), indent=False,
                                 layout=W.Layout(width="160px"))
        self.shared.add_class("safari-shared-seed")
        self.class_seed_setting = self._setting(class_seed) if self.fair else None
        self.open_button = W.Button(description=_("Open lab"), button_style="primary")
        self.blurb = W.HTML()
        self.stage = W.VBox()
        self.stage.add_class("safari-stage")  # where the open lab is (the load tools find it by this class)
        self.current: Lab | None = None
        #: joining the class experiment with a nickname (issue 21): optional; until then nothing is recorded
        self.join = JoinPanel(on_join=self._joined)
        #: labs built ahead (None: each lab is built when it is opened)
        self.ready_labs = ReadyLabs(self._build_ahead) if ready_by_default(ready) else None
        self.shown_signal = ShownSignal(self._chooser_shown) if self.ready_labs is not None else None
        self.game.observe(self._on_game, names="value")
        self.lab.observe(self._on_lab, names="value")
        self.shared.observe(self._on_shared, names="value")
        self.open_button.add_class("safari-open")
        self.open_button.on_click(lambda _b: self.open())
        if not self.fair:
            intro = _("Everyone in the class who types the same seed sees the same cards.")
            self.shared.layout.display = "none"
        else:
            intro = (_("Every lab deals its own cards in your browser: no two tabs get the same deal.") + " "
                     + _(BROWSER_DEAL_WORDS) if python_in_browser() else
                     _("Every lab deals its own cards: no two tabs get the same deal.") + " "
                     + _(OWN_SERVER_DEAL_WORDS) if learner_owns_the_server() else
                     _("Every lab shuffles its cards in secret on the server: no two screens, and no two "
                       "tabs, get the same deal."))
            setting = self.class_seed_setting
            self.shared.tooltip = _("Everyone who ticks this and types the same seed gets the same deal.") + \
                " " + _(CLASS_SEED_WARNING)
            if setting == "off":
                self.shared.layout.display = "none"
            elif isinstance(setting, int):
                self.seed.value, self.shared.value = setting, True
                self.shared.disabled = self.seed.disabled = True
                intro = (_("Your teacher has set the class seed {seed}: everyone gets the same deal in each lab.")
                         .format(seed=setting) + " " + _(CLASS_SEED_WARNING))
            self._on_shared(None)
        # compact (two rows): on a 1366x768 laptop the opened lab must fit under the chooser
        self.header = W.HTML("<b style='font-size:20px;margin-right:12px'>Safari Kit</b>")
        self.intro = W.HTML("<small style='color:#444'>" + html.escape(_("Choose a game and a lab.")) + " "
                            f"{html.escape(intro)}</small>")
        self.game.description = ""
        # each button as wide as its words: a fixed 130px cut the pseudo-locale's "Both games" by 5px in a
        # browser with other fonts (issue 30; tests/browser/test_pseudo_locale_browser.py)
        self.game.style.button_width = "auto"
        # the list's visible name is its own label (ipywidgets' <label for=...>): a separate "Lab" beside an
        # unnamed <select> left screen readers with "combo box" and nothing else (issue 20, axe select-name)
        self.lab.description = "<b>" + html.escape(_("Lab")) + "</b>"
        self.lab.description_allow_html = True
        self.lab.style.description_width = "initial"
        self.lab.layout.width = "225px"  # "Rules of Safari Knockout" whole
        # as wide as its words, never narrower than 100px: "Abrir laboratorio" (Spanish) in a fixed 100px was cut
        self.open_button.layout.width = "auto"
        self.open_button.layout.min_width = "100px"
        # the learner's own choice of language, when the kit has more than one (the pseudo-locale is for tests)
        languages = [lang for lang in available_languages() if lang != "en_XA" or self.language == "en_XA"]
        self.language_list = W.Dropdown(options=[(LANGUAGE_NAMES.get(x, x), x) for x in languages],
                                        value=self.language if self.language in languages else SOURCE_LANGUAGE,
                                        description=_("Language"), layout=W.Layout(width="200px"))
        self.language_list.style.description_width = "initial"
        self.language_list.add_class("safari-language")
        self.language_list.observe(self._on_language, names="value")
        if len(languages) < 2:
            self.language_list.layout.display = "none"
        top = W.HBox([self.header, self.game, self.intro, self.language_list])
        top.add_class("safari-app-top")
        top.layout.flex_flow = "row wrap"
        top.layout.align_items = "center"
        row = W.HBox([self.lab, self.open_button, self.shared,
                      self.seed, self.blurb])
        row.layout.flex_flow = "row wrap"
        row.layout.align_items = "center"
        # what to do first, where the lab will open (issue 17: two rows of controls over an empty screen)
        # the words keep their bold parts: a translator moves <b>...</b> with the words it marks
        self.start_hint = W.HTML(
            "<div style='font-size:17px;color:#234;margin:28px 12px;padding:14px 18px;border:2px dashed #9bb;"
            "border-radius:8px;max-width:760px'>"
            + _("<b>New to the games? Start with the Rules tutorial.</b> It is already chosen in the <b>Lab</b> "
                "list: press <b>Open lab</b>, and it opens here. It plays one game step by step and explains every "
                "rule.")
            + "<p style='font-size:15px;margin:10px 0 0'>"
            + _("Know the rules already? Pick a game at the top, choose a lab in the <b>Lab</b> list, then press "
                "<b>Open lab</b>.")
            + "</p><p style='font-size:14px;margin:10px 0 0'>"
            + _("<b>Class experiment (optional).</b> Give a nickname and press <b>Join</b> to pool your results "
                "with the class.")
            + f" {html.escape(what_is_kept(self.join.recording))}</p></div>")
        self.start_hint.add_class("safari-start-hint")
        self.stage.children = [self.start_hint]
        #: the chooser's language on the page (its root's ``lang``, issue 30)
        self.live = LiveRegion(lang=LiveRegion.page_lang(self.language))
        self.widget = W.VBox([top, row, self.join.widget, self.stage, self.live]
                             + ([self.shown_signal] if self.shown_signal is not None else []))
        self.widget.add_class("safari-app")
        self._on_game({"new": self.game.value})

    def _on_language(self, change) -> None:
        """The learner picked a language: the chooser speaks it at once, and so does every lab opened next. Once
        a lab is open or the learner joined, the page keeps what it has (a lab already built keeps its words;
        a joined learner keeps their nickname): only the labs opened from now on speak the new language."""
        new = known_language(change["new"])
        if new is None or new == self.language:
            return
        self.language = new
        if self.current is not None or self.join.recorder is not None:
            return
        if self.ready_labs is not None:
            self.ready_labs.want([])  # labs built ahead in the old language are not used
        shown = self.widget
        with language(new):
            self._build(*self._arguments)
        shown.children = self.widget.children  # the page keeps its widget; its content is the new one
        self.widget = shown

    @staticmethod
    def _setting(class_seed) -> str | int | None:
        """``"off"`` (no box), None (the box offered, unticked) or an int (that seed, fixed for everyone)."""
        if python_in_browser():  # the learner owns the kernel: a class seed would only give the cards away
            return "off"
        raw = os.environ.get(CLASS_SEED_ENV, "") if class_seed is None else class_seed
        if isinstance(raw, int) and not isinstance(raw, bool):
            return int(raw)
        raw = str(raw).strip().lower()
        if raw in ("on", "yes", "true"):
            return None
        if raw in ("", "off", "no", "0", "false"):
            return "off"
        if raw.isdigit() and len(raw) <= 40:
            return int(raw)
        raise ValueError(f"{CLASS_SEED_ENV}={raw[:50]!r}: use on (a Shared class seed box for the teacher), "
                         "off (the default: no shared seed) or a seed such as 42")

    @in_own_language
    def _on_shared(self, _change) -> None:
        if self.fair:
            self.seed.layout.display = "" if self.shared.value else "none"

    @property
    def shared_seed(self) -> int | None:
        """The seed every lab opened now will use, or None for fresh secret deals (fair mode)."""
        setting = self.class_seed_setting  # the server's setting wins over anything sent from the page
        if self.fair and setting == "off":
            return None
        if self.fair and isinstance(setting, int):
            return setting
        if not self.fair or self.shared.value:
            return bounded_int(self.seed.value, 0, MAX_SEED, 1)  # a 5,000-digit number from the page: cut
        return None

    def entries(self, game: str | None = None) -> list[LabEntry]:
        game = self.game.value if game is None else game
        return [e for e in LABS if e.game == game]

    @in_own_language
    def _on_game(self, change) -> None:
        entries = self.entries(change["new"])
        self.lab.options = [(_(e.title), i) for i, e in enumerate(entries)]
        self.lab.value = 0
        self._on_lab(None)

    @in_own_language
    def _on_lab(self, _change) -> None:
        entries = self.entries()
        if self.lab.value is not None and self.lab.value < len(entries):
            self.blurb.value = f"<i>{html.escape(_(entries[self.lab.value].blurb))}</i>"
            if self.shown_signal is not None and self.shown_signal.shown:  # the learner picked: build it ahead
                self._build_labs_ahead(PICK_PAUSE)

    # ------------------------------------------------------------------ labs built ahead (issue 31)
    def _key(self, entry: LabEntry) -> tuple:
        """What a lab built ahead must match to be opened: the lab, the seed it deals from, the mode."""
        return (entry, self.shared_seed, self.fair)

    @in_own_language  # a lab built ahead speaks the learner's language too
    def _build_ahead(self, key: tuple) -> Lab | None:
        entry, seed, fair = key
        return None if entry.cls in NEVER_AHEAD else entry.build(seed, fair=fair)

    def _ahead(self) -> list[LabEntry]:
        """The labs to have ready now: the one chosen in the list, then the game's first lab that deals cards."""
        entries = self.entries()
        chosen = [entries[self.lab.value]] if self.lab.value is not None and self.lab.value < len(entries) else []
        dealing = [e for e in entries if e.cls not in NEVER_AHEAD | {"RulesTutorial", "RulesPage"}][:1]
        return chosen + dealing

    def _build_labs_ahead(self, delay: float = 0.0) -> None:
        if self.ready_labs is not None:
            self.ready_labs.want([self._key(e) for e in self._ahead()], delay)

    def _chooser_shown(self) -> None:
        """The page has drawn the chooser and the browser is idle: build the first labs ahead (unless a lab was
        opened already: the learner is playing, and the kernel is theirs)."""
        if self.stage.children == (self.start_hint,):
            self._build_labs_ahead()

    def open(self, game: str | None = None, lab: str | None = None, seed: int | None = None) -> Lab | None:
        """Open a lab (by default the one chosen in the widgets); returns it."""
        if game is not None:
            self.game.value = game
        if lab is not None:
            titles = [e.title for e in self.entries()]
            if lab not in titles:
                raise ValueError(f"no lab {lab!r} for {self.game.value}; choose one of {titles}")
            self.lab.value = titles.index(lab)
        if seed is not None:  # in the app: switch the shared class seed on with this seed
            setting = self.class_seed_setting
            if self.fair and setting == "off":
                raise ValueError(f"the shared class seed is switched off on this server ({CLASS_SEED_ENV}=off)")
            if self.fair and isinstance(setting, int) and int(seed) != setting:
                raise ValueError(f"this server fixes the class seed to {setting} ({CLASS_SEED_ENV})")
            self.seed.value = int(seed)
            self.shared.value = True
        return self._open()

    @guarded
    def _open(self) -> Lab | None:
        entry = self.entries()[self.lab.value]
        # built ahead for this lab and this seed, never shown: used once (else built now, as before); nothing
        # more is built ahead while the learner starts on it
        ready = None
        if self.ready_labs is not None:
            self.ready_labs.want([])
            ready = self.ready_labs.take(self._key(entry))
        if ready is None:
            self.stage.children = [W.HTML("<p>" + html.escape(_("Opening {lab}…").format(lab=_(entry.title))) + "</p>")]
        try:
            self.current = ready if ready is not None else entry.build(self.shared_seed, fair=self.fair)
        except ModuleNotFoundError as exc:
            missing = data_package_missing(exc)
            if missing is None:
                raise
            # issue 13: the play path needs neither; the Simulation lab needs numpy. Say so in the words the
            # offline site's lessons use (issue 18), and that the other labs work.
            # online, numpy may still be loading in the background (site-src/safari_site/later.py): the lab
            # then opens by itself when it is there, if the learner is still on it
            self.current = None
            self.show_status(needs_package(missing, _("The {lab} lab").format(lab=_(entry.title))) + " "
                             + _("Every other lab works here."))
            when_loaded(missing, lambda: self._reopen(entry.title))
            return None
        self.current.use_recorder(self.join.recorder, opening=True, download=self.join.download)
        self.stage.children = [self.current.layout]
        # at least a window tall: a lab whose top was scrolled to the window's top stays there when its log
        # gets shorter during a turn (the browser would otherwise pull the whole page down by the difference)
        self.stage.layout.min_height = "100vh"
        return self.current

    def _joined(self, recorder) -> None:
        """The learner joined: the lab open now records too (labs opened later get the recorder on opening)."""
        if self.current is not None:
            self.current.use_recorder(recorder, download=self.join.download)

    def _reopen(self, title: str) -> None:
        """Open the lab ``title`` again if the learner is still on it and it did not open (see _open)."""
        if self.current is None and self.entries()[self.lab.value].title == title:
            self._open()

    def show_status(self, text: str, kind: str = "info") -> None:
        self.stage.children = [W.HTML(f"<p style='color:#a00'>{html.escape(text)}</p>")]

    def _repr_mimebundle_(self, **kwargs):
        data = self.widget._repr_mimebundle_(**kwargs)
        return data[0] if isinstance(data, tuple) else data
