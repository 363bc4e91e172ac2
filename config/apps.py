from django.contrib.admin.apps import AdminConfig


class ClubAdminConfig(AdminConfig):
    """The admin, with the site that lets club organizers in (config/admin_site.py)."""

    default_site = "config.admin_site.ClubAdminSite"

    def ready(self) -> None:
        super().ready()
        from config import checks  # noqa: F401  (registers the deploy checks)
