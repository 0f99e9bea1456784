"""A correction saved after the stage advanced can drop a finalist into a tie on the cut line
(issue #35 §3): its preview — the service, the officials' page and the API — shows who moves
from which rank to which in every scope, and warns that the set of entrants above the cut
changes; saving it needs an explicit confirmation and a reason (refused otherwise, nothing
changed), both recorded in the audit. What the preview said is what the standings say after
saving, and both agree with the ranks computed here from the rule (points, competition
ranking: equal totals share a rank; REFERENCE §1.2) — not with the standings code."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Game, GameResult, OutboxMessage, RejectedSubmission
from scoring.models import Standing, StandingsVersion
from scoring.standings import ScopeRef, recompute_tournament, standings
from tests.factories import (
    CUT_CUP_ORDERS,
    CUT_CUP_POINTS,
    CUT_CUP_TOP_N,
    CutCup,
    browser,
    cut_cup,
)
from tests.games.cut_rule import cut, cut_changes, rank_changes, ranks, totals
from tournaments.models import AuditEntry, StageEntrant

pytestmark = pytest.mark.django_db

# Table 1's third game was misread: Doi went out first and Baba was left holding cards.
MISREAD = (1, 3)
CORRECTED = ["Doi", "Aoki", "Chiba", "Baba"]


# --- the independent computation, from the rule (tests/games/cut_rule.py) ------------------


def corrected_orders() -> dict[int, list[list[str]]]:
    orders = {table: [list(o) for o in sets] for table, sets in CUT_CUP_ORDERS.items()}
    table, set_number = MISREAD
    orders[table][set_number - 1] = CORRECTED
    return orders


BEFORE = totals((o for sets in CUT_CUP_ORDERS.values() for o in sets), CUT_CUP_POINTS)
AFTER = totals((o for sets in corrected_orders().values() for o in sets), CUT_CUP_POINTS)


def test_the_independent_computation_is_the_scenario_of_the_issue() -> None:
    # A finalist (Baba) falls from 2nd to 4th, into a 4-way tie on the cut line.
    assert ranks(BEFORE)["Baba"] == (2, False)
    assert ranks(AFTER)["Baba"] == (4, True)
    assert sorted(n for n, s in cut(AFTER, CUT_CUP_TOP_N).items() if s == "tied") == [
        "Baba",
        "Doi",
        "Goto",
        "Hara",
    ]
    assert sorted(n for n, s in cut(BEFORE, CUT_CUP_TOP_N).items() if s == "in") == [
        "Aoki",
        "Baba",
        "Endo",
        "Fujii",
    ]


# --- helpers ---------------------------------------------------------------------------------


@pytest.fixture
def cup() -> CutCup:
    return cut_cup()


def misread_game(cup: CutCup) -> Game:
    return cup.game(*MISREAD)  # type: ignore[no-any-return]


def corrected_order(cup: CutCup) -> list[int]:
    return cup.order_of(misread_game(cup), CORRECTED)


def board(cup: CutCup) -> dict[str, tuple[int, int]]:
    """The stage's standings as stored: name → (points, rank)."""
    return {
        r.player.display_name: (r.points, r.rank)
        for r in standings(ScopeRef.stage(cup.qualifying.pk))
    }


def expected_moves() -> dict[str, tuple[int, bool, int, bool]]:
    return rank_changes(BEFORE, AFTER)


FINALISTS = ("Aoki", "Baba", "Endo", "Fujii")  # advanced before the correction


def expected_tournament_moves() -> dict[str, tuple[int, bool, int, bool]]:
    """The tournament ranks by stage reached (docs/formats.md): the four finalists share the
    final's place (no final game yet) whatever the correction does to the qualifying points;
    the eliminated keep the qualifying order below them, from 5th."""

    def eliminated(points: dict[str, int]) -> dict[str, int]:
        return {name: p for name, p in points.items() if name not in FINALISTS}

    return {
        name: (before + len(FINALISTS), was_tied, after + len(FINALISTS), is_tied)
        for name, (before, was_tied, after, is_tied) in rank_changes(
            eliminated(BEFORE), eliminated(AFTER)
        ).items()
    }


def api(user: object) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)  # type: ignore[arg-type]
    return client


