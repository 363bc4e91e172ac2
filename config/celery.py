"""The Celery application; workers start with ``REMAP_SIGTERM=SIGQUIT celery -A config worker``.

``REMAP_SIGTERM=SIGQUIT`` (set by make, the container image and the systemd unit) makes
TERM a cold shutdown after ``CELERY_WORKER_SOFT_SHUTDOWN_TIMEOUT`` seconds: the running
games are cancelled and, acknowledged late, go back to the queue. Without it a worker
told to stop waits for every game it is playing. Celery reads the variable when it
starts, before this module, so it must come from the environment; a worker started
without it says so in its log.
"""

from __future__ import annotations

import logging
import os

from celery import Celery
from celery.signals import worker_init

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


@worker_init.connect
def _warn_of_a_slow_stop(**_: object) -> None:
    if os.environ.get("REMAP_SIGTERM") != "SIGQUIT":
        logging.getLogger(__name__).warning(
            "REMAP_SIGTERM=SIGQUIT is not set: on TERM this worker waits for the games it "
            "is playing before it stops (set it in the worker's environment)")
