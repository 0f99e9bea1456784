"""The officials' game page (審判・主審・主催者用) and the tournament's audit page (issue #11).

`/referee/games/<id>/` shows a game to those who may run its table (its referee, the head
referee, an organiser): the current result, every `ResultVersion`, the game's `AuditEntry`
rows and its refused submissions. From it the head referee or an organiser rules on the game —
correct its result (preview, then save), void it (with or without a re-deal), forfeit a seat,
give or withdraw a penalty. Each ruling is a service of `games.services` or
`tournaments.services`, which checks the actor's permission itself; the page only offers the
forms to those allowed, and every irreversible step is confirmed first.

`/organiser/<slug>/audit/` lists a tournament's audit entries and refusals for its officials.

Plain forms that work without JavaScript; with htmx an intermediate step (preview, confirmation)
swaps its section of the page in place, and a saved ruling reloads the page.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from config.language import in_active_language
from games import services
from games.display import GD_PLACES, TITLE_LABELS
from games.engine.daizaibatsu_rules import FAMILY as DAIZAIBATSU
from games.models import LATEST_FIRST, Game, GameResult, RejectedSubmission
from games.offline import (
    QuickError,
    QuickOutcome,
    parse_finishing_places,
    parse_quick_outcomes,
)
from games.results import placing_dict
from games.seating import by_engine_seat, seat_names
from games.state import family_for, rebuild, rules_for_game
from tournaments import services as tournament_services
from tournaments.impact import CutChangeUnconfirmed
from tournaments.models import AuditEntry, Entry, Official, Penalty, Round, Seat, Tournament
from tournaments.permissions import AnyUser, is_head_referee, is_organiser

TEMPLATE = "games/official_game.html"

AUDIT_PAGE_SIZE = 100

# A ruling that changes who is above a stage's cut, saved without the confirmation box ticked.
CUT_UNCONFIRMED = CutChangeUnconfirmed.code


def reason_required() -> services.GameError:
    return services.GameError("reason_required", "Give a reason.", "理由を入力してください")


# --- the quick-result form, shared with the referee console ----------------------------------


def quick_outcome_choices(seats: int) -> list[tuple[str, str]]:
    """The choices of a seat's select, as the console's quick-result form offers them."""
    choices = [("", "—")]
    choices += [
        (
            f"clean-{n}",
            _("%(place)s. out / left with cards") % {"place": n}
            if n == seats
            else _("%(place)s. out") % {"place": n},
        )
        for n in range(1, seats + 1)
    ]
    # At most seats - 1 fouls: the player left holding cards has not fouled.
    choices += [(f"foul-{n}", _("foul %(number)s") % {"number": n}) for n in range(1, seats)]
    choices.append(("miyako", _("Miyako-ochi")))
    return choices


def outcomes_of(results: Iterable[GameResult]) -> dict[int, str]:
    """The select values that reproduce a recorded result: clean finishers by place, fouls in
    foul order (the first foul is placed last), the fallen 大富豪 as `miyako`."""
    rows = list(results)
    values: dict[int, str] = {}
    # The form is 大富豪's (finishing order, fouls, 都落ち): it reads that family's detail.
    foul = {r.seat: bool(r.detail.get("foul")) for r in rows}
    fell = {r.seat: bool(r.detail.get("miyako_ochi")) for r in rows}
    clean = sorted(
        (r for r in rows if not foul[r.seat] and not fell[r.seat]), key=lambda r: r.place
    )
    for n, r in enumerate(clean, start=1):
        values[r.seat] = f"clean-{n}"
    fouls = sorted((r for r in rows if foul[r.seat]), key=lambda r: -r.place)
    for n, r in enumerate(fouls, start=1):
        values[r.seat] = f"foul-{n}"
    for r in rows:
        if fell[r.seat] and not foul[r.seat]:
            values[r.seat] = "miyako"
    return values


# --- a team match's hand (掼蛋): corrected by its finishing order, as the console enters it ---

GD_PLACE_NUMBERS = (1, 2, 3, 4)


def is_team_hand(game: Game) -> bool:
    """A hand of a team match (掼蛋 Guandan): its result is its finishing order, not titles."""
    return game.match is not None


def parse_finishing_order(
    data: Mapping[str, str], names: Sequence[str] | None = None
) -> tuple[list[int], dict[int, str], bool]:
    """The Guandan quick form's selects `place_1`…`place_4` (a seat each; a 1-2 finish needs
    only the first two) and its `aces_only` box: the order (read by the one parser of
    finishing orders, `games.offline.parse_finishing_places`: raises `QuickError`), the
    values chosen, the box."""
    chosen = {n: str(data.get(f"place_{n}", "")) for n in GD_PLACE_NUMBERS}
    return parse_finishing_places(data, names), chosen, data.get("aces_only") == "1"


def finishing_order_of(results: Iterable[GameResult]) -> dict[int, str]:
    """The selects that reproduce a recorded hand: the seats with a place of their own, in
    order (after a 1-2 finish the two losers share third place and are left blank)."""
    rows = list(results)
    counts = [r.place for r in rows]
    own = sorted((r for r in rows if counts.count(r.place) == 1), key=lambda r: r.place)
    values = dict.fromkeys(GD_PLACE_NUMBERS, "")
    for n, r in zip(GD_PLACE_NUMBERS, own, strict=False):
        values[n] = str(r.seat)
    return values


# --- fetching and permissions ----------------------------------------------------------------


def game_for_official(request: HttpRequest, game_id: int) -> Game:
    """Fetch and authorise: the table's referee, the head referee or an organiser (404 for a
    missing game, 403 for anyone else)."""
    game = get_object_or_404(
        Game.objects.select_related("table__round__stage__tournament", "table__referee"),
        pk=game_id,
    )
    if not services.can_run_table(request.user, game.table):
        raise PermissionDenied(
            _("Only this table's referee, the head referee or an organiser see this game.")
        )
    return game


def may_rule(user: AnyUser, round_: Round) -> bool:
    """Whether `user` may rule on the round's games now (the service's own check)."""
    try:
        services.require_ruling_official(user, round_)
    except (PermissionDenied, services.GameError):
        return False
    return True


def _is_tables_latest(game: Game) -> bool:
    latest = game.table.games.order_by(*LATEST_FIRST).first()
    return latest is not None and latest.pk == game.pk


def _pretty(value: object) -> str:
    """Stored JSON as readable text (never a Python repr)."""
    if value in (None, {}, []):
        return ""
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True, default=str)


def _who(user: object) -> str:
    return str(getattr(user, "username", "")) if user is not None else "—"


def _audit_row(entry: AuditEntry) -> dict[str, Any]:
    return {
        "a": entry,
        "label": entry.get_action_display(),
        "actor": _who(entry.actor),
        "data": _pretty(entry.data),
    }


def _refusal_row(refusal: RejectedSubmission) -> dict[str, Any]:
    return {
        "r": refusal,
        "actor": _who(refusal.actor),
        "payload": _pretty(refusal.payload),
        "message": in_active_language(refusal.message_en, refusal.message_ja),
    }


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    position: int
    name: str
    number: int
    entry_id: int

    @property
    def label(self) -> str:
        return f"{self.position}. {self.name} #{self.number}"


def _seats(game: Game) -> list[SeatRow]:
    """The game's players in engine-seat order, as its seating seats them."""
    rows = Seat.objects.filter(table_id=game.table_id).select_related("entry__player")
    return [
        # Numbered as the player sits in this game (engine seat + 1), as the console numbers.
        SeatRow(seat, seat + 1, s.entry.player.display_name, s.entry.number, s.entry_id)
        for seat, s in by_engine_seat(game, list(rows))
    ]


