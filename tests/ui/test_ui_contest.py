"""Xiangqi contest mode in the window: ``python main.py xiangqi cc`` with a person at the board.

The real command runs (PLAY.INI, seats, REPORT.TXT, ``ui.app.run_app``); only the
window's endless loop is replaced by a script that feeds real events through the
real frame loop, then closes the window as a person would.
"""
import argparse
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from games.xiangqi.contest import register
from games.xiangqi.referee import compare_program_report
from ui_helpers import click, click_at, pump, wait_until

PROGRAMS = Path(__file__).resolve().parents[1] / "xiangqi" / "programs"


def cc(*argv: str) -> int:
    """The command as ``main.py`` runs it: the tool asks for the window, the shell opens it."""
    import main
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["cc", *argv])
    return main.run_command(args)


@pytest.fixture
def window(monkeypatch, arena_home):
    """``window(script)``: the next window the command opens runs ``script(app)`` as its loop."""
    import ui.app

    def use(script):
        def run(app):
            try:
                script(app)
            finally:
                app.close()
            return 0
        monkeypatch.setattr(ui.app.App, "run", run)
    return use


def play_by_clicks(app, scene, move: str) -> None:
    """Click the piece on the move's origin, then its target (ICCS ``H9G7``)."""
    app.draw()                                     # the renderer knows where the points are
    layout = scene.renderer.layout
    click_at(app, layout.centre_of(move[:2]))
    assert scene.view.selected == move[:2]
    click_at(app, layout.centre_of(move[2:]))


def match_scene(app):
    scene = app.scene
    assert type(scene).__name__ == "MatchScene"
    return scene


def test_computer_plays_red_and_the_person_answers_with_black_clicks(tmp_path, window):
    (tmp_path / "PLAY.INI").write_text("COMPUTER\nHUMAN\n")
    (tmp_path / "ARENA.INI").write_text("AUTHOR=Nguyen Van A\nPROGRAM=Trang Co 2.5\nADDRESS=Ha Noi\n")
    played = []

    def script(app):
        scene = match_scene(app)
        assert scene.status_bar_lines() == ["Trang Co 2.5 - Nguyen Van A", "Ha Noi"]
        for ply in (1, 3):
            assert wait_until(app, lambda: scene.view.human_seat == 1, timeout=20), scene.status_text()
            state = scene.snap.state
            assert len(state.moves) == ply                 # the engine (Red) moved first
            legal = state.legal_moves(1)
            move = next((m for m in ("H9G7", "B9C7", "A9A8") if m in legal), legal[0])
            play_by_clicks(app, scene, move)
            played.append(move)
            assert wait_until(app, lambda: len(scene.snap.state.moves) >= ply + 2, timeout=20)
            assert scene.snap.state.moves[ply] == move
        assert scene.status_bar_lines()                    # still on show while the program plays
        click(app, scene.back_button)
        click(app, scene.back_button)                      # twice: leave a running match

    window(script)
    assert cc("--folder", str(tmp_path), "--level", "1", "--movetime", "0.05", "--seed", "1") == 0
    lines = (tmp_path / "REPORT.TXT").read_text().splitlines()
    assert lines[:4] == ["Nguyen Van A", "Trang Co 2.5", "Ha Noi", "COMPUTER HUMAN"]
    black_moves = [line.split()[2] for line in lines[4:] if len(line.split()) == 3]
    assert black_moves[:2] == played


def test_the_person_plays_red_against_a_contest_program_through_the_move_files(tmp_path, window):
    me, other, moves = tmp_path / "me", tmp_path / "other", tmp_path / "moves"
    for folder in (me, other, moves):
        folder.mkdir()
    files = [str(moves / "M1.DAT"), str(moves / "M2.DAT")]
    (me / "PLAY.INI").write_text("\n".join(["HUMAN", "OTHER", "7", "-1", *files]) + "\n")
    (other / "PLAY.INI").write_text("\n".join(["OTHER", "COMPUTER", "8", "-1", *files]) + "\n")
    opponent = subprocess.Popen([sys.executable, str(PROGRAMS / "random_mover.py"), "--poll", "0.01",
                                 "--seed", "5"], cwd=other, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def script(app):
        scene = match_scene(app)
        assert wait_until(app, lambda: scene.view.human_seat == 0, timeout=10)
        play_by_clicks(app, scene, "H2E2")
        assert wait_until(app, lambda: len(scene.snap.state.moves) >= 2, timeout=20), scene.status_text()
        answer = scene.snap.state.moves[1]
        assert scene.board_state().piece_at(answer[2:].upper()).islower()   # Black's piece is there
        assert scene.moves.rows[2][-1][0].strip() == answer.upper()          # and in the move list
        app.draw()
        assert wait_until(app, lambda: scene.view.human_seat == 0, timeout=10)
        legal = scene.snap.state.legal_moves(0)
        play_by_clicks(app, scene, next((m for m in ("H0G2", "B0C2") if m in legal), legal[0]))
        assert wait_until(app, lambda: len(scene.snap.state.moves) >= 4, timeout=20)
        click(app, scene.back_button)
        click(app, scene.back_button)

    window(script)
    try:
        assert cc("--folder", str(me), "--poll", "0.01", "--seed", "2") == 0
    finally:
        opponent.kill()
        opponent.communicate()
    lines = (me / "REPORT.TXT").read_text().splitlines()
    assert lines[3] == "HUMAN OTHER" and lines[4].split()[:2] == ["1", "H2E2"]
    ours = [m for line in lines[4:] for m in line.split()[1:]]
    assert len(ours) >= 4
    # The program saw the same game: its own REPORT.TXT, compared as the referee does.
    assert compare_program_report(other / "REPORT.TXT", ours).startswith("agrees")


@pytest.mark.parametrize("text, line", [("COMPUTER\nROBOT\n", 2), ("COMPUTER\nOTHER\n1\n-1\n", 5)])
def test_a_malformed_play_ini_shows_its_error_in_the_window(tmp_path, window, text, line):
    (tmp_path / "PLAY.INI").write_text(text)

    def script(app):
        scene = match_scene(app)
        assert wait_until(app, lambda: scene.finished, timeout=5)
        assert f"line {line}" in scene.status_text()
        bar = scene.status_bar_lines()
        assert len(bar) == 1 and bar[0].startswith("Contest mode cannot start") and f"line {line}" in bar[0]
        app.draw()
        rect = scene.status_bar_rect()
        surface = app.window.subsurface(rect)
        assert any(surface.get_at((x, y))[:3] == app.theme.text[:3]
                   for x in range(0, rect.width, 2) for y in range(rect.height)), "the bar is drawn"
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        pump(app)
        assert not app.running

    window(script)
    assert cc("--folder", str(tmp_path)) == 2
