"""Full game lab: a whole Safari Witness game, against bots or hot-seat for several learners.

Every legal action is reachable by clicking the card table:

* **choose**: Identify / Reveal another / Challenge buttons;
* **identify**: a clue card (picked for you when only one is left), a clue-type
  button, then a face-down place: the lab assembles the ``Declare``;
* **challenge**: places to reveal, Stop and archive;
* **archive**: the card that goes on top;
* **abilities** (Advanced Mode): ``use:<NAME>`` buttons, then the targets of
  that ability (:func:`~safari_kit.presentation.views.selectable_from_legal` with
  ``ability=NAME``): TOM one place, SAM two places, TAM two spots (places or
  archive cards), KIM an archived card, KRIS an element from the dropdown and a
  place; ALAN takes archived cards, then "ALAN: identify now"; End turn.

A wrong click is answered with the engine's own ``why_illegal`` sentence.

**Hot-seat** (``humans=(0, 1, 2)``): between two different human players a
"pass the device" screen hides the table. The table widget is *closed* (so its
model, holding the last player's view, leaves the page) and the next table is
built only after the next player presses "I am player N". Each table shows one
seat's observation, and the lab's own panels (what happened since your last
turn, your TOM looks) are built from that seat's observation only.

Bots (registry specs such as ``"greedy"``, ``"random"``, ``"memory:0.5"``)
play the other seats at once, each seeing only its own observation.

**Records** are saved to and loaded from the records folder only
(:mod:`safari_kit.core.record_files`: a bare name such as ``my-game.json``;
anything else is refused and no other file is read or written). A record holds
the seed and every action, so a record of an unfinished game shows every
hidden card. In **fair mode** (the classroom app): Save works once the game is
over; Load is refused while a game is in progress (from the learners' first
move or device pass until the end) and loads finished games only; a saved
name gets a server-chosen ending (``my-game-k3f9x.json``: nobody can take a
name before another learner needs it) and counts against the records quota;
a record that does not replay is refused without quoting it; and every
press of "I am player N" is written in the *Device passes* line that the
whole table sees, which neither New game nor Load clears (repeat presses fold
into one line with a count, so the first opening is never pushed out). The
press counts only for a learner's seat while the pass screen waits for it: a
crafted click on the hidden button at any other moment (a bot's failed turn)
changes nothing.

The flow (seats, bots, hot-seat passes, clicks, turns) is
:class:`~safari_kit.presentation.fullgame_flow.FullGameFlow`, the page's words
:mod:`safari_kit.presentation.fullgame_text`, both without widgets (issue 28); this module is the layout.

>>> lab = FullGameLab(seed=3, players=2, humans=(0,), bots="greedy")  # the bots play to the learner's turn
>>> lab.state.current_player in (0, None) or lab.state.is_terminal()
True
"""
from __future__ import annotations

import html
import logging
from typing import Sequence

import ipywidgets as W

from safari_kit.presentation import fullgame_text as T
from safari_kit.presentation.fullgame_flow import BOT_CHOICES, PLAYERS, FullGameFlow, bot_words, parse_humans
from safari_kit.core.i18n import N_, _
from safari_kit.presentation.card_words import named_element
from safari_kit.widgets.labs.base import Lab, guarded, in_own_language
from safari_kit.widgets.labs.fullgame_records_ui import RECORD_TEXT_LIMIT, RecordControls  # noqa: F401
from safari_kit.widgets.labs.fullgame_spoken import SpokenTurns
from safari_kit.widgets.labs.limits import bounded_int, pin_range
from safari_kit.witness.state import KRIS_ELEMENTS

__all__ = ["FullGameLab"]
log = logging.getLogger("safari_kit.widgets")

#: what the lab reads from its flow as its own (``lab.state``, ``lab._pause``, ...): the names tests, the spoken
#: mixin and notebooks have always used (lab name -> flow name)
_FROM_FLOW = {**{k: k for k in ("game", "state", "humans", "bot_specs", "bots", "bot_log", "viewer", "passes",
                                "in_progress")},
              "_pause": "pause", "_seen": "seen", "_pick": "pick", "_ability": "ability", "_spots": "spots",
              "_games": "games", "_touched": "touched", "_waiting_for": "waiting_for", "_face": "face",
              "_reveal_words": "reveal_words", "_tom_words": "tom_words", "_phase_line": "phase_line", "_hint": "hint",
              "_clear_pick": "clear_pick", "_opening_words": "opening_words"}


