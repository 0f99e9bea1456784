"""No page, API, feed or export lets anyone but the table's officials see — or derive — a hand of
a game that has not finished, the round's seed included.

The surfaces are not listed by hand: every URL pattern of the project is requested with the ids
of a round in play, so a page added later is covered without anyone remembering this test. The
round has a known-deal game in play at table 1, and at table 2 a confirmed quick game, a voided
deal and its re-deal in play. Viewers: the public, a player seated at table 1, the referee of
table 2 (an official, but not of table 1) and another tournament's organiser.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Protocol

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver

from games import services as games
from games.engine import card_names
from games.models import Game
from tests.factories import EntryFactory, OfficialFactory, UserFactory, play_legal_moves, streamed
from tournaments import services
from tournaments.models import Entry, Official, Round, Tournament

pytestmark = pytest.mark.django_db

LABELS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def play_some(game: Game, referee: User, moves: int) -> None:
    play_legal_moves(game, referee, moves)


def held_cards(game: Game) -> set[str]:
    state = games.current_state(game)
    return {code for seat in range(game.seats) for code in card_names(state.hands[seat])}


def played_cards(game: Game) -> set[str]:
    return set(card_names(games.current_state(game).played))


def url_values(
    name: str,
    prefix: str,
    tournament: Tournament,
    round_: Round,
    *,
    table_ids: list[int],
    game_ids: list[int],
) -> list[str]:
    """Ids to put in a URL parameter (a router's `pk` depends on the resource)."""
    ids = {
        "slug": [tournament.slug],
        "round_id": [round_.pk],
        "stage_id": [round_.stage_id],
        "table_id": table_ids,
        "game_id": game_ids,
        "player_id": list(tournament.entries.values_list("player_id", flat=True)),
        "entry_id": list(tournament.entries.values_list("pk", flat=True)[:2]),
        "season_id": [],
    }
    if name == "pk":
        name = {
            "rounds": "round_id",
            "tables": "table_id",
            "stages": "stage_id",
            "entries": "entry_id",
            "games": "game_id",
        }.get(prefix.rstrip("/").rsplit("/", 1)[-1], "")
    return [str(v) for v in ids.get(name, [])]


class Crawled(Protocol):
    """A scene whose ids fill the URL parameters of every route."""

    def values(self, name: str, prefix: str) -> list[str]: ...


class Scene:
    def __init__(self) -> None:
        self.organiser = UserFactory(username="org-leak", is_staff=True)
        cup = services.create_tournament_from_preset(
            actor=self.organiser, name="Leak Cup", slug="leak-cup", games_per_set=2
        )
        cup.status = Tournament.Status.REGISTRATION
        cup.save()
        self.tournament = cup
        for number in range(1, 9):
            EntryFactory(tournament=cup, number=number, status=Entry.Status.CHECKED_IN)
        self.head = UserFactory(username="head-leak")
        self.referee1 = UserFactory(username="ref-table-1")
        self.referee2 = UserFactory(username="ref-table-2")
        OfficialFactory(tournament=cup, user=self.head, role=Official.Role.HEAD_REFEREE)
        OfficialFactory(tournament=cup, user=self.referee1, role=Official.Role.REFEREE)
        OfficialFactory(tournament=cup, user=self.referee2, role=Official.Role.REFEREE)
        stage = cup.stages.get()
        drawn = services.draw_round(stage, self.organiser)
        self.round = services.publish_round(drawn, self.organiser)
        table1, table2 = self.round.tables.order_by("number")
        services.assign_referee(table1, self.organiser, self.referee1)
        services.assign_referee(table2, self.organiser, self.referee2)
        self.player = UserFactory(username="player-at-table-1")
        seated = table1.seats.get(position=1).entry.player
        seated.user = self.player
        seated.save()

        self.in_play = games.start_game(table1, self.referee1)
        play_some(self.in_play, self.referee1, 3)
        quick = games.start_game(table2, self.referee2, mode=Game.Mode.QUICK)
        games.record_quick_result(quick, self.referee2, [0, 1, 2, 3])
        games.confirm_game(quick, self.head)
        misdeal = games.start_game(table2, self.referee2)
        self.voided = games.void_game(misdeal, self.head, reason="cards seen", redeal=True)
        self.redeal = games.start_game(table2, self.referee2)
        play_some(self.redeal, self.referee2, 2)
        self.table1, self.table2 = table1, table2

        # A card held in one game may have been played, in public, in the other: only cards
        # played in neither game are looked for (still some forty of the fifty-three).
        self.played = played_cards(self.in_play) | played_cards(self.redeal)
        self.hidden = (held_cards(self.in_play) | held_cards(self.redeal)) - self.played
        self.seed = Round.objects.get(pk=self.round.pk).seed_secret
        # The voided deal never finished: none of its hands shows either, in any notation.
        self.secrets = [self.seed]
        for hand in self.voided.hands:
            self.secrets += [" ".join(hand), json.dumps(hand), json.dumps(hand, indent=None)[1:-1]]

    def values(self, name: str, prefix: str) -> list[str]:
        return url_values(
            name,
            prefix,
            self.tournament,
            self.round,
            table_ids=[self.table1.pk, self.table2.pk],
            game_ids=[self.in_play.pk, self.voided.pk, self.redeal.pk],
        )


PARAM = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def routes(patterns: list[URLPattern | URLResolver], prefix: str = "") -> Iterator[str]:
    for entry in patterns:
        route = str(entry.pattern).lstrip("^").rstrip("$").replace("\\", "")
        if "format" in route or (prefix + route).startswith(
            ("admin/", "api/schema", "api/docs", "referee/offline/")
        ):
            # Format suffixes repeat a route; the admin is for superusers; the API schema is
            # static text whose examples name cards, and so is the engine's source code that the
            # console's offline mode downloads (compressed, its bytes spell random card names).
            continue
        if isinstance(entry, URLResolver):
            yield from routes(entry.url_patterns, prefix + route)
        else:
            yield prefix + route


def urls(scene: Crawled) -> list[str]:
    found: list[str] = []
    for route in sorted(set(routes(get_resolver().url_patterns))):
        candidates = [""]
        for match in PARAM.finditer(route):
            name = match.group(1) or match.group(2)
            values = scene.values(name, route[: match.start()])
            candidates = [c + "\0" + v for c in candidates for v in values]
        for candidate in candidates:
            url, parts = route, candidate.split("\0")[1:]
            for value in parts:
                url = PARAM.sub(value, url, count=1)
            if not PARAM.search(url):
                found.append("/" + url)
    return found


def crawl(client: Client, scene: Crawled) -> dict[str, str]:
    """Every page and API answer the scene's ids reach, plain and as htmx asks for it."""
    seen = {}
    with override_settings(LIVE_FEED_SECONDS=0.0):
        for url in urls(scene):
            for extra in ({}, {"HTTP_HX_REQUEST": "true"}):
                response = client.get(url, **extra)
                body = (
                    streamed(response)
                    if response.streaming
                    else response.content.decode(errors="replace")
                )
                seen[url + (" (htmx)" if extra else "")] = body
    return seen


def everything(client: Client, scene: Scene) -> dict[str, str]:
    seen = crawl(client, scene)
    with override_settings(LIVE_FEED_SECONDS=0.0):
        verify = f"/tournaments/leak-cup/rounds/{scene.round.pk}/"
        for table in (1, 2):
            for game in (1, 2):
                for attempt in (1, 2):
                    query = f"?table={table}&set_number=1&game={game}&attempt={attempt}"
                    seen[verify + query] = client.get(verify + query).content.decode()
    return seen


def leaks(pages: dict[str, str], cards: set[str], secrets: list[str]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for url, text in pages.items():
        hits = set()
        for code in cards:
            rank = "10" if code[0] == "T" else code[0]
            label = code if code == "JK" else LABELS[code[1]] + rank
            if re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", text) or (
                code != "JK" and label + "<" in text
            ):
                hits.add(code)
        if secrets[0] in text:
            hits.add("SEED")
        hits |= {secret for secret in secrets[1:] if secret in text}
        if hits:
            found[url] = hits
    return found


def url_in(url: str, parts: tuple[str, ...]) -> bool:
    return any(part in url for part in parts)


@pytest.fixture
def scene() -> Scene:
    return Scene()


def test_the_crawl_reaches_every_kind_of_surface(scene: Scene) -> None:
    crawled = set(urls(scene))

    assert len(scene.hidden) >= 30
    for surface in (
        f"/tables/{scene.table1.pk}/live/",
        f"/api/tables/{scene.table1.pk}/live/",
        f"/api/tables/{scene.table1.pk}/events/",
        f"/api/games/{scene.in_play.pk}/moves/",
        f"/tournaments/leak-cup/rounds/{scene.round.pk}/",
        f"/api/rounds/{scene.round.pk}/",
        "/standings/leak-cup/",
        f"/referee/tables/{scene.table1.pk}/",
    ):
        assert surface in crawled


@pytest.mark.parametrize("viewer", ["public", "player", "other_referee", "other_organiser"])
def test_nobody_but_the_tables_officials_sees_a_hand_or_the_seed(
    scene: Scene, client: Client, viewer: str
) -> None:
    own: tuple[str, ...] = ()
    if viewer == "player":
        client.force_login(scene.player)
    elif viewer == "other_referee":
        client.force_login(scene.referee2)
        # Table 2's pages are theirs (its hands share card names with table 1's): judge the
        # rest on table 1's hands.
        scene.hidden = held_cards(scene.in_play) - scene.played
        own = (f"/tables/{scene.table2.pk}/", f"/games/{scene.voided.pk}/")
        own += (f"/games/{scene.redeal.pk}/",)
    elif viewer == "other_organiser":
        elsewhere = UserFactory(username="org-elsewhere", is_staff=True)
        OfficialFactory(user=elsewhere, role=Official.Role.ORGANISER)
        client.force_login(elsewhere)

    pages = {url: text for url, text in everything(client, scene).items() if not url_in(url, own)}

    assert leaks(pages, scene.hidden, scene.secrets) == {}


def test_the_tables_officials_do_see_the_hands_and_the_check_would_notice(
    scene: Scene, client: Client
) -> None:
    client.force_login(scene.referee1)

    hidden = held_cards(scene.in_play) - scene.played
    found = leaks(everything(client, scene), hidden, scene.secrets)

    assert f"/referee/tables/{scene.table1.pk}/" in found
    assert "SEED" not in set().union(*found.values())  # not even officials see the seed


def test_after_the_reveal_the_deals_are_public_and_verifiable(scene: Scene, client: Client) -> None:
    for game in (scene.in_play, scene.redeal):
        games.void_game(game, scene.head, reason="hall closing", redeal=False)
    for table in (scene.table1, scene.table2):
        while True:
            try:
                game = games.start_game(table, scene.organiser, mode=Game.Mode.QUICK)
            except games.GameError:
                break
            games.void_game(game, scene.head, reason="hall closing", redeal=False)

    services.reveal_round_seed(scene.round, scene.organiser)

    assert "SEED" in set().union(*leaks(everything(client, scene), set(), scene.secrets).values())


# --- 掼蛋 (Guandan): a team table in play ------------------------------------------------------

GD_JOKER_LABELS = {"SJ": ("SJ", "小王"), "BJ": ("BJ", "大王")}


class GuandanScene:
    """A Guandan table of a team tournament with its second hand in play: the tribute paid and
    a card given back (还贡: seen by its giver and receiver only), then a few plays."""

    def __init__(self) -> None:
        from games.engine.guandan import GUANDAN, Match, legal_moves, move_to_json, wild_card
        from games.engine.multideck import multi_card_name, multi_names
        from games.state import rebuild
        from tests.factories import console_guandan_hand, console_guandan_table

        self.referee = UserFactory(username="gd-leak-ref")
        self.table = console_guandan_table(self.referee, teams=("Sakura", "Momiji"))
        self.round = self.table.round
        self.tournament = self.round.stage.tournament
        self.other_referee = UserFactory(username="gd-leak-other")
        OfficialFactory(
            tournament=self.tournament, user=self.other_referee, role=Official.Role.REFEREE
        )
        self.game = console_guandan_hand(
            self.table, match=Match(levels=(4, 2), previous=(0, 1, 2, 3))
        )
        for seq in range(1, 9):
            state = rebuild(self.game)
            # The card given back stays in its new holder's hand, so the check looks for it.
            back = [c for c in state.returned if c >= 0]
            move = next(m for m in legal_moves(state) if not any(c in m.cards for c in back))
            outcome = games.submit_move(self.game, move_to_json(move), seq, self.referee)
            assert outcome.ok, outcome
            self.game.refresh_from_db()
        state = rebuild(self.game)
        assert not GUANDAN.is_over(state) and state.phase == 1  # playing, tribute settled
        public = set(multi_names(state.played)) | {multi_card_name(wild_card(state.level))}
        public |= {multi_card_name(c) for c in state.paid if c >= 0}  # tributes are shown
        for row in self.game.moves.all():  # what a wild stood for is announced with the play
            public |= set(row.payload.get("as", []))
        held = {code for hand in state.hands for code in multi_names(hand)}
        self.hidden = held - public
        self.returned = {multi_card_name(c) for c in state.returned if c >= 0}
        assert self.returned <= self.hidden

    def values(self, name: str, prefix: str) -> list[str]:
        return url_values(
            name,
            prefix,
            self.tournament,
            self.round,
            table_ids=[self.table.pk],
            game_ids=[self.game.pk],
        )


def guandan_leaks(pages: dict[str, str], cards: set[str]) -> dict[str, set[str]]:
    """Card codes (``7H``, ``SJ``) or labels as pages draw them (``♥7<``, 小王) of `cards`."""
    found: dict[str, set[str]] = {}
    for url, text in pages.items():
        hits = set()
        for code in cards:
            if code in GD_JOKER_LABELS:
                words = GD_JOKER_LABELS[code]
                if any(re.search(rf"(?<![A-Za-z0-9]){w}(?![A-Za-z0-9])", text) for w in words):
                    hits.add(code)
                continue
            rank = "10" if code[0] == "T" else code[0]
            if re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", text) or (
                LABELS[code[1]] + rank + "<" in text
            ):
                hits.add(code)
        if hits:
            found[url] = hits
    return found


