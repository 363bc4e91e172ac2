from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PhoneClockConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "phoneclock"
    verbose_name = _("Phone clocks")

    def ready(self) -> None:
        from matches.clock_services import advice_extras, round_advice_extras
        from phoneclock.selectors import measured_advice_dict, question_advice_dict

        round_advice_extras["measured"] = measured_advice_dict
        advice_extras["measured"] = question_advice_dict
