from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NoticesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notices"
    verbose_name = _("Notices, calendars and embeds")

    def ready(self) -> None:
        from notices import services
        from playerlinks import events as link_events
        from reporting import events as report_events
        from tournaments import events

        events.round_released.connect(services.on_round_released)
        link_events.check_in_opened.connect(services.on_check_in_opened)
        report_events.claim_awaits_opponent.connect(services.on_claim_awaits_opponent)
