from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReportingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "reporting"
    verbose_name = _("Players' result reports")

    def ready(self) -> None:
        from reporting import services
        from tournaments import events

        events.pairing_asked.connect(services.refuse_pairing_with_open_issues)
