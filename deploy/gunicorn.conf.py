"""gunicorn settings for the web process (see docs/operations.md, "Deployment")."""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
accesslog = "-"
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# Players' private links (/p/<token>/) never reach the access log: the filter masks them in
# every record (playerlinks/guard.py; Django's own loggers use it too, config/settings.py).
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"mask_link_tokens": {"()": "playerlinks.guard.MaskLinkTokens"}},
    "handlers": {
        "access": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout",
                   "filters": ["mask_link_tokens"]},
        "error": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr",
                  "filters": ["mask_link_tokens"]},
    },
    "loggers": {
        "gunicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False,
                            "filters": ["mask_link_tokens"]},
        "gunicorn.error": {"handlers": ["error"], "level": "INFO", "propagate": False,
                           "filters": ["mask_link_tokens"]},
    },
}
