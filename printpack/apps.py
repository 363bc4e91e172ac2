from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrintPackConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "printpack"
    verbose_name = _("Print pack")
