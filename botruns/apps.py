from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BotrunsConfig(AppConfig):
    name = "botruns"
    verbose_name = _("Bot tournaments")

    def ready(self) -> None:
        from django.conf import settings

        from games.bots.process.exposure import keep_private

        # Folders no bot's manifest may name (the project itself is always private).
        keep_private(settings.VAR_DIR, settings.BOTS_DIR, settings.STATIC_ROOT,
                     settings.CELERY_BROKER_FOLDER)