def _result_line(data: Mapping[str, Any] | None, names: Mapping[int, str]) -> dict[str, Any]:
    """A placing (`placing_dict` of a `GameResult`, or a stored version's) for templates: the
    family's detail read for its marks (大富豪: title, foul, 都落ち)."""
    if data is None:
        return {}
    detail = data.get("detail") or {}
    title = str(detail.get("title") or "")
    if "team_level" in detail:
        # A Guandan hand has no titles: the team's level after the hand stands in their place.
        title = _("Level %(level)s") % {"level": detail["team_level"]}
    return {
        "seat": data.get("seat"),
        "name": names.get(int(data["entry"]), "") if "entry" in data else "",
        "place": data.get("place"),
        "title": TITLE_LABELS.get(title, title),
        "points": data.get("points"),
        "team": data.get("team"),
        "foul": bool(detail.get("foul")),
        "miyako_ochi": bool(detail.get("miyako_ochi")),
        "forfeit": bool(data.get("forfeit")),
        "match_won": bool(detail.get("match_won")),
    }


def _forfeit_setup(game: Game, tournament: Tournament) -> dict[str, Any]:
    """What the forfeit form needs: whether the others' order is asked, and who still holds
    cards (everyone but those already out, in a game recorded move by move)."""
    needs_order = (
        tournament.forfeit_others == Tournament.ForfeitOthers.REFEREE_ORDER
        or game.mode == Game.Mode.QUICK
    )
    still_in = list(range(game.seats))
    # A team hand is never forfeited (`forfeit_not_in_team_match`), and its state's `out` is a
    # tuple of finished seats, not 大富豪's bit mask.
    if is_team_hand(game):
        return {"needs_order": needs_order, "still_in": []}
    if game.mode != Game.Mode.QUICK and game.status == Game.Status.IN_PLAY:
        state = rebuild(game)
        if family_for(game).name == DAIZAIBATSU:  # `out`: the finished seats, in order
            still_in = [s for s in range(game.seats) if s not in state.out]
        else:
            still_in = [
                s for s in range(game.seats) if not state.out >> s & 1 and s != state.miyako
            ]
    return {"needs_order": needs_order, "still_in": still_in}


