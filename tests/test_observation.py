"""Observation tensors and action masks (simcore/observation.py, each game's
observation.py): the encoding round-trips to the kernel's words, the mask is the legal
list, the size is fixed across variants, and docs/players-api.md shows the declarations."""
from pathlib import Path

import numpy as np
import pytest

from simcore import engine
from simcore.errors import ApiError
from simcore.observation import ObsField, ObservationSpec, render_docs

DOC = Path(__file__).parent.parent / "docs" / "players-api.md"

#: (game, rule overrides): every game, and a variant with another table size
CASES = [("schnapsen", {}), ("schadenfreude", {}), ("schadenfreude", {"players": 3}),
         ("wendish", {}), ("wendish", {"variant": "three"})]


def decode(spec, x):
    """The raw words back from an encoded tensor (the inverse of ``encode``)."""
    words = {}
    for f in spec.fields:
        cols = spec.field(x, f.name)
        per = 1 if f.kind == "value" else spec.n_cards
        for i in range(f.count):
            c = cols[i * per:(i + 1) * per]
            if f.kind == "value":
                words[f.word + i] = int(c[0])
            elif f.kind == "cards":
                words[f.word + i] = int(sum(1 << k for k in np.flatnonzero(c)))
            else:
                assert c.sum() in (0, 1)
                words[f.word + i] = int(np.argmax(c)) if c.any() else -1
    return words


def positions(eng, seed, games=2):
    """Every decision of a few games of heuristic play, as (state copy, seat to move)."""
    for index in range(games):
        s = eng.new(seed, index)
        while not eng.game_over(s):
            if eng.deal_over(s):
                eng.next_deal(s)
                continue
            yield s.copy()
            eng.apply(s, eng.choose("heuristic", s))


@pytest.mark.parametrize("game,options", CASES)
def test_observation_round_trips_and_mask_is_legal(game, options):
    eng = engine(game, **options)
    spec = eng.observation_spec
    seen = 0
    for s in positions(eng, seed=7):
        legal = eng.legal(s)
        m = eng.action_mask(s)
        assert m.dtype == bool and m.shape == (eng.n_actions,)
        assert sorted(np.flatnonzero(m).tolist()) == sorted(legal)
        for seat in range(eng.seats):
            x = eng.observation(s, seat)
            assert x.dtype == np.float32 and x.shape == (spec.size,)
            raw = eng.observe(s, seat)
            for word, value in decode(spec, x).items():
                assert value == raw[word], (game, spec.fields, word)
        seen += 1
    assert seen > 20


def test_size_is_fixed_across_variants():
    for game, options in CASES:
        assert engine(game, **options).observation_spec.size == \
            engine(game).observation_spec.size


def test_hand_field_is_the_seats_own_hand():
    from simcore.games.schnapsen.cards import card_name
    eng = engine("schnapsen")
    s = eng.new(1, 0)
    for seat in (0, 1):
        x = eng.observation(s, seat)
        ids = np.flatnonzero(eng.observation_spec.field(x, "hand")).tolist()
        assert sorted(card_name(c) for c in ids) == sorted(eng.view(s, seat)["hand"])
        assert len(ids) == 5
    assert not np.array_equal(eng.observation(s, 0), eng.observation(s, 1))


def test_no_actions_once_the_deal_is_scored():
    eng = engine("schnapsen")
    s = eng.new(3, 0)
    while not eng.deal_over(s):
        eng.apply(s, eng.choose("random", s))
    assert not eng.action_mask(s).any()


def test_bad_seat_is_one_clear_error():
    eng = engine("schnapsen")
    with pytest.raises(ApiError, match="seat from 0 to 1"):
        eng.observation(eng.new(1, 0), 2)


def test_spec_refuses_bad_declarations():
    with pytest.raises(ValueError, match="kinds: value, cards, card"):
        ObservationSpec("x", 4, 3, 2, (ObsField("a", 0, "bits", "?"),))
    with pytest.raises(ValueError, match="observe writes 3"):
        ObservationSpec("x", 4, 3, 2, (ObsField("a", 2, "value", "?", count=2),))
    with pytest.raises(ValueError, match="declared twice"):
        ObservationSpec("x", 4, 3, 2, (ObsField("a", 0, "value", "?"),
                                       ObsField("a", 1, "value", "?")))


def test_docs_show_the_declared_fields():
    text = DOC.read_text()
    for game in ("schnapsen", "schadenfreude", "wendish"):
        assert f"<!-- observation:{game} -->" in text
    assert render_docs(text) == text, \
        "docs/players-api.md is stale: run python -m simcore.observation docs/players-api.md"
