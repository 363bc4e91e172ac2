from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from matches.events import games_changed
        from ratings.selectors import entry_ratings
        from ratings.services import on_games_changed, on_tournament_rated_changed
        from tournaments import rating_source
        from tournaments.events import tournament_rated_changed

        games_changed.connect(on_games_changed)
        tournament_rated_changed.connect(on_tournament_rated_changed)
        rating_source.install(entry_ratings)  # entrants are seeded from the club rating
