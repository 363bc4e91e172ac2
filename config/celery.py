"""The Celery application; workers start with ``celery -A config worker``."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("clubtourney")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def _make_broker_folders(sender: Celery, **_: object) -> None:
    """The filesystem transport needs its folders to exist before the first message."""
    options = sender.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if options.get(key):
            os.makedirs(options[key], exist_ok=True)
