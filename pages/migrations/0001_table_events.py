"""Once: triggers that announced committed writes with NOTIFY. The pages no longer listen;
``tournaments`` migration 0005 drops them where this migration had installed them, and a
new database never gets them (``tournaments.freshness``)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_tournament_version"),
        ("players", "0002_rating_ratingchange"),
    ]

    operations: list[migrations.operations.base.Operation] = []