def correction_form(cup: CutCup, **extra: str) -> dict[str, str]:
    game = misread_game(cup)
    form = {f"outcome_{seat}": "" for seat in range(game.seats)}
    for place, seat in enumerate(corrected_order(cup), start=1):
        form[f"outcome_{seat}"] = f"clean-{place}"
    return form | {"reason": "score sheet misread", **extra}


# --- the preview -----------------------------------------------------------------------------


def test_the_preview_lists_every_rank_change_and_the_cut_change(cup: CutCup) -> None:
    preview = services.preview_correction(misread_game(cup), cup.head, corrected_order(cup))

    impact = preview.impact
    by_scope = {(s.kind, s.id): s for s in impact.scopes}
    # The stage and the tournament both count the qualifying games; the final has none yet.
    assert set(by_scope) == {("stage", cup.qualifying.pk), ("tournament", cup.tournament.pk)}
    expected = {"stage": expected_moves(), "tournament": expected_tournament_moves()}
    for (kind, _), scope in by_scope.items():
        moves = {m.who.name: (m.before, m.before_tied, m.after, m.after_tied) for m in scope.moves}
        assert moves == expected[kind], kind
    change = by_scope["stage", cup.qualifying.pk].cut
    assert change is not None
    assert {m.who.name: (m.before, m.after) for m in change.moves} == cut_changes(
        BEFORE, AFTER, CUT_CUP_TOP_N
    )
    assert [w.name for w in change.falls_out] == ["Baba"]
    assert sorted(w.name for w in change.tied_after) == ["Baba", "Doi", "Goto", "Hara"]
    assert change.advanced_to == "決勝 Final"
    assert impact.needs_confirmation


def kept(cup: CutCup) -> tuple[object, ...]:
    """Everything a ruling or a recompute writes: results, versions, audit, outbox."""
    return (
        misread_game(cup).result_version,
        sorted(StandingsVersion.objects.values_list("key", "version", "digest")),
        AuditEntry.objects.count(),
        OutboxMessage.objects.count(),
        sorted(GameResult.objects.values_list("game_id", "entry_id", "place", "points")),
    )


def test_the_preview_saves_nothing(cup: CutCup) -> None:
    recompute_tournament(cup.tournament.pk)
    shown = board(cup)
    before = kept(cup)

    services.preview_correction(misread_game(cup), cup.head, corrected_order(cup))

    assert kept(cup) == before
    assert board(cup) == shown
    assert {n: p for n, (p, _) in shown.items()} == BEFORE


def test_the_page_shows_the_moves_and_the_cut_warning_in_japanese(cup: CutCup) -> None:
    client = browser("ja")
    client.force_login(cup.head)
    game = misread_game(cup)

    page = client.post(f"/referee/games/{game.pk}/correction/preview/", correction_form(cup))

    html = page.content.decode()
    assert page.status_code == 200
    assert "Baba #2" in html and "2位 → 4位（同率）" in html
    assert "8位 → 4位（同率）" in html  # Doi, into the tie
    assert html.count("data-cut-warning") == 1
    assert "予選 Qualifyingのカット（総合上位4名）を通過する顔ぶれが変わります" in html
    assert "カット内 → カットライン上で同率" in html
    assert "すでに決勝 Finalへの進出を確定済みです" in html
    assert 'name="confirm_cut_change"' in html


def test_the_api_preview_answers_the_moves_and_the_cut_change(cup: CutCup) -> None:
    game = misread_game(cup)

    answer = api(cup.head).post(
        f"/api/games/{game.pk}/correction-preview/",
        {"finishing_order": corrected_order(cup)},
        format="json",
    )

    assert answer.status_code == 200, answer.content
    body = answer.json()["standings"]
    assert body["needs_cut_confirmation"] is True
    stage = next(s for s in body["scopes"] if s["scope"] == "stage")
    moves = {
        m["name"]: (m["rank_before"], m["tied_before"], m["rank_after"], m["tied_after"])
        for m in stage["rank_changes"]
    }
    assert moves == expected_moves()
    (change,) = body["cut_changes"]
    baba = cup.entries["Baba"].pk
    assert (change["stage"], change["advanced"], change["falls_out"]) == (
        cup.qualifying.pk,
        True,
        [baba],
    )
    assert sorted(change["tied_after"]) == sorted(
        cup.entries[n].pk for n in ("Baba", "Doi", "Goto", "Hara")
    )