@pytest.fixture
def guandan_scene() -> GuandanScene:
    return GuandanScene()


@pytest.mark.parametrize("viewer", ["public", "other_referee"])
def test_nobody_but_the_officials_sees_a_guandan_hand_or_the_card_given_back(
    guandan_scene: GuandanScene, client: Client, viewer: str
) -> None:
    if viewer == "other_referee":
        client.force_login(guandan_scene.other_referee)
    pages = crawl(client, guandan_scene)

    table = guandan_scene.table.pk
    assert f"/tables/{table}/live/" in pages
    # The API's view of the table and its event feed are crawled too.
    assert {f"/api/tables/{table}/live/", f"/api/tables/{table}/events/"} <= set(pages)
    assert guandan_leaks(pages, guandan_scene.hidden) == {}


def test_the_guandan_tables_referee_does_see_the_hands(
    guandan_scene: GuandanScene, client: Client
) -> None:
    client.force_login(guandan_scene.referee)

    found = guandan_leaks(crawl(client, guandan_scene), guandan_scene.hidden)

    assert f"/referee/tables/{guandan_scene.table.pk}/" in found
    assert guandan_scene.returned  # the check covers a card given back


# --- 大財閥 (Daizaibatsu): open hands, a draw pile, cards moved between hidden hands ---------


