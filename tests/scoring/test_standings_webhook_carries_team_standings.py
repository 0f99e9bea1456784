"""A team event's `standings.changed` webhook (掼蛋 Guandan) carries the scope's team standings
beside the players' — each team's rank, name, members, match points, W-D-L and, for a match in
play, its opponent and the levels as they stand (nothing of any hand); an event played alone
has no `team_standings` key. Posted to a real HTTP server on 127.0.0.1 (no mocks)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring import webhooks
from scoring.standings import recompute_tournament
from tests.factories import (
    OfficialFactory,
    UserFactory,
    guandan_hand,
    match_table,
    published_round,
    team_league,
)
from tests.games.conftest import Crew
from tests.scoring.conftest import Receiver
from tournaments.models import Official

pytestmark = pytest.mark.django_db


def posted(receiver: Receiver) -> dict[str, dict[str, Any]]:
    events = [json.loads(body)["data"] for _, body in receiver.received]
    return {e["scope"]["kind"]: e for e in events}


def test_a_team_events_standings_webhook_carries_the_team_standings(
    receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, stage, (t1, t2, t3, t4) = team_league()
    round_ = published_round(stage, 1)
    guandan_hand(match_table(round_, 1, t1, t2), 1, ("A", "8"), won=0)
    guandan_hand(match_table(round_, 2, t3, t4), 1, ("5", "2"))
    organiser = UserFactory(username="gd-hook-org")
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    webhooks.create_endpoint(tournament, organiser, receiver.url, ["standings.changed"])

    with django_capture_on_commit_callbacks(execute=True):
        recompute_tournament(tournament.pk)

    events = posted(receiver)
    assert sorted(events) == ["stage", "tournament"]
    teams = events["tournament"]["team_standings"]
    assert [(t["rank"], t["team"], t["team_name"]) for t in teams][:1] == [(1, 1, "Team 1")]
    first = teams[0]
    assert first["members"] == ["Aoki A", "Aoki B"]
    assert (first["match_points"], first["wins"], first["losses"]) == (2, 1, 0)
    in_play = next(t for t in teams if t["team"] == 3)["in_play"]
    assert in_play is not None and in_play["opponent"] == 4
    assert in_play["levels"] == ["5", "2"]
    assert events["stage"]["team_standings"] == teams
    assert in_play["hands"] == 1  # how many hands, never a card
    assert '"cards"' not in json.dumps(events)


def test_an_event_played_alone_has_no_team_standings(
    crew: Crew, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    webhooks.create_endpoint(crew.tournament, crew.organiser, receiver.url, ["standings.changed"])

    with django_capture_on_commit_callbacks(execute=True):
        recompute_tournament(crew.tournament.pk)

    for event in posted(receiver).values():
        assert "team_standings" not in event
