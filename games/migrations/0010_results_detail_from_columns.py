"""Every existing result's 大富豪 columns (title, foul, 都落ち) move into `detail`, in the shape
the engine's `SeatResult.detail` has (no title: None), and every result version's placings
take the same shape. Reversible: backwards the columns and the flat placings come back."""

from django.db import migrations

# The 大富豪 detail keys, as the columns and the old placings named them.
DETAIL_KEYS = ("title", "foul", "miyako_ochi")
BATCH = 2000


def _detail(title: str, foul: bool, miyako_ochi: bool) -> dict[str, object]:
    return {"title": title or None, "foul": bool(foul), "miyako_ochi": bool(miyako_ochi)}


def _placing_forward(old: dict[str, object]) -> dict[str, object]:
    if "detail" in old:  # already the new shape
        return old
    new = {k: v for k, v in old.items() if k not in DETAIL_KEYS}
    new["team"] = None
    new["detail"] = _detail(
        str(old.get("title") or ""), bool(old.get("foul")), bool(old.get("miyako_ochi"))
    )
    return new


def _placing_backward(new: dict[str, object]) -> dict[str, object]:
    if "detail" not in new:
        return new
    detail = new["detail"] if isinstance(new["detail"], dict) else {}
    old = {k: v for k, v in new.items() if k not in ("team", "detail")}
    old["title"] = detail.get("title") or ""
    old["foul"] = bool(detail.get("foul"))
    old["miyako_ochi"] = bool(detail.get("miyako_ochi"))
    return old


def forward(apps, schema_editor):
    GameResult = apps.get_model("games", "GameResult")
    ResultVersion = apps.get_model("games", "ResultVersion")
    rows = []
    for r in GameResult.objects.only("pk", "title", "foul", "miyako_ochi").iterator(BATCH):
        r.detail = _detail(r.title, r.foul, r.miyako_ochi)
        rows.append(r)
        if len(rows) >= BATCH:
            GameResult.objects.bulk_update(rows, ["detail"])
            rows = []
    GameResult.objects.bulk_update(rows, ["detail"])
    versions = []
    for v in ResultVersion.objects.only("pk", "placings").iterator(BATCH):
        v.placings = [_placing_forward(p) for p in v.placings]
        versions.append(v)
        if len(versions) >= BATCH:
            ResultVersion.objects.bulk_update(versions, ["placings"])
            versions = []
    ResultVersion.objects.bulk_update(versions, ["placings"])


def backward(apps, schema_editor):
    GameResult = apps.get_model("games", "GameResult")
    ResultVersion = apps.get_model("games", "ResultVersion")
    rows = []
    for r in GameResult.objects.only("pk", "detail").iterator(BATCH):
        detail = r.detail if isinstance(r.detail, dict) else {}
        r.title = detail.get("title") or ""
        r.foul = bool(detail.get("foul"))
        r.miyako_ochi = bool(detail.get("miyako_ochi"))
        rows.append(r)
        if len(rows) >= BATCH:
            GameResult.objects.bulk_update(rows, ["title", "foul", "miyako_ochi"])
            rows = []
    GameResult.objects.bulk_update(rows, ["title", "foul", "miyako_ochi"])
    versions = []
    for v in ResultVersion.objects.only("pk", "placings").iterator(BATCH):
        v.placings = [_placing_backward(p) for p in v.placings]
        versions.append(v)
        if len(versions) >= BATCH:
            ResultVersion.objects.bulk_update(versions, ["placings"])
            versions = []
    ResultVersion.objects.bulk_update(versions, ["placings"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_result_team_and_detail"),
    ]

    operations = [migrations.RunPython(forward, backward)]
