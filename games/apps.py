from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games, matches and bots"

    def ready(self) -> None:
        from games import admin_bots  # noqa: F401  (registers the bot-run admin)
