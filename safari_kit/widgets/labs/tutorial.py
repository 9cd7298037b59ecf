"""RulesTutorial: a scripted game of either kind, step by step, each rule explained as it happens.

The script (the exact set-up, the actions and the explanation of each step)
is data in :mod:`safari_kit.tutorial.tutorials`; the engine plays every
action, so what the table shows is what the rules did. Next / Back / Restart
move through the steps; at each step the lab shows the table from the
learner's seat (seat 0 by default), the explanation with its rulings (W4,
K3, ...), each opening on its text in a learner's words, the section of that game's learners' rules page
(:mod:`safari_kit.tutorial.learner_rules`; docs/rules.md is the developers' text), with the page's name to
read it whole (inline, not a link: a link in a widget resolves against the page's address, which no one path
fits in JupyterLab, Voilà and the static site), a line of facts
read from the engine, and
the faces of the cards turned face up in that step (public, or the learner's
own TOM look).

**The quiz** (issue 21; issue 27: it sits right under Back / Next, in a box named "Quiz: question n of N",
because under the cards it fell below a 768 px window in the app and nobody found it; the first step says how
many questions come). At a few steps a multiple-choice question asks what the next step will do under
the rules (:mod:`safari_kit.tutorial.tutorial_quiz`: every right answer is read from the engine, and a question
names only what the learner's seat knows then). A choice button answers it: the lab says "Right" or "Not
quite" with the ruling's one-sentence why (under the question, in green or red, and to a screen reader), and
marks the buttons ✓ / ✗ (answered, they are off: ipywidgets greys a disabled button's colour away, so the
marks are the cue there, not a colour); Next goes on, answered or not (a skipped question records nothing).
Once the learner joined the class experiment, the first answer to each question is recorded
(``quiz_answer``; the lab's records are ``tutorial-witness`` / ``tutorial-knockout``); a second click on
an answered question changes and records nothing, and Restart keeps the answers (shown again, not asked
again). The quiz is asked from the script's learner's seat only (another ``viewer`` watches without it:
the questions say "you").

>>> lab = RulesTutorial("knockout")
>>> lab.step, lab.steps
(0, 8)
>>> lab.next_button.click(); lab.step
1
"""
from __future__ import annotations

import html

import ipywidgets as W

from safari_kit.core.i18n import _, language
from safari_kit.presentation.card_words import mugshot_elements
from safari_kit.widgets.labs.base import Lab, guarded
from safari_kit.widgets.table import CardTable


def _script(game: str):
    # the scripts are teaching data (one layer up); imported here, at the edge, on demand
    from safari_kit.tutorial import tutorials as tutorials

    return tutorials.script(game)


def _quiz(script) -> dict:
    from safari_kit.tutorial.tutorial_quiz import questions_by_step

    return questions_by_step(script)


#: the most choices a question has (tutorial_quiz.Question allows 2 to 4): one button each
MAX_CHOICES = 4


