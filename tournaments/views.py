"""Public tournament pages (thin views over selectors)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.display import card
from games.engine.cards import CardSet, card_names
from games.engine.daizaibatsu import DaizaibatsuDeal
from games.engine.daizaibatsu_combos import card_name as zaibatsu_card_name
from games.engine.daizaibatsu_combos import names as zaibatsu_names
from games.engine.daizaibatsu_rules import FAMILY as DAIZAIBATSU
from games.engine.multideck import Cards
from games.models import Game
from games.records import has_record
from games.seating import cycle_of, draw_seating, in_seating, seating_material
from games.selectors import ended_games
from tournaments.deals import (
    commitment_for,
    dealt_hand,
    derive_deal,
    duplicate_groups,
    game_material,
)
from tournaments.forms import VerifyDealForm
from tournaments.models import Round
from tournaments.rulesets import check_ruleset
from tournaments.selectors import public_tournaments, round_tables, tournament_entries


def _labels(cards: CardSet | Cards, zaibatsu: bool = False) -> list[str]:
    """Cards as people read them (♠3, ♥10, JK), weakest first; ``zaibatsu``: a 大財閥 hand
    (two packs and four jokers, its own card numbers)."""
    if zaibatsu and isinstance(cards, Cards):
        return [card(name)["label"] for name in zaibatsu_names(cards)]
    assert isinstance(cards, int)
    return [card(name)["label"] for name in card_names(cards)]


def _pile_labels(dealt: object) -> list[str] | None:
    """A 大財閥 deal's draw pile (山札) as people read it, top first; None for other families."""
    if not isinstance(dealt, DaizaibatsuDeal):
        return None
    return [card(zaibatsu_card_name(c))["label"] for c in dealt.pile]


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"tournaments": public_tournaments()})


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(public_tournaments(), slug=slug)
    rounds = (
        Round.objects.filter(stage__tournament=tournament)
        .exclude(status=Round.Status.DRAFT)
        .select_related("stage")
        .order_by("stage__order", "number")
    )
    return render(
        request,
        "tournaments/detail.html",
        {"tournament": tournament, "entries": tournament_entries(tournament), "rounds": rounds},
    )


@require_GET
def round_detail(request: HttpRequest, slug: str, round_id: int) -> HttpResponse:
    """A published round: its tables, the seed commitment and, once revealed, the seed and a
    form that re-derives any table's deal and blind cards (公開検証)."""
    tournament = get_object_or_404(public_tournaments(), slug=slug)
    round_ = get_object_or_404(
        Round.objects.exclude(status=Round.Status.DRAFT).select_related("stage"),
        pk=round_id,
        stage__tournament=tournament,
    )
    tables = list(round_tables(round_))
    # A duplicate round's groups and rotations (docs/duplicate.md), shown per table and used
    # to verify its deals.
    places = (
        duplicate_groups((t.number, len(t.seats.all())) for t in tables)
        if round_.duplicate_deals
        else {}
    )
    games = Game.objects.filter(table__round=round_).select_related("table")
    # Each table's games that ended with a result and were played move by move (not entered as
    # a quick result): each replays (games/replay.py), and has a record to download unless its
    # result was corrected or forfeited (games/records.py).
    games_at: dict[int, list[tuple[Game, bool]]] = {table.pk: [] for table in tables}
    for ended in ended_games(round_):
        if ended.mode != Game.Mode.QUICK:
            games_at[ended.table_id].append((ended, has_record(ended)))
    context: dict[str, Any] = {
        "tournament": tournament,
        "round": round_,
        "tables": tables,
        "tables_with_games": [(t, games_at[t.pk], places.get(t.number)) for t in tables],
        # Games voided and re-dealt (their deals carry the attempt) and results an organiser
        # corrected after the seed was revealed: both are part of the public record.
        "redeals": games.filter(attempt__gt=1).order_by("table__number", "set_number"),
        "corrected": games.filter(corrected_after_reveal=True).order_by("table__number"),
        # 大財閥 deals a draw pile too, renewed from the same seed: the check explains it.
        "draw_pile": check_ruleset(tournament.ruleset_id, tournament.ruleset_version).family
        == DAIZAIBATSU,
    }
    seed = round_.revealed_seed
    if seed is not None:
        context["seed_matches"] = commitment_for(seed) == round_.seed_commitment
        form = VerifyDealForm(request.GET or None)
        context["form"] = form
        if form.is_valid():
            number = form.cleaned_data["table"]
            table = next((t for t in tables if t.number == number), None)
            if table is None:
                form.add_error(
                    "table",
                    _("Round %(round)s has no table %(table)s.")
                    % {"round": round_.number, "table": number},
                )
            else:
                set_number, game_number = (
                    form.cleaned_data["set_number"],
                    form.cleaned_data["game"],
                )
                seats = list(table.seats.all())
                # Hand i goes to engine seat i: the player the game's seating put there (UECda
                # seat changes draw it from the same seed, games.seating).
                cycle = cycle_of(game_number, tournament.seat_change_every)
                seating = draw_seating(
                    seed, table=number, set_number=set_number, cycle=cycle, seats=len(seats)
                )
                attempt = form.cleaned_data["attempt"] or 1
                # A duplicate round's first deal is its group's, rotated; a re-deal the
                # table's own (docs/duplicate.md).
                place = places.get(number) if attempt == 1 else None
                dealt = derive_deal(
                    seed,
                    ruleset_id=tournament.ruleset_id,
                    ruleset_version=tournament.ruleset_version,
                    seats=len(seats),
                    table=number,
                    set_number=set_number,
                    game=game_number,
                    attempt=attempt,
                    # Fixed before the first round was published: every game's own values.
                    overrides=tournament.ruleset_overrides,
                    duplicate=place,
                )
                material = game_material(
                    seed, number, set_number, game_number, attempt, duplicate=place,
                    seats=len(seats),
                )  # fmt: skip
                pile = _pile_labels(dealt)
                context["deal"] = {
                    "material": material,
                    "place": place,
                    "seating_material": (
                        seating_material(seed, number, set_number, cycle) if cycle else ""
                    ),
                    # Engine seat, player, hand and (duplicate) which hand of the group's deal.
                    "hands": [
                        (
                            i + 1,
                            seat,
                            _labels(dealt.hands[i], pile is not None),
                            None
                            if place is None
                            else dealt_hand(i, place.rotation, len(seats)) + 1,
                        )
                        for i, seat in in_seating(seating, seats)
                    ],
                    "blind": _labels(dealt.blind) if hasattr(dealt, "blind") else [],
                    "pile": pile,
                }
    return render(request, "tournaments/round.html", context)
