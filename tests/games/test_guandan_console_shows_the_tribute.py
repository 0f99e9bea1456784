"""After a hand the tribute is the pending decision: the payer (进贡) is offered only the cards
the engine allows — the highest other than the wild —, then the receiver gives one back (还贡)
from the cards allowed; two big jokers held by the payers block it (抗贡), announced."""

from __future__ import annotations

import re

import pytest

from games.engine.guandan import Match
from tests.factories import guandan_console

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Last hand Aoki went out first and Chiba third (1-3): team 0 plays its level 4 (♥4 wild), Doi
# (last) pays Aoki. Doi's highest card other than ♥4 is the level card ♠4.
AFTER_ONE_THREE = Match(levels=(4, 2), previous=(0, 1, 2, 3))
HANDS = [
    ["3S", "5S", "9C", "KD", "KD"],
    ["4D", "QS", "AH", "6C"],
    ["6S", "6H", "9D", "TD"],
    ["4H", "4S", "AS", "AD", "KS", "3C"],
]


def allowed(page: str, form: str) -> list[str]:
    start = page.index(f'data-testid="{form}"')
    form_html = page[start : page.index("</form>", start)]
    return re.findall(r'type="radio" name="cards" value="(\w+)"', form_html)


def test_the_payer_is_offered_only_the_highest_card_other_than_the_wild() -> None:
    _, table, _, client = guandan_console(hands=HANDS, match=AFTER_ONE_THREE)

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()

    assert "Doi (seat 4) pays tribute" in page
    assert allowed(page, "tribute-tribute-4") == ["4S"]
    assert 'data-testid="hand"' not in page  # nobody plays before the tribute is settled


def test_the_receiver_gives_back_one_of_the_cards_allowed() -> None:
    _, table, game, client = guandan_console(hands=HANDS, match=AFTER_ONE_THREE)
    url = f"/referee/tables/{table.pk}/play/"

    page = client.post(
        url, {"seq": 1, "seat": 3, "cards": "4S", "action": "tribute"}, **HTMX
    ).content.decode()

    assert "Aoki (seat 1) gives a card back to Doi" in page
    # Ten or lower (guandan-cn), never the card just received: not ♠4 (the level card), not K.
    assert allowed(page, "tribute-return-1") == ["3S", "5S", "9C"]
    client.post(url, {"seq": 2, "seat": 0, "cards": "9C", "action": "return"}, **HTMX)
    assert [m.payload for m in game.moves.order_by("seq")] == [
        {"seat": 3, "tribute": ["4S"]},
        {"seat": 0, "return": ["9C"]},
    ]


def test_two_big_jokers_with_the_payers_block_the_tribute() -> None:
    hands = [list(h) for h in HANDS]
    hands[3] = ["BJ", "BJ", "AS", "AD", "KS", "3C"]
    _, table, _, client = guandan_console(hands=hands, match=AFTER_ONE_THREE)

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()

    assert 'data-testid="anti-tribute"' in page and "Anti-tribute (kànggòng): Doi" in page
    assert 'data-testid="turn">Aoki (seat 1)' in page  # first place leads at once


def test_first_place_chooses_between_two_equal_tributes_where_the_preset_says_so() -> None:
    # pagat: after a 1-2 finish both losers pay; two equal cards and first place chooses.
    hands = [["3S", "5S"], ["KS", "3C"], ["6S", "9D"], ["KH", "4C"]]
    match = Match(levels=(2, 2), previous=(0, 2, 1, 3))
    _, table, game, client = guandan_console(hands=hands, match=match, ruleset_id="guandan-pagat")
    url = f"/referee/tables/{table.pk}/play/"
    client.post(url, {"seq": 1, "seat": 1, "cards": "KS", "action": "tribute"}, **HTMX)
    page = client.post(
        url, {"seq": 2, "seat": 3, "cards": "KH", "action": "tribute"}, **HTMX
    ).content.decode()

    assert 'data-testid="tribute-take-1"' in page
    assert "Two equal tributes: Aoki chooses whose to take" in page
    client.post(url, {"seq": 3, "seat": 0, "take": "3", "action": "take"}, **HTMX)
    assert game.moves.get(seq=3).payload == {"seat": 0, "take": 3}
