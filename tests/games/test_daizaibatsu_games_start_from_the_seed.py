"""A 大財閥 game starts from the round's committed seed: its hands and its draw pile (山札) are
the engine's deal of the game's material ``SEED/table/T/set/S/game/G``, and every renewal of
the pile is derived from that same material, so the revealed seed verifies every draw. An open
table knows neither hands nor pile. An event cannot be drawn while the organiser has not set
the two switches the preset leaves open."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games import services
from games.display import card
from games.engine.daizaibatsu import deal
from games.engine.daizaibatsu_combos import card_name, names
from games.engine.daizaibatsu_rules import DAIZAIBATSU
from games.models import Game
from games.state import rebuild
from tests.factories import (
    DAIZAIBATSU_SET,
    EntryFactory,
    OfficialFactory,
    StageFactory,
    TournamentFactory,
    UserFactory,
    daizaibatsu_table,
)
from tournaments import services as tournament_services
from tournaments.models import Entry, Official, Round, Table
from tournaments.services import DomainError

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee() -> User:
    return UserFactory(username="ref-sato")


@pytest.fixture
def table(referee: User) -> Table:
    table = daizaibatsu_table(referee)
    return table


def material(table: Table, game: int = 1) -> str:
    return f"{table.round.seed_secret}/table/{table.number}/set/1/game/{game}"


def test_the_hands_and_the_pile_are_the_deal_of_the_games_material(
    table: Table, referee: User
) -> None:
    game = services.start_game(table, referee)

    expected = deal(material(table), DAIZAIBATSU.with_overrides(**DAIZAIBATSU_SET))
    assert game.hands == [names(h) for h in expected.hands]
    assert game.pile == [card_name(c) for c in expected.pile]
    # Rule F1: 13 cards to each of four seats, the rest of the 108 is the pile.
    assert [len(h) for h in game.hands] == [13, 13, 13, 13]
    assert len(game.pile) == 108 - 52


def test_the_next_game_of_the_set_has_its_own_deal(table: Table, referee: User) -> None:
    first = services.start_game(table, referee)
    Game.objects.filter(pk=first.pk).update(
        status=Game.Status.FINISHED, finished_at=first.created_at
    )

    second = services.start_game(table, referee)

    assert second.game_number == 2
    expected = deal(material(table, 2), DAIZAIBATSU.with_overrides(**DAIZAIBATSU_SET))
    assert second.pile == [card_name(c) for c in expected.pile]


def test_pile_renewals_follow_from_the_same_material(table: Table, referee: User) -> None:
    game = services.start_game(table, referee)

    state = rebuild(game)

    assert state.setup.seed == material(table).encode()
    assert state.pile_count == 56


def test_the_holder_of_the_diamond_three_leads_a_known_deal(table: Table, referee: User) -> None:
    game = services.start_game(table, referee)

    holders = [seat for seat, hand in enumerate(game.hands) if "3D" in hand]
    # Both ♦3 may be in the pile: then seat 1 (engine seat 0) leads.
    assert rebuild(game).turn == (holders[0] if holders else 0)


def test_an_open_table_knows_neither_hands_nor_pile(table: Table, referee: User) -> None:
    game = services.start_game(table, referee, mode=Game.Mode.OPEN_TABLE, leader=2)

    assert game.hands == [None] * 4
    assert game.pile is None
    state = rebuild(game)
    assert state.pile_count == 56
    assert state.turn == 2


def test_an_open_table_needs_its_leader(table: Table, referee: User) -> None:
    with pytest.raises(services.GameError) as refused:
        services.start_game(table, referee, mode=Game.Mode.OPEN_TABLE)

    assert refused.value.code == "leader_required"
    assert not Game.objects.exists()


def _event_with_four(overrides: dict[str, object]) -> tuple[User, object]:
    organiser = UserFactory(username="org-kato")
    tournament = TournamentFactory(
        ruleset_id="daizaibatsu", ruleset_version=1, ruleset_overrides=overrides
    )
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    for number in range(1, 5):
        EntryFactory(tournament=tournament, number=number, status=Entry.Status.CHECKED_IN)
    return organiser, StageFactory(tournament=tournament, order=1)


def test_the_preset_alone_cannot_be_drawn() -> None:
    organiser, stage = _event_with_four({})

    with pytest.raises(DomainError) as refused:
        tournament_services.draw_round(stage, organiser)

    assert refused.value.code == "ruleset_incomplete"
    assert "finish_kill_card" in str(refused.value)
    assert "zaibatsu_revolution" in str(refused.value)
    assert not Round.objects.exists()


def test_once_both_switches_are_set_the_event_draws() -> None:
    organiser, stage = _event_with_four({"finish_kill_card": "7S", "zaibatsu_revolution": "off"})

    round_ = tournament_services.draw_round(stage, organiser)

    assert round_.tables.count() == 1


def _revealed(table: Table) -> None:
    now = timezone.now()
    Round.objects.filter(pk=table.round_id).update(
        status=Round.Status.REVEALED, completed_at=now, revealed_at=now
    )


def test_the_round_page_shows_the_pile_of_a_revealed_game(client: Client, table: Table) -> None:
    _revealed(table)
    tournament = table.round.stage.tournament
    expected = deal(material(table), DAIZAIBATSU.with_overrides(**DAIZAIBATSU_SET))

    page = client.get(
        f"/tournaments/{tournament.slug}/rounds/{table.round_id}/?table=1&set_number=1&game=1"
    ).content.decode()

    pile = " ".join(card(card_name(c))["label"] for c in expected.pile)
    assert f'<code class="pile" data-testid="pile">{pile}</code>' in page
    assert "kakumei-daizaibatsu-renewal/1" in page


def test_the_round_page_explains_the_pile_in_japanese(table: Table) -> None:
    client_ja = Client(HTTP_ACCEPT_LANGUAGE="ja")
    tournament = table.round.stage.tournament

    page = client_ja.get(f"/tournaments/{tournament.slug}/rounds/{table.round_id}/")

    assert "流れた札・捨てた札・破壊された札" in page.content.decode()
