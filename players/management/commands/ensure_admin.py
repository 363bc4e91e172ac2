"""Create the local admin account once; print its credentials every time."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _


class Command(BaseCommand):
    help = _("Create (once) a local superuser 'admin' and print its credentials.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--username", default="admin")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        secret_file = settings.VAR_DIR / f"{username}-password.txt"
        user_model = get_user_model()
        user = user_model.objects.filter(username=username).first()
        if user is None or not secret_file.exists():
            password = secrets.token_urlsafe(12)
            if user is None:
                user = user_model.objects.create_superuser(username, "", password)
            else:
                user.set_password(password)
                user.save(update_fields=["password"])
            secret_file.parent.mkdir(parents=True, exist_ok=True)
            secret_file.write_text(password + "\n")
            secret_file.chmod(0o600)
        password = secret_file.read_text().strip()
        self.stdout.write(_("Admin login: %(username)s / %(password)s  (kept in %(file)s)")
                          % {"username": username, "password": password, "file": secret_file})
