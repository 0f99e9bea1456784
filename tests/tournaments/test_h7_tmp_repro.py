import pytest
from django.test import Client

from tests.tournaments.stage_scenarios import tied_qualifying
from tournaments.models import Stage

pytestmark = pytest.mark.django_db


def test_repro(client: Client, organiser, tournament, head_referee) -> None:
    from tests.factories import StageFactory
    stage = StageFactory(tournament=tournament, order=1, name="Qualifying 予選")
    seats = tied_qualifying(tournament, stage, organiser, head_referee, entrants=8, top_n=3)
    client.force_login(organiser)
    url = f"/organiser/{tournament.slug}/stages/{stage.pk}/advance/"
    page = client.get(url).content.decode()
    import re
    ties = re.findall(r'<p class="notice tie".*?</p>', page, re.S)
    print(ties)
    nums = re.findall(r"#(\d+)", " ".join(ties))
    client.raise_request_exception = True
    r = client.post(url, {"tie_break": " ".join(nums)})
    print(r.status_code, nums)
    r2 = client.get(r["Location"]) if r.status_code == 302 else r
    print(r2.status_code)
