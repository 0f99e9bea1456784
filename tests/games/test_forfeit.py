"""A player who leaves mid-game (途中棄権) is placed last, flagged; those already out keep their
places; the others still holding cards finish by fewest cards left — or, under the
`referee_order` rule and in quick games, in the order the official gives. The leaver may score
the tournament's `forfeit_leaver_points`. A forfeited game is settled: the round can complete."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from games.models import Game
from games.services import GameError, forfeit_seat, start_game, submit_move
from tests.factories import GameFactory
from tournaments.models import AuditEntry, Round, Tournament
from tournaments.selectors import round_blockers
from tournaments.services import complete_round

from .conftest import Crew

pytestmark = pytest.mark.django_db

# Aoki leads a lone ♠4 and goes out at once; Baba holds 2 cards, Chiba 3, Doi 4.
HANDS = [["4S"], ["5H", "6H"], ["7C", "9C", "TC"], ["9D", "TD", "JD", "QD"]]


def game_with_aoki_out(crew: Crew) -> Game:
    game: Game = GameFactory(table=crew.table, game_number=1, hands=HANDS, leader=0)
    assert submit_move(game, {"seat": 0, "play": ["4S"]}, 1, crew.referee).ok
    game.refresh_from_db()
    return game


def placed(game: Game) -> list[tuple[int, int, bool, int]]:
    """(seat, place, forfeit flag, points), first place first."""
    return [(r.seat, r.place, r.forfeit, r.points) for r in game.results.order_by("place")]


def set_rule(crew: Crew, **fields: object) -> None:
    Tournament.objects.filter(pk=crew.tournament.pk).update(**fields)


def test_the_leaver_is_last_and_the_others_finish_by_cards_left(crew: Crew) -> None:
    game = game_with_aoki_out(crew)

    version = forfeit_seat(game, crew.head_referee, seat=2, reason="Chiba felt unwell")

    # Aoki kept first place; Baba (2 cards) before Doi (4 cards); Chiba, who left, last.
    assert placed(game) == [
        (0, 1, False, 3),
        (1, 2, False, 2),
        (3, 3, False, 1),
        (2, 4, True, 0),
    ]
    game.refresh_from_db()
    assert (game.status, game.forfeit_seat, version.kind) == (Game.Status.FINISHED, 2, "forfeit")
    audit = AuditEntry.objects.get(game=game, action=AuditEntry.Action.SEAT_FORFEITED)
    assert (audit.reason, audit.data["seat"]) == ("Chiba felt unwell", 2)


def test_under_referee_order_the_official_orders_the_others(crew: Crew) -> None:
    set_rule(crew, forfeit_others=Tournament.ForfeitOthers.REFEREE_ORDER)
    game = game_with_aoki_out(crew)

    with pytest.raises(GameError) as caught:
        forfeit_seat(game, crew.head_referee, seat=2, reason="left the venue")
    forfeit_seat(game, crew.head_referee, seat=2, reason="left the venue", order=[3, 1])

    assert caught.value.code == "forfeit_order_invalid"
    assert [(s, p) for s, p, _, _ in placed(game)] == [(0, 1), (3, 2), (1, 3), (2, 4)]


def test_a_quick_game_needs_the_order_of_every_other_player(crew: Crew) -> None:
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)

    with pytest.raises(GameError):
        forfeit_seat(game, crew.head_referee, seat=0, reason="left", order=[1, 2])
    forfeit_seat(game, crew.head_referee, seat=0, reason="left", order=[3, 1, 2])

    assert [(s, p, f) for s, p, f, _ in placed(game)] == [
        (3, 1, False),
        (1, 2, False),
        (2, 3, False),
        (0, 4, True),
    ]


def test_the_leaver_scores_the_tournaments_forfeit_points(crew: Crew) -> None:
    set_rule(crew, forfeit_leaver_points=-2)
    game = game_with_aoki_out(crew)

    forfeit_seat(game, crew.head_referee, seat=1, reason="walked out")

    assert placed(game)[-1] == (1, 4, True, -2)
    assert placed(game)[0] == (0, 1, False, 3)


def test_a_forfeited_game_is_settled_so_the_round_can_complete(crew: Crew) -> None:
    set_rule(crew, games_per_set=1, sets_per_round=1)
    round_ = Round.objects.select_related("stage__tournament").get(pk=crew.table.round_id)
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    assert [b.code for b in round_blockers(round_)] == ["in_play"]

    forfeit_seat(game, crew.head_referee, seat=3, reason="left", order=[0, 1, 2])

    game.refresh_from_db()
    assert game.is_settled and game.status == Game.Status.FINISHED  # not confirmed: no need
    assert round_blockers(round_) == []
    assert complete_round(round_, crew.organiser).status == "complete"


def test_a_plain_referee_cannot_forfeit_a_seat(crew: Crew) -> None:
    game = game_with_aoki_out(crew)

    with pytest.raises(PermissionDenied):
        forfeit_seat(game, crew.referee, seat=2, reason="left")

    game.refresh_from_db()
    assert (game.status, game.forfeit_seat) == (Game.Status.IN_PLAY, None)


def test_a_correction_that_keeps_the_leaver_last_keeps_the_forfeit_and_previews_its_points(
    crew: Crew,
) -> None:
    from games.services import correct_result, preview_correction

    set_rule(crew, forfeit_leaver_points=-2)
    game = game_with_aoki_out(crew)
    forfeit_seat(game, crew.head_referee, seat=1, reason="walked out")
    game.refresh_from_db()
    # Chiba and Doi finished the other way round; Baba (the leaver) stays last.
    order = [0, 3, 2, 1]

    preview = preview_correction(game, crew.head_referee, order)
    correct_result(
        game,
        crew.head_referee,
        finishing_order=order,
        reason="sheet",
        based_on_version=preview.based_on_version,
    )

    leaver_after = next(c.after for c in preview.changes if c.seat == 1)
    assert (leaver_after["place"], leaver_after["forfeit"], leaver_after["points"]) == (4, True, -2)
    game.refresh_from_db()
    assert game.forfeit_seat == 1
    assert placed(game)[-1] == (1, 4, True, -2)