def game_context(request: HttpRequest, game: Game, **extra: Any) -> dict[str, Any]:
    table = game.table
    round_ = table.round
    tournament = round_.stage.tournament
    user = request.user
    seats = _seats(game)
    names = {s.entry_id: s.name for s in seats}
    by_seat = {s.seat: s for s in seats}
    results = list(game.results.order_by("place"))
    rule = may_rule(user, round_)
    team_hand = is_team_hand(game)
    in_play_and_open = rule and round_.is_open and game.status == Game.Status.IN_PLAY
    versions = [
        {
            "v": v,
            "actor": _who(v.actor),
            "placings": [_result_line(p, names) for p in v.placings],
        }
        for v in game.result_versions.select_related("actor").order_by("-number")
    ]
    audit = [
        _audit_row(a) for a in game.audit.select_related("actor").order_by("-created_at", "-pk")
    ]
    refusals = [
        _refusal_row(r)
        for r in game.rejected_submissions.select_related("actor").order_by("-created_at", "-pk")
    ]
    penalties = list(
        Penalty.objects.filter(tournament=tournament, entry_id__in=names)
        .select_related("entry__player", "actor", "round", "game")
        .order_by("-created_at", "-pk")
    )
    ctx: dict[str, Any] = {
        "game": game,
        "table": table,
        "round": round_,
        "tournament": tournament,
        "seats": seats,
        "results": [_result_line(placing_dict(r), names) for r in results],
        "provisional": game.status == Game.Status.FINISHED and game.forfeit_seat is None,
        "forfeit_name": by_seat[game.forfeit_seat].name
        if game.forfeit_seat is not None and game.forfeit_seat in by_seat
        else "",
        "versions": versions,
        "audit": audit,
        "refusals": refusals,
        "penalties": penalties,
        "can_correct": rule and game.status in (Game.Status.FINISHED, Game.Status.CONFIRMED),
        "can_void": rule
        and round_.is_open
        and game.status != Game.Status.VOID
        and _is_tables_latest(game),
        "can_forfeit": in_play_and_open and not team_hand,
        "no_team_forfeit": in_play_and_open and team_hand,
        "team_hand": team_hand,
        "aces_rule": team_hand
        and bool(getattr(rules_for_game(game), "aces_finish_demotes", False)),
        "place_labels": [(n, GD_PLACES[str(n)]) for n in GD_PLACE_NUMBERS],
        "places": finishing_order_of(results) if team_hand else {},
        "aces_only": any(r.detail.get("aces_only") for r in results),
        "can_penalise": is_head_referee(user, tournament),
        # Played with the titles this game's result gave: a correction does not change them.
        "later_in_set": 0
        if team_hand
        else game.table.games.filter(set_number=game.set_number, game_number__gt=game.game_number)
        .exclude(status=Game.Status.VOID)
        .count(),
        "outcome_choices": quick_outcome_choices(game.seats),
        "outcomes": outcomes_of(results),
        "reason": "",
        "penalty_kinds": Penalty.Kind.choices,
        "error": None,
        "error_at": "",
    }
    if ctx["can_forfeit"]:
        ctx["forfeit"] = _forfeit_setup(game, tournament)
        ctx["forfeit_leaver_points"] = tournament.forfeit_leaver_points
        ctx["place_numbers"] = list(range(1, game.seats))
    ctx |= extra
    error = ctx["error"]
    ctx["error_message"] = in_active_language(error.message_en, error.message_ja) if error else ""
    return ctx


