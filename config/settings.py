"""Settings, read from the environment (12-factor); docs/operations.md has the table.

With nothing set the service runs on an embedded default: a SQLite file under ``var/``
and Celery's filesystem transport, which needs no broker server.
"""

from __future__ import annotations

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from kombu import Queue

from config.db_pool import check_connection
from core.secret_key import secret_key_problem
from core.seed_secret import seed_secret

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("VAR_DIR", default=str(BASE_DIR / "var")))

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")  # never overrides variables already set

DEBUG = env.bool("DEBUG", default=False)

_DEVELOPMENT_KEY = "insecure-development-key-do-not-use-in-production"
SECRET_KEY = env.str("SECRET_KEY", default="")
_CONFIGURED_KEY = SECRET_KEY
_KEY_PROBLEM = secret_key_problem(SECRET_KEY)
if _KEY_PROBLEM and not DEBUG:
    # Production (DEBUG off) refuses to start; `check --deploy` says the same (config.E001).
    raise ImproperlyConfigured(
        f"{_KEY_PROBLEM}. Production (DEBUG off) needs 50 random characters, for example "
        "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'; for local "
        "development set DEBUG=true (make run does)."
    )
if not SECRET_KEY:
    SECRET_KEY = _DEVELOPMENT_KEY

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "config.apps.ClubAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from our static files
    "players",
    "games",
    "tournaments",
    "matches",
    "analysis",
    "ratings",
    "botruns",
    "pages",
    "playerlinks",
    "signup",
    "reporting",
    "phoneclock",
    "printpack",
    "notices",
    "leagues",
]

MIDDLEWARE = [
    "core.db_retry.RetrySafeRequestsMiddleware",  # first: a GET whose connection was cut
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "config.limits.RequestLimitsMiddleware",  # body size (413) and NUL in the query (400)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # Accept-Language, the language cookie
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "pages.middleware.LanguagePreferenceMiddleware",  # a signed-in user's stored language
    "config.login_guard.LoginGuardMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.list_cache.CachedListsMiddleware",  # last: a kept answer skips only the view
]

# Content-Security-Policy (Django 6): our own origin only; an inline script runs only with
# the request's nonce (<script nonce="{{ csp_nonce }}">), inline event handlers never.
# Inline styles stay allowed (style attributes of the admin, the pages and the SVGs).
# The API docs (Swagger UI, ReDoc) are our own static files and live under it too.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",  # {{ csp_nonce }}
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    # WAL lets the web server and the worker write the embedded database side by side.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"init_command": "PRAGMA journal_mode=WAL;", "transaction_mode": "IMMEDIATE",
         "timeout": 20}
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    if env.bool("DATABASE_POOL", default=True):
        # psycopg's pool replaces persistent connections (CONN_MAX_AGE must stay 0).
        # The pool checks a connection before lending it, so connections broken by a
        # database restart are discarded instead of failing the next request; the check
        # (config/db_pool.py) asks the server only when the idle socket shows trouble.
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env.int("DATABASE_POOL_MIN", default=2),
            "max_size": env.int("DATABASE_POOL_MAX", default=10),
            "timeout": env.int("DATABASE_POOL_TIMEOUT", default=10),
            "check": check_connection,
        }
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    else:
        DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Local memory by default (one process); Redis in production, e.g. redis://127.0.0.1:6379/1,
# so that login throttling counts failures across all gunicorn processes.
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
# Standings, tables and rendered results are cached under each tournament's version
# (tournaments/cache.py): a write makes them unreachable at once. This only bounds how long
# unreachable entries keep memory.
TOURNAMENT_CACHE_SECONDS = env.int("TOURNAMENT_CACHE_SECONDS", default=24 * 60 * 60)
# Public sign-up submissions (sign-ups and withdrawals) per client address in 10 minutes.
SIGNUP_SUBMISSIONS_PER_WINDOW = env.int("SIGNUP_SUBMISSIONS_PER_WINDOW", default=5)
# API lists answered from memory while the tables they read are unchanged
# (config/list_cache.py): the path, then every table its answer is read from (each one
# counted by tournaments.freshness.GENERATION_TABLES).
CACHED_LISTS = {
    "/api/tournaments/": ["tournaments_tournament", "tournaments_entrant", "players_club"],
    "/api/players/": ["players_player", "players_club"],
}

