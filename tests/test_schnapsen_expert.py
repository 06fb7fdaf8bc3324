"""Schnapsen's ``expert`` player: its endgame search plays the open-card solver's best
action wherever nothing more is drawn, and it wins clearly against the heuristic on
paired matches (both seats) in the batch kernels."""
import numpy as np
import pytest

from simcore import get_game, simulate
from simcore.games.schnapsen import engine as E
from simcore.games.schnapsen import expert as X
from simcore.games.schnapsen import solver as S


def _endgame_positions(eng, seed, matches):
    """Positions once nothing more is drawn (talon used up or closed), from whole
    matches between the heuristic and the random player, with the seat to move."""
    out = []
    for index in range(matches):
        st = eng.new(seed, index)
        mix = ("heuristic", "random") if index % 2 else ("random", "heuristic")
        while True:
            while not eng.deal_over(st):
                if int(st[E.S_TALON_LEFT]) == 0 or int(st[E.S_CLOSER]) >= 0:
                    out.append(st.copy())
                eng.apply(st, eng.choose(mix[eng.to_move(st)], st))
            if eng.game_over(st):
                break
            eng.next_deal(st)
    return out


@pytest.mark.parametrize("variant", ["austrian", "tournament", "odd"])
def test_expert_endgame_takes_the_solvers_best_action(variant):
    """With the opponent's hand given (as the seat knows it once the talon is used up),
    the expert's search picks an action of the solver's best value, closed deals (their
    scoring by the close and its snapshot) included; once the talon is used up the
    expert's own choice (which infers the hand) is that action."""
    from test_schnapsen_engine import VARIANTS
    eng = get_game("schnapsen").engine(VARIANTS[variant])
    work = S.new_work()
    acts = np.zeros(E.MAX_LEGAL, np.int64)
    vals = np.zeros(E.MAX_LEGAL, np.int64)
    closed = used_up = 0
    for st in _endgame_positions(eng, 5, 40):
        n = S.solve_actions(eng.r, st, work, acts, vals)
        p = eng.to_move(st)
        a = X._known_choose(eng.r, st, p, st[E.S_HAND + 1 - p])
        assert vals[list(acts[:n]).index(a)] == vals[:n].max(), (a, st.tolist())
        if int(st[E.S_TALON_LEFT]) == 0:
            assert eng.choose("expert", st.copy()) == a
            used_up += 1
        else:
            closed += 1
    assert closed >= 100 and used_up >= 100


def test_expert_beats_the_heuristic_on_paired_matches():
    """The same 1,500 matches with the expert in either seat: it wins well over half
    (pimc wins 67%; the heuristic against itself 50%)."""
    g = get_game("schnapsen")
    wins = 0
    for seat, pols in enumerate((["expert", "heuristic"], ["heuristic", "expert"])):
        res = simulate("schnapsen", g.build_rules(), pols, games=1500, seed=7, threads=1,
                       summary_only=True)
        wins += int(res.summary["seats"]["wins"][seat])
    assert wins / 3000 > 0.6
