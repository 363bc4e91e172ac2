from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PhoneClockConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "phoneclock"
    verbose_name = _("Phone clocks")
