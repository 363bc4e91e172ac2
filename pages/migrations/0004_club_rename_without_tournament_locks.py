"""Once: dropped the trigger that bumped every tournament of a club renamed (the pages key
on the club's name and slug instead). ``tournaments`` migration 0005 drops it too, with
the rest of the pages app's triggers (``tournaments.freshness.RETIRED``)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("pages", "0003_language_preference")]

    operations: list[migrations.operations.base.Operation] = []
