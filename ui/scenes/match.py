"""Match: a running game on the board, players and clocks, controls, moves, debug panels.

The match runs on its own worker thread (:meth:`runner.match.Match.start`); this screen
reads it through ``snapshot()`` about twenty times a second (only redrawing when the
revision changed, or ten times a second while a clock is running) and talks to it
through pause/resume/step/undo/stop/submit.
"""
from __future__ import annotations

import time

import pygame
import pygame_gui

from games.api import ArenaError
from games.render import font, wrap
from runner.match import Match, MatchView
from runner.referee import error_text
from runner.i18n import _
from ui.boards import safe_handle
from ui.game_texts import after_the_seat, game_text, rules_text
from ui.panels import PlayerLine, clock_texts, format_clock, result_parts, seat_score
from ui.scene import is_pressed
from ui.scenes.board_scene import COLUMN_W, BoardScene

POLL = 0.05            # seconds between snapshots while the match runs
CLOCK_TICK = 0.1       # redraw interval for a running clock
BACK_CONFIRM = 3.0     # seconds the "press Back again" offer stays
RESIGN_CONFIRM = 5.0   # seconds the Resign button waits for its confirmation
#: Paces of a watched match (no person plays), in turns per second; "max": as fast as it goes.
PACES = ("0.5", "1", "2", "4", "8", "16", "max")
WATCH_PACE = "4"       # a 4-bot Robot match lasts about half a minute


