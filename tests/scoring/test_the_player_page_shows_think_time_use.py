"""The public player page shows, per tournament, how the player used the think-time clock in
games that have ended: decisions timed, mean and longest think time, decisions over the limit,
and time faults (時間切れ). A game still in play shows nothing of its clock."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from games.services import record_time_fault, submit_move
from tests.factories import (
    GameFactory,
    OfficialFactory,
    UserFactory,
    backdate_decision,
    browser,
    seated_table,
)
from tournaments.models import Official

# The clock fixture: the think times asserted here are exact, whatever the machine's load.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]

# JDF-T17: seat 0 (Aoki) leads ♦5, later passes; seat 3 (Doi) wins with ♥6.
HANDS = [["5D", "9C"], ["2C"], ["JK"], ["6H"]]
MOVES = [
    ({"seat": 0, "play": ["5D"]}, 6),
    ({"seat": 1, "play": ["2C"]}, 1),
    ({"seat": 2, "play": ["JK"]}, 1),
    ({"seat": 3, "pass": True}, 1),
    ({"seat": 0, "pass": True}, 30),
    ({"seat": 3, "play": ["6H"]}, 1),
]


def play(game: Game, referee: object, until: int) -> None:
    for seq, (move, seconds) in enumerate(MOVES[:until], start=1):
        backdate_decision(game, seconds)
        if seq == 5:
            record_time_fault(game, 0, referee)
        assert submit_move(game, move, seq, referee).ok  # type: ignore[arg-type]


@pytest.fixture
def table_and_referee() -> tuple[object, object]:
    referee = UserFactory(username="ref-clock")
    table = seated_table(referee)
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    return table, referee


def test_the_page_counts_the_players_decisions_and_faults(
    client: Client, table_and_referee: tuple[object, object]
) -> None:
    table, referee = table_and_referee
    game = GameFactory(table=table, game_number=1, hands=HANDS, leader=0)
    play(game, referee, len(MOVES))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    aoki = table.seats.get(position=1).entry.player  # type: ignore[attr-defined]

    page = browser("en").get(f"/players/{aoki.pk}/").content.decode()
    japanese = browser("ja").get(f"/players/{aoki.pk}/").content.decode()

    use = page[page.index('data-testid="clock-use"') :]
    use = use[: use.index("</dl>")]
    assert "<dt>Decisions timed</dt><dd>2</dd>" in use
    assert "<dt>Mean think time</dt><dd>18.0 s</dd>" in use
    assert "<dt>Longest think time</dt><dd>30.0 s</dd>" in use
    assert "<dt>Over the 20 s limit</dt><dd>1</dd>" in use
    assert "<dt>Time faults (時間切れ)</dt><dd>1</dd>" in use
    assert "平均思考時間" in japanese


def test_a_game_in_play_shows_nothing_of_its_clock(
    client: Client, table_and_referee: tuple[object, object]
) -> None:
    table, referee = table_and_referee
    done = GameFactory(table=table, game_number=1, hands=HANDS, leader=0)
    play(done, referee, len(MOVES))
    Game.objects.filter(pk=done.pk).update(status=Game.Status.IN_PLAY, finished_at=None)
    aoki = table.seats.get(position=1).entry.player  # type: ignore[attr-defined]

    page = browser("en").get(f"/players/{aoki.pk}/").content.decode()

    assert 'data-testid="clock-use"' not in page
