from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SignUpConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "signup"
    verbose_name = _("Public sign-up")

    def ready(self) -> None:
        from signup import receivers

        receivers.connect()