# Failed logins (admin and token) per client address and user name, and per client address
# over all names, before a pause (config/login_guard.py).
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_FAILURE_ADDRESS_LIMIT = env.int("LOGIN_FAILURE_ADDRESS_LIMIT", default=20)
LOGIN_FAILURE_WINDOW_SECONDS = env.int("LOGIN_FAILURE_WINDOW", default=15 * 60)
# Failures for one name from any addresses before its logins are slowed: one attempt per
# delay, doubling from LOGIN_ACCOUNT_DELAY up to LOGIN_ACCOUNT_DELAY_MAX seconds.
LOGIN_ACCOUNT_FAILURE_LIMIT = env.int("LOGIN_ACCOUNT_FAILURE_LIMIT", default=10)
LOGIN_ACCOUNT_DELAY = env.int("LOGIN_ACCOUNT_DELAY", default=5)
LOGIN_ACCOUNT_DELAY_MAX = env.int("LOGIN_ACCOUNT_DELAY_MAX", default=60)
AUTHENTICATION_BACKENDS = [
    "config.login_guard.LoginGuardBackend",  # refuses a paused name or address first
    "django.contrib.auth.backends.ModelBackend",
]
# /healthz keeps a broker check's result this long (each check opens a broker connection).
HEALTH_BROKER_CACHE_SECONDS = env.float("HEALTH_BROKER_CACHE_SECONDS", default=5.0)
# Proxies in front of the service that append to X-Forwarded-For (nginx: 1).
NUM_PROXIES = env.int("NUM_PROXIES", default=0)


def _seconds(name: str, default: float, most: float) -> float:
    value = env.float(name, default=default)
    if not 0 < value <= most:
        raise ImproperlyConfigured(f"{name} must be a number of seconds in (0, {most:g}]")
    return value


# POST /api/analysis/ (analysis/limits.py): CPU seconds one position's analysis may take
# (twice that of wall time), anonymous or for organizers and staff; per minute, the CPU
# seconds anonymous requests may take from one client address and the seconds they may
# hold a web worker over all addresses; how many anonymous analyses run at once; how long
# an answer is kept for the same position.
ANALYSIS_CPU_SECONDS = _seconds("ANALYSIS_CPU_SECONDS", 0.5, 30)
ANALYSIS_ORGANIZER_CPU_SECONDS = _seconds("ANALYSIS_ORGANIZER_CPU_SECONDS", 6.0, 30)
ANALYSIS_ADDRESS_CPU_PER_MINUTE = _seconds("ANALYSIS_ADDRESS_CPU_PER_MINUTE", 3.0, 3600)
ANALYSIS_SITE_SECONDS_PER_MINUTE = _seconds("ANALYSIS_SITE_SECONDS_PER_MINUTE", 6.0, 3600)
ANALYSIS_CONCURRENCY = env.int("ANALYSIS_CONCURRENCY", default=1)
if ANALYSIS_CONCURRENCY < 1:
    raise ImproperlyConfigured("ANALYSIS_CONCURRENCY must be at least 1")
ANALYSIS_CACHE_SECONDS = env.int("ANALYSIS_CACHE_SECONDS", default=60 * 60)

# The largest request body accepted (413 above it, config/limits.py), and Django's own
# limit on what a view may read into memory.
API_MAX_BODY_BYTES = env.int("API_MAX_BODY_BYTES", default=1_000_000)
DATA_UPLOAD_MAX_MEMORY_SIZE = API_MAX_BODY_BYTES

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
# English and Russian; each app keeps its catalogue in <app>/locale, the project's
# templates and settings theirs in locale/ (make messages rebuilds them all).
LANGUAGES = [("en-gb", "English"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switch (set_language) remembers the choice in this cookie for a year; a signed-in
# user's choice is stored too (pages.LanguagePreference) and set again at each login.
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Dates and numbers in each language's style (config/formats/<language>/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(VAR_DIR / "static")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG
if DEBUG:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)

LOGIN_URL = "admin:login"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["players.api.permissions.ReadOnlyOrOrganizer"],
    "DEFAULT_FILTER_BACKENDS": [
        "core.ids.IdFilterBackend",  # ids are ASCII digits (core/ids.py)
        "rest_framework.filters.SearchFilter",
        "rest_framework.filters.OrderingFilter",
    ],
    # NUL characters and non-finite numbers are a 400 naming the field (core/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.StrictJSONParser",
        "core.parsers.StrictFormParser",
        "core.parsers.StrictMultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": env.int("API_PAGE_SIZE", default=50),
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.errors.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "login": env.str("LOGIN_THROTTLE", default="10/min"),
        # POST /api/analysis/: requests per client address (its CPU time: ANALYSIS_*).
        "analysis": env.str("ANALYSIS_THROTTLE", default="60/min"),
    },
    "NUM_PROXIES": NUM_PROXIES,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Club tournament service API",
    "DESCRIPTION": "Players, clubs, teams, tournaments, matches and ratings for Kazambi, "
    "Kugamai and Stolbiki.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # The docs' scripts and styles come from our own static files (no CDN: they work
    # offline, at a venue, under the site's Content-Security-Policy).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A pairing's outcome shows in two components (the board, and the board with its match
    # in progress): one enum, named once.
    "ENUM_NAME_OVERRIDES": {"PairingOutcomeEnum": "tournaments.models.Outcome"},
}

