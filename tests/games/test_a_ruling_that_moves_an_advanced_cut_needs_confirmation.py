"""A void, a forfeit, a penalty given or withdrawn gets the same preview as a correction (issue
#35 §3): who moves from which rank to which, and a warning when the set of entrants above a
stage's cut changes. Where the stage has advanced already, such a ruling is refused without an
explicit confirmation (`cut_change_unconfirmed`: nothing changes), and saved with it, the
confirmation and the reason recorded in the audit; a cut that still moves with the boards (the
stage plays on — always so for a void or a forfeit) is shown and needs no confirmation.
Expected ranks and cuts come from the rule (tests/games/cut_rule.py), not from the standings
code."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game
from scoring.standings import ScopeRef, recompute_tournament, standings
from tests.factories import CUT_CUP_ORDERS, CUT_CUP_POINTS, CUT_CUP_TOP_N, CutCup, browser, cut_cup
from tests.games.cut_rule import cut_changes, rank_changes, totals
from tournaments.models import AuditEntry, Penalty
from tournaments.services import give_penalty

pytestmark = pytest.mark.django_db

EVERY_GAME = [order for sets in CUT_CUP_ORDERS.values() for order in sets]
# Table 1's third game: the last one played at it.
LAST = CUT_CUP_ORDERS[1][2]
BEFORE_THE_LAST = [order for order in EVERY_GAME if order is not LAST]


def api(user: object) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)  # type: ignore[arg-type]
    return client


def stage_moves(standings_body: dict[str, Any]) -> dict[str, tuple[int, bool, int, bool]]:
    stage = next(s for s in standings_body["scopes"] if s["scope"] == "stage")
    return {
        m["name"]: (m["rank_before"], m["tied_before"], m["rank_after"], m["tied_after"])
        for m in stage["rank_changes"]
    }


def cut_moves(standings_body: dict[str, Any]) -> dict[str, tuple[str, str]]:
    (change,) = standings_body["cut_changes"]
    return {m["name"]: (m["before"], m["after"]) for m in change["moves"]}


def stage_points(cup: CutCup) -> dict[str, int]:
    recompute_tournament(cup.tournament.pk)
    return {r.player.display_name: r.points for r in standings(ScopeRef.stage(cup.qualifying.pk))}


# --- void ------------------------------------------------------------------------------------


def test_a_void_that_moves_a_provisional_cut_is_previewed_and_needs_no_confirmation() -> None:
    cup = cut_cup(advanced=False)  # every game played, the round still open
    game = cup.game(1, 3)
    url = f"/api/games/{game.pk}/void/"
    body = {"reason": "misdeal", "redeal": False, "version": game.version}
    before = totals(EVERY_GAME, CUT_CUP_POINTS)
    after = totals(BEFORE_THE_LAST, CUT_CUP_POINTS)

    preview = api(cup.head).post(url, body | {"preview": True}, format="json")
    unchanged = stage_points(cup)
    saved = api(cup.head).post(url, body, format="json")

    assert preview.status_code == 200, preview.content
    shown = preview.json()["standings"]
    assert stage_moves(shown) == rank_changes(before, after)
    assert cut_moves(shown) == cut_changes(before, after, CUT_CUP_TOP_N)
    assert shown["cut_changes"][0]["advanced"] is False
    assert shown["needs_cut_confirmation"] is False
    assert unchanged == before
    assert saved.status_code == 200, saved.content
    game.refresh_from_db()
    assert game.status == Game.Status.VOID
    entry = AuditEntry.objects.get(action=AuditEntry.Action.GAME_VOIDED)
    assert entry.reason == "misdeal" and "cut_change_confirmed" not in entry.data
    assert entry.data["standings"]  # the rank changes are kept with the ruling
    assert stage_points(cup) == after


# --- forfeit ---------------------------------------------------------------------------------


def test_a_forfeit_that_moves_a_provisional_cut_warns_on_the_page_and_saves_without_a_box() -> None:
    cup = cut_cup(last_game=False)  # table 1's third game in play
    game = cup.game(1, 3)
    doi = cup.order_of(game, ["Doi"])[0]
    others = cup.order_of(game, ["Baba", "Aoki", "Chiba"])
    form = {
        "seat": str(doi),
        "reason": "Doi felt ill",
        "version": str(game.version),
        **{f"order_{seat}": str(n) for n, seat in enumerate(others, start=1)},
    }
    client = browser("ja")
    client.force_login(cup.head)
    url = f"/referee/games/{game.pk}/forfeit/"
    before = totals(BEFORE_THE_LAST, CUT_CUP_POINTS)
    after = totals([*BEFORE_THE_LAST, ["Baba", "Aoki", "Chiba", "Doi"]], CUT_CUP_POINTS)

    step = client.post(url, form)
    still = Game.objects.get(pk=game.pk).status
    saved = client.post(url, form | {"confirmed": "yes"})

    page = step.content.decode()
    assert 'data-testid="forfeit-confirm"' in page and "data-cut-warning" in page
    assert "Baba #2" in page and "4位（同率） → 2位" in page
    assert cut_changes(before, after, CUT_CUP_TOP_N) == {
        "Baba": ("tied", "in"),
        "Goto": ("tied", "out"),
        "Hara": ("tied", "out"),
    }
    assert "カットライン上で同率 → カット内" in page  # Baba
    assert "公開中の順位表のカットラインもこれに合わせて動きます" in page  # not advanced yet
    assert 'data-testid="confirm-cut-change"' not in page  # the cut is not fixed yet
    assert still == Game.Status.IN_PLAY  # the step only asked
    assert saved.status_code == 302
    entry = AuditEntry.objects.get(action=AuditEntry.Action.SEAT_FORFEITED)
    assert entry.reason == "Doi felt ill" and "cut_change_confirmed" not in entry.data
    assert stage_points(cup) == after


# --- penalties -------------------------------------------------------------------------------


def test_a_deduction_after_the_advance_is_previewed_and_needs_confirmation() -> None:
    cup = cut_cup()
    game = cup.game(1, 3)
    url = f"/api/games/{game.pk}/penalties/"
    body = {
        "seat": cup.order_of(game, ["Baba"])[0],
        "kind": "deduction",
        "points": 3,
        "reason": "marked cards",
    }
    before = totals(EVERY_GAME, CUT_CUP_POINTS)
    after = totals(EVERY_GAME, CUT_CUP_POINTS, {"Baba": 3})

    preview = api(cup.head).post(url, body | {"preview": True}, format="json")
    refused = api(cup.head).post(url, body, format="json")
    nothing = Penalty.objects.count()
    saved = api(cup.head).post(url, body | {"confirm_cut_change": True}, format="json")

    assert preview.status_code == 200, preview.content
    shown = preview.json()["standings"]
    assert stage_moves(shown) == rank_changes(before, after)
    assert cut_moves(shown) == cut_changes(before, after, CUT_CUP_TOP_N)
    assert shown["cut_changes"][0]["advanced_to"] == "決勝 Final"
    assert (refused.status_code, refused.json()["code"]) == (409, "cut_change_unconfirmed")
    assert nothing == 0
    assert saved.status_code == 201, saved.content
    entry = AuditEntry.objects.get(action=AuditEntry.Action.PENALTY_GIVEN)
    assert (entry.reason, entry.data["cut_change_confirmed"]) == ("marked cards", True)
    assert stage_points(cup) == after


def test_withdrawing_a_deduction_that_moved_the_cut_needs_confirmation_too() -> None:
    cup = cut_cup()
    game = cup.game(1, 3)
    penalty = give_penalty(
        cup.entries["Baba"],
        cup.head,
        kind="deduction",
        points=3,
        reason="marked cards",
        round_=cup.round,
        game_id=game.pk,
        confirm_cut_change=True,
    )
    client = browser("ja")
    client.force_login(cup.head)
    url = f"/referee/games/{game.pk}/penalties/{penalty.pk}/withdraw/"
    form = {"reason": "the cards were not marked"}

    step = client.post(url, form)
    refused = client.post(url, form | {"confirmed": "yes"})
    penalty.refresh_from_db()
    active = penalty.is_active
    saved = client.post(url, form | {"confirmed": "yes", "confirm_cut_change": "1"})

    page = step.content.decode()
    assert 'data-testid="withdraw-confirm"' in page and "data-cut-warning" in page
    assert "カットライン上で同率 → カット内" in page  # Baba back above the cut
    assert refused.status_code == 409 and active
    assert saved.status_code == 302
    entry = AuditEntry.objects.get(action=AuditEntry.Action.PENALTY_WITHDRAWN)
    assert (entry.reason, entry.data["cut_change_confirmed"]) == ("the cards were not marked", True)
    assert stage_points(cup) == totals(EVERY_GAME, CUT_CUP_POINTS)


def test_a_ruling_that_moves_nobody_across_the_cut_asks_no_confirmation() -> None:
    cup = cut_cup()
    game = cup.game(2, 1)
    # Hara, already below the cut, loses a point: ranks move below the line, the cut does not.
    body = {
        "seat": cup.order_of(game, ["Hara"])[0],
        "kind": "deduction",
        "points": 1,
        "reason": "slow play",
    }

    preview = api(cup.head).post(
        f"/api/games/{game.pk}/penalties/", body | {"preview": True}, format="json"
    )
    saved = api(cup.head).post(f"/api/games/{game.pk}/penalties/", body, format="json")

    shown = preview.json()["standings"]
    before = totals(EVERY_GAME, CUT_CUP_POINTS)
    after = totals(EVERY_GAME, CUT_CUP_POINTS, {"Hara": 1})
    assert stage_moves(shown) == rank_changes(before, after) != {}
    assert (shown["cut_changes"], shown["needs_cut_confirmation"]) == ([], False)
    assert saved.status_code == 201
    entry = AuditEntry.objects.get(action=AuditEntry.Action.PENALTY_GIVEN)
    assert "cut_change_confirmed" not in entry.data and entry.data["standings"]
