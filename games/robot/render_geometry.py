"""Robot Đại Chiến's board geometry and move targets, pure helpers tested without a screen.

The largest grid with its coordinates in a rect (:func:`fit_grid`; the board and its side
panel share a rect by the kit's :func:`games.render.grid.split_area`), the ring the coming
turn seals (:func:`shrink_warning_cells`), the scores the chart draws
(:func:`chart_history`), and the cell an arrow key, a click or staying put moves a robot
to (:func:`key_target`, :func:`click_target`, :func:`stay_target`).
"""
from __future__ import annotations

from games.render import GridLayout
from games.render.grid import COORD_MARGIN
from games.render.grid import fit_grid as fit_grid_with_margins
from games.robot.rules import RobotState

Cell = tuple[int, int]                 # (X, Y): row, column, 0-based as in MAP.INP
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


# ---------------------------------------------------------------------------- geometry
def fit_grid(rows: int, cols: int, width: int, height: int, coordinates: bool = True,
             padding: float = 0.03) -> GridLayout:
    """The largest layout of the grid (and its coordinates) centred in a ``width``×``height`` box."""
    margin = COORD_MARGIN if coordinates else 0.0
    return fit_grid_with_margins(rows, cols, width, height, (margin, margin, 0.0, 0.0), padding)


def shrink_warning_ring(state: RobotState) -> int | None:
    """The ring (0 = outermost) sealed at the end of the turn about to be played, else None."""
    if state.finished:
        return None
    shrink = state.next_shrink_turn()
    if shrink is None or shrink != state.turn or shrink == 0:
        return None
    return shrink // state.board.period - 1


def shrink_warning_cells(state: RobotState) -> list[Cell]:
    """Cells the coming turn's shrink will seal (open cells of the warned ring); [] when none."""
    ring = shrink_warning_ring(state)
    if ring is None:
        return []
    return [state.board.xy(p) for p in state.board.rings[ring] if state.is_open(*state.board.xy(p))]


def chart_history(state: RobotState) -> list[tuple[int, ...]]:
    """Scores after every turn for the chart: the state's own history when it is whole.

    A state rebuilt from one turn-log entry does not know how it got there; then the
    chart shows only the current scores rather than a made-up climb from zero.
    """
    history = state.score_history() if hasattr(state, "score_history") else []
    return history if len(history) == state.turn + 1 else [state.scores()]


def key_target(state: RobotState, seat: int, step: Cell, double: bool = False) -> Cell | None:
    """The cell an arrow key (``step`` = (dx, dy)) moves ``seat``'s robot to, or None.

    ``double`` (Shift) asks for a two-cell step; without an active speed item it is a
    single step.  A step into a forbidden cell is only possible with unused oil.
    """
    here = state.position(seat)
    if here is None or seat not in state.to_move():
        return None
    legal = set(state.legal_moves(seat))
    dx, dy = step
    if double and state.robots[seat].speed_turns > 0:
        far = (here[0] + 2 * dx, here[1] + 2 * dy)
        if far in legal:
            return far
    near = (here[0] + dx, here[1] + dy)
    return near if near in legal else None


def click_target(state: RobotState, seat: int, cell: Cell | None) -> Cell | None:
    """The move a click on ``cell`` makes for ``seat``, or None when it is not one.

    Placing: any open cell.  Later: the robot's own cell (stay), a neighbour it may
    enter, two cells away in a straight line with speed, the adjacent forbidden cell
    with unused oil.
    """
    if cell is None or seat not in state.to_move():
        return None
    if state.placing(seat):
        return cell if state.is_open(*cell) else None
    if cell == state.position(seat) and state.robots[seat].on_oil:
        return None                       # staying on an oiled wall would end the game
    return cell if cell in state.legal_moves(seat) else None


def stay_target(state: RobotState, seat: int) -> Cell | None:
    """Staying put, unless placing (nothing to stay on) or standing on an oiled wall."""
    if seat not in state.to_move() or state.placing(seat) or state.robots[seat].on_oil:
        return None
    return state.position(seat)
