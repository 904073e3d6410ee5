"""The built-in engine: legal answers, tactics, the repetition ruling, time budgets."""
import time

import pytest

from games.bots import Bot
from games.xiangqi import bot as bot_module
from games.xiangqi.bot import MATE_BOUND, PERPETUAL_LOSS, UPPER, Searcher, evaluate_from_scratch, make_bot
from games.xiangqi.rules import START_FEN, Position, XiangqiGame, parse_move_text

GAME = XiangqiGame()
MIDDLEGAME = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"
MATE_IN_ONE = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"


def state_of(fen):
    return GAME.new_initial_state({"fen": fen}, seed=0)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_every_level_answers_a_legal_move(level):
    bot = make_bot(level, seed=4)
    assert isinstance(bot, Bot)
    for fen in (START_FEN, MIDDLEGAME):
        state = state_of(fen)
        before = state.fen()
        move = bot.choose(state, state.side, 0.3)
        assert move in state.legal_moves(state.side)
        assert state.fen() == before          # the bot never mutates the state it is given


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_finds_mate_in_one(level):
    state = state_of(MATE_IN_ONE)
    assert make_bot(level, seed=1).choose(state, 0, 1.0) == "B0B9"


def test_takes_a_free_chariot():
    # Black's chariot on A5 is unprotected and Red's chariot on A0 sees it.
    state = state_of("3akab2/9/4b4/9/r8/9/9/9/4A4/R2AK4 w - - 0 1")
    for level in (2, 3, 4):
        assert make_bot(level, seed=2).choose(state, 0, 1.0) == "A0A5"


def test_sees_a_mate_in_two_moves():
    # Black's only move E9F9 runs into B0B9 mate: the search must report it.
    position = Position.from_fen("4k4/R8/9/9/9/9/9/9/9/1R1K5 b - - 0 1")[0]
    searcher = Searcher(max_depth=4)
    _, score = searcher.choose(position, [position.key], [False], 0, None)
    assert score <= -MATE_BOUND               # Black to move is mated whatever it does


@pytest.mark.parametrize("fen", [START_FEN, MIDDLEGAME])
def test_pruning_near_the_leaves_reaches_the_same_depth_on_far_fewer_nodes(fen):
    """Reverse futility, futility and late-move pruning (and the captures-only search's
    skipped losing captures): at least a third fewer nodes to depth 5, and the pruned
    search still answers a legal move with a sane score."""
    position = Position.from_fen(fen)[0]
    nodes, scores = {}, {}
    for pruning in (True, False):
        searcher = Searcher(max_depth=5, pruning=pruning)
        move, scores[pruning] = searcher.choose(position, [position.key], [False], 0, None)
        assert searcher.last_depth == 5 and move in position.legal_moves()
        nodes[pruning] = searcher.nodes
    assert nodes[True] < 0.67 * nodes[False]
    assert abs(scores[True] - scores[False]) < 150


@pytest.mark.parametrize("pruning", [True, False])
def test_a_node_the_table_has_no_move_for_is_searched_a_ply_less(monkeypatch, pruning):
    """At depth 5, with an empty table, the first child is searched at depth 3, not 4;
    with a table move for the node (or without pruning) it gets the full depth 4."""
    position = Position.from_fen(MIDDLEGAME)[0]
    evaluation = evaluate_from_scratch(position)
    depths, real_search = [], Searcher.search

    def recording(self, depth, *rest):
        depths.append(depth)
        return real_search(self, depth, *rest)

    monkeypatch.setattr(Searcher, "search", recording)
    child_depths = {}
    for table_move in (False, True):
        searcher = Searcher(pruning=pruning)
        searcher.start_at(position, [position.key], [False], 0)
        if table_move:
            searcher.table[position.key] = (1, UPPER, 0, position.legal_moves()[0])
        depths.clear()
        searcher.search(5, -10 ** 6, 10 ** 6, 1, evaluation, False)
        child_depths[table_move] = depths[1]     # depths[0] is the node itself
    assert child_depths == {False: 3 if pruning else 4, True: 4}