# Celery: an embedded broker by default (kombu's filesystem transport: no server needed).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
CELERY_BROKER_FOLDER = Path(env.str("CELERY_BROKER_FOLDER", default=str(VAR_DIR / "broker")))
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_FOLDER / "queue"),
        "data_folder_out": str(CELERY_BROKER_FOLDER / "queue"),
        "processed_folder": str(CELERY_BROKER_FOLDER / "processed"),
        "control_folder": str(CELERY_BROKER_FOLDER / "control"),
        "store_processed": False,
    }
else:
    # Redis: a message a worker took and never acknowledged (it died) is delivered again
    # after the visibility time-out; the restore sweep runs every ten seconds. Bot games
    # do not wait for it: their leases notice a lost game sooner (botruns.services), and a
    # game delivered twice is recorded once.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
        "unacked_restore_interval": 10,
        "unacked_restore_throttle": 1,
    }
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# Three queues (docs/workers.md): bot games, whole-game analyses, and short tasks (beat's
# re-send check, notifications) on the default one, so that analyses can never hold the
# processes that play bot games. A worker started without -Q consumes all three (the
# embedded one of make run); the deploy files start one worker for bots and notifications
# and another for analyses.
CELERY_TASK_DEFAULT_QUEUE = "notifications"
CELERY_TASK_QUEUES = [Queue("bots"), Queue("analysis"), Queue("notifications")]
CELERY_TASK_ROUTES = {
    "games.play_bot_game": {"queue": "bots"},
    "analysis.analyse_game": {"queue": "analysis"},
}
# A whole game's analysis: each move's search stops after ANALYSIS_MOVE_SECONDS, the game
# after ANALYSIS_GAME_SECONDS (the moves analysed by then are kept, status "partial"); a
# club has at most ANALYSIS_RUNNING_PER_CLUB analyses running at once, the others wait
# (their task asks again every ANALYSIS_WAIT_SECONDS without holding a worker process).
ANALYSIS_MOVE_SECONDS = env.float("ANALYSIS_MOVE_SECONDS", default=10.0)
ANALYSIS_GAME_SECONDS = env.int("ANALYSIS_GAME_SECONDS", default=600)
ANALYSIS_RUNNING_PER_CLUB = env.int("ANALYSIS_RUNNING_PER_CLUB", default=1)
ANALYSIS_WAIT_SECONDS = env.float("ANALYSIS_WAIT_SECONDS", default=10.0)
# The admin pairs a Swiss round of this many entrants or more on a worker (a progress
# page instead of a request held for the pairing; docs/swiss.md).
SWISS_BACKGROUND_ENTRANTS = env.int("SWISS_BACKGROUND_ENTRANTS", default=300)
# Stopping a worker (TERM, with REMAP_SIGTERM=SIGQUIT in its environment, as make and the
# deploy files set it): it waits this many seconds for running tasks, then cancels them;
# an unfinished game's message goes back to the queue for another worker.
CELERY_WORKER_SOFT_SHUTDOWN_TIMEOUT = env.float("CELERY_SOFT_SHUTDOWN_SECONDS", default=3.0)
# A running bot game renews its lease every third of this; a game whose lease ran out (its
# worker died) is sent again by the next check.
BOT_LEASE_SECONDS = env.float("BOT_LEASE_SECONDS", default=15.0)
# A club's bot games sent to the workers and not finished, at most: the rest wait in the
# database and are sent as earlier ones finish, so one club's big run cannot fill the queue
# ahead of another club's games.
BOT_GAMES_PER_CLUB = env.int("BOT_GAMES_PER_CLUB", default=4)
# Bots: the programs workers may run (one folder each, with a bot.toml manifest), the
# secret that bot and deal seeds are drawn from (HMAC; derived from SECRET_KEY unless set,
# so keep it when rotating the key to replay old runs; without a usable key, drawn once
# for this installation into VAR_DIR: core/seed_secret.py), and how bots are isolated
# ("auto": namespaces where the machine allows, "required", "none").
BOTS_DIR = Path(env.str("BOTS_DIR", default=str(VAR_DIR / "bots")))
BOT_SEED_SECRET, BOT_SEED_SECRET_WEAKNESS = seed_secret(
    env.str("BOT_SEED_SECRET", default=""), _CONFIGURED_KEY, VAR_DIR, _DEVELOPMENT_KEY)
