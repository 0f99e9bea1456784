"""After a 1-2 finish the other pair never goes out: both share 3rd place in the results, and
the console and the public live page call them 双下 (not out), not "third out"; a hand whose
four places are all called keeps 三遊 and 末遊."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import guandan_console

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ONE_TWO = [["3C"], ["4S", "4D"], ["5S"], ["6S", "7D"]]  # Aoki leads out, Chiba follows


def play_a_one_two_finish(client: Client, table_id: int) -> None:
    url = f"/referee/tables/{table_id}/play/"
    client.post(url, {"seq": 1, "seat": 0, "cards": ["3C"]})
    client.post(url, {"seq": 2, "seat": 1, "action": "pass"})
    client.post(url, {"seq": 3, "seat": 2, "cards": ["5S"]})


def test_the_console_calls_the_pair_left_holding_cards_not_out() -> None:
    _, table, _, client = guandan_console(hands=ONE_TWO)
    play_a_one_two_finish(client, table.pk)

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()

    assert "Baba — not out (shuāngxià)" in page and "Doi — not out (shuāngxià)" in page
    assert "third out" not in page


def test_the_public_live_page_calls_them_not_out_in_japanese() -> None:
    _, table, _, client = guandan_console(hands=ONE_TWO)
    play_a_one_two_finish(client, table.pk)

    page = Client(headers={"accept-language": "ja"}).get(f"/tables/{table.pk}/live/")

    text = page.content.decode()
    assert text.count("双下（上がれず）") == 2
    assert "三遊" not in text


def test_a_hand_with_four_places_called_keeps_third_and_last() -> None:
    _, table, _, client = guandan_console(mode="quick")

    page = client.post(
        f"/referee/tables/{table.pk}/quick/",
        {"place_1": "0", "place_2": "1", "place_3": "3", "place_4": "2"},
        **HTMX,
    ).content.decode()

    assert "— third out (sānyóu)" in page and "— last (mòyóu)" in page
    assert "not out" not in page
