from django.contrib.admin.apps import AdminConfig
from django.db.models import fields
from django.utils.translation import gettext_lazy


class ClubAdminConfig(AdminConfig):
    """The admin, with the site that lets club organizers in (config/admin_site.py)."""

    default_site = "config.admin_site.ClubAdminSite"

    def ready(self) -> None:
        super().ready()
        from config import checks  # noqa: F401  (registers the deploy checks)

        # Django 6's empty choice of selects: its own catalogues do not translate it yet.
        fields.BLANK_CHOICE_LABEL = gettext_lazy("- Select an option -")
