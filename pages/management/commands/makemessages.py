"""``makemessages`` that also collects ``N_(...)``, the pure cores' translation marker."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
