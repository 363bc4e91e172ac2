from django.db import migrations

#: (old app, model) -> new app: the models moved, their tables and rows did not.
MOVED = {
    ("games", "game"): "matches",
    ("games", "botrun"): "botruns",
    ("games", "botgametask"): "botruns",
    ("players", "rating"): "ratings",
    ("players", "ratingchange"): "ratings",
}


def move_content_types(apps, schema_editor):
    """Keep permissions and admin log entries attached to the moved models."""
    content_type = apps.get_model("contenttypes", "ContentType")
    for (old_app, model), new_app in MOVED.items():
        if not content_type.objects.filter(app_label=new_app, model=model).exists():
            content_type.objects.filter(app_label=old_app, model=model).update(app_label=new_app)


def restore_content_types(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    for (old_app, model), new_app in MOVED.items():
        if not content_type.objects.filter(app_label=old_app, model=model).exists():
            content_type.objects.filter(app_label=new_app, model=model).update(app_label=old_app)


class Migration(migrations.Migration):
    """Game moved to ``matches``, BotRun and BotGameTask to ``botruns``: the tables keep
    their names (``games_game``...), so only the migration state changes here."""

    dependencies = [
        ("games", "0001_initial"),
        ("matches", "0001_initial"),
        ("botruns", "0001_initial"),
        ("players", "0003_ratings_moved"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="BotGameTask"),
                migrations.DeleteModel(name="BotRun"),
                migrations.DeleteModel(name="Game"),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, restore_content_types),
    ]
