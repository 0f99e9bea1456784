"""Multi-stage tournaments run through the project's own services, as the organiser's pages
and the API run them, and every public output of their order read back minimally — shared by
the oracle tests of the published order (test_the_published_order_matches_a_naive_recount,
test_an_eliminated_qualifier_ranks_below_every_finalist)."""

from __future__ import annotations

import csv
import io
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.test import Client

from games import services as games
from games.models import Game
from tests.factories import UserFactory
from tournaments import services
from tournaments.advancement import AdvancementTie
from tournaments.models import Entry, Official, Round, Stage, Tournament
from tournaments.ranking import stage_ranking
from tournaments.selectors import next_stage

# A table's finishing order: engine seats, first out first (random unless a test chooses).
Finish = Callable[[Game, random.Random], list[int]]


def shuffled(game: Game, rng: random.Random) -> list[int]:
    order = list(range(game.seats))
    rng.shuffle(order)
    return order


@dataclass
class Event:
    tournament: Tournament
    organiser: User
    head: User
    entries: list[Entry]
    rng: random.Random
    finish: Finish = shuffled
    forfeits: float = 0.0  # the chance that a game ends by a forfeit
    penalties: int = 0  # deductions given per stage, in a round of it
    rounds: list[Round] = field(default_factory=list)  # every published round, in order


def new_event(
    slug: str,
    entrants: int,
    *,
    rng: random.Random,
    table_size: int = 4,
    uneven_tables: str = "short",
    bye_points: int = 0,
    points_preset: str = "3-2-1-0",
    games_per_set: int = 1,
) -> Event:
    """A tournament created, its entrants registered and checked in, through the services."""
    organiser = UserFactory(username=f"{slug}-organiser", is_staff=True)
    tournament = services.create_tournament_from_preset(
        actor=organiser,
        name=f"Oracle Cup {slug}",
        slug=slug,
        points_preset=points_preset,
        games_per_set=games_per_set,
        sets_per_round=1,
        table_size=table_size,
        uneven_tables=uneven_tables,
        bye_points=bye_points,
    )
    tournament.status = Tournament.Status.REGISTRATION
    tournament.save(update_fields=["status"])
    head = UserFactory(username=f"{slug}-head")
    services.add_official(tournament, organiser, head, Official.Role.HEAD_REFEREE)
    entries = []
    for number in range(1, entrants + 1):
        entry = services.register_entry(tournament, organiser, display_name=f"Player {number:02d}")
        entries.append(services.check_in_entry(entry, organiser))
    return Event(tournament, organiser, head, entries, rng)


def quick_entry(
    game: Game, order: list[int], rng: random.Random
) -> tuple[list[int], list[int], int | None]:
    """The quick-result form for a game whose seats went out in `order`: by chance one foul
    finish (反則あがり), and the previous 大富豪 marked fallen (都落ち) when someone else went
    out first."""
    order, fouls = list(order), []
    if rng.random() < 0.1:
        fouls.append(order.pop(rng.randrange(len(order) - 1)))
    titles = list(game.titles or ())
    daifugo = titles.index("daifugo") if "daifugo" in titles else None
    if daifugo is not None and daifugo not in fouls and order[0] != daifugo:
        order.remove(daifugo)
        return order, fouls, daifugo
    return order, fouls, None


def play_round(event: Event, stage: Stage) -> Round:
    """Draw, publish and play one round of `stage`: each game recorded as a quick result (or,
    by chance, ended by a forfeit) and confirmed by the head referee; then completed and its
    seed revealed; by chance, a deduction for one of its players."""
    organiser, head, rng = event.organiser, event.head, event.rng
    # The draw's lot from the event's random stream, so an example replays as it ran.
    lot = f"{rng.getrandbits(256):064x}"
    round_ = services.publish_round(services.draw_round(stage, organiser, seed=lot), organiser)
    for table in round_.tables.order_by("number"):
        while True:
            try:
                game = games.start_game(table, organiser, mode=Game.Mode.QUICK)
            except games.GameError as error:
                if error.code == "round_complete":
                    break
                raise
            order = event.finish(game, rng)
            if rng.random() < event.forfeits:
                leaver = rng.randrange(game.seats)
                others = [seat for seat in order if seat != leaver]
                games.forfeit_seat(game, head, seat=leaver, reason="felt ill", order=others)
            else:
                games.record_quick_result(game, organiser, *quick_entry(game, order, rng))
                games.confirm_game(game, head)
    round_ = services.reveal_round_seed(round_, organiser)
    event.rounds.append(round_)
    return round_


def give_deductions(event: Event, round_: Round) -> None:
    seated = list(Entry.objects.filter(seats__round=round_).order_by("number"))
    for _ in range(event.penalties):
        services.give_penalty(
            event.rng.choice(seated),
            event.head,
            kind="deduction",
            points=event.rng.randint(1, 3),
            reason="slow play",
            round_=round_,
        )


def play_playoff(event: Event, stage: Stage, tied: Sequence[int]) -> Stage:
    """A playoff (順位決定戦) of the `tied` entrants of `stage`, played out like any round."""
    playoff = services.create_playoff(stage, event.organiser, list(tied))
    play_round(event, playoff)
    return playoff


def advance(event: Event, stage: Stage) -> None:
    """Advance `stage` as the organiser does: a tie of three or more at the cut goes to a
    playoff, and what is still tied after it (or a tie of two) is ordered by lot."""
    organiser = event.organiser
    lot: list[int] = []
    played = False
    while True:
        try:
            services.advance_stage(
                stage,
                organiser,
                stage_ranking(stage).keys,
                tie_break=[*lot, *services.playoff_order(stage)],
            )
            return
        except AdvancementTie as tie:
            if len(tie.tied) >= 3 and not played:
                play_playoff(event, stage, tie.tied)
                played = True
            else:
                drawn = sorted(tie.tied)
                event.rng.shuffle(drawn)
                lot = [*lot, *drawn]


