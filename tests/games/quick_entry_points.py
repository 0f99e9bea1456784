"""The ways a quick result (a finishing order) comes in, for the tests of its refusals: the
referee console's form (read in Japanese), the offline console's judge (`judge_quick`, what the
phone runs before it queues anything), the officials' correction form, the REST API (a quick
result, a correction and its preview) and, for a 掼蛋 hand, the record import's
`match.previous`. Each answers the refusal as (code, English, Japanese) so a test can hold
every entry point to the same answer, and `unchanged` says nothing was saved."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html import unescape
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games import offline, services
from games.models import Game, ResultVersion
from tests.factories import OfficialFactory, UserFactory, browser, seated_table
from tournaments.models import Official

Form = dict[str, str]


@dataclass(frozen=True)
class Answer:
    code: str
    message_en: str
    message_ja: str


@dataclass
class QuickTable:
    """A table's quick game, its referee and its head referee."""

    game: Game
    referee: User
    head: User


def quick_table(
    names: tuple[str, ...] = ("Aoki", "Baba", "Chiba"),
    *,
    after: list[int] | None = None,
    **round_fields: Any,
) -> QuickTable:
    """A quick game at a table seating `names` (engine seat i = position i + 1). `after`: the
    finishing order of a quick game played first, so that this game has titles (the previous
    大富豪 is `after[0]`)."""
    referee = UserFactory(username=f"ref-{len(names)}-{'-'.join(names)}".lower()[:30])
    table = seated_table(referee, names=names, **round_fields)
    tournament = table.round.stage.tournament
    head = UserFactory(username=f"head-{referee.username}"[:30])
    OfficialFactory(tournament=tournament, user=referee, role=Official.Role.REFEREE)
    OfficialFactory(tournament=tournament, user=head, role=Official.Role.HEAD_REFEREE)
    if after is not None:
        first = services.start_game(table, referee, mode=Game.Mode.QUICK)
        services.record_quick_result(first, referee, after)
    game = services.start_game(table, referee, mode=Game.Mode.QUICK)
    return QuickTable(game, referee, head)


def finished(at: QuickTable, order: list[int]) -> QuickTable:
    """The table's game finished with the clean finishing `order` (for corrections)."""
    services.record_quick_result(at.game, at.referee, order)
    at.game.refresh_from_db()
    return at


def snapshot(game: Game) -> tuple[Any, ...]:
    """What a refusal must leave as it was: the game's state and every result of it."""
    game = Game.objects.get(pk=game.pk)
    results = sorted(
        (r.seat, r.place, r.points, json.dumps(r.detail, sort_keys=True))
        for r in game.results.all()
    )
    versions = ResultVersion.objects.filter(game_id=game.pk).count()
    return (game.status, game.version, game.result_version, results, versions)


def signed_in(user: User, language: str = "ja") -> Client:
    client = browser(language)
    client.force_login(user)
    return client


def _refusal_on(page: str) -> tuple[str, str]:
    """The refusal a page shows: its text and its code (`<code>…</code>` after the text)."""
    found = re.search(r'class="error" role="alert"[^>]*>([^<]*)<code>([a-z_]+)</code>', page)
    assert found, "the page shows no refusal"
    text = unescape(found.group(1)).strip()
    return text, found.group(2)


def post_console(at: QuickTable, form: Form) -> str:
    """The console's quick form posted by the referee reading Japanese: the page."""
    page = signed_in(at.referee).post(
        reverse("referee:quick", args=[at.game.table_id]), form, HTTP_HX_REQUEST="true"
    )
    assert page.status_code == 200
    return str(page.content.decode())


def console(at: QuickTable, form: Form) -> tuple[str, str]:
    """The console's refusal of the form: (message, code)."""
    return _refusal_on(post_console(at, form))


def offline_judge(at: QuickTable, form: Form) -> dict[str, Any]:
    """The offline console's verdict: the page's own seed, the form as its fields."""
    client = signed_in(at.referee)
    seed = client.get(reverse("referee:offline-seed", args=[at.game.table_id])).json()
    fields = {name: [value] for name, value in form.items()}
    verdict: dict[str, Any] = json.loads(
        offline.judge_quick(json.dumps(seed["quick"]), json.dumps(fields))
    )
    return verdict


def correction_form(at: QuickTable, form: Form, step: str = "preview") -> tuple[str, str]:
    """The officials' correction form (its preview, or `save`), by the head referee in
    Japanese: (message, code)."""
    name = "referee:correction-preview" if step == "preview" else "referee:correction-save"
    body = form | {"reason": "入力ミス", "based_on_version": str(at.game.result_version)}
    page = signed_in(at.head).post(reverse(name, args=[at.game.pk]), body)
    assert page.status_code == 200
    return _refusal_on(page.content.decode())


def api(user: User, url: str, body: dict[str, Any]) -> Any:
    client = APIClient()
    client.force_authenticate(user)
    return client.post(f"/api/{url}", body, format="json")


def api_quick(at: QuickTable, **body: Any) -> tuple[int, Answer]:
    answer = api(at.referee, f"games/{at.game.pk}/quick-result/", body)
    return answer.status_code, _answer(answer.json())


def api_correction(at: QuickTable, step: str = "preview", **body: Any) -> tuple[int, Answer]:
    if step == "preview":
        answer = api(at.head, f"games/{at.game.pk}/correction-preview/", body)
    else:
        extra = {"reason": "typo", "based_on_version": at.game.result_version}
        answer = api(at.head, f"games/{at.game.pk}/corrections/", extra | body)
    return answer.status_code, _answer(answer.json())


def _answer(body: dict[str, Any]) -> Answer:
    return Answer(body["code"], body["message_en"], body["message_ja"])


def answer_of(verdict: dict[str, Any]) -> Answer:
    assert verdict["ok"] is False, verdict
    return _answer(verdict)
