"""A stage's `tournament_order` (docs/formats.md, "The tournament's order"): by default
(`stage_first`) its entrants rank above everyone who stopped before it; `with_previous` ranks
them together with those who stopped at the stage before, by the tournament's total points,
and the board says so. Set on the stages page or the API at any time, audited, and refused on
the first stage with a code, changing nothing. With `carry_over_totals` the final's own
standings count the qualifying points, and the finalists still rank above the eliminated."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.standings import ScopeRef, recompute_tournament, standings
from tests.factories import browser
from tests.scoring.final_order_scenario import (
    FINAL,
    FINALISTS,
    LATE,
    QUALIFYING,
    Day,
    play_the_day,
    points_of,
    tournament_totals,
)
from tournaments import services
from tournaments.models import AuditEntry, Stage

pytestmark = pytest.mark.django_db
JSON = "application/json"


def _ranks(day: Day) -> dict[int, int]:
    numbers = {e.pk: n for n, e in day.entries.items()}
    rows = standings(ScopeRef.tournament(day.tournament.pk))
    return {numbers[r.entry_id]: r.rank for r in rows if r.entry_id is not None}


def test_with_previous_ranks_the_final_and_the_cut_together_by_total_points() -> None:
    day = play_the_day()
    changed = services.update_stage(
        day.final, day.organiser, tournament_order=Stage.TournamentOrder.WITH_PREVIOUS
    )
    assert changed == {"tournament_order": ("stage_first", "with_previous")}
    audit = AuditEntry.objects.filter(action=AuditEntry.Action.STAGE_EDITED).latest("pk")
    assert audit.data["changed"] == {"tournament_order": ["stage_first", "with_previous"]}
    recompute_tournament(day.tournament.pk)

    ranks, totals = _ranks(day), tournament_totals()
    # Ranked by the totals alone: more points, a better rank, whatever stage was reached —
    # the 5th qualifier (2 points) is now above the finalists on 1 and 0. The entrant who
    # played nothing still comes last.
    played = [n for n in ranks if n != LATE]
    for a in played:
        for b in played:
            if totals[a] > totals[b]:
                assert ranks[a] < ranks[b], (a, b)
    assert ranks[LATE] == len(ranks)
    assert ranks[11] < ranks[5] and ranks[11] < ranks[8]
    board = browser("ja").get(f"/standings/{day.tournament.slug}/").content.decode()
    assert "順位: 決勝・予選の通算点" in board


def test_the_first_stage_cannot_rank_with_a_stage_before_it(client: Client) -> None:
    day = play_the_day()
    with pytest.raises(services.StageRuleError) as refused:
        services.update_stage(
            day.qualifying, day.organiser, tournament_order=Stage.TournamentOrder.WITH_PREVIOUS
        )
    assert refused.value.code == "no_previous_stage"
    assert refused.value.message_ja
    day.qualifying.refresh_from_db()
    assert day.qualifying.tournament_order == Stage.TournamentOrder.STAGE_FIRST

    client.force_login(day.organiser)
    answer = client.patch(
        f"/api/stages/{day.qualifying.pk}/", {"tournament_order": "with_previous"}, JSON
    )
    assert answer.status_code == 400 and answer.json()["code"] == "no_previous_stage"
    unknown = client.patch(f"/api/stages/{day.final.pk}/", {"tournament_order": "points"}, JSON)
    assert unknown.status_code == 400
    day.final.refresh_from_db()
    assert day.final.tournament_order == Stage.TournamentOrder.STAGE_FIRST

    changed = client.patch(
        f"/api/stages/{day.final.pk}/", {"tournament_order": "with_previous"}, JSON
    )
    assert changed.status_code == 200 and changed.json()["tournament_order"] == "with_previous"


def test_the_stages_page_sets_the_order_in_japanese() -> None:
    day = play_the_day()
    ja = browser("ja")
    ja.force_login(day.organiser)
    page = ja.get(f"/organiser/{day.tournament.slug}/stages/{day.final.pk}/edit/")
    text = page.content.decode()
    assert "大会全体の順位" in text and "到達ステージ優先" in text
    posted = ja.post(
        f"/organiser/{day.tournament.slug}/stages/{day.final.pk}/edit/",
        {"name": "決勝", "kind": "final", "tournament_order": "with_previous"},
    )
    assert posted.status_code in (200, 302)
    day.final.refresh_from_db()
    assert day.final.tournament_order == Stage.TournamentOrder.WITH_PREVIOUS


def test_carried_qualifying_points_order_the_final_and_it_still_ranks_first() -> None:
    day = play_the_day(carry_over_totals=True)
    recompute_tournament(day.tournament.pk)
    ranks = _ranks(day)
    qualifying = points_of([game for table in QUALIFYING for game in table])
    final = points_of([FINAL])
    carried = {n: qualifying[n] + final[n] for n in FINALISTS}
    by_carried = sorted(FINALISTS, key=lambda n: -carried[n])
    assert [ranks[n] for n in by_carried] == [1, 2, 3, 4]
    assert all(ranks[n] > len(FINALISTS) for n in ranks if n not in FINALISTS)