class FullGameLab(SpokenTurns, RecordControls, Lab):
    """A whole Witness game with any options; ``humans`` are the seats played by learners.

    ``bots``: one registry spec for every bot seat, or a sequence with one spec
    per bot seat (in seat order). ``lab.state`` is the engine state,
    ``lab.viewer`` the seat whose view is on screen (None on the pass screen),
    ``lab.table`` the card table (None on the pass screen).
    Methods a test or a teacher may call: :meth:`click`, :meth:`press`,
    :meth:`confirm_player`, :meth:`save_record`, :meth:`load_record`.
    ``lab.passes`` lists every "I am player N" press (game, turn, seat, time).
    """

    title = N_("Full game: Safari Witness")

    def __init__(self, seed: int | None = 1, players: int = 3, case_module: bool = False, advanced: bool = False,
                 humans: Sequence[int] = (0,), bots="greedy", first_player: int | None = None,
                 *, fair: bool = False):
        self.flow = FullGameFlow()
        super().__init__(seed, fair=fair)
        self.players_box = W.IntSlider(value=players, min=PLAYERS[0], max=PLAYERS[1], description=_("Players"),
                                       continuous_update=False, style={"description_width": "initial"},
                                       layout=W.Layout(width="260px", min_width="220px"))
        self.case_box = W.Checkbox(value=bool(case_module), description=_("Case Module"), indent=False,
                                   tooltip=_("Each player gets a secret Case Card that scores extra points."),
                                   layout=W.Layout(width="auto", min_width="130px"))  # as wide as its words
        self.advanced_box = W.Checkbox(value=bool(advanced), description=_("Advanced Mode"), indent=False,
                                       tooltip=_("Name abilities on: after a win, a card's name (TOM, SAM, "
                                                 "KIM, ...) gives you a special move."),
                                       layout=W.Layout(width="auto", min_width="140px"))
        # Learners: one toggle per seat (pressed = a learner plays it; the others are bots). Bots: a picker of
        # the registered bots; a spec given in Python (e.g. "greedy,random") is added as an option.
        self.learner_picker = W.HBox()
        self.learner_picker.add_class("safari-learners")
        self._learner_seats = tuple(humans)
        bot_text = bots if isinstance(bots, str) else ",".join(bots)
        choices = [(_(words), spec) for spec, words in BOT_CHOICES]
        if bot_text not in [spec for _, spec in choices]:
            choices.append((bot_words(bot_text), bot_text))
        self.bots_box = W.Dropdown(options=choices, value=bot_text, description=_("Bots"),
                                   style={"description_width": "initial"},
                                   layout=W.Layout(width="380px", max_width="calc(100% - 4px)"))  # margins
        self.bots_box.add_class("safari-bots")
        self.layout.add_class("safari-fullgame-lab")
        self.new_button = W.Button(description=_("New game"), tooltip=_("Start a new game with these options"),
                                   layout=W.Layout(width="auto", min_width="110px"))
        self.new_button.on_click(lambda _b: self.reset(self.seed_box.value))
        pin_range(self.players_box, *PLAYERS)  # issue 19: a page's {"max": 1000000} is put back
        self.players_box.observe(lambda _c: self._on_players(), names="value")
        self._draw_learner_picker()
        # each row wraps when its words are longer than the side panel (Spanish, the pseudo-locale: issue 30)
        wrap = W.Layout(flex_flow="row wrap")
        options = W.VBox([W.HBox([self.players_box, self.case_box, self.advanced_box], layout=wrap),
                          W.HBox([W.HTML("<b style='margin:0 6px 0 4px'>" + html.escape(_("Learners:")) + "</b>"),
                                  self.learner_picker], layout=wrap),
                          W.HBox([self.bots_box, self.new_button], layout=wrap)])
        self.kris_box = W.Dropdown(options=[(named_element(e), e) for e in KRIS_ELEMENTS],
                                   description=_("KRIS element"), style={"description_width": "initial"},  # never cut
                                   layout=W.Layout(width="260px"))
        self.picked = W.HTML()
        self.events = W.HTML()
        self.private = W.HTML()
        self.pass_label = W.HTML()
        self.confirm_button = W.Button(description=_("I am player 0"), button_style="warning")
        self.confirm_button.on_click(lambda _b: self.confirm_player())
        self.pass_screen = W.VBox([self.pass_label, self.confirm_button],
                                  layout=W.Layout(padding="24px", border="2px dashed #c90"))
        self.over = W.HTML()
        self.pass_log = W.HTML()
        self.pass_log.add_class("safari-passes")
        self.records = self._build_records()
        self.game_area = W.VBox()
        self.players_box.layout.width = "230px"
        self.arrange(main=[self.game_area], side=[options, self.records, self.pass_log])

        self.table = None
        self.go_on_button = W.Button(description=_("Next turn"), button_style="warning")
        self.go_on_button.on_click(lambda _b: self._go_on_clicked())
        self._first_player = first_player
        self.reset(self.seed)

    def __getattr__(self, name: str):
        if name in _FROM_FLOW and "flow" in self.__dict__:
            return getattr(self.flow, _FROM_FLOW[name])
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # ------------------------------------------------------------------ set-up
    @guarded
    def _reset(self) -> None:
        from safari_kit.witness import WitnessGame

        humans = parse_humans(self.learner_seats, self._players())
        game = WitnessGame(players=self._players(), case_module=self.case_box.value,
                           advanced=self.advanced_box.value, first_player=self._first_player)
        self._start(game, game.new_initial_state(seed=self.seed), humans)

    # ------------------------------------------------------------------ the learners' seats
    def _players(self) -> int:
        """The Players slider's value within the server's range (never trusting a synced min/max)."""
        return bounded_int(self.players_box.value, *PLAYERS, 3)

    @property
    def learner_seats(self) -> tuple[int, ...]:
        """The seats learners play (the pressed toggles); every other seat is a bot."""
        return tuple(sorted(self._learner_seats))

    @learner_seats.setter
    def learner_seats(self, seats) -> None:
        seats = tuple(sorted({int(x) for x in (str(seats).replace(" ", "").split(",") if isinstance(seats, str)
                                                  else seats) if str(x) != ""}))
        self._learner_seats = seats
        self._draw_learner_picker()

    def _draw_learner_picker(self) -> None:
        players = self._players()
        toggles = []
        for seat in range(players):
            t = W.ToggleButton(value=seat in self._learner_seats, description=_("Player {seat}").format(seat=seat),
                               tooltip=_("Pressed: a learner plays seat {seat}; not pressed: a bot does").format(
                                   seat=seat),
                               layout=W.Layout(width="auto", min_width="86px"))
            t.add_class("safari-learner-seat")
            t.observe(lambda c, seat=seat: self._on_learner_toggle(seat, c["new"]), names="value")
            toggles.append(t)
        self.learner_picker.children = toggles

    @in_own_language
    def _on_players(self) -> None:
        players = self._players()
        self._learner_seats = tuple(x for x in self._learner_seats if x < players)
        self._draw_learner_picker()

    @in_own_language
    def _on_learner_toggle(self, seat: int, on: bool) -> None:
        seats = set(self._learner_seats)
        (seats.add if on else seats.discard)(seat)
        self._learner_seats = tuple(sorted(seats))

    _parse_humans = staticmethod(parse_humans)

    def _start(self, game, state, humans) -> None:
        self.flow.start(game, state, humans, self.bots_box.value)
        self._close_table()
        self.record_box.layout.display = "none"
        self.record_box.value = ""
        with self._one_sentence(since=len(state.log)):  # said: the bots' turns before the learner's first
            self._lead = (_("New game: {players} players.").format(players=game.players), "start")
            self._advance(opening=True)
        self._update_pass_log()

    # ------------------------------------------------------------------ the flow's screens
    def _advance(self, opening: bool = False) -> None:
        """Let bots play until a learner must act or the game ends (:meth:`FullGameFlow.advance`); show it."""
        screen = self.flow.advance(opening)
        if screen.kind == "bot_failed":
            self._show_bot_failure()
        elif screen.kind == "over":
            self._show_over()
        elif screen.kind == "pass":
            self._show_pass(screen.seat)
        else:
            self._render(screen.message)
        self._update_record_controls()

    def _show_bot_failure(self) -> None:
        """A bot's failed turn: its cards lie face up; the learner looks, then presses go on."""
        text, shown = self.flow.bot_failure()
        if shown is not None:  # several learners and nobody at the screen yet: show only the public cards
            self.pass_label.value = T.bot_failure_html(self.flow, text, shown)
            self.game_area.children = [self.pass_label, self.go_on_button]
        else:
            self._render(text)
        self.show_status(text)

    def _go_on_clicked(self) -> None:
        with self._one_sentence():
            self._go_on_guarded()

    @guarded
    def _go_on_guarded(self) -> None:
        if self.flow.pause is not None:
            self._go_on()

    def go_on(self) -> None:
        """Press "go on" after a pause (a bot's failed turn on the table, or your TOM look)."""
        if self.table is not None:
            self.press("go_on")
        else:
            self._go_on_clicked()

    def _go_on(self) -> None:
        """After a pause (a bot's failure, a TOM look): turn the cards down if needed and play on."""
        lead = self.flow.go_on()
        if lead is not None:
            self._lead = lead
        self._advance()

    def _show_pass(self, seat: int) -> None:
        """The hot-seat screen: the table widget is closed, so its model (the last seat's view) leaves the page."""
        self._close_table()
        self.events.value = ""
        self.private.value = ""
        self.picked.value = ""
        self.pass_label.value = T.pass_html(seat)
        self.confirm_button.description = _("I am player {seat}").format(seat=seat)
        self.game_area.children = [self.pass_screen]
        self.show_status(_("Waiting for Player {seat}.").format(seat=seat))

    def confirm_player(self, seat: int | None = None) -> None:
        """The next learner says "I am player N": only now is their table built (and said: what the other
        players did since this seat's last turn, then the turn's start)."""
        flow = self.flow
        current = flow.state.current_player if flow.state is not None else None
        opening = current in flow.humans and flow.waiting_for == current and flow.viewer != current
        since = flow.seen.get(current, 0) if opening else None
        with self._one_sentence(since=since, looker=current if since is not None else None):
            self._confirm_player(seat)

    @guarded
    def _confirm_player(self, seat: int | None = None) -> None:
        done = self.flow.confirm(seat)
        if done == "refused":
            self.show_status(_("It is Player {current_player}'s turn, not Player {seat}'s.").format(
                current_player=self.flow.state.current_player, seat=seat),
                             kind="bad")
        if done not in ("repeat", "open"):
            return
        self._update_pass_log()
        self._update_record_controls()
        if done == "open":
            self._render()

    def _update_pass_log(self) -> None:
        self.pass_log.value = T.passes_html(self.flow)

    def _close_table(self) -> None:
        if self.table is not None:
            self.table.on_click(self._on_table_click, remove=True)
            self.table.close()
            self.table = None

    def _new_table(self, viewer: int):
        from safari_kit.widgets import CardTable

        table = CardTable.for_witness(self.flow.state, viewer=viewer, selectable=[])
        table.live_message = False  # the lab says one sentence per action itself (self.live, issue 20)
        table.on_click(self._on_table_click)
        return table

    def _table_for_viewer(self) -> None:
        if self.table is None or self.table.viewer != self.flow.viewer:
            self._close_table()
            self.table = self._new_table(self.flow.viewer)

    def _render(self, message: str | None = None) -> None:
        """Draw the table for the viewer with the targets of the current step."""
        flow = self.flow
        self._table_for_viewer()
        targets, highlight = flow.targets()
        if message is None:
            message = flow.hint()
        self.table.show(flow.state, flow.viewer, selectable=targets, message=message, highlight=highlight)
        self.picked.value = T.picked_html(flow)
        self.events.value = T.news_html(flow)
        self.private.value = T.tom_html(flow)
        children = [self.table, self.picked]
        if flow.ability == "KRIS":
            children.append(self.kris_box)
        children += [self.events, self.private]
        self.game_area.children = children
        # said: what the table's message line says now (the step's hint, or why a click was refused)
        self.show_status(_("Player {viewer} at the screen. {phase_line}").format(
            viewer=flow.viewer, phase_line=flow.phase_line()), spoken=message or None)

    def _show_over(self) -> None:
        flow = self.flow
        flow.clear_pick()
        if flow.viewer is None:
            flow.viewer = flow.humans[0] if flow.humans else 0
        self._table_for_viewer()
        self.table.show(flow.state, flow.viewer, selectable=[])
        self.over.value, said = T.over_html(flow)
        self.events.value = ""
        self.private.value = ""
        self.picked.value = ""
        self.game_area.children = [self.over, self.table]
        self.show_status(said, kind="good")

    # ------------------------------------------------------------------ clicks
    @guarded
    def click(self, kind: str, id_) -> None:
        """Click a target of the table as the page would (refused clicks are explained on the table)."""
        if self.table is None:
            self.show_status(_("The table is hidden: the next player must press the button first."), kind="bad")
            return
        seq = (self.table._last_seq or 0) + 1
        self.table.click = {"kind": kind, "id": id_, "seq": seq}

    def press(self, button_id: str) -> None:
        """Press a table button (``"identify"``, ``"type:animal"``, ``"use:TOM"``, ``"end_turn"``, …)."""
        self.click("button", button_id)

    def _on_table_click(self, target: dict) -> None:
        with self._one_sentence():
            self._table_click(target)

    @guarded
    def _table_click(self, target: dict) -> None:
        done = self.flow.click(target, self.kris_box.value)
        if done.kind == "go_on":
            self._go_on()
        elif done.kind == "act":
            self._act(done.action)
        elif done.kind == "render":
            self._render(done.message)

    def _act(self, action) -> None:
        """Apply a learner's action, or explain why it is not legal."""
        done = self.flow.act(action)
        if done.refused is not None:
            self._render(done.refused)
            self.show_status(done.refused, kind="bad")
            return
        self._lead = self._action_words(action, done.events, done.player)  # said when the action is over
        if done.tom is not None:
            self._render(done.tom)
            return
        self._advance()
