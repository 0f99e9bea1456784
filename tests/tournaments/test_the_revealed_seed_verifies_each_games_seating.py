"""Once the seed is revealed, the public round page's deal check gives each hand to whoever sat
in that seat in that game: after a seat change, the seating drawn from the same seed (and it
shows the seating's material, so anyone can recompute it)."""

from __future__ import annotations

import pytest

from games import services as games
from tests.factories import OfficialFactory, UserFactory, browser, cycling_table, play_quick_games
from tournaments import services
from tournaments.deals import derive_deal
from tournaments.models import Official, Round
from tournaments.views import _labels

pytestmark = pytest.mark.django_db
SEED = "ab" * 32  # game 4 seats positions 1 4 3 5 2: Aoki, Doi, Chiba, Endo, Baba


@pytest.fixture
def revealed(db: None) -> Round:
    referee = UserFactory(username="ref-reveal")
    table = cycling_table(referee, seed=SEED, games_per_set=4)
    organiser = UserFactory(username="org-reveal")
    tournament = table.round.stage.tournament
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    for game in play_quick_games(table, referee, 4):
        games.confirm_game(game, organiser)  # type: ignore[arg-type]
    return services.reveal_round_seed(table.round, organiser)


def rows(html: str) -> list[str]:
    body = html.split('class="grid deal"', 1)[1].split("</table>", 1)[0]
    return [row for row in body.split("<tr>")[2:] if "Blind" not in row]


def test_game_4_hands_go_to_the_players_of_its_new_seating(revealed: Round) -> None:
    tournament = revealed.stage.tournament
    url = f"/tournaments/{tournament.slug}/rounds/{revealed.pk}/?table=1&set_number=1&game=4"

    html = browser("en").get(url).content.decode()

    dealt = derive_deal(
        SEED, ruleset_id="uecda", ruleset_version=1, seats=5, table=1, set_number=1, game=4
    )
    assert f"{SEED}/table/1/set/1/seating/1" in html
    expected = ["Aoki", "Doi", "Chiba", "Endo", "Baba"]
    for seat, (row, name) in enumerate(zip(rows(html), expected, strict=True)):
        assert f'<td class="num">{seat + 1}</td>' in row and name in row
        assert " ".join(_labels(dealt.hands[seat])) in row


def test_game_3_is_dealt_to_the_table_as_drawn(revealed: Round) -> None:
    tournament = revealed.stage.tournament
    url = f"/tournaments/{tournament.slug}/rounds/{revealed.pk}/?table=1&set_number=1&game=3"

    html = browser("en").get(url).content.decode()

    assert "/seating/" not in html.split('class="grid deal"', 1)[0].split("Verify a deal")[1]
    names = ["Aoki", "Baba", "Chiba", "Doi", "Endo"]
    assert all(name in row for row, name in zip(rows(html), names, strict=True))
