from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """Only the migration history of ``games``: its models moved to ``matches`` and
    ``botruns`` (the tables kept their names), and the package is a pure library."""

    name = "games"
    verbose_name = _("Games (migration history)")