def searcher_after(fen, moves):
    """A searcher placed as if ``moves`` had been played from ``fen`` (the history it reads)."""
    position = Position.from_fen(fen)[0]
    keys, checks = [position.key], [False]
    for text in moves:
        position.make(parse_move_text(text))
        keys.append(position.key)
        checks.append(position.in_check(position.side))
    searcher = Searcher()
    searcher.start_at(position, keys, checks, quiet=len(moves))
    return searcher


def test_a_move_back_to_an_earlier_position_is_found_unless_it_could_be_a_perpetual_check():
    # Red's chariot goes and comes back; Black's general can step back to the start.
    searcher = searcher_after("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", ["A0A1", "E9F9", "A1A0"])
    assert searcher._can_repeat()
    searcher.checks[2] = True               # Black's only move of the cycle gave check
    assert not searcher._can_repeat()
    searcher.checks[2] = False
    searcher.capture_floor = 1              # a capture since the start: no repetition
    assert not searcher._can_repeat()
    assert not searcher_after("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", ["A0A1", "E9F9", "A1A2"])._can_repeat()


def test_a_side_that_can_repeat_scores_a_lost_position_as_a_draw_whatever_the_table_says():
    """The table's score of a position comes from other paths; a repetition at hand still
    holds the score at a draw (a won ending was once drawn this way)."""
    searcher = searcher_after("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", ["A0A1", "E9F9", "A1A0"])
    searcher.table[searcher.position.key] = (10, UPPER, -900, 0)  # an upper bound of -900, deep
    evaluation = evaluate_from_scratch(searcher.position)
    assert searcher.search(3, -100, 100, 1, evaluation, True) == 0


def test_with_the_third_occurrence_rule_a_second_occurrence_before_the_root_is_no_draw():
    """With ``repetition_count`` 3 the game rules only on a position's third occurrence, so
    a move back to a position played once before the root is not a draw (the other side
    may leave the cycle): neither scored as one nor counted on as a draw at hand.  A
    repeat inside the tree, or of a position played twice already, still is one."""
    moves = ["A0A1", "E9F9", "A1A0"]
    searcher = searcher_after("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", moves)
    assert searcher._can_repeat()                     # the first repeat rules (count 2)
    searcher.repetition_count = 3
    assert not searcher._can_repeat()                 # played once: no ruling yet
    back = parse_move_text("F9E9")
    captured = searcher.position.make(back)
    searcher._push(searcher.position, captured)
    assert searcher._repetition_score() is None
    searcher.repetition_count = 2
    assert searcher._repetition_score() == 0
    # The same repeat made inside the tree is ruled on at once under either count.
    inside = searcher_after("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", [])
    inside.repetition_count = 3
    for text in moves + ["F9E9"]:
        move = parse_move_text(text)
        inside._push(inside.position, inside.position.make(move))
    assert inside._repetition_score() == 0
    # Twice before the root: the third occurrence is ruled on.
    twice = searcher_after("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", moves + ["F9E9"] + moves)
    twice.repetition_count = 3
    assert twice._can_repeat()


def test_the_bot_follows_the_games_repetition_count(monkeypatch):
    """A level-5 bot tells its search the game's repetition count (the pure-Python search
    here, so that nothing is compiled; the compiled one takes the same argument)."""
    monkeypatch.setattr(bot_module, "compiled_searcher", lambda: None)
    seen = []
    bot = make_bot(5, settings={"depth": "2", "book": "0"})
    original = bot.searcher.choose

    def spy(*args, **kwargs):
        seen.append(kwargs.get("repetition_count"))
        return original(*args, **kwargs)

    bot.searcher.choose = spy
    for count in (2, 3):
        state = GAME.new_initial_state({"repetition_count": count}, 0)
        bot.choose(state, 0, None)
    assert seen == [2, 3]


