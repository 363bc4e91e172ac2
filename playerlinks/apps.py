from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayerLinksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "playerlinks"
    verbose_name = _("Players' private links")

    def ready(self) -> None:
        from playerlinks import history_lines, listeners

        history_lines.register()
        listeners.connect()
