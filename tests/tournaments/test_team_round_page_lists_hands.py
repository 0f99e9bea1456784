"""The organiser's round page of a team event lists each table's games as the match's hands
("Hand 2", 「第2局」) and says which hand keeps the round open ("Table 1, hand 3: not
started"), not as a 大富豪 set's games ("Set 1 · game 2")."""

from __future__ import annotations

import pytest

from tests.factories import (
    OfficialFactory,
    UserFactory,
    browser,
    guandan_hand,
    match_table,
    published_round,
    team_league,
)
from tournaments.models import Official

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", ["Hand 2", "Table 1, hand 3: not started"]), ("ja", ["第2局", "1卓 第3局：未開始"])],
)
def test_a_team_match_lists_its_hands(language: str, words: list[str]) -> None:
    tournament, stage, (t1, t2, *_) = team_league()
    organiser = UserFactory(username=f"gd-round-{language}")
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    round_ = published_round(stage, 1)
    table = match_table(round_, 1, t1, t2)
    for hand in (1, 2):
        guandan_hand(table, hand, ("3", "2"))
    client = browser(language)
    client.force_login(organiser)

    page = client.get(f"/organiser/{tournament.slug}/rounds/{round_.pk}/").content.decode()

    assert all(w in page for w in words)
    assert "Set 1 · game" not in page and "set 1" not in page and "第1セット" not in page