def test_perpetual_checker_is_scored_as_losing():
    state = GAME.new_initial_state({"fen": "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"}, 0)
    for move in ("A8A9", "E9E8", "A9A8"):
        state.apply({state.side: move})
    # Black to move: E8E9 repeats the position after Red checked with every move.
    searcher = Searcher(max_depth=1)
    searcher.position = state.position.copy()
    searcher.keys, searcher.checks = list(state.history), list(state.checks)
    searcher.capture_floor, searcher._floors = 0, []
    move = (8 * 9 + 4) << 7 | (9 * 9 + 4)
    captured = searcher.position.make(move)
    searcher._push(searcher.position, captured)
    assert searcher._repetition_score() == -PERPETUAL_LOSS   # Red (to move now) has lost


def quiescence_score(fen, searcher=None):
    """The captures-only search's score of ``fen`` for the side to move (no depth left)."""
    searcher = searcher or Searcher(knowledge=False)
    position = Position.from_fen(fen)[0]
    searcher.start_at(position, [position.key], [position.in_check(position.side)], 0)
    static = evaluate_from_scratch(position)
    return searcher.quiesce(-10 ** 6, 10 ** 6, 0, static if position.side == 0 else -static)


def test_a_quiet_move_the_search_skips_unmade_cannot_give_check(random_positions):
    """Over random games, out of check: a quiet move that leaves no square of
    SENSITIVE[their general] and goes to no square of CHECK_TARGETS[their general] (nor
    touches the own general's lines, the legality rule of ``legal_moves``) never gives
    check, so the search may skip it near the leaves without making it."""
    from games.xiangqi.bot import CHECK_TARGETS
    from games.xiangqi.rules import LINES, SENSITIVE
    skipped = 0
    for position in random_positions(seed=2, games=15, longest=120):
        side = position.side
        ours, theirs = position.kings[side], position.kings[side ^ 1]
        if position.in_check(side):
            continue
        for move in position.pseudo_moves():
            origin, target = move >> 7, move & 127
            if (position.board[target] or origin in SENSITIVE[ours] or target in LINES[ours]
                    or origin in SENSITIVE[theirs] or target in CHECK_TARGETS[theirs]):
                continue
            captured = position.make(move)
            assert not position.in_check(side ^ 1) and not position.in_check(side), (position.fen(), move)
            position.unmake(move, captured)
            skipped += 1
    assert skipped > 8_000


def test_a_move_checks_only_from_a_check_target_or_by_uncovering(random_positions):
    """Over random games, every move (captures and replies to check included) that leaves
    the other general in check goes to a square of CHECK_TARGETS[their general] or leaves
    one of SENSITIVE[their general]: the search and the captures-only search ask whether a
    move gave check only then."""
    from games.xiangqi.bot import CHECK_TARGETS
    from games.xiangqi.rules import SENSITIVE
    checks = 0
    for position in random_positions(seed=3, games=15, longest=120):
        side = position.side
        theirs = position.kings[side ^ 1]
        for move in position.pseudo_moves():
            origin, target = move >> 7, move & 127
            captured = position.make(move)
            if position.in_check(side ^ 1):
                checks += 1
                assert origin in SENSITIVE[theirs] or target in CHECK_TARGETS[theirs], (position.fen(), move)
            position.unmake(move, captured)
    assert checks > 200


def test_the_captures_only_search_skips_a_chariot_taking_a_defended_soldier():
    # Red's chariot on C0 can take the soldier on C4, which Black's horse on B6 guards.
    guarded = "4k4/9/9/1n7/9/2p6/9/9/9/2RK5 w - - 0 1"
    pruned, full = Searcher(knowledge=False), Searcher(knowledge=False, pruning=False)
    assert quiescence_score(guarded, pruned) == quiescence_score(guarded, full)
    assert pruned.nodes == 1 < full.nodes            # standing pat, the exchange not looked at
    # Unguarded, the soldier is taken: the score rises by more than a soldier's worth.
    free = "4k4/9/9/9/9/2p6/9/9/9/2RK5 w - - 0 1"
    searcher = Searcher(knowledge=False)
    standing = evaluate_from_scratch(Position.from_fen(free)[0])
    assert quiescence_score(free, searcher) > standing + 100 and searcher.nodes > 1


