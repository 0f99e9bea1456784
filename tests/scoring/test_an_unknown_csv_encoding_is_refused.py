"""A CSV export asked for in an encoding it does not write (`?encoding=latin-1`) is refused
with 400 `csv_encoding_unknown`, in English and Japanese, naming the encodings it writes —
never answered in some other encoding."""

from __future__ import annotations

import pytest

from tests.factories import TournamentFactory, browser, standings_field
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_an_encoding_the_exports_do_not_write_is_refused() -> None:
    tournament = TournamentFactory(slug="sendai-cup", status=Tournament.Status.RUNNING)
    standings_field(tournament, 2)

    answer = browser("en").get("/standings/sendai-cup/standings.csv?encoding=latin-1")
    page = browser("ja").get(
        "/standings/sendai-cup/standings.csv?encoding=latin-1", headers={"Accept": "text/html"}
    )

    body = answer.json()
    assert answer.status_code == 400 and body["code"] == "csv_encoding_unknown"
    assert "“latin-1” is neither" in body["message_en"]
    assert "「latin-1」はどちらでもありません" in body["message_ja"]
    assert body["detail"]["accepted"] == ["utf-8", "cp932", "shift_jis", "sjis"]
    assert page.status_code == 400
    assert "UTF-8（標準・Excel用）かShift_JIS（?encoding=cp932）" in page.content.decode()