class MatchScene(BoardScene):
    """Plays or watches one match."""

    def __init__(self, app, match: Match):
        snap = match.snapshot()
        super().__init__(app, match.plugin, snap.options, [s.label for s in snap.seats])
        self.match = match
        self.started = False
        self.snap: MatchView = snap
        self.since_poll = 0.0
        self.since_tick = 0.0
        self.back_armed_until = 0.0
        self.resign_armed_until = 0.0          # Resign (or Stop) pressed once: asks to confirm
        self.recorded = False
        self.human_seats = [i for i, s in enumerate(snap.seats) if s.kind == "human"]
        self.pace = None if self.human_seats else WATCH_PACE
        if self.pace:
            match.set_pace(pace_value(self.pace))
        self.answered: set[int] = set()      # people's seats that moved in the turn being played

    # ------------------------------------------------------------ life cycle
    def enter(self) -> None:
        if not self.started:
            self.started = True
            self.match.start()
        self.snap = self.match.snapshot()
        super().enter()
        self.refresh_moves()

    def exit(self) -> None:
        if self.match.outcome is None:
            self.match.stop()
        record = self.match.record_path
        played = bool(self.match.snapshot().turns)
        if not self.recorded and record and record.exists():      # a stopped match is a record too,
            self.recorded = True                                  # last when stopped before a move
            self.app.remember_record(record, last=not played)
        super().exit()

    def pause(self) -> None:
        """Covered by another screen (How to play): the people's clocks stop meanwhile."""
        self.match.hold_clocks(True)
        super().pause()

    def resume(self) -> None:
        self.match.hold_clocks(False)
        super().resume()

    # ------------------------------------------------------------ data hooks
    def turns(self):
        return self.snap.turns

    def board_state(self):
        return self.snap.state

    def annotation_index(self) -> int:
        """The board shows the latest position, whatever turn the move list picked."""
        return len(self.turns())

    def annotating_seats(self) -> set[int]:
        """Program seats may annotate from the first turn on: their toggles show at once."""
        programs = {i for i, s in enumerate(self.snap.seats) if s.kind not in ("human", "bot")}
        return programs | super().annotating_seats()
    def title_text(self) -> str:
        """The game's name and, when the game has one, the ruling in force that players
        most need to know (Xiangqi: which repetition ends the game)."""
        title = super().title_text()
        try:
            rule = self.game.rules_headline(self.snap.options)
        except Exception:          # a game's bug must not take the header away
            rule = ""
        return f"{title} · {_(rule)}" if rule else title

    def seat_description(self, seat: int) -> dict:
        seats = self.snap.seats
        return dict(seats[seat].described) if 0 <= seat < len(seats) else {}

    def state_before(self, turn):
        states = self.snap.states
        index = turn.number - 1 if turn is not None else -1
        return states[index] if 0 <= index < len(states) else None

    @property
    def finished(self) -> bool:
        return self.snap.outcome is not None

    def status_text(self) -> str:
        snap = self.snap
        if snap.error:
            return _("Error: {error}").format(error=rules_text(snap.error))
        if snap.outcome is not None:
            saved = _(" · in Recent records on Home") if self.match.record_path else ""
            return _("Game over after {turns} turns").format(turns=len(snap.turns)) + saved
        try:
            text = self.game.describe(snap.state)
        except Exception:
            text = ""
        if snap.paused:
            text = _("Paused · {status}").format(status=game_text(text))
        if self.view.human_seat is not None:
            seat = self.view.human_seat
            name = self.seat_name(seat)
            rest = after_the_seat(text, self.game.spec.seat_name(seat))     # "Your move" says whose
            rest = game_text(text) if rest is None else rest
            return _("Your move, {player} · {seat}").format(player=self.seat_labels[seat], seat=name) + (
                f" · {rest}" if rest else "")
        return game_text(text)

    def status_bar_lines(self) -> list[str]:
        """The match's banner (contest mode: the program, its author and address)."""
        lines = [line for line in (self.match.banner or "").splitlines() if line.strip()]
        warning = self.match.sandbox_line()
        return lines + [warning] if warning.startswith("WARNING") else lines

    def key_hint_lines(self) -> int:
        return 2 if self.human_seats else 0

    def key_hint(self) -> str:
        seat = self.view.human_seat
        if seat is None or self.finished:
            return ""
        try:
            keys = self.renderer.key_help(self.snap.state, seat)
        except Exception:          # a renderer bug must not take the screen down
            keys = ""
        return f"{self.seat_labels[seat]}: {keys}" if keys else ""

    def board_in_motion(self) -> bool:
        return not self.finished and not self.snap.paused and self.view.human_seat is None

    def player_lines(self) -> list[PlayerLine]:
        snap = self.snap
        now = time.monotonic()
        outcome, state = snap.outcome, snap.state
        countdown = self.match.time_control.human_per_move
        lines = []
        for seat in range(self.seat_count()):
            used, left = snap.time_used.get(seat, 0.0), snap.time_left.get(seat)
            running = None
            # Only a seat still thinking has a running clock: one that has answered in a
            # simultaneous turn waits for the others on nobody's time.
            if seat in snap.pending and snap.thinking_since is not None and not outcome:
                running = max(0.0, now - snap.thinking_since - snap.held.get(seat, 0.0))
                used += running
                left = None if left is None else left - running
            big, small = clock_texts(used, left)
            if running is not None and countdown and seat in self.human_seats and seat not in self.answered:
                big = format_clock(countdown - running)          # the person's countdown
                small = _("to move · {used} used").format(used=format_clock(used))
            score = seat_score(self.game.spec, outcome, state, seat)
            lines.append(PlayerLine(
                self.seat_name(seat), self.seat_labels[seat], self.renderer.seat_colour(seat),
                big, small, score, to_move=seat in snap.pending and not outcome,
                winner=bool(outcome and seat in outcome.winners),
                out=bool(outcome and outcome.winners and seat not in outcome.winners)))
        return lines

    # ------------------------------------------------------------ layout
    def relayout(self) -> None:
        """Lay out again keeping what the person was typing (and the box's focus)."""
        entry = getattr(self, "move_entry", None)
        typed = entry.get_text() if entry is not None and entry.alive() else ""
        focused = entry is not None and entry.alive() and entry.is_focused
        super().relayout()
        if self.move_entry is not None and typed:
            self.move_entry.set_text(typed)
        if self.move_entry is not None and focused:
            self.move_entry.focus()

    def layout_controls(self, x: float, y: float) -> float:
        gap = 8
        width = (COLUMN_W - 3 * gap) / 4
        row = [self.rect(x + i * (width + gap), y, width, 44) for i in range(4)]
        self.pause_button = self.button(row[0], _("Pause"), tooltip=_("pause the match (P)"))
        self.step_button = self.button(row[1], _("Step"), tooltip=_("play one turn while paused (S)"))
        self.undo_button = self.button(row[2], _("Undo"), tooltip=_("take back your last move"))
        self.pace_menu = None
        if self.pace and not self.finished:          # a watched match: its pace instead of Undo
            self.undo_button.hide()
            self.pace_menu = self.dropdown(row[2], [pace_label(p) for p in PACES], pace_label(self.pace))
            self.pace_menu.set_tooltip(_("pace: turns a second while you watch"))
        armed = self.resign_armed()
        resign = _("Confirm") if armed else (_("Resign") if self.human_seats else _("Stop"))
        self.resign_button = self.button(row[3], resign, cls="@accent" if armed else None,
                                         tooltip=_("give up this game (asks to confirm)") if self.human_seats
                                         else _("stop the match now (asks to confirm)"))
        self.replay_button = self.button(row[0], _("Replay"), cls="@accent", tooltip=_("watch this match again"))
        y += 54
        self.move_entry = self.move_button = None
        if self.human_seats:
            self.move_entry = self.entry(self.rect(x, y, COLUMN_W - 120 - gap, 42), "", _("type a move, Enter"))
            self.move_button = self.button(self.rect(x + COLUMN_W - 120, y, 120, 42), _("Play"))
            y += 52
        self.sync_controls()
        return y

    def sync_controls(self) -> None:
        """Show and enable the buttons that make sense now."""
        if self.root is None:
            return
        done = self.finished
        for button in (self.pause_button, self.step_button, self.undo_button, self.resign_button):
            button.show() if not done else button.hide()
        if self.pace_menu is not None:
            self.undo_button.hide()
            self.pace_menu.show() if not done else self.pace_menu.hide()
        self.replay_button.show() if done else self.replay_button.hide()
        self.pause_button.set_text(_("Resume") if self.snap.paused else _("Pause"))
        tooltip = _("resume the match (P)") if self.snap.paused else _("pause the match (P)")
        if self.pause_button.tool_tip_text != tooltip:      # the tip says what the button does now
            self.pause_button.set_tooltip(tooltip)
        self.step_button.enable() if self.snap.paused else self.step_button.disable()
        self.undo_button.enable() if self.snap.can_undo and self.snap.turns else self.undo_button.disable()
        if self.human_seats:
            self.resign_button.enable() if self.view.human_seat is not None else self.resign_button.disable()
        if self.move_entry is not None:
            waiting = self.view.human_seat is not None and not done
            for widget in (self.move_entry, self.move_button):
                widget.enable() if waiting else widget.disable()

    # ------------------------------------------------------------ time
    def wake_interval(self) -> float | None:
        if self.finished and not self.snap_stale():
            return self.animation_wake(None)
        return self.animation_wake(POLL)

    def snap_stale(self) -> bool:
        return self.match.outcome is not None and self.snap.outcome is None

    def update(self, dt: float) -> bool | list[pygame.Rect]:
        """True when the match moved on; only the players panel while just a clock runs."""
        self.since_poll += dt
        self.since_tick += dt
        changed = False
        if self.since_poll >= POLL or self.snap_stale():
            self.since_poll = 0.0
            changed = self.poll()
        if self.fit_status():              # a new message or status: the column laid out again
            changed = True
        if self.back_armed_until and time.monotonic() > self.back_armed_until:
            self.back_armed_until = 0.0
            self.message = ""
            changed = True
        if self.resign_armed_until and (time.monotonic() > self.resign_armed_until or self.finished
                                        or (self.human_seats and self.view.human_seat is None)):
            self.disarm_resign()
            changed = True
        if self.tick_animation(dt):
            changed = True
        thinking = self.snap.thinking_since is not None and not self.finished
        if thinking and self.since_tick >= CLOCK_TICK:
            self.since_tick = 0.0
            return changed or [self.players_rect()]
        return changed

    def poll(self) -> bool:
        """Take a new snapshot; True when the match moved on (or a seat's name changed)."""
        snap = self.match.snapshot()
        relabelled = self.follow_seat_labels(snap)
        new_turns = len(snap.turns) != len(self.snap.turns)
        if new_turns:
            self.answered.clear()
            notice = time_out_notice(snap.turns[len(self.snap.turns):], self.human_seats,
                                     self.seat_labels, self.seat_name)
            if notice:
                self.message, self.message_is_error = notice, True
        human = self.person_to_move(snap) if not snap.outcome else None
        if snap.revision == self.snap.revision and human == self.view.human_seat:
            return relabelled
        self.snap = snap
        if human != self.view.human_seat:
            self.view.selected = None
        self.view.human_seat = human
        if new_turns or snap.outcome:
            self.state_shown()
            self.refresh_moves()
            if self.selected is None:
                self.refresh_debug()
        if snap.outcome is not None and not self.recorded:
            self.recorded = True
            if self.match.record_path and self.match.record_path.exists():
                self.app.remember_record(self.match.record_path)
        self.sync_controls()
        return True

    def follow_seat_labels(self, snap: MatchView) -> bool:
        """Engines name themselves once started (UCI/UCCI ``id name``, GTP ``name`` and
        ``version``), on the match's thread: the players panel, the renderer and the
        debug panels then show that name instead of the command.  True on a change."""
        labels = [seat.label for seat in snap.seats]
        if labels == self.raw_labels:
            return False
        self.relabel(labels)
        return True

    def person_to_move(self, snap: MatchView) -> int | None:
        """The first person's seat the match is asking (``snap.asking``) that has not
        answered yet.

        In a simultaneous game (Robot) the match keeps waiting for the bots after the
        person has moved; the person's seat then no longer waits for input.
        """
        return next((seat for seat in snap.asking if seat not in self.answered), None)

    # ------------------------------------------------------------ events
    def process_event(self, event: pygame.event.Event) -> bool:
        if is_pressed(event, self.pause_button):
            self.match.resume() if self.snap.paused else self.match.pause()
            self.poll()
        elif is_pressed(event, self.step_button):
            self.match.step()
        elif is_pressed(event, self.undo_button):
            if self.match.undo():
                self.message = ""
                self.answered.clear()
        elif (event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and self.pace_menu is not None
              and event.ui_element is self.pace_menu):
            self.pace = next((p for p in PACES if pace_label(p) == event.text), self.pace)
            self.match.set_pace(pace_value(self.pace))
        elif is_pressed(event, self.resign_button):
            self.resign()
        elif is_pressed(event, self.replay_button):
            from ui.scenes.replay import ReplayScene
            self.app.push(ReplayScene(self.app, replay=self.match.as_replay()))
        elif is_pressed(event, self.move_button) or (
                event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.move_entry):
            self.try_move(self.move_entry.get_text())
        elif self.flip_requested(event) or self._board_input(event):
            pass
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_p and not self.finished:
            self.match.resume() if self.snap.paused else self.match.pause()
            self.poll()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.resign_armed():
                self.disarm_resign()
            else:
                self.leave()
        else:
            return super().process_event(event)
        return True

    def _board_input(self, event: pygame.event.Event) -> bool:
        """Hand pointer and key events to the renderer while a person may move."""
        if self.view.human_seat is None:
            return False
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            if not self.board_rect().collidepoint(event.pos):
                return False
        elif event.type != pygame.KEYDOWN or event.key == pygame.K_ESCAPE:
            return False
        self.view.refusal = ""
        text = safe_handle(self.renderer, event, self.snap.state, self.view)
        if text:
            self.try_move(text)
        elif self.view.refusal:            # a click the board could not take: say why
            self.message, self.message_is_error = rules_text(self.view.refusal), True
            self.view.refusal = ""
        # Keys belong to the board while the person moves (arrows walk its cells).
        return event.type == pygame.KEYDOWN or (event.type != pygame.MOUSEMOTION and text is not None)

    def try_move(self, text: str) -> bool:
        """Check a person's move against the rules, then hand it to the match."""
        seat = self.view.human_seat
        text = (text or "").strip()
        if seat is None or not text:
            return False
        state = self.snap.state
        try:
            move = self.game.parse_move(text, state, seat)
            state.check_move(seat, move)
        except ArenaError as exc:
            self.message, self.message_is_error = rules_text(error_text(exc)), True
            return False
        self.message = ""
        self.answered.add(seat)
        self.match.submit(seat, text)
        self.view.human_seat = None
        self.view.selected = None
        if self.move_entry is not None:
            self.move_entry.set_text("")
        self.sync_controls()
        return True

    def resign_armed(self) -> bool:
        return time.monotonic() < self.resign_armed_until

    def disarm_resign(self) -> None:
        was = self.resign_armed_until
        self.resign_armed_until = 0.0
        if was:
            self.message = ""
            self.relayout()

    def resign(self) -> None:
        """First press asks to confirm (the button reads Confirm); the second resigns
        the person to move (a watched match: stops it)."""
        if self.finished:
            return
        seat = self.view.human_seat
        if self.human_seats and seat is None:
            return
        if not self.resign_armed():
            self.resign_armed_until = time.monotonic() + RESIGN_CONFIRM
            who = self.seat_labels[seat] if seat is not None else ""
            self.message = (_("Resign this game as {player}? Press Confirm to give up; Esc cancels.").format(
                player=who) if self.human_seats else _("Stop this match now? Press Confirm to stop; Esc cancels."))
            self.message_is_error = True
            self.relayout()
            return
        self.resign_armed_until = 0.0
        self.message = ""
        if not self.human_seats:
            self.match.stop()
        else:
            self.answered.add(seat)
            self.match.submit(seat, None)
            self.view.human_seat = None
        self.relayout()

    def on_move_clicked(self, row: int) -> None:
        latest = len(self.turns())
        self.select(None if row >= latest else row)

    def leave(self) -> None:
        """Back: a finished match leaves at once; a running one asks for a second press."""
        if self.finished or time.monotonic() < self.back_armed_until:
            self.app.pop()
            return
        self.back_armed_until = time.monotonic() + BACK_CONFIRM
        self.message = _("Press Back again to stop this match and leave.")

    # ------------------------------------------------------------ drawing
    def banner_height(self) -> int:
        return self.px(76) if self.finished else 0

    def banner_texts(self) -> tuple[str, str]:
        """The game-over banner's headline and detail, in the interface's language (the
        match's error, when it stopped on one, as the detail)."""
        head, detail = result_parts(self.snap.outcome, self.seat_name)
        return head, rules_text(self.snap.error) if self.snap.error else detail

    def draw_overlay(self, surface: pygame.Surface, board: pygame.Rect) -> None:
        """The result, in large type, in the strip reserved above the board."""
        if not self.finished:
            return
        theme = self.app.theme
        head, detail = self.banner_texts()
        banner = pygame.Rect(board.x, board.y - self.banner_height() - self.px(8), board.width,
                             self.banner_height())
        pygame.draw.rect(surface, theme.panel, banner, border_radius=self.px(8))
        pygame.draw.rect(surface, theme.accent, banner, width=self.px(3), border_radius=self.px(8))
        self.draw_text(surface, head, (banner.centerx, banner.y + self.px(6)), 28, theme.accent,
                       bold=True, max_width=banner.width - self.px(24), align="center")
        size, lines = self.banner_detail_lines(detail, banner.width - self.px(24))
        top = banner.y + self.px(44 if len(lines) == 1 else 38)
        for line in lines:
            rect = self.draw_text(surface, line, (banner.centerx, top), size, theme.text,
                                  max_width=banner.width - self.px(24), align="center")
            top = rect.bottom

    def banner_detail_lines(self, detail: str, room: int) -> tuple[int, list[str]]:
        """The banner's detail as (design size, lines) within ``room`` pixels: one line,
        in smaller type if need be, else two lines (a long verdict, often longer in
        Vietnamese, is read whole rather than cut)."""
        for size in BANNER_DETAIL_SIZES:
            if font(self.px(size)).size(detail)[0] <= room:
                return size, [detail]
        size = BANNER_DETAIL_SIZES[-1]
        return size, wrap(font(self.px(size)), detail, room, max_lines=2)