def _render(
    request: HttpRequest, game: Game, section: str, status: int = 200, **extra: Any
) -> HttpResponse:
    """The page, or with htmx only the section that posted (its preview or confirmation)."""
    template = f"{TEMPLATE}#{section}" if getattr(request, "htmx", False) else TEMPLATE
    return render(request, template, game_context(request, game, **extra), status=status)


def _done(request: HttpRequest, game: Game, message: str) -> HttpResponse:
    messages.success(request, message)
    url = reverse("referee:game", args=[game.pk])
    return HttpResponseClientRedirect(url) if getattr(request, "htmx", False) else redirect(url)


Failure = services.GameError | tournament_services.DomainError


def _failed(
    request: HttpRequest,
    game: Game,
    section: str,
    error: Failure,
    status: int = 200,
    **extra: Any,
) -> HttpResponse:
    return _render(request, game, section, status, error=error, error_at=section, **extra)


# --- the page --------------------------------------------------------------------------------


@login_required
@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game, its current result and every version of it, its audit and refusals."""
    game = game_for_official(request, game_id)
    return render(request, TEMPLATE, game_context(request, game))


# --- corrections -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CorrectionInput:
    """A correction form as posted: the result it asks for (`outcome`, with `aces_only` for a
    team hand), the values to draw the form again with, and the reason. `refused`: the form
    could not be read as a result (the one parser's refusal); `outcome` is then empty."""

    outcome: QuickOutcome
    aces_only: bool
    reason: str
    # Drawn again with the form: 大富豪's per-seat outcomes, or a team hand's places.
    again: dict[str, Any]
    refused: QuickError | None = None

    def require_readable(self) -> None:
        if self.refused is not None:
            raise services.GameError.of(self.refused)


def _correction_input(request: HttpRequest, game: Game) -> CorrectionInput:
    reason = request.POST.get("reason", "").strip()
    nothing = QuickOutcome([], [], None)
    if is_team_hand(game):
        places = {n: str(request.POST.get(f"place_{n}", "")) for n in GD_PLACE_NUMBERS}
        aces_only = request.POST.get("aces_only") == "1"
        again = {"places": places, "aces_only": aces_only, "reason": reason}
        try:
            order = parse_finishing_order(request.POST, seat_names(game))[0]
        except QuickError as error:
            return CorrectionInput(nothing, aces_only, reason, again, error)
        return CorrectionInput(QuickOutcome(order, [], None), aces_only, reason, again)
    chosen = {s: request.POST.get(f"outcome_{s}", "") for s in range(game.seats)}
    again = {"outcomes": chosen, "reason": reason}
    try:
        outcome = parse_quick_outcomes(request.POST, game.seats, seat_names(game))
    except QuickError as error:
        return CorrectionInput(nothing, False, reason, again, error)
    return CorrectionInput(outcome, False, reason, again)


def _cut_confirmed(request: HttpRequest) -> bool:
    """The official ticked the box saying they saw the preview's cut change."""
    return request.POST.get("confirm_cut_change") == "1"


def _correction_previewed(
    request: HttpRequest,
    game: Game,
    posted: CorrectionInput,
    error: services.GameError | None = None,
    status: int = 200,
) -> HttpResponse:
    """The correction's preview: the seats side by side and what it changes in the standings
    and at the cuts (`error`: why saving it was refused, shown above it)."""
    outcome = posted.outcome
    try:
        if not posted.reason:
            raise reason_required()
        posted.require_readable()
        preview = services.preview_correction(
            game,
            request.user,
            outcome.finishing_order,
            outcome.fouls,
            outcome.miyako_ochi,
            aces_only=posted.aces_only,
        )
    except services.GameError as refused:
        return _failed(request, game, "correction", refused, **posted.again)
    seats = {s.seat: s for s in _seats(game)}
    rows = [
        {
            "seat": seats.get(c.seat),
            "before": _result_line(c.before, {}),
            "after": _result_line(c.after, {}),
            "changed": c.changed,
        }
        for c in sorted(preview.changes, key=lambda c: c.seat)
    ]
    extra: dict[str, Any] = {"error": error, "error_at": "correction"} if error else {}
    return _render(
        request,
        game,
        "correction",
        status,
        preview=preview,
        preview_rows=rows,
        impact=preview.impact,
        **posted.again,
        **extra,
    )


@login_required
@require_POST
def correction_preview(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step 1: the result before and after the correction, side by side, and the rank and cut
    changes it causes (nothing is saved)."""
    game = game_for_official(request, game_id)
    return _correction_previewed(request, game, _correction_input(request, game))


@login_required
@require_POST
def correction_save(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step 2: save the previewed correction as a new version of the result (a cut change
    needs the confirmation box ticked: refused, the preview is shown again)."""
    game = game_for_official(request, game_id)
    posted = _correction_input(request, game)
    outcome = posted.outcome
    try:
        based_on = int(request.POST.get("based_on_version", ""))
    except ValueError:
        based_on = -1
    try:
        posted.require_readable()
        version = services.correct_result(
            game,
            request.user,
            finishing_order=outcome.finishing_order,
            fouls=outcome.fouls,
            miyako_ochi=outcome.miyako_ochi,
            aces_only=posted.aces_only,
            reason=posted.reason,
            based_on_version=based_on,
            confirm_cut_change=_cut_confirmed(request),
        )
    except services.GameError as error:
        if error.code == CUT_UNCONFIRMED:
            return _correction_previewed(request, game, posted, error, 409)
        status = 409 if error.code in services.STALE_TARGET_CODES else 200
        return _failed(request, game, "correction", error, status, **posted.again)
    return _done(
        request, game, _("Result corrected: version %(number)s.") % {"number": version.number}
    )


# --- void and forfeit ------------------------------------------------------------------------


def _seen_version(request: HttpRequest) -> int:
    """The game's version the ruling's form was drawn at (a hidden field, carried through the
    confirmation); -1 when missing, which no game has: a form from an older page is refused."""
    value = request.POST.get("version", "")
    return int(value) if value.isdigit() else -1


def _refused_ruling(
    request: HttpRequest, game: Game, error: services.GameError, confirm: str, step: dict[str, Any]
) -> HttpResponse:
    """A refused void or forfeit. When the game changed since the official's page was drawn,
    the confirmation is asked again beside the message, at the game's version now: they rule
    knowing what changed, or cancel."""
    status = 409 if error.code in services.STALE_TARGET_CODES else 200
    if error.code == "game_changed":
        game.refresh_from_db()
        return _failed(
            request,
            game,
            "rulings",
            error,
            status=status,
            **{confirm: step | {"version": game.version}},
        )
    return _failed(request, game, "rulings", error, status=status)


@login_required
@require_POST
def void(request: HttpRequest, game_id: int) -> HttpResponse:
    """Void the game, with or without a re-deal — after a confirmation saying what happens,
    the rank and cut changes included. The forms name the game's version their page showed;
    the service refuses a stale one."""
    game = game_for_official(request, game_id)
    reason = request.POST.get("reason", "").strip()
    redeal = request.POST.get("redeal") == "1"
    if not reason:
        return _failed(request, game, "rulings", reason_required())
    seen = _seen_version(request)
    step = {"reason": reason, "redeal": redeal, "version": seen}

    def confirm(error: services.GameError | None = None, status: int = 200) -> HttpResponse:
        impact = services.preview_void(
            game, request.user, reason=reason, redeal=redeal, version=seen
        )
        extra: dict[str, Any] = {"error": error, "error_at": "rulings"} if error else {}
        return _render(request, game, "rulings", status, void_confirm=step, impact=impact, **extra)

    try:
        if request.POST.get("confirmed") != "yes":
            return confirm()
        try:
            services.void_game(
                game,
                request.user,
                reason=reason,
                redeal=redeal,
                version=seen,
                confirm_cut_change=_cut_confirmed(request),
            )
        except services.GameError as error:
            if error.code != CUT_UNCONFIRMED:
                raise
            return confirm(error, 409)
    except services.GameError as error:
        return _refused_ruling(request, game, error, "void_confirm", step)
    return _done(request, game, _("Game voided."))


def _forfeit_order(request: HttpRequest, seats: int, leaver: int) -> list[int]:
    """The others' finishing order from the selects `order_<seat>` (1 = first of them)."""
    ranked: list[tuple[int, int]] = []
    for seat in range(seats):
        value = request.POST.get(f"order_{seat}", "")
        if seat != leaver and value.isdigit():
            ranked.append((int(value), seat))
    return [s for _, s in sorted(ranked)]


@login_required
@require_POST
def forfeit(request: HttpRequest, game_id: int) -> HttpResponse:
    """A player leaves mid-game (途中棄権) — after a confirmation saying what happens."""
    game = game_for_official(request, game_id)
    reason = request.POST.get("reason", "").strip()
    seat_text = request.POST.get("seat", "")
    if not seat_text.isdigit() or int(seat_text) >= game.seats:
        return _failed(
            request,
            game,
            "rulings",
            services.GameError(
                "forfeit_seat_invalid",
                "Choose the player who leaves.",
                "棄権する人を選んでください",
            ),
        )
    seat = int(seat_text)
    if not reason:
        return _failed(request, game, "rulings", reason_required())
    tournament = game.table.round.stage.tournament
    setup = _forfeit_setup(game, tournament)
    order = _forfeit_order(request, game.seats, seat) if setup["needs_order"] else []
    names = {s.seat: s for s in _seats(game)}
    seen = _seen_version(request)
    if is_team_hand(game):
        # Nothing to confirm: the service refuses a team hand's forfeit, and says what to do.
        try:
            services.forfeit_seat(game, request.user, seat=seat, reason=reason, version=seen)
        except services.GameError as error:
            return _failed(request, game, "rulings", error)
    step = {
        "seat": seat,
        "leaver": names.get(seat),
        "reason": reason,
        "order": [names.get(s) for s in order],
        "order_values": {s: n for n, s in enumerate(order, start=1)},
        "version": seen,
    }

    def confirm(error: services.GameError | None = None, status: int = 200) -> HttpResponse:
        impact = services.preview_forfeit(
            game, request.user, seat=seat, reason=reason, order=order, version=seen
        )
        extra: dict[str, Any] = {"error": error, "error_at": "rulings"} if error else {}
        return _render(
            request,
            game,
            "rulings",
            status,
            forfeit_confirm=step,
            forfeit=setup,
            forfeit_leaver_points=tournament.forfeit_leaver_points,
            impact=impact,
            **extra,
        )

    try:
        if request.POST.get("confirmed") != "yes":
            return confirm()
        try:
            services.forfeit_seat(
                game,
                request.user,
                seat=seat,
                reason=reason,
                order=order,
                version=seen,
                confirm_cut_change=_cut_confirmed(request),
            )
        except services.GameError as error:
            if error.code != CUT_UNCONFIRMED:
                raise
            return confirm(error, 409)
    except services.GameError as error:
        return _refused_ruling(request, game, error, "forfeit_confirm", step)
    return _done(request, game, _("Forfeit recorded."))


# --- penalties -------------------------------------------------------------------------------


@login_required
@require_POST
def give_penalty(request: HttpRequest, game_id: int) -> HttpResponse:
    """A warning or a points deduction for a player seated at the table, in this game — after
    a confirmation step showing the rank and cut changes it causes."""
    game = game_for_official(request, game_id)
    seats = {str(s.entry_id): s for s in _seats(game)}
    entry_id = request.POST.get("entry", "")
    if entry_id not in seats:
        error = tournament_services.DomainError(
            "Choose a player seated at this table.", "この卓の選手を選んでください。", "bad_entry"
        )
        return _failed(request, game, "penalties", error)
    entry = Entry.objects.select_related("tournament").get(pk=int(entry_id))
    points_text = request.POST.get("points", "").strip() or "0"
    kind = request.POST.get("kind", "")
    asked: dict[str, Any] = {
        "kind": kind,
        "reason": request.POST.get("reason", ""),
        "points": int(points_text) if points_text.lstrip("-").isdigit() else -1,
        "round_": game.table.round,
        "game_id": game.pk,
    }
    step = {
        "entry": seats[entry_id],
        "kind": kind,
        "kind_label": dict(Penalty.Kind.choices).get(kind, kind),
        "points": asked["points"],
        "reason": asked["reason"].strip(),
    }
    try:
        if request.POST.get("confirmed") != "yes":
            impact = tournament_services.preview_penalty(entry, request.user, **asked)
            return _render(request, game, "penalties", penalty_confirm=step, impact=impact)
        penalty = tournament_services.give_penalty(
            entry, request.user, confirm_cut_change=_cut_confirmed(request), **asked
        )
    except tournament_services.DomainError as error:
        if error.code == CUT_UNCONFIRMED:
            impact = tournament_services.preview_penalty(entry, request.user, **asked)
            return _failed(
                request, game, "penalties", error, 409, penalty_confirm=step, impact=impact
            )
        return _failed(request, game, "penalties", error)
    return _done(
        request,
        game,
        _("%(kind)s given to %(entrant)s.")
        % {"kind": penalty.get_kind_display(), "entrant": entry},
    )


@login_required
@require_POST
def withdraw_penalty(request: HttpRequest, game_id: int, penalty_id: int) -> HttpResponse:
    """Take back a penalty of a player at the table (kept on record, no longer counted) —
    after a confirmation step showing the rank and cut changes it causes."""
    game = game_for_official(request, game_id)
    entries = [s.entry_id for s in _seats(game)]
    penalty = get_object_or_404(
        Penalty.objects.select_related("tournament", "entry__player", "round"),
        pk=penalty_id,
        tournament_id=game.tournament_id,
        entry_id__in=entries,
    )
    reason = request.POST.get("reason", "")
    step = {"penalty": penalty, "reason": reason.strip()}
    try:
        if request.POST.get("confirmed") != "yes":
            impact = tournament_services.preview_withdraw_penalty(
                penalty, request.user, reason=reason
            )
            return _render(request, game, "penalties", withdraw_confirm=step, impact=impact)
        tournament_services.withdraw_penalty(
            penalty, request.user, reason=reason, confirm_cut_change=_cut_confirmed(request)
        )
    except tournament_services.DomainError as error:
        if error.code == CUT_UNCONFIRMED:
            impact = tournament_services.preview_withdraw_penalty(
                penalty, request.user, reason=reason
            )
            return _failed(
                request, game, "penalties", error, 409, withdraw_confirm=step, impact=impact
            )
        return _failed(request, game, "penalties", error, withdraw_error_for=penalty.pk)
    return _done(request, game, _("Penalty withdrawn."))


# --- the tournament's audit page -------------------------------------------------------------


def _tournament_for_official(request: HttpRequest, slug: str) -> Tournament:
    """Officials of the tournament (any role) and superusers; others find nothing (404)."""
    user = request.user
    tournaments = Tournament.objects.all()
    if not getattr(user, "is_superuser", False):
        tournaments = tournaments.filter(officials__user_id=user.pk or 0).distinct()
    return get_object_or_404(tournaments, slug=slug)


def _page(request: HttpRequest, rows: Any, param: str) -> Page[Any]:
    return Paginator(rows, AUDIT_PAGE_SIZE).get_page(request.GET.get(param))


@login_required
@require_GET
def audit(request: HttpRequest, slug: str) -> HttpResponse:
    """Every audited official action of the tournament (newest first) and every refused
    submission — a referee sees only the refusals at their own tables."""
    tournament = _tournament_for_official(request, slug)
    user = request.user
    staff = is_head_referee(user, tournament)
    entries = (
        AuditEntry.objects.filter(tournament=tournament)
        .select_related("actor", "round__stage", "game__table")
        .order_by("-created_at", "-pk")
    )
    refusals = RejectedSubmission.objects.filter(tournament=tournament).select_related(
        "actor", "round__stage", "table", "game"
    )
    if not staff:
        refusals = refusals.filter(table__referee_id=user.pk)
    entries_page = _page(request, entries, "page")
    refusals_page = _page(request, refusals.order_by("-created_at", "-pk"), "refusals_page")
    role = (
        "organiser"
        if is_organiser(user, tournament)
        else "head_referee"
        if staff
        else Official.Role.REFEREE
    )
    return render(
        request,
        "organiser/audit.html",
        {
            "tournament": tournament,
            "role": role,
            "staff": staff,
            "organiser": role == "organiser",
            "entries_page": entries_page,
            "entries": [_audit_row(a) for a in entries_page],
            "refusals_page": refusals_page,
            "refusals": [_refusal_row(r) for r in refusals_page],
        },
    )
