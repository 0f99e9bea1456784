"""Every existing Standing row's title, foul and 都落ち counts move into `metrics`, keyed as
大富豪 declares its metrics (`games.engine.daifugo.DAIFUGO.metrics`: the same names as the
columns). Standing rows are derived, and the next recompute writes them anew from the results,
but nothing is lost meanwhile: the boards keep showing the same counts. Reversible."""

from django.db import migrations

# The columns as they were, which are also 大富豪's metric keys (frozen here: a migration must
# not follow later changes of the engine).
COUNTS = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin", "fouls", "miyako_ochi")
BATCH = 2000


def forward(apps, schema_editor):
    Standing = apps.get_model("scoring", "Standing")
    rows = []
    for row in Standing.objects.only("pk", *COUNTS).iterator(BATCH):
        row.metrics = {name: getattr(row, name) for name in COUNTS}
        rows.append(row)
        if len(rows) >= BATCH:
            Standing.objects.bulk_update(rows, ["metrics"])
            rows = []
    Standing.objects.bulk_update(rows, ["metrics"])


def backward(apps, schema_editor):
    Standing = apps.get_model("scoring", "Standing")
    rows = []
    for row in Standing.objects.only("pk", "metrics").iterator(BATCH):
        metrics = row.metrics if isinstance(row.metrics, dict) else {}
        for name in COUNTS:
            setattr(row, name, int(metrics.get(name) or 0))
        rows.append(row)
        if len(rows) >= BATCH:
            Standing.objects.bulk_update(rows, list(COUNTS))
            rows = []
    Standing.objects.bulk_update(rows, list(COUNTS))


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0006_standing_metrics"),
    ]

    operations = [migrations.RunPython(forward, backward)]