BOT_ISOLATION = env.str("BOT_ISOLATION", default="auto")

CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "resend-stuck-bot-games": {
        "task": "games.resend_stuck_bot_games",
        "schedule": env.float("BOT_STUCK_CHECK_SECONDS", default=10.0),
    },
    "mark-lost-notices": {"task": "notices.mark_lost", "schedule": 300.0},
    "close-due-check-ins": {"task": "playerlinks.close_due_check_ins", "schedule": 30.0},
    "league-lineup-reminders": {"task": "leagues.lineup_reminders", "schedule": 600.0},
}
# A league captain is e-mailed once when their team's lineup deadline is this near and no
# lineup is in (leagues.services.lineup_reminders_send).
LEAGUE_LINEUP_REMINDER_HOURS = env.float("LEAGUE_LINEUP_REMINDER_HOURS", default=24.0)

# E-mail (notices: docs/notifications.md). The console backend (messages in the worker's
# log) unless EMAIL_HOST names an SMTP server; SITE_URL makes the links in the messages.
_EMAIL_HOST = env.str("EMAIL_HOST", default="")
MAILERS = {
    "default": {
        "BACKEND": env.str("EMAIL_BACKEND", default=(
            "django.core.mail.backends.smtp.EmailBackend" if _EMAIL_HOST
            else "django.core.mail.backends.console.EmailBackend")),
        "OPTIONS": {
            "host": _EMAIL_HOST, "port": env.int("EMAIL_PORT", default=25),
            "username": env.str("EMAIL_HOST_USER", default=""),
            "password": env.str("EMAIL_HOST_PASSWORD", default=""),
            "use_tls": env.bool("EMAIL_USE_TLS", default=False),
            "use_ssl": env.bool("EMAIL_USE_SSL", default=False),
            "timeout": env.int("EMAIL_TIMEOUT", default=20),
        } if _EMAIL_HOST else {},
    },
}
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="tournaments@localhost")
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
# A notice's send is retried this many times on SMTP errors (backoff doubling from
# NOTICE_RETRY_SECONDS).
NOTICE_RETRIES = env.int("NOTICE_RETRIES", default=5)
NOTICE_RETRY_SECONDS = env.float("NOTICE_RETRY_SECONDS", default=10.0)
# A notice still "being sent" this long after its claim lost its worker: marked "unknown"
# (beat's check every few minutes) for the admin to resend on purpose.
NOTICE_LOST_SECONDS = env.float("NOTICE_LOST_SECONDS", default=600.0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    # Players' private links (/p/<token>/) are masked in every log line (playerlinks/guard.py).
    "filters": {"mask_link_tokens": {"()": "playerlinks.guard.MaskLinkTokens"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain",
                             "filters": ["mask_link_tokens"]}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "django.request": {"filters": ["mask_link_tokens"]},
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False,
                          "filters": ["mask_link_tokens"]},
    },
}

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 30)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
    if not SECURE_HSTS_PRELOAD:
        # Preloading is an opt-in promise to browser vendors, not a default to impose.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    SECURE_CONTENT_TYPE_NOSNIFF = True

if not _EMAIL_HOST and not env.str("EMAIL_BACKEND", default=""):
    # No mail server configured: a club that sends no e-mail, its notices written to the
    # worker's log (docs/notifications.md). Django's deploy check (mail.E001) would call
    # that console backend an error; set EMAIL_HOST in production to send them.
    SILENCED_SYSTEM_CHECKS = [*globals().get("SILENCED_SYSTEM_CHECKS", []), "mail.E001"]
