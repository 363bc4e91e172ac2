from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from matches.events import games_changed
        from ratings.services import on_games_changed, on_tournament_rated_changed
        from tournaments.events import tournament_rated_changed

        games_changed.connect(on_games_changed)
        tournament_rated_changed.connect(on_tournament_rated_changed)