# --- saving ----------------------------------------------------------------------------------


def test_saving_without_the_confirmation_is_refused_and_changes_nothing(cup: CutCup) -> None:
    recompute_tournament(cup.tournament.pk)
    shown = board(cup)
    game = misread_game(cup)
    client = browser("ja")
    client.force_login(cup.head)

    with pytest.raises(services.GameError) as refused:
        services.correct_result(
            game,
            cup.head,
            finishing_order=corrected_order(cup),
            reason="score sheet misread",
            based_on_version=game.result_version,
        )
    on_the_page = client.post(
        f"/referee/games/{game.pk}/correction/",
        correction_form(cup, based_on_version=str(game.result_version)),
    )
    by_api = api(cup.head).post(
        f"/api/games/{game.pk}/corrections/",
        {
            "finishing_order": corrected_order(cup),
            "reason": "score sheet misread",
            "based_on_version": game.result_version,
        },
        format="json",
    )

    assert refused.value.code == "cut_change_unconfirmed"
    assert "カット" in refused.value.message_ja
    # The page shows the preview again, its warning and the box to tick, beside the refusal.
    assert on_the_page.status_code == 409
    page = on_the_page.content.decode()
    assert "cut_change_unconfirmed" in page and "data-cut-warning" in page
    assert (by_api.status_code, by_api.json()["code"]) == (409, "cut_change_unconfirmed")
    game.refresh_from_db()
    assert (game.result_version, game.version) == (
        misread_game(cup).result_version,
        misread_game(cup).version,
    )
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.RESULT_CORRECTED).exists()
    recompute_tournament(cup.tournament.pk)
    assert board(cup) == shown
    # Each refused attempt is kept for the officials (the service's, the page's, the API's).
    assert RejectedSubmission.objects.filter(code="cut_change_unconfirmed").count() == 3


def test_a_confirmed_correction_saves_and_the_audit_keeps_the_confirmation_and_reason(
    cup: CutCup,
) -> None:
    game = misread_game(cup)
    client = browser("ja")
    client.force_login(cup.head)

    saved = client.post(
        f"/referee/games/{game.pk}/correction/",
        correction_form(cup, based_on_version=str(game.result_version), confirm_cut_change="1"),
    )

    assert saved.status_code == 302
    entry = AuditEntry.objects.get(action=AuditEntry.Action.RESULT_CORRECTED)
    assert entry.reason == "score sheet misread"
    assert entry.data["cut_change_confirmed"] is True
    stage = next(s for s in entry.data["standings"] if s["scope"] == "stage")
    assert stage["cut_change"]["falls_out"] == [cup.entries["Baba"].pk]
    # Nothing automatic happens to those who moved on: the officials decide.
    finalists = StageEntrant.objects.filter(stage=cup.final).values_list(
        "entry__player__display_name", flat=True
    )
    assert sorted(finalists) == ["Aoki", "Baba", "Endo", "Fujii"]


def test_the_previewed_ranks_are_the_standings_after_saving(cup: CutCup) -> None:
    game = misread_game(cup)
    preview = services.preview_correction(game, cup.head, corrected_order(cup))

    services.correct_result(
        game,
        cup.head,
        finishing_order=corrected_order(cup),
        reason="score sheet misread",
        based_on_version=game.result_version,
        confirm_cut_change=True,
    )
    recompute_tournament(cup.tournament.pk)

    stored = board(cup)
    assert {n: p for n, (p, _) in stored.items()} == AFTER
    assert {n: r for n, (_, r) in stored.items()} == {n: r for n, (r, _) in ranks(AFTER).items()}
    for scope in preview.impact.scopes:
        rows = Standing.objects.filter(
            scope=scope.kind, **{f"{scope.kind}_id": scope.id}
        ).select_related("player")
        after = {r.player.display_name: r.rank for r in rows}
        assert {m.who.name: m.after for m in scope.moves} == {
            m.who.name: after[m.who.name] for m in scope.moves
        }
