import json, pytest
from django.test import Client
from tests.factories import engine_record
from .conftest import Crew
pytestmark = pytest.mark.django_db
def test_page(crew: Crew) -> None:
    c = Client(); c.force_login(crew.organiser)
    url = f"/organiser/{crew.tournament.slug}/rounds/{crew.table.round_id}/tables/{crew.table.pk}/import/"
    r = c.get(url); assert r.status_code == 200, r.content
    rec = engine_record("x"); bad = engine_record("y", stop_after=5)
    r = c.post(url, {"text": json.dumps(rec) + "\n" + json.dumps(bad)}, HTTP_HX_REQUEST="true")
    print(r.status_code, r.content.decode()[:3000])
    r = c.get(f"/organiser/{crew.tournament.slug}/rounds/{crew.table.round_id}/")
    assert "import-records-1" in r.content.decode()
