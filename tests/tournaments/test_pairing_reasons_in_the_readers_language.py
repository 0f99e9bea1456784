"""A Swiss pairing's reasons are kept as facts (`TableReason`, `ByeReason`) from which its English
sentence, the stored record, is built; pages say the same facts in the reader's language, and a
row drawn before facts were stored shows its stored text."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from tests.factories import (
    GuandanTournamentFactory,
    OfficialFactory,
    StageFactory,
    UserFactory,
    checked_in_teams,
    finished_match,
)
from tournaments import services
from tournaments.models import Official, Round
from tournaments.pairing import (
    ByeReason,
    Elsewhere,
    PairHistory,
    PairTeam,
    TableReason,
    TeamRef,
    bye_reason_of,
    bye_sentence,
    reason_record,
    swiss_pairing,
    table_reason_of,
    table_sentence,
)
from tournaments.pairing_words import bye_reason_words, table_reason_words

SAKURA = TeamRef(1, "Team 1 Sakura", 4, 1, "Sakura")
FUJI = TeamRef(2, "Team 2 Fuji", 2, 2, "Fuji")
KAZE = TeamRef(3, "Team 3 Kaze", 4, 3, "Kaze")
UMI = TeamRef(4, "Team 4 Umi", 2, 4, "Umi")
YAMA = TeamRef(5, "Team 5 Yama", 1.5)  # no number: named by its label in every language

TABLE_REASONS = {
    "lot": TableReason("lot", SAKURA, FUJI),
    "group": TableReason("group", SAKURA, KAZE, 4),
    "group, a repeat": TableReason("group", SAKURA, KAZE, 4, met_in=("1.1", "1.3"), repeats=2),
    "float, nobody unplayed": TableReason("float", SAKURA, FUJI, 4),
    "float, nobody unplayed, a repeat": TableReason(
        "float", SAKURA, FUJI, 4, met_in=("1.2",), repeats=1
    ),
    "float, paired elsewhere": TableReason(
        "float", SAKURA, FUJI, 4, (Elsewhere(KAZE, UMI), Elsewhere(UMI, YAMA))
    ),
    "float, paired elsewhere, a repeat": TableReason(
        "float", SAKURA, FUJI, 4, (Elsewhere(KAZE, UMI),), ("1.1",), 1
    ),
    "half points": TableReason("group", YAMA, YAMA, 1.5),
}
BYE_REASONS = {
    "lot": ByeReason("lot", YAMA),
    "lowest": ByeReason("lowest", YAMA),
    "lowest of the fewest": ByeReason("lowest", FUJI, 1),
    "next lowest": ByeReason("next_lowest", FUJI, 0, (YAMA,)),
    "next lowest of the fewest": ByeReason("next_lowest", FUJI, 2, (YAMA, UMI)),
}


@pytest.mark.parametrize("reason", TABLE_REASONS.values(), ids=TABLE_REASONS.keys())
def test_a_tables_reason_is_stored_as_facts_and_read_back_as_the_same_sentence(
    reason: TableReason,
) -> None:
    stored = table_reason_of(reason_record(reason))

    assert stored == reason
    with translation.override("en"):
        assert table_reason_words(stored) == table_sentence(reason)


@pytest.mark.parametrize("reason", BYE_REASONS.values(), ids=BYE_REASONS.keys())
def test_a_byes_reason_is_stored_as_facts_and_read_back_as_the_same_sentence(
    reason: ByeReason,
) -> None:
    stored = bye_reason_of(reason_record(reason))

    assert stored == reason
    with translation.override("en"):
        assert bye_reason_words(stored) == bye_sentence(reason)


@pytest.mark.parametrize("reason", TABLE_REASONS.values(), ids=TABLE_REASONS.keys())
def test_a_tables_reason_reads_in_japanese(reason: TableReason) -> None:
    with translation.override("ja"):
        words = table_reason_words(reason)

    assert words != table_sentence(reason)
    assert "MP" not in words and "paired" not in words and " v " not in words
    assert "対" in words


@pytest.mark.parametrize("reason", BYE_REASONS.values(), ids=BYE_REASONS.keys())
def test_a_byes_reason_reads_in_japanese(reason: ByeReason) -> None:
    with translation.override("ja"):
        words = bye_reason_words(reason)

    assert "had a bye" not in words and "MP" not in words
    assert "不戦" in words


def test_the_japanese_reasons_say_the_facts() -> None:
    with translation.override("ja"):
        group = table_reason_words(TABLE_REASONS["group"])
        floated = table_reason_words(TABLE_REASONS["float, paired elsewhere, a repeat"])
        bye = bye_reason_words(BYE_REASONS["lowest"])

    assert group == ("チーム 1 Sakura（勝点4）対 チーム 3 Kaze（勝点4）：勝点4点グループ内で対戦。")
    assert "チーム 1 Sakuraが下位グループへ" in floated
    assert "他の卓で対戦（チーム 3 Kaze 対 チーム 4 Umi）" in floated
    assert "ラウンド1.1で対戦済み" in floated
    assert bye == "Team 5 Yama（勝点1.5）は不戦：不戦未経験のチームで最下位。"


def test_every_reason_the_pairing_gives_is_its_own_english_sentence() -> None:
    teams = [
        PairTeam(n, f"Team {n}", points, n % 3, n, f"T{n}")
        for n, points in enumerate([4, 4, 2, 2, 2, 0, 0], start=1)
    ]
    history = PairHistory(meetings=((1, 2, "1.1"), (3, 4, "1.1"), (5, 6, "1.2")), byes=(7,))
    draw = swiss_pairing(teams, seed="s", history=history)

    assert draw.bye_reason is not None
    assert draw.bye_explanation == bye_sentence(draw.bye_reason)
    for table in draw.tables:
        assert table.reason is not None
        assert table.explanation == table_sentence(table.reason)
        assert table.reason.first.id == table.teams[0]
        assert table.reason.second.id == table.teams[1]


# --- the round pages ------------------------------------------------------------------------


@pytest.fixture
def organiser() -> User:
    return UserFactory(username="gd-reasons-organiser")


@pytest.fixture
def second_round(organiser: User) -> Round:
    """Round 2 of five teams (round 1 played: the first team of each table won)."""
    cup = GuandanTournamentFactory(name="Reasons Cup", slug="reasons-cup")
    OfficialFactory(tournament=cup, user=organiser, role=Official.Role.ORGANISER)
    stage = StageFactory(tournament=cup, order=1, name="Swiss")
    checked_in_teams(cup, 5)
    first = services.draw_round(stage, organiser, seed="one")
    services.publish_round(first, organiser)
    for table in first.tables.all():
        finished_match(table, levels=("A", "9"), winner=0, hands=2)
    services.complete_round(first, organiser)
    second = services.draw_round(stage, organiser, seed="two")
    services.publish_round(second, organiser)
    return second


def pages(round_: Round) -> list[str]:
    slug = round_.stage.tournament.slug
    return [f"/organiser/{slug}/rounds/{round_.pk}/", f"/tournaments/{slug}/rounds/{round_.pk}/"]


@pytest.mark.django_db
def test_a_second_rounds_reasons_are_stored_as_facts(second_round: Round) -> None:
    for table in second_round.tables.all():
        assert table.reason is not None
        assert table_sentence(table_reason_of(table.reason)) == table.explanation
    for bye in second_round.byes.all():
        assert bye.reason is not None
        assert bye_sentence(bye_reason_of(bye.reason)) == bye.explanation


@pytest.mark.django_db
def test_a_second_round_in_japanese_gives_the_reasons_in_japanese(
    client: Client, organiser: User, second_round: Round
) -> None:
    client.force_login(organiser)
    for url in pages(second_round):
        body = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()

        for table in second_round.tables.all():
            assert table.explanation not in body
            with translation.override("ja"):
                assert table_reason_words(table_reason_of(table.reason)) in body
        bye = second_round.byes.first()
        assert bye is not None and bye.explanation not in body
        assert "は不戦：不戦未経験のチームで最下位。" in body
        assert " MP)" not in body and "had a bye" not in body


@pytest.mark.django_db
def test_a_second_round_in_english_gives_the_reasons_in_english(
    client: Client, organiser: User, second_round: Round
) -> None:
    client.force_login(organiser)
    for url in pages(second_round):
        body = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

        for table in second_round.tables.all():
            assert table.explanation in body
        bye = second_round.byes.first()
        assert bye is not None and bye.explanation in body


@pytest.mark.django_db
def test_a_row_drawn_before_reasons_were_stored_shows_its_stored_text(
    client: Client, organiser: User, second_round: Round
) -> None:
    second_round.tables.update(reason=None, explanation="Written by an older draw.")
    second_round.byes.update(reason=None, explanation="An older bye's words.")
    client.force_login(organiser)
    for url in pages(second_round):
        body = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()

        assert body.count("Written by an older draw.") == second_round.tables.count()
        assert "An older bye's words." in body or "An older bye&#x27;s words." in body