#: The banner's detail sizes (design units), tried largest first until the detail fits.
BANNER_DETAIL_SIZES = (17, 16, 15, 14, 13)


def time_out_notice(turns, people, labels, seat_name) -> str:
    """What happened when a person's time ran out in ``turns`` (the turns just played),
    in full: who, after how long, and what the referee did instead ("A was placed at
    random on (13, 4)"); "" when no person ran out of time.  The move list has room for
    a few words only; this goes to the status line, which wraps."""
    notices = []
    for turn in turns:
        for seat in people:
            answer = turn.answers.get(seat) or {}
            if answer.get("failure") != "timeout":
                continue
            who = _("{player} ({seat})").format(player=labels[seat], seat=seat_name(seat))
            text = _("Time ran out for {who} on turn {n} after {seconds} s.").format(
                who=who, n=turn.number, seconds=_seconds(float(answer.get("elapsed", 0))))
            if seat in turn.forfeits:
                text += " " + _("The game is lost on time.")
            elif seat in turn.moves:
                said = [rules_text(e.text) for e in turn.events if seat in e.seats]
                text += " " + (" ".join(f"{line}." for line in said) if said else
                               _("The referee played {move} instead.").format(move=turn.moves[seat]))
            notices.append(text)
    return " ".join(notices)


def _seconds(value: float) -> str:
    """10 s, 0.3 s: whole seconds from ten on."""
    return f"{value:.0f}" if value >= 10 else f"{value:.1f}"


def pace_label(pace: str) -> str:
    return _("max") if pace == "max" else _("{pace} / s").format(pace=pace)


def pace_value(pace: str) -> float | None:
    """Turns per second for :meth:`Match.set_pace` (None: no limit)."""
    return None if pace == "max" else float(pace)
