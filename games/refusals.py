"""Refused submissions, kept for officials (`RejectedSubmission`), apart from any game's log.

One writer for the game services and the tournament services alike: a refusal is recorded
after the refused action's transaction rolled back, so the record survives the refusal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from django.contrib.auth.models import AnonymousUser, User
from django.utils import translation
from django.utils.functional import Promise

from games.models import RejectedSubmission
from tournaments.permissions import AnyUser


def record_refusal(
    *,
    tournament_id: int,
    actor: AnyUser,
    action: str,
    code: str,
    message_en: str = "",
    message_ja: str = "",
    payload: object = None,
    round_id: int | None = None,
    table_id: int | None = None,
    game_id: int | None = None,
    seq: int | None = None,
    http_status: int | None = None,
) -> RejectedSubmission:
    return RejectedSubmission.objects.create(
        tournament_id=tournament_id,
        round_id=round_id,
        table_id=table_id,
        game_id=game_id,
        actor=actor if actor.is_authenticated else None,
        action=action,
        seq=seq,
        # Whatever was sent, as JSON (a device may send anything; it is shown as text).
        payload=json.loads(json.dumps(payload, default=str)),
        code=code,
        message_en=message_en[:500],
        message_ja=message_ja[:500],
        http_status=http_status,
    )


def _messages(error: Exception) -> tuple[str, str]:
    """A refusal's two wordings: the error's own pair, else (a `PermissionDenied`) its text —
    in both languages when it is a lazily translated message, so the record does not depend
    on the language of the page that was refused."""
    if hasattr(error, "message_en"):
        return str(error.message_en), str(getattr(error, "message_ja", ""))
    text = error.args[0] if error.args else ""
    if isinstance(text, Promise):
        with translation.override("en"):
            message_en = str(text)
        with translation.override("ja"):
            return message_en, str(text)
    return str(error), "権限がありません"


P = ParamSpec("P")
R = TypeVar("R")


def refusals_recorded(
    action: str,
    where: Callable[[Any], dict[str, int | None]],
    errors: tuple[type[Exception], ...],
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Record each of `errors` raised by a service called as `service(target, actor, …)` —
    after its transaction rolled back — then re-raise it. `where(target)` names the
    tournament, round, table and game the refusal belongs to. The errors carry a stable `code`
    and bilingual messages; a `PermissionDenied` is recorded as `forbidden`."""

    def decorate(service: Callable[P, R]) -> Callable[P, R]:
        @wraps(service)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return service(*args, **kwargs)
            except errors as error:
                message_en, message_ja = _messages(error)
                actor = args[1]
                assert isinstance(actor, User | AnonymousUser)
                record_refusal(
                    actor=actor,
                    action=action,
                    code=getattr(error, "code", "forbidden"),
                    message_en=message_en,
                    message_ja=message_ja,
                    payload={"args": list(args[2:]), **kwargs},
                    **where(args[0]),  # type: ignore[arg-type]
                )
                raise

        return run

    return decorate