class RulesTutorial(Lab):
    """Play a scripted Safari Witness or Safari Knockout game step by step, with the rules explained.

    ``game``: ``"witness"`` or ``"knockout"``. ``viewer``: the seat whose view the
    table shows (default: the learner's seat of the script, 0).
    """

    def __init__(self, game: str = "witness", viewer: int | None = None):
        self.script = _script(game)
        self.game_name = game
        self.title = self.script.title
        self.viewer = self.script.viewer if viewer is None else int(viewer)
        self.record_lab = f"tutorial-{self.script.game}"  # issue 21: the quiz answers' lab in the class records
        #: the quiz by the step it is asked at; none from another seat (its words speak to the learner's seat)
        self.questions = _quiz(self.script) if self.viewer == self.script.viewer else {}
        #: the same quiz in English: the class records keep the answer's English words (issue 30)
        with language("en"):
            self._english_questions = _quiz(self.script) if self.questions else {}
        #: question id -> index of the learner's first answer (kept over Restart: one answer per question)
        self.answers: dict[str, int] = {}
        super().__init__(seed=self.script.setup.get("seed", 0))
        # the script fixes the whole game: no seed to choose; Reset is the Restart button
        self.seed_box.layout.display = "none"
        self.reset_button.description = _("Restart")
        self.reset_button.tooltip = _("Back to the first step")
        self.back_button = W.Button(description=_("Back"), tooltip=_("The previous step"))
        self.next_button = W.Button(description=_("Next"), tooltip=_("The next step"),
                                    button_style="primary")
        self.back_button.on_click(lambda _b: self.back())
        self.next_button.on_click(lambda _b: self.next())
        self.counter = W.HTML()
        self.intro = W.HTML(f"<i>{html.escape(_(self.script.intro))}</i>")
        self.step_title = W.HTML()
        self.table = CardTable(game=self.script.game)
        self.explanation = W.HTML(layout=W.Layout(max_width="820px"))
        self.facts = W.HTML()
        self.revealed = W.HTML()
        self.quiz_text = W.HTML()
        self.quiz_buttons = [W.Button(layout=W.Layout(width="auto", max_width="100%")) for _ in range(MAX_CHOICES)]
        for i, b in enumerate(self.quiz_buttons):
            b.on_click(lambda _b, i=i: self.answer(i))
        self.quiz_result = W.HTML()
        self.quiz_box = W.VBox([self.quiz_text,
                                W.HBox(self.quiz_buttons, layout=W.Layout(flex_flow="row wrap")),
                                self.quiz_result],
                               layout=W.Layout(border="2px solid #c77d12", padding="2px 8px", margin="4px 0"))
        self.quiz_box.add_class("safari-tutorial-quiz")
        for b, w in ((self.back_button, "80px"), (self.next_button, "90px"), (self.reset_button, "90px")):
            b.layout.width = w
        # Restart beside Back/Next; the step's words beside the table (a step is read without scrolling)
        controls = W.HBox([self.back_button, self.next_button, self.reset_button, self.counter])
        # issue 27: the quiz right under Next, named "Quiz" (under the cards it sat below a 768 px screen in the
        # app, and nobody found it; after the step's words it fell below too): the step's words follow it
        self.arrange(main=[self.table],
                     side=[controls, self.quiz_box, self.step_title, self.explanation, self.facts, self.revealed],
                     below=[self.intro])
        self.explanation.layout.max_width = "100%"
        self.layout.children = [self.header, self.body, self.live]  # live: what a screen reader is told
        self.layout.add_class("safari-tutorial")
        self.step = 0
        self._states: list = []
        self.reset()

    # ------------------------------------------------------------------ navigation
    @property
    def steps(self) -> int:
        return len(self.script.steps)

    @property
    def state(self):
        """The engine state shown now (after the current step's actions)."""
        return self._states[self.step]

    @guarded
    def _reset(self) -> None:
        self._states = self.script.states()  # replayed through the engine every time
        self._show(0)

    @guarded
    def next(self) -> None:
        if self.step >= self.steps - 1:
            self.show_status(_("This is the last step. Press Restart to watch it again."), kind="info")
            return
        self._show(self.step + 1)

    @guarded
    def back(self) -> None:
        if self.step <= 0:
            self.show_status(_("This is the first step."), kind="info")
            return
        self._show(self.step - 1)

    @property
    def question(self):
        """The quiz question asked at the step shown now (about the next step), or None."""
        return self.questions.get(self.step)

    @guarded
    def answer(self, choice: int) -> None:
        """Answer the question of this step with choice ``choice`` (0-based; what a choice button does)."""
        q = self.question
        if q is None:
            self.show_status(_("There is no question at this step: press Next."), kind="info")
            return
        if q.id in self.answers:
            return  # answered already: a second answer changes nothing and records nothing
        if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < len(q.choices):
            self.show_status(_("There is no choice {choice}: the choices are 0 to {last}.").format(
                choice=repr(choice), last=len(q.choices) - 1), kind="bad")
            return
        self.answers[q.id] = choice
        right = choice == q.correct
        english = self._english_questions.get(self.step, q)
        self.record("quiz_answer", question=q.id, answer=english.choices[choice], correct=right)
        self._show_quiz(q)
        # the why is under the question; the status line says the verdict, a screen reader hears it all
        self.show_status((_("Right! The reason is under the question. Press Next to see it happen.") if right else
                          _("Not quite: the right answer is marked ✓. The reason is under the question. Press Next "
                            "to see it happen.")), kind="good" if right else "bad",
                         spoken=self._verdict(q) + " " + _("Press Next to see it happen."))

    @guarded
    def go(self, k: int) -> None:
        """Jump to step ``k`` (0-based)."""
        if not isinstance(k, int) or not 0 <= k < self.steps:
            self.show_status(_("There is no step {k}: the steps are 0 to {last}.").format(
                k=repr(k), last=self.steps - 1), kind="bad")
            return
        self._show(k)

    # ------------------------------------------------------------------ drawing
    def _show(self, k: int) -> None:
        from safari_kit.tutorial import learner_rules, tutorials

        self.step = k
        step = self.script.steps[k]
        state = self._states[k]
        before = self._states[k - 1] if k else None
        title = _(step.title)
        self.table.show(state, self.viewer, selectable=[], message=_("Step {k}: {title}").format(k=k + 1, title=title),
                        highlight=self._highlight(before, state))
        self.table.set_notes(self._look_notes(before, state))
        self.counter.value = "<b>" + _("Step {k} of {n}").format(k=k + 1, n=self.steps) + "</b>"
        self.step_title.value = f"<h4 style='margin:6px 0'>{html.escape(title)}</h4>"
        badges = []
        for code in step.rulings:
            name, summary = (_(w) if w else w for w in tutorials.RULINGS.get(code, (code, "")))
            where = html.escape(learner_rules.page_pointer(code))
            # the ruling in a learner's words opens in place (no link: see the module's docstring)
            badges.append(f"<li><details class='safari-ruling' data-ruling='{html.escape(code)}'>"
                          f"<summary style='cursor:pointer'><b>{html.escape(code)}</b> {html.escape(name)}: "
                          f"{html.escape(summary)}</summary><div class='safari-ruling-text' style='font-size:13px;"
                          f"border-left:3px solid #9bb;padding-left:8px'>{learner_rules.ruling_html(code)}"
                          f"<p class='safari-ruling-page'><i>{where}</i></p></div></details></li>")
        self.explanation.value = (f"<div class='safari-tutorial-text' style='font-size:14px;line-height:1.5'>"
                                  f"<p>{html.escape(self.script.explain(k))}</p>"
                                  "<p style='margin-bottom:2px'>"
                                  + _("<b>Rules used in this step</b> (click one to read it):") + "</p>"
                                  f"<ul style='margin-top:2px'>{''.join(badges)}</ul></div>")
        self.facts.value = f"<div style='color:#345'>{html.escape(self._facts(state))}</div>"
        self.revealed.value = self._revealed_html(before, state)
        self.back_button.disabled = k == 0
        self.next_button.disabled = k == self.steps - 1
        q = self.question
        self._show_quiz(q)
        status = (_("The end of the tutorial: press Restart to watch it again.") if k == self.steps - 1
                  else _("Press Next for the next step."))
        if k == 0 and self.questions:  # say at the start that quiz questions come (issue 27: nobody found them)
            status += " " + _("On the way, {n} quiz questions ask what happens next.").format(n=len(self.questions))
        asked = ""
        if q is not None and q.id not in self.answers:
            status = _("Quiz: a question about the next step. Choose an answer, or press Next to skip it.")
            number = sorted(self.questions).index(k) + 1
            asked = " " + _("Quiz question {number} of {n}: {text} Choices: {choices}.").format(
                number=number, n=len(self.questions), text=q.text, choices="; ".join(q.choices))
        elif q is not None:
            asked = " " + _("You answered this step's question: {verdict}").format(verdict=self._verdict(q))
        # said: the step a sighted learner reads beside the table (issue 20), then the question
        self.show_status(status, kind="info",
                         spoken=_("Step {k} of {n}: {title}.").format(k=k + 1, n=self.steps, title=title)
                         + f" {self.script.explain(k)}{asked} {status}")

    def _verdict(self, q) -> str:
        """What the learner's answer to ``q`` earned, in words (never colour alone): Right / Not quite, and why."""
        if self.answers[q.id] == q.correct:
            return _("Right: {why}").format(why=q.why)
        return _("Not quite: the answer is \u201c{answer}\u201d. {why}").format(answer=q.answer, why=q.why)

    def _show_quiz(self, q) -> None:
        """The question of this step with its choice buttons, or nothing; once answered, its result (buttons
        off, the right one marked ✓ and a wrong answer ✗; the verdict in words as well as colour)."""
        if q is None:
            self.quiz_box.layout.display = "none"
            for b in self.quiz_buttons:
                b.disabled = True
            return
        self.quiz_box.layout.display = None
        chosen = self.answers.get(q.id)
        number = sorted(self.questions).index(self.step) + 1
        self.quiz_text.value = ("<div class='safari-quiz-question' style='font-size:14px;line-height:1.4'>"
                                "<div style='color:#8a4b00;font-weight:bold'>"
                                + _("Quiz: question {number} of {n}").format(number=number, n=len(self.questions))
                                + "</div><b>" + _("What happens next?") + f"</b> {html.escape(q.text)}</div>")
        for j, b in enumerate(self.quiz_buttons):
            if j >= len(q.choices):
                b.layout.display, b.disabled, b.description = "none", True, ""
                continue
            label = q.choices[j]
            mark = "" if chosen is None else "\u2713 " if j == q.correct else "\u2717 " if j == chosen else ""
            b.description = mark + label
            b.tooltip = (_("Answer: {label}").format(label=label) if chosen is None
                         else _("the right answer") if j == q.correct else _("your answer") if j == chosen else "")
            b.disabled = chosen is not None
            b.layout.display = None
        if chosen is None:
            self.quiz_result.value = ("<div style='color:#555;font-size:13px;line-height:1.4'>"
                                      + _("Choose an answer, or press Next to skip the question.") + "</div>")
        else:
            color = "#1b7f3b" if chosen == q.correct else "#a33"
            self.quiz_result.value = (f"<div class='safari-quiz-result' style='color:{color};font-size:14px;"
                                      f"line-height:1.4;padding:2px 0'>"
                                      f"{html.escape(self._verdict(q))}</div>")

    def _facts(self, state) -> str:
        """Numbers read from the engine for this step (nothing hidden from the viewer)."""
        obs = state.observation(self.viewer)
        if self.script.game == "witness":
            archives = ", ".join(_("Player {p}: {n}").format(p=p, n=len(a)) for p, a in enumerate(obs.archives))
            text = _("Deck: {deck} cards · Unidentified Area: {area} cards · Archives: {archives}").format(
                deck=obs.deck_count, area=len(obs.unidentified), archives=archives)
            if obs.end_reason:
                text += " · " + (_("Game over (an archive reached 10)") if obs.end_reason == "archive"
                                 else _("Game over (the deck ran out)"))
            return text
        scores = ", ".join(_("Player {p}: {n}").format(p=p, n=s) for p, s in enumerate(obs.scores))
        out = ", ".join(_("Player {seat}").format(seat=p) for p in obs.out) or _("nobody")
        return _("Round {round} of {rounds} ({cards} cards each) · Scores: {scores} · Out: {out}").format(
            round=obs.round, rounds=obs.rounds, cards=obs.cards_per_player, scores=scores, out=out)

    def _highlight(self, before, state) -> list[dict]:
        """Places touched in this step (Witness) or the card that won the last turn (Knockout)."""
        marks = []
        if self.script.game == "witness":
            start = 0 if before is None else len(before.log)
            places = set()
            for event, _, _ in state.log[start:]:
                if event["kind"] in ("identify", "challenge_reveal", "tom"):
                    places.add(event["place"])
                elif event["kind"] == "fail":  # every card of the failed turn is face up now
                    places.update(m["place"] for m in event["to_places"])
                    places.update(e["place"] for e, _, _ in state.log
                                  if e["turn"] == event["turn"] and e["kind"] in ("identify", "challenge_reveal"))
            marks = [{"kind": "place", "id": p} for p in sorted(places) if p in state.places]
        else:
            done = 0 if before is None else before.turns_played
            new = state.completed_turns[done:]
            if new:
                last = new[-1]
                seat_card = dict((s, c) for s, c in last["plays"])
                marks = [{"kind": "card", "id": seat_card[last["winner"]]}]
        from safari_kit.presentation.views import view_for

        view = view_for(state, self.viewer)
        visible = set(view.get("cards", {}))
        places = {p["place"] for p in view.get("places", [])}
        return [m for m in marks if (m["kind"] == "card" and m["id"] in visible)
                or (m["kind"] == "place" and m["id"] in places)]

    def _look_notes(self, before, state) -> dict:
        """Under a face-down place the viewer looked at in this step (TOM), what they saw: the card stays face
        down, but the step's words name it, so the table says it where it lies. Read from the viewer's own
        observation (another seat's look has no card in it)."""
        if self.script.game != "witness":
            return {}
        obs = state.observation(self.viewer)
        start = 0 if before is None else len(before.log)
        notes = {}
        for event in obs.log[start:]:
            if event["kind"] == "tom" and "card" in event and event["place"] in state.places:
                card = state.game.cards[state.game.index[event["card"]]]
                notes[("place", event["place"])] = _("you saw:\n{color} {animal}\n({name})").format(
                    **mugshot_elements(card))
        return notes

    def _turns_html(self, before, state) -> str:
        """Knockout: the turns finished in this step, in words (an earlier round's turn is no longer on the
        table: its cards were dealt again)."""
        done = 0 if before is None else before.turns_played
        new = state.completed_turns[done:]
        if not new:
            return ""
        from safari_kit.presentation.card_words import pal_name
        from safari_kit.presentation.numbers import decimal
        from safari_kit.presentation.views import ITEM_SHORT, ITEM_UNITS

        def short(v: float) -> str:  # as short as it is (88, 0.5), in the learner's language (0,5)
            return decimal(v, len(f"{v:g}".partition(".")[2]))

        game = state.game
        rows = []
        for t in new:
            item = t["item"]
            plays = ", ".join(_("{who}: {card} ({value} {unit})").format(
                who=_("you") if s == self.viewer else _("Player {seat}").format(seat=s),
                card=html.escape(pal_name(game.by_id[c])), value=short(float(game.by_id[c].value(item))),
                unit=_(ITEM_UNITS[item])) for s, c in t["plays"])
            won = _("you") if t["winner"] == self.viewer else _("Player {seat}").format(seat=t["winner"])
            rows.append("<li>" + _("Round {round}, {item}: {plays}; won by <b>{won}</b>").format(
                round=t["round"], item=ITEM_SHORT[item].lower(), plays=plays, won=won) + "</li>")
        return ("<div class='safari-tutorial-turns'><b>" + _("Turns finished in this step") + "</b>"
                f"<ul style='margin:2px 0'>{''.join(rows)}</ul></div>")

    def _revealed_html(self, before, state) -> str:
        """The faces turned up in this step, read from the viewer's own observation log (Witness); the
        turns finished in this step (Knockout)."""
        if self.script.game != "witness":
            return self._turns_html(before, state)
        from safari_kit.cards.html import mugshot_html

        obs = state.observation(self.viewer)
        start = 0 if before is None else len(before.log)
        game = state.game
        shown, cards = set(), []
        for event in obs.log[start:]:
            kind = event["kind"]
            ids = []
            if kind in ("identify", "challenge_reveal", "kris") or (kind == "tom" and "card" in event):
                ids = [event["card"]]
            elif kind == "fail":  # the whole failed turn: earlier successful pairs too
                ids = [e["card"] for e in obs.log if e["turn"] == event["turn"]
                       and e["kind"] in ("identify", "challenge_reveal")]
                ids += [m["card"] for m in event["to_places"]]
            for cid in ids:
                if cid not in shown:
                    shown.add(cid)
                    cards.append(game.cards[game.index[cid]])
        if not cards:
            return ""
        return ("<div>" + (_("<b>Turned face up in this step</b> (seen by you only):")
                           if any(e["kind"] == "tom" for e in obs.log[start:])
                           else _("<b>Turned face up in this step</b> (seen by everybody):")) + "<br>"
                + "".join(mugshot_html(c) for c in cards) + "</div>")
