from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Only the migration history of ``games``: its models moved to ``matches`` and
    ``botruns`` (the tables kept their names), and the package is a pure library."""

    name = "games"
    verbose_name = "Games (migration history)"
