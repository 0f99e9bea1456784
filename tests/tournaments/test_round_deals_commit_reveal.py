"""Commit–reveal: the seed's SHA-256 is public from publication, the seed only once the round is
finished, and every deal on the public page is the engine's deal for the documented material."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.display import card
from games.engine.cards import card_names
from games.engine.deal import deal
from games.engine.rules import find_ruleset
from tests.factories import play_round_quickly
from tournaments.models import Round, Stage, Tournament
from tournaments.services import DomainError, draw_round, publish_round, reveal_round_seed

from .conftest import checked_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(tournament: Tournament, stage: Stage, organiser: User) -> Round:
    checked_in(tournament, 8)
    return draw_round(stage, organiser)


@pytest.fixture
def played(drawn: Round, organiser: User, head_referee: User) -> Round:
    """The drawn round published and every game of it played and confirmed."""
    publish_round(drawn, organiser)
    play_round_quickly(drawn, organiser, head_referee)
    return drawn


def pages_and_api(client: Client, round_: Round) -> str:
    slug = round_.stage.tournament.slug
    return "".join(
        client.get(url).content.decode()
        for url in [
            f"/tournaments/{slug}/",
            f"/tournaments/{slug}/rounds/{round_.pk}/",
            f"/tournaments/{slug}/rounds/{round_.pk}/?table=1&set_number=1&game=1",
            "/api/rounds/",
            f"/api/rounds/{round_.pk}/",
            "/api/tables/",
            "/admin/tournaments/round/",
            f"/admin/tournaments/round/{round_.pk}/change/",
            "/organiser/nagoya-open/",
            f"/organiser/nagoya-open/rounds/{round_.pk}/",
            f"/organiser/nagoya-open/rounds/{round_.pk}/cards/",
        ]
    )


def test_the_seed_never_appears_anywhere_before_it_is_revealed(
    drawn: Round, organiser: User, client: Client, admin_client: Client
) -> None:
    secret = drawn.seed_secret
    client.force_login(organiser)
    assert secret not in pages_and_api(client, drawn) + pages_and_api(admin_client, drawn)

    publish_round(drawn, organiser)

    assert secret not in pages_and_api(client, drawn) + pages_and_api(admin_client, drawn)
    client.logout()
    assert secret not in pages_and_api(client, drawn)


def test_the_commitment_is_published_with_the_round_and_matches_the_revealed_seed(
    drawn: Round, organiser: User, head_referee: User, client: Client
) -> None:
    assert client.get(f"/api/rounds/{drawn.pk}/").status_code == 404  # drafts stay private

    publish_round(drawn, organiser)
    play_round_quickly(drawn, organiser, head_referee)
    published = client.get(f"/api/rounds/{drawn.pk}/").json()
    assert published["seed"] is None
    commitment = published["seed_commitment"]

    reveal_round_seed(drawn, organiser)
    revealed = client.get(f"/api/rounds/{drawn.pk}/").json()

    assert revealed["seed_commitment"] == commitment
    assert hashlib.sha256(revealed["seed"].encode("ascii")).hexdigest() == commitment


def test_the_public_page_shows_only_the_commitment_before_reveal(
    drawn: Round, organiser: User, client: Client
) -> None:
    publish_round(drawn, organiser)
    url = f"/tournaments/nagoya-open/rounds/{drawn.pk}/"

    before = client.get(url + "?table=1&set_number=1&game=1").content.decode()

    assert drawn.seed_commitment in before
    assert "Verify a deal" not in before
    assert "revealed once every game of the round is settled" in before


def test_the_public_round_page_speaks_japanese_to_a_japanese_browser(
    drawn: Round, organiser: User, client_ja: Client
) -> None:
    publish_round(drawn, organiser)

    page = client_ja.get(f"/tournaments/nagoya-open/rounds/{drawn.pk}/").content.decode()

    assert "<dd>全ゲーム確定後に公開</dd>" in page and "revealed once" not in page
    assert "<h2>配牌シード</h2>" in page and "Deal seed" not in page
    assert "<h3>1卓</h3>" in page and "<h3>Table 1</h3>" not in page


def test_the_public_page_deals_what_the_engine_deals_for_that_material(
    played: Round, organiser: User, client: Client
) -> None:
    drawn = played
    reveal_round_seed(drawn, organiser)
    seed = Round.objects.get(pk=drawn.pk).seed_secret
    expected = deal(f"{seed}/table/2/set/3/game/4", find_ruleset("jdf@1"))

    page = client.get(
        f"/tournaments/nagoya-open/rounds/{drawn.pk}/?table=2&set_number=3&game=4"
    ).content.decode()

    assert f"{seed}/table/2/set/3/game/4" in page

    def labels(cards: int) -> str:  # the page shows cards as people read them: ♠3, ♥10, JK
        return " ".join(card(name)["label"] for name in card_names(cards))

    for hand in expected.hands:
        assert labels(hand) in page
    assert f'<code class="blind">{labels(expected.blind)}</code>' in page
    assert len(card_names(expected.blind)) == 2  # JDF: two blind cards per deal
    assert "its SHA-256 equals the commitment" in page


def test_a_missing_table_is_a_form_error(played: Round, organiser: User, client: Client) -> None:
    drawn = played
    reveal_round_seed(drawn, organiser)

    page = client.get(f"/tournaments/nagoya-open/rounds/{drawn.pk}/?table=9&set_number=1&game=1")

    assert "has no table 9" in page.content.decode()


def test_each_round_has_its_own_seed(
    tournament: Tournament, stage: Stage, organiser: User, head_referee: User
) -> None:
    checked_in(tournament, 8)
    first = draw_round(stage, organiser)
    publish_round(first, organiser)
    play_round_quickly(first, organiser, head_referee)
    reveal_round_seed(first, organiser)

    second = draw_round(stage, organiser)

    assert first.seed_secret != second.seed_secret
    assert len(second.seed_secret) == 64


def test_a_seed_cannot_be_revealed_before_the_round_is_published(
    drawn: Round, organiser: User
) -> None:
    with pytest.raises(DomainError):
        reveal_round_seed(drawn, organiser)
