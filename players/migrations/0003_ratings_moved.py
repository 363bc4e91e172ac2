from django.db import migrations


class Migration(migrations.Migration):
    """Rating and RatingChange moved to the ``ratings`` app; their tables stay (state only)."""

    dependencies = [
        ("players", "0002_rating_ratingchange"),
        ("ratings", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="RatingChange"),
                migrations.DeleteModel(name="Rating"),
            ],
            database_operations=[],
        ),
    ]
