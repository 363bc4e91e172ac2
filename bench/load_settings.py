"""The service's settings with the bench URLconf (``bench/load_site.py``): the same
middleware, database and caches, plus the minimal view ``/bench/minimal``."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.load_site"
