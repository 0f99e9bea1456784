"""A quick result's foul (反則あがり) and 都落ち marks are only those the ruleset can produce
(REFERENCE §1.1 rules 17–19, §4.1 rule 15):

- 都落ち only where the rules have it, only for the previous game's 大富豪 (none in a set's
  first game), at most one, and only once another player finished clean before them;
- fouls only where the rules have foul finishes, and never for the player left holding cards
  (someone always is).

Anything else is refused `quick_miyako_invalid` / `quick_foul_invalid` on the console (in
Japanese), offline, in the correction form and by the API, and nothing is saved."""

from __future__ import annotations

import pytest

from tests.games.quick_entry_points import (
    answer_of,
    api_correction,
    api_quick,
    console,
    correction_form,
    finished,
    offline_judge,
    quick_table,
    snapshot,
)

pytestmark = pytest.mark.django_db

FOUR = ("Aoki", "Baba", "Chiba", "Doi")
# A game played first, Aoki (seat 1) out first: the next game's 大富豪 is Aoki.
AOKI_WAS_DAIFUGO = [0, 1, 2, 3]


def form(*outcomes: str) -> dict[str, str]:
    return {f"outcome_{seat}": value for seat, value in enumerate(outcomes)}


@pytest.mark.parametrize(
    ("outcomes", "after", "rules", "reason"),
    [
        # UECda has no 都落ち.
        (("miyako", "clean-1", "clean-2", "clean-3"), AOKI_WAS_DAIFUGO, "uecda",
         "このルールには都落ちがありません"),
        # A set's first game: nobody is 大富豪 yet.
        (("miyako", "clean-1", "clean-2", "clean-3"), None, "jdf",
         "前局の大富豪がいません"),
        # Baba was not the 大富豪 (Aoki was).
        (("clean-3", "miyako", "clean-1", "clean-2"), AOKI_WAS_DAIFUGO, "jdf",
         "都落ちするのは前局の大富豪（1番席（Aoki））だけです"),
        # Doi, left holding cards, is the only one not out by a foul: nobody finished clean
        # before Aoki, so Aoki cannot have fallen.
        (("miyako", "foul-1", "foul-2", "clean-1"), AOKI_WAS_DAIFUGO, "jdf",
         "誰も上がっていません"),
    ],
)  # fmt: skip
def test_miyako_ochi_the_rules_cannot_produce_is_refused(
    outcomes: tuple[str, ...], after: list[int] | None, rules: str, reason: str
) -> None:
    at = quick_table(FOUR, after=after, stage__tournament__ruleset_id=rules)
    before = snapshot(at.game)

    message, code = console(at, form(*outcomes))
    verdict = answer_of(offline_judge(at, form(*outcomes)))

    assert code == "quick_miyako_invalid"
    fallen = 1 + outcomes.index("miyako")
    assert message.startswith(f"{fallen}番席（{FOUR[fallen - 1]}）は都落ちにできません。")
    assert reason in message and message.endswith("保存していません。")
    assert (verdict.code, verdict.message_ja) == (code, message)
    assert snapshot(at.game) == before


def test_two_players_marked_miyako_ochi_are_refused() -> None:
    at = quick_table(FOUR, after=AOKI_WAS_DAIFUGO)
    chosen = form("miyako", "miyako", "clean-1", "clean-2")

    message, code = console(at, chosen)

    assert (message, code) == (
        "1番席（Aoki）と2番席（Baba）が両方とも都落ちになっています。"
        "都落ちするのは前局の大富豪一人だけです。保存していません。",
        "quick_miyako_invalid",
    )
    assert answer_of(offline_judge(at, chosen)).message_ja == message
    assert at.game.results.count() == 0


def test_a_foul_under_rules_without_foul_finishes_is_refused() -> None:
    at = quick_table(FOUR, stage__tournament__ruleset_id="uecda")
    chosen = form("clean-1", "clean-2", "clean-3", "foul-1")
    before = snapshot(at.game)

    message, code = console(at, chosen)

    assert (message, code) == (
        "このルールには反則あがりがありません（4番席（Doi））。保存していません。",
        "quick_foul_invalid",
    )
    assert answer_of(offline_judge(at, chosen)).message_ja == message
    assert snapshot(at.game) == before


def test_nobody_left_holding_cards_is_refused() -> None:
    # Aoki fell and the three others fouled: then nobody was left holding cards.
    at = quick_table(FOUR, after=AOKI_WAS_DAIFUGO)
    chosen = form("miyako", "foul-1", "foul-2", "foul-3")

    message, code = console(at, chosen)

    assert code == "quick_foul_invalid"
    assert message.startswith("最後まで手札が残った人は反則あがりではありません。")
    assert answer_of(offline_judge(at, chosen)).message_ja == message
    assert at.game.results.count() == 0


@pytest.mark.parametrize(
    ("body", "rules", "code"),
    [
        ({"finishing_order": [1, 2, 3], "miyako_ochi": 0}, "uecda", "quick_miyako_invalid"),
        ({"finishing_order": [0, 2, 3], "miyako_ochi": 1}, "jdf", "quick_miyako_invalid"),
        ({"finishing_order": [3], "fouls": [1, 2], "miyako_ochi": 0}, "jdf",
         "quick_miyako_invalid"),
        ({"finishing_order": [0, 1, 2], "fouls": [3]}, "uecda", "quick_foul_invalid"),
        ({"finishing_order": [], "fouls": [1, 2, 3], "miyako_ochi": 0}, "jdf",
         "quick_foul_invalid"),
        ({"finishing_order": [1, 0, 2, 3]}, "jdf", "quick_miyako_missing"),
    ],
)  # fmt: skip
def test_the_api_refuses_fouls_and_miyako_ochi_the_rules_cannot_produce(
    body: dict[str, object], rules: str, code: str
) -> None:
    at = quick_table(FOUR, after=AOKI_WAS_DAIFUGO, stage__tournament__ruleset_id=rules)
    before = snapshot(at.game)

    status, answer = api_quick(at, **body)

    assert (status, answer.code) == (422, code)
    assert answer.message_ja.endswith("保存していません。")
    assert snapshot(at.game) == before


def test_corrections_refuse_miyako_ochi_in_a_sets_first_game() -> None:
    at = finished(quick_table(FOUR), [0, 1, 2, 3])
    before = snapshot(at.game)

    message, code = correction_form(at, form("miyako", "clean-1", "clean-2", "clean-3"))
    status, answer = api_correction(
        at, "save", finishing_order=[1, 2, 3], miyako_ochi=0, reason="typo"
    )

    assert code == "quick_miyako_invalid" and "前局の大富豪がいません" in message
    assert (status, answer.code) == (400, "quick_miyako_invalid")
    assert snapshot(at.game) == before


def test_a_possible_foul_and_miyako_ochi_are_still_accepted() -> None:
    # REFERENCE JDF-T16: Baba fouls, Chiba finishes clean (Aoki, the 大富豪, falls), Doi left.
    at = quick_table(FOUR, after=AOKI_WAS_DAIFUGO)

    verdict = offline_judge(at, form("miyako", "foul-1", "clean-1", "clean-2"))

    assert verdict["ok"], verdict
    assert [(p["seat"], p["place"]) for p in verdict["placings"]] == [
        (2, 1),
        (3, 2),
        (0, 3),
        (1, 4),
    ]