def test_a_capture_that_mates_is_seen_with_no_depth_left():
    # Red's A0A9 takes the chariot with check; the general can go neither to E9 (the
    # chariot's rank) nor to D8 (the horse on B7): mate.  A side in check must not
    # "stand pat" on its material in the captures-only search.
    assert quiescence_score("r2k5/4a4/1N1a5/9/9/9/9/9/9/R3K4 w - - 0 1") >= MATE_BOUND


def test_a_check_with_a_capture_that_can_be_answered_is_only_worth_the_piece():
    # The same capture, but the general may step to D8 (no horse): Red is a chariot up
    # against two advisors, no mate.
    score = quiescence_score("r2k5/4a4/3a5/9/9/9/9/9/9/R3K4 w - - 0 1")
    assert 300 < score < MATE_BOUND


def test_evaluation_is_symmetric_at_the_start():
    assert evaluate_from_scratch(Position.from_fen(START_FEN)[0]) == 0


@pytest.mark.parametrize("budget", [0.01, 0.1, 0.4])
def test_strongest_level_answers_within_its_budget(budget):
    bot = make_bot(5, seed=0)
    state = state_of(MIDDLEGAME)
    took = []
    for _ in range(3):                 # a busy machine may stall one attempt past the margin
        started = time.perf_counter()
        move = bot.choose(state, 0, budget)
        took.append(time.perf_counter() - started)
        assert move in state.legal_moves(0)
        if took[-1] < budget + 0.05:
            break
    assert min(took) < budget + 0.05, took


def test_a_movetime_given_with_nodes_caps_the_search():
    """``nodes`` far beyond what fits in the movetime: the movetime ends the search."""
    bot = make_bot(5, seed=0, settings={"nodes": "100000000", "movetime": "200", "book": "0"})
    state = state_of(MIDDLEGAME)
    started = time.perf_counter()
    move = bot.choose(state, 0, None)
    assert time.perf_counter() - started < 0.2 + 0.1
    assert move in state.legal_moves(0) and bot.searcher.nodes < 100_000_000


def test_a_movetime_cap_the_search_does_not_reach_leaves_the_node_search_unchanged():
    """Under the cap, the node budget alone decides: same move, same nodes as without it."""
    state = state_of(MIDDLEGAME)
    capped = make_bot(5, seed=0, settings={"nodes": "3000", "movetime": "60000", "book": "0"})
    plain = make_bot(5, seed=0, settings={"nodes": "3000", "book": "0"})
    assert capped.choose(state, 0, None) == plain.choose(state, 0, None)
    assert capped.searcher.nodes == plain.searcher.nodes >= 3000


@pytest.mark.parametrize("hard_limit, reaches_the_node_limit", [(True, True), (False, False)])
def test_a_time_cap_is_not_a_budget_to_manage(monkeypatch, hard_limit, reaches_the_node_limit):
    """With a time budget the search starts no iteration once half of it has passed; a
    cap (a movetime given with nodes) only stops it when it is reached.  The clock here
    jumps 60 s into a 100 s allowance at the search's first look."""
    import games.xiangqi.bot as bot_module
    real = time.perf_counter
    begun = real()
    looks = iter(range(10 ** 9))
    monkeypatch.setattr(bot_module.time, "perf_counter", lambda: begun + (60.0 if next(looks) else 0.0))
    position = Position.from_fen(MIDDLEGAME)[0]
    searcher = Searcher()
    searcher.choose(position, [position.key], [position.in_check(position.side)], 0, 100.0, 4000,
                    hard_limit=hard_limit)
    assert (searcher.nodes >= 4000) == reaches_the_node_limit


def test_same_seed_same_moves():
    def game(seed):
        state = GAME.new_initial_state({}, 0)
        bots = [make_bot(2, seed), make_bot(1, seed + 1)]
        for _ in range(12):
            seat = state.side
            state.apply({seat: bots[seat].choose(state, seat, None)})
        return state.moves
    assert game(5) == game(5)