def settle_final_ties(event: Event, final: Stage) -> None:
    """Every tie of three or more in the final's places goes to a playoff, one after another,
    as the stage's preview lists them (entrants a playoff left level stay level: no playoff
    of a playoff)."""
    played: set[int] = set()
    while True:
        ties = services.preview_advancement(final, event.organiser).ties
        open_ties = [
            [e.pk for e in t.entries]
            for t in ties
            if len(t.entries) >= 3 and not played & {e.pk for e in t.entries}
        ]
        if not open_ties:
            return
        played |= set(open_ties[0])
        play_playoff(event, final, sorted(open_ties[0]))


def correct_after_reveal(event: Event) -> None:
    """A correction (訂正) of one game of a revealed round: a new finishing order."""
    played = list(
        Game.objects.filter(
            table__round__in=[r for r in event.rounds if r.stage.kind != "playoff"],
            status=Game.Status.CONFIRMED,
            forfeit_seat__isnull=True,
        ).order_by("pk")
    )
    game = event.rng.choice(played)
    while True:
        order, fouls, miyako_ochi = quick_entry(game, shuffled(game, event.rng), event.rng)
        try:
            games.correct_result(
                game,
                event.organiser,  # after the reveal, only an organiser corrects
                finishing_order=order,
                fouls=fouls,
                miyako_ochi=miyako_ochi,
                reason="the score sheet was misread",
                based_on_version=game.result_version,
                # Seen in the preview: a cut already advanced on may change (the finalists
                # stay; the boards follow the rule for who reached which stage).
                confirm_cut_change=True,
            )
            return
        except games.GameError as error:
            if error.code != "correction_unchanged":
                raise


def run_stages(event: Event, rounds: Sequence[int]) -> None:
    """Play each main stage of the event in order (`rounds[i]` rounds of stage i), advancing
    every stage but the last, whose ties go to playoffs."""
    stage: Stage | None = event.tournament.stages.order_by("order").first()
    for count in rounds:
        assert stage is not None
        for _ in range(count):
            played = play_round(event, stage)
        give_deductions(event, played)
        following = next_stage(stage)
        if following is None:
            settle_final_ties(event, stage)
        else:
            advance(event, stage)
        stage = following


# --- the public outputs, read minimally ------------------------------------------------------

Line = tuple[int, int, int]  # (entry number, rank, points)

_TABLE = re.compile(r'<table class="(?:grid standings|sheet-grid standings-print)')
_ROW = re.compile(r"<tr[^>]*>(.*?)</tr>", re.S)
# A row's cells, leaving out the stage-reached mark (its place differs between the boards).
_CELL = re.compile(r"<td(?![^>]*reached-stage)[^>]*>(.*?)</td>", re.S)
_TAG = re.compile(r"<[^>]+>")
_NUMBER = re.compile(r"-?\d+")
_NAME = re.compile(r"Player (\d+)")


def _cells(html: str) -> list[list[str]]:
    """The body rows of the page's first individual standings table, each as its cells' text."""
    body = _TABLE.split(html, 1)[1].split("</table>", 1)[0]
    rows = []
    for row in _ROW.findall(body.split("<tbody>", 1)[1]):
        cells = [_TAG.sub(" ", c).replace("−", "-").strip() for c in _CELL.findall(row)]
        if len(cells) >= 3:
            rows.append(cells)
    return rows


def page_lines(client: Client, url: str) -> list[Line]:
    """A board page's rows (stage board, tournament board, embed, print): rank, the player's name
    (which gives the entry number, "Player 07"), points."""
    response = client.get(url)
    assert response.status_code == 200, url
    out = []
    for cells in _cells(response.content.decode()):
        name = _NAME.search(cells[1])
        assert name is not None, cells
        rank, points = (int(_NUMBER.search(cells[i]).group()) for i in (0, 2))  # type: ignore[union-attr]
        out.append((int(name.group(1)), rank, points))
    return out


def csv_lines(client: Client, url: str) -> list[Line]:
    response = client.get(url)
    assert response.status_code == 200, url
    text = response.content.decode("utf-8-sig")
    return [
        (int(r["entry"]), int(r["rank"]), int(r["points"]))
        for r in csv.DictReader(io.StringIO(text))
    ]


def json_lines(client: Client, url: str) -> list[Line]:
    response = client.get(url)
    assert response.status_code == 200, url
    return [(r["entry"], r["rank"], r["points"]) for r in response.json()["standings"]]


def api_lines(client: Client, url: str) -> list[Line]:
    body = client.get(url).json()
    rows = list(body["results"])
    while body.get("next"):
        body = client.get(body["next"]).json()
        rows += body["results"]
    return [(r["entry"], r["rank"], r["points"]) for r in rows]


# --- the comparison ---------------------------------------------------------------------------


def among(lines: Sequence[Line], members: set[int]) -> list[Line]:
    """`lines` of the entry numbers `members` only, ranked among themselves (1 + how many of
    them the output ranks strictly better), in (rank, entry) order: a stage board compared on
    the stage's own entrants, whoever else it lists."""
    kept = [line for line in lines if line[0] in members]
    return sorted(
        ((n, 1 + sum(1 for o in kept if o[1] < rank), points) for n, rank, points in kept),
        key=lambda line: (line[1], line[0]),
    )


def by_rank(lines: Sequence[Line]) -> list[tuple[int, int]]:
    """(entry number, rank) in (rank, entry) order: the order and the ranks, whatever order
    an output lists entrants sharing a rank in."""
    return sorted(((n, rank) for n, rank, _ in lines), key=lambda line: (line[1], line[0]))
