"""Deploy checks of our own (``manage.py check --deploy``), beside Django's security checks.

Django's security.W009 passes any long key, the placeholder of ``deploy/env.example``
included; these errors catch what a copied example file leaves behind.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register

from core.secret_key import placeholder_reason, secret_key_problem


@register(Tags.security, deploy=True)
def check_placeholders(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    messages: list[CheckMessage] = []
    problem = secret_key_problem(settings.SECRET_KEY)
    if problem:
        messages.append(Error(
            f"{problem}.",
            hint="Generate one: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'",
            id="config.E001",
        ))
    for alias, database in settings.DATABASES.items():
        password = str(database.get("PASSWORD") or "")
        reason = placeholder_reason(unquote(password)) if password else None
        if reason:
            messages.append(Error(
                f"The password of database {alias!r} looks like a placeholder ({reason}).",
                id="config.E002",
            ))
    broker = urlsplit(str(getattr(settings, "CELERY_BROKER_URL", "") or ""))
    if broker.password and placeholder_reason(unquote(broker.password)):
        messages.append(Error("The broker password looks like a placeholder.", id="config.E003"))
    hosts = [host for host in settings.ALLOWED_HOSTS if host.endswith("example.org")]
    if hosts:
        messages.append(Warning(
            f"ALLOWED_HOSTS still names the example host {hosts[0]!r}.", id="config.W001",
        ))
    return messages
