"""The organiser's import page (「棋譜を取り込む」) takes a file or pasted text and lists each
record's outcome in the page's language: imported as a game (linked), or refused with its code,
the engine's message and the move at fault (「N手目」); the round page links to it per table."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.engine.record import replay
from games.models import Game
from tests.factories import browser, engine_record, titles_after

from .conftest import Crew

pytestmark = pytest.mark.django_db


def page(crew: Crew) -> str:
    round_id = crew.table.round_id
    return f"/organiser/{crew.tournament.slug}/rounds/{round_id}/tables/{crew.table.pk}/import/"


def organiser(crew: Crew) -> Client:
    client = browser("ja")
    client.force_login(crew.organiser)
    return client


def test_an_uploaded_jsonl_file_imports_and_names_the_refused_move(crew: Crew) -> None:
    first = engine_record("page one")
    second = engine_record("page two", titles=titles_after(first))
    second["moves"][4] = {**second["moves"][4], "seat": (second["moves"][4]["seat"] + 1) % 4}
    refused = replay(second).moves[4].error
    assert refused is not None
    lines = "\n".join(json.dumps({"record": r}) for r in (first, second)).encode()

    answer = organiser(crew).post(
        page(crew),
        {"file": SimpleUploadedFile("table1.jsonl", lines)},
        HTTP_HX_REQUEST="true",
    )

    html = answer.content.decode()
    assert answer.status_code == 200
    game = Game.objects.get()
    assert f"/referee/games/{game.pk}/" in html
    assert "第1セット · 第1局として取り込みました" in html
    assert "5手目" in html and refused.message_ja in html and refused.code in html
    assert "1局を取り込みました" in html


def test_pasted_text_that_holds_no_record_is_refused(crew: Crew) -> None:
    answer = organiser(crew).post(page(crew), {"text": "  "}, HTTP_HX_REQUEST="true")

    assert answer.status_code == 422
    assert "ファイルを選ぶか、棋譜を貼り付けてください。" in answer.content.decode()


def test_the_round_page_links_each_table_to_its_import_page(crew: Crew) -> None:
    round_page = f"/organiser/{crew.tournament.slug}/rounds/{crew.table.round_id}/"

    html = organiser(crew).get(round_page).content.decode()

    assert page(crew) in html and "棋譜を取り込む" in html
