from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.engine import FULL_DECK, JDF, JOKERS, NUMBERS, deal
from games.engine.deal import seed_bytes


def test_same_seed_same_deal_and_different_seeds_differ():
    assert deal("round-1/table-3", JDF) == deal("round-1/table-3", JDF)
    assert deal(b"round-1/table-3", JDF) == deal("round-1/table-3", JDF)
    assert deal(42, JDF) == deal("42", JDF)
    assert deal(1, JDF) != deal(2, JDF)


def test_seed_bytes_normalisation():
    assert seed_bytes(7) == b"7"
    assert seed_bytes("é") == "é".encode()


@given(st.one_of(st.binary(max_size=16), st.text(max_size=8), st.integers()))
def test_deal_properties(seed):
    d = deal(seed, JDF)
    assert len(d.hands) == 4
    assert all(h.bit_count() == 13 for h in d.hands)
    assert d.blind.bit_count() == 2
    assert d.blind & JOKERS == 0 and d.blind & NUMBERS == d.blind
    union = d.blind
    for hand in d.hands:
        assert union & hand == 0
        union |= hand
    assert union == FULL_DECK
    assert sum(h & JOKERS for h in d.hands) == JOKERS


def test_blind_cards_switch_zero_deals_every_card():
    d = deal("x", JDF.with_overrides(blind_cards=0))
    assert d.blind == 0
    assert [h.bit_count() for h in d.hands] == [14, 14, 13, 13]
    union = 0
    for hand in d.hands:
        union |= hand
    assert union == FULL_DECK


def test_deal_to_record():
    rec = deal("s", JDF).to_record()
    assert len(rec["hands"]) == 4 and len(rec["blind"]) == 2
