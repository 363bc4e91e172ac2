"""Settings for the test suite: PostgreSQL by default, as production uses."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-key-" + "x" * 40)
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/clubtourney")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
# Every test client is one address: anonymous analysis budgets no test outgrows (the tests
# of the budgets set their own, tests/reliability/test_analysis_budget.py).
os.environ.setdefault("ANALYSIS_ADDRESS_CPU_PER_MINUTE", "600")
os.environ.setdefault("ANALYSIS_SITE_SECONDS_PER_MINUTE", "600")
# A search asked for a number of iterations finishes them on a loaded test machine too.
os.environ.setdefault("ANALYSIS_CPU_SECONDS", "10")

from config.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405