class DaizaibatsuScene:
    """A 大財閥 table in play (tests/games/test_no_hidden_card_leaks.py's game): one hand opened
    by a 6, a card given to a hidden hand, one discarded, one destroyed, four drawn."""

    def __init__(self) -> None:
        from tests.factories import daizaibatsu_game, daizaibatsu_table
        from tests.games.test_no_hidden_card_leaks import DZ_ACTIONS, DZ_HANDS, DZ_HIDDEN, DZ_PILE

        self.referee = UserFactory(username="dz-leak-ref")
        self.table = daizaibatsu_table(self.referee)
        self.round = self.table.round
        self.tournament = self.round.stage.tournament
        self.other_referee = UserFactory(username="dz-leak-other")
        OfficialFactory(
            tournament=self.tournament, user=self.other_referee, role=Official.Role.REFEREE
        )
        self.game = daizaibatsu_game(self.table, DZ_HANDS, DZ_PILE, leader=0)
        for seq, action in enumerate(DZ_ACTIONS, start=1):
            assert games.submit_move(self.game, action, seq, self.referee).ok, action
        self.game.refresh_from_db()
        self.hidden = set(DZ_HIDDEN)

    def values(self, name: str, prefix: str) -> list[str]:
        return url_values(
            name,
            prefix,
            self.tournament,
            self.round,
            table_ids=[self.table.pk],
            game_ids=[self.game.pk],
        )


