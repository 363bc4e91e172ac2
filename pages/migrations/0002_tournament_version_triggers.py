"""Once: the version triggers of the pages app. They moved to the tournaments app
(``tournaments.freshness``, ``tournaments`` migration 0005, which drops these where this
migration had installed them)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("pages", "0001_table_events"),
        ("tournaments", "0002_tournament_version"),
        ("players", "0002_rating_ratingchange"),
    ]

    operations: list[migrations.operations.base.Operation] = []
