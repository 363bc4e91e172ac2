"""``makemessages`` that also collects ``N_(...)`` and ``N_plural(...)``, the pure
cores' translation markers."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_",
                        "--keyword=N_plural:1,2"]
