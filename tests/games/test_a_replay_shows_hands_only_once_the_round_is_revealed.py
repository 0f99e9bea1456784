"""Before the round's seed is revealed, a replay shows only what the public may see at each
move (`observe(state, None)`): no card a seat still holds at that move appears on the page,
unless it is played later (the move list tells every play of a finished game). Once the
round is revealed, every seat's hand at that move is shown."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.test import Client

from games import services
from games.engine import card_names
from games.models import Game, Move
from games.offline import card_face
from games.state import effective_actions, family_for, initial_state, parse_move
from tests.factories import play_to_the_end, reveal

from .conftest import Crew

pytestmark = pytest.mark.django_db

AT = 6
# A fixed deal, so that what each test finds in it does not change from run to run.
SEED = "5eed" * 16


@pytest.fixture
def crew_at_a_known_deal(crew: Crew) -> Crew:
    round_ = crew.table.round
    round_.seed_secret = SEED
    round_.seed_commitment = hashlib.sha256(SEED.encode()).hexdigest()
    round_.save(update_fields=["seed_secret", "seed_commitment"])
    return crew


@pytest.fixture
def game(crew_at_a_known_deal: Crew) -> Game:
    crew = crew_at_a_known_deal
    game = services.start_game(crew.table, crew.referee)
    play_to_the_end(game, crew.referee)
    game.refresh_from_db()
    return game


def hands_after(game: Game, n: int) -> list[list[str]]:
    family = family_for(game)
    state = initial_state(game)
    for row in effective_actions(game.moves.order_by("seq"))[:n]:
        state, _ = family.apply(state, parse_move(game, row.payload, family))
    return [card_names(hand) for hand in state.hands]


def labels(names: list[str]) -> set[str]:
    """The cards' faces as the page draws them; jokers left out (both are drawn "JK", so a
    joker played does not tell whether the other one shows)."""
    return {card_face(name)["label"] for name in names if name != "JK"}


def played_in_the_game(game: Game) -> set[str]:
    return labels(
        [
            card
            for row in game.moves.filter(kind=Move.Kind.ACTION)
            for card in row.payload.get("play", [])
        ]
    )


def test_before_the_reveal_no_held_card_shows(client: Client, game: Game) -> None:
    html = client.get(f"/games/{game.pk}/replay/?move={AT}").content.decode()
    board = html.split('data-testid="replay-moves"')[0]
    held = labels([c for hand in hands_after(game, AT) for c in hand])
    assert held, "a position with cards in hand"

    for label in held:
        assert label not in board, label  # nowhere on the board at this move
    for label in held - played_in_the_game(game):
        assert label not in html, label  # never played: nowhere on the page
    assert 'data-testid="replay-hand-' not in html
    assert "Hands stay hidden" in html


def test_after_the_reveal_every_hand_at_that_move_shows(client: Client, game: Game) -> None:
    reveal(game.table.round)

    html = client.get(f"/games/{game.pk}/replay/?move={AT}").content.decode()

    for seat, hand in enumerate(hands_after(game, AT), start=1):
        shown = html.split(f'data-testid="replay-hand-{seat}"')[1].split("</div>")[0]
        for label in labels(hand):
            assert label in shown, (seat, label)
    assert "Hands stay hidden" not in html


def exchange_lines(html: str) -> list[str]:
    return [line for line in re.findall(r"<li value=.*?</li>", html, re.S) if "exchange" in line]


def test_the_exchange_gives_only_counts_before_the_reveal(
    client: Client, crew: Crew, game: Game
) -> None:
    second = services.start_game(crew.table, crew.referee)  # titles from the first: an exchange
    play_to_the_end(second, crew.referee)
    gives = [
        row.payload["give"]
        for row in second.moves.filter(kind=Move.Kind.ACTION).order_by("seq")
        if "give" in row.payload
    ]
    assert gives, "the second game of a set opens with the card exchange"
    given = labels([c for cards in gives for c in cards])
    assert given

    before = client.get(f"/games/{second.pk}/replay/?move={len(gives)}").content.decode()
    board = before.split('data-testid="replay-moves"')[0]
    assert len(exchange_lines(before)) == len(gives)
    for label in given:
        assert label not in board, label
        assert not any(label in line for line in exchange_lines(before)), label

    reveal(second.table.round)
    after = client.get(f"/games/{second.pk}/replay/?move={len(gives)}").content.decode()
    for label in given:
        assert any(label in line for line in exchange_lines(after)), label
        assert label in after.split('data-testid="replay-moves"')[0], label  # in a hand now
