"""Standings count what the game family declares (`Family.metrics`) over its results' `detail`,
and rank on those metrics' tie-break keys: scoring keeps no title list of its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.engine.daifugo import DAIFUGO, DaifugoFamily
from games.engine.daizaibatsu import DAIZAIBATSU_FAMILY
from games.engine.family import FEWER, Metric
from games.engine.guandan import GUANDAN
from games.models import GameResult
from scoring.standings import ScopeRef, recompute_tournament, scope_metrics, standings
from tests.factories import finished_game
from tests.scoring.conftest import Cup, seat_round
from tournaments.models import Tournament
from tournaments.points import METRIC_WORDS, TIE_BREAK_KEYS, preset_points_table

ROOT = Path(__file__).resolve().parents[2]


def _rows(cup: Cup) -> list[tuple[str, int, bool, dict[str, int]]]:
    recompute_tournament(cup.tournament.pk)
    return [
        (r.player.display_name, r.rank, r.shared, r.metrics)
        for r in standings(ScopeRef.tournament(cup.tournament.pk))
        if r.games
    ]


def test_a_standing_counts_exactly_the_metrics_daifugo_declares(cup: Cup) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [aoki, baba, chiba, doi], game_number=1, fouls=(4,), miyako_ochi=3)

    rows = {name: metrics for name, _, _, metrics in _rows(cup)}

    assert [m.key for m in scope_metrics(ScopeRef.tournament(cup.tournament.pk))] == [
        m.key for m in DAIFUGO.metrics
    ]
    assert all(set(metrics) == {m.key for m in DAIFUGO.metrics} for metrics in rows.values())
    assert rows["Aoki"]["daifugo"] == 1 and rows["Baba"]["fugo"] == 1
    assert rows["Chiba"] == {**dict.fromkeys(rows["Chiba"], 0), "hinmin": 1, "miyako_ochi": 1}
    assert rows["Doi"] == {**dict.fromkeys(rows["Doi"], 0), "daihinmin": 1, "fouls": 1}


def test_the_tie_break_keys_are_the_metrics_tie_breaks_and_all_worded() -> None:
    assert list(TIE_BREAK_KEYS) == [
        "points",
        *(m.tie_break for m in DAIFUGO.metrics),
        "fewer_forced_ends",  # 大財閥's titles are 大富豪's: only its forced ends are new
        *(m.tie_break for m in GUANDAN.metrics),
        "best_set",
    ]
    assert set(METRIC_WORDS["daifugo"]) == {m.key for m in DAIFUGO.metrics}
    assert set(METRIC_WORDS["guandan"]) == {m.key for m in GUANDAN.metrics}
    assert set(METRIC_WORDS["daizaibatsu"]) == {m.key for m in DAIZAIBATSU_FAMILY.metrics}
    # Every key reads as words, not as itself.
    assert all(str(TIE_BREAK_KEYS[k]) != k for k in TIE_BREAK_KEYS)


def test_a_metric_the_family_declares_breaks_ties_by_its_key(
    cup: Cup, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A metric summing a detail field, fewer is better: its tie-break key is fewer_<key>.
    cards_left = Metric("cards_left", "cards_left", None, FEWER)
    monkeypatch.setattr(DaifugoFamily, "metrics", (*DAIFUGO.metrics, cards_left))
    table = preset_points_table("3-2-1-0")
    table["tie_breaks"] = ["points", cards_left.tie_break]
    Tournament.objects.filter(pk=cup.tournament.pk).update(points_table=table)
    (seated,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(seated, [aoki, baba, chiba, doi], game_number=1, points=(2, 2, 1, 1))
    left = {aoki.pk: 9, baba.pk: 2, chiba.pk: 5, doi.pk: 5}
    for r in GameResult.objects.filter(entry__in=cup.entries[:4]):
        r.detail = {**r.detail, "cards_left": left[r.entry_id]}
        r.save(update_fields=["detail"])

    rows = _rows(cup)

    # Baba (2 left) before Aoki (9) on equal points; Chiba and Doi level on both keys.
    assert [(name, rank, shared) for name, rank, shared, _ in rows] == [
        ("Baba", 1, False),
        ("Aoki", 2, False),
        ("Chiba", 3, True),
        ("Doi", 3, True),
    ]
    assert [metrics["cards_left"] for *_, metrics in rows] == [2, 9, 5, 5]


def test_scoring_names_no_title_of_its_own() -> None:
    # The title values 大富豪's metrics count (detail["title"] == …) appear in no scoring code
    # or standings template: they come from the family. Migrations keep the columns they had.
    titles = {str(m.equals) for m in DAIFUGO.metrics if m.field == "title"}
    assert titles == {"daifugo", "fugo", "heimin", "hinmin", "daihinmin"}
    names = "|".join(titles)
    quoted = re.compile(rf"""["']({names})["']|\.({names})\b""")
    files = [p for p in (ROOT / "scoring").rglob("*.py") if "migrations" not in p.parts] + list(
        (ROOT / "templates" / "scoring").glob("*.html")
    )
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in files
        for n, line in enumerate(p.read_text().splitlines(), start=1)
        if quoted.search(line)
    ]
    assert found == []
