from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BotrunsConfig(AppConfig):
    name = "botruns"
    verbose_name = _("Bot tournaments")
