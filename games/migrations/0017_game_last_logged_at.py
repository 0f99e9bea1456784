from typing import Any

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_last_logged_at(apps: Any, schema_editor: Any) -> None:
    """Games already logged get the time of their latest row, as `_log` now keeps it: a game
    in play across the upgrade times its next decision from its last move, not from its start."""
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    latest = Move.objects.filter(game=OuterRef("pk"), seq=OuterRef("last_seq")).values(
        "created_at"
    )[:1]
    Game.objects.filter(last_seq__gt=0).update(last_logged_at=Subquery(latest))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_game_record_seed"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="last_logged_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(fill_last_logged_at, migrations.RunPython.noop),
    ]
