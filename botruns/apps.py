from django.apps import AppConfig


class BotrunsConfig(AppConfig):
    name = "botruns"
    verbose_name = "Bot tournaments"