@pytest.fixture
def daizaibatsu_scene() -> DaizaibatsuScene:
    return DaizaibatsuScene()


@pytest.mark.parametrize("viewer", ["public", "other_referee"])
def test_nobody_but_the_officials_sees_a_hidden_daizaibatsu_hand_or_the_pile(
    daizaibatsu_scene: DaizaibatsuScene, client: Client, viewer: str
) -> None:
    if viewer == "other_referee":
        client.force_login(daizaibatsu_scene.other_referee)
    pages = crawl(client, daizaibatsu_scene)

    table = daizaibatsu_scene.table.pk
    assert {f"/tables/{table}/live/", f"/api/tables/{table}/events/"} <= set(pages)
    assert guandan_leaks(pages, daizaibatsu_scene.hidden) == {}


def test_the_daizaibatsu_tables_referee_does_see_the_hands(
    daizaibatsu_scene: DaizaibatsuScene, client: Client
) -> None:
    client.force_login(daizaibatsu_scene.referee)

    found = guandan_leaks(crawl(client, daizaibatsu_scene), daizaibatsu_scene.hidden)

    # Every hidden hand's cards, as the console shows a known deal (the check would notice).
    held = {"5D", "8C", "QC", "JD", "9S", "9H", "9C", "5S", "JS", "4H", "QD"}
    assert held <= found[f"/referee/tables/{daizaibatsu_scene.table.pk}/"]


