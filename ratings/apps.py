from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from matches.events import games_changed_connect
        from ratings.services import on_games_changed

        games_changed_connect(on_games_changed)