# --- an undone move: its cards are back in a hidden hand --------------------------------------

UNDO_REASON = "誤入力: ♠6♥6♦6♣6 ではなく ♠3 のみ"


class UndoneRevolutionScene:
    """A known deal in play where seat 1 led a revolution (four 6s) that the referee undid: the
    sixes are back in that hidden hand, and the undo's reason names them."""

    def __init__(self) -> None:
        from tests.factories import GameFactory, seated_table

        self.referee = UserFactory(username="undo-leak-ref")
        self.table = seated_table(self.referee)
        self.round = self.table.round
        self.tournament = self.round.stage.tournament
        OfficialFactory(tournament=self.tournament, user=self.referee, role=Official.Role.REFEREE)
        self.other_referee = UserFactory(username="undo-leak-other")
        OfficialFactory(
            tournament=self.tournament, user=self.other_referee, role=Official.Role.REFEREE
        )
        sixes = ["6S", "6H", "6D", "6C"]
        rest = [r + s for r in "3456789TJQKA2" for s in "SHDC" if r + s not in {"3S", *sixes}]
        rest.append("JK")
        hands = [["3S", *sixes, *rest[:9]], rest[9:22], rest[22:35], rest[35:48]]
        self.game = GameFactory(table=self.table, game_number=1, hands=hands, leader=0)
        moves = [{"seat": 0, "play": ["3S"]}, *({"seat": s, "pass": True} for s in (1, 2, 3))]
        moves.append({"seat": 0, "play": sixes})
        for seq, move in enumerate(moves, start=1):
            assert games.submit_move(self.game, move, seq, self.referee).ok, move
        games.request_undo(self.game, self.referee, UNDO_REASON, seq=len(moves))
        self.game.refresh_from_db()
        self.hidden = held_cards(self.game) - played_cards(self.game)
        assert set(sixes) <= self.hidden
        self.secrets = [self.round.seed_secret, UNDO_REASON]

    def values(self, name: str, prefix: str) -> list[str]:
        return url_values(
            name,
            prefix,
            self.tournament,
            self.round,
            table_ids=[self.table.pk],
            game_ids=[self.game.pk],
        )


@pytest.fixture
def undone_scene() -> UndoneRevolutionScene:
    return UndoneRevolutionScene()


@pytest.mark.parametrize("viewer", ["public", "other_referee"])
def test_no_card_of_an_undone_move_shows_once_it_is_back_in_a_hidden_hand(
    undone_scene: UndoneRevolutionScene, client: Client, viewer: str
) -> None:
    if viewer == "other_referee":
        client.force_login(undone_scene.other_referee)
    pages = crawl(client, undone_scene)

    table, game = undone_scene.table.pk, undone_scene.game.pk
    assert {f"/tables/{table}/live/", f"/api/tables/{table}/live/"} <= set(pages)
    assert {f"/api/tables/{table}/events/", f"/api/games/{game}/moves/"} <= set(pages)
    assert leaks(pages, undone_scene.hidden, undone_scene.secrets) == {}


def test_the_tables_referee_sees_the_undone_cards_and_the_check_would_notice(
    undone_scene: UndoneRevolutionScene, client: Client
) -> None:
    client.force_login(undone_scene.referee)

    found = leaks(crawl(client, undone_scene), undone_scene.hidden, undone_scene.secrets)

    console = found[f"/referee/tables/{undone_scene.table.pk}/"]
    assert {"6S", "6H", "6D", "6C", UNDO_REASON} <= console
