"""Kakumei settings, read from the environment.

Every setting that differs between machines comes from an environment variable with a safe
development default, so `./dev serve` works on a fresh checkout (SQLite, Celery eager) and
production sets `DEBUG=False`, `SECRET_KEY`, `DATABASE_URL`, `CELERY_BROKER_URL`.
Refuses to start with `DEBUG=False` and no `SECRET_KEY`.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from pathlib import Path

import django_stubs_ext
import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

# Lets `QuerySet[Model]`, `ModelAdmin[Model]` etc. be subscripted at run time, as mypy needs.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=True)


def _secret_key() -> str:
    key: str = env.str("SECRET_KEY", default="")
    if key:
        return key
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    # A fresh random key per process is fine for development: it only invalidates sessions.
    return "dev-insecure-" + secrets.token_urlsafe(40)


SECRET_KEY = _secret_key()

ALLOWED_HOSTS: list[str] = env.list(
    "ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS: list[str] = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "games",
    "tournaments",
    "scoring",
    # Sign-in lockout after repeated failures (config/lockout.py).
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions (a signed-in person's saved language lives there), before CommonMiddleware.
    "config.language.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: turns a sign-in refused for lockout into the page that says how long to wait.
    "axes.middleware.AxesMiddleware",
]

if not DEBUG and env.bool("SERVE_STATIC", default=True):
    # runserver serves static files in development; WhiteNoise does it behind gunicorn. The
    # live process (config/asgi.py) serves no files and turns it off: WhiteNoise's middleware
    # is synchronous, and under ASGI one synchronous middleware puts every request (every
    # stream opening) through threads.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Database: SQLite by default; PostgreSQL (psycopg 3) via DATABASE_URL in production and tests.
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Every wait on PostgreSQL is bounded, so a restart or a failover costs seconds of 503s
# (config/errors.py), not requests hanging: connecting (libpq counts whole seconds, at least 2),
# each statement (0: no limit), and with the pool, waiting for a connection from it. The pool
# also starts its reconnection afresh after DB_POOL_TIMEOUT instead of backing off for longer
# and longer (psycopg_pool's 1, 2, 4, 8 … s between attempts): once PostgreSQL is back, the
# next attempt is at most about a second away.
DB_CONNECT_TIMEOUT_SECONDS = env.int("DB_CONNECT_TIMEOUT_SECONDS", default=2)
DB_STATEMENT_TIMEOUT_SECONDS = env.float("DB_STATEMENT_TIMEOUT_SECONDS", default=10.0)
DB_POOL_TIMEOUT_SECONDS = env.float("DB_POOL_TIMEOUT_SECONDS", default=1.0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "application_name": env.str("DB_APPLICATION_NAME", default="kakumei"),
            "connect_timeout": DB_CONNECT_TIMEOUT_SECONDS,
            "options": f"-c statement_timeout={round(DB_STATEMENT_TIMEOUT_SECONDS * 1000)}",
        }
    )
    if env.bool("DB_POOL", default=False):
        # Django's psycopg pool and persistent connections are mutually exclusive.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": env.int("DB_POOL_MIN", default=2),
            "max_size": env.int("DB_POOL_MAX", default=8),
            "timeout": DB_POOL_TIMEOUT_SECONDS,
            "reconnect_timeout": DB_POOL_TIMEOUT_SECONDS,
        }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The lockout backend first: it refuses a locked-out sign-in before a password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LOGIN_URL = "login"
# Organisers land on /organiser/, referees on /referee/ (tournaments.signin_views.welcome).
LOGIN_REDIRECT_URL = "welcome"
LOGOUT_REDIRECT_URL = "home"

# Japanese first: a browser that states no preference gets Japanese; one that asks for
# English (Accept-Language, the header's switch, or a signed-in person's saved choice) gets it.
LANGUAGE_CODE = "ja"
LANGUAGES = [("ja", "日本語"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates as people write them: 2026年12月20日(日) 13:00 / Sun 20 Dec 2026, 13:00.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = env.str("TIME_ZONE", default="Asia/Tokyo")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where `collectstatic` gathers the files WhiteNoise serves with DEBUG=False (the production-parity
# tests collect into a directory of their own).
STATIC_ROOT = Path(env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles"))
STATICFILES_DIRS: list[Path | tuple[str, Path]] = [BASE_DIR / "static"]
# Pyodide, from npm (package.json; ./dev installs it, the Docker image copies it in): the
# referee console's offline mode runs the rules engine with it on the phone (issue #19).
# Served as static/pyodide/ from this very site, as no page may load anything from elsewhere.
# Only when it is there: a checkout without it still starts, and the offline mode then says
# the engine is unavailable.
PYODIDE_DIR = Path(env.path("PYODIDE_DIR", default=BASE_DIR / "node_modules" / "pyodide"))
if PYODIDE_DIR.is_dir():
    STATICFILES_DIRS.append(("pyodide", PYODIDE_DIR))
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

# Production is reached over HTTPS through a TLS-terminating proxy (HTTPS=True): cookies only over
# HTTPS, plain-HTTP requests redirected, and browsers told to use HTTPS only (HSTS). A venue LAN
# served over plain HTTP sets HTTPS=False, which turns all three off (docs/deployment.md).
if not DEBUG:
    HTTPS = env.bool("HTTPS", default=True)
    SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=HTTPS)
    CSRF_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=HTTPS)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=HTTPS)
    # The proxy's and Compose's health checks call /healthz over plain HTTP on the inside.
    SECURE_REDIRECT_EXEMPT = [r"^healthz(/live|/ready)?$"]
    # A year, on this host name and below it; `preload` only lets the owner of the whole domain
    # submit it to the browsers' preload list, which needs the header on the bare domain.
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if HTTPS else 0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
# Scripts never read the session cookie; it is not sent on cross-site posts. Pages may not be
# framed, except the embeddable leaderboard (`/embed/<slug>/`, `xframe_options_exempt`).
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"

# How many proxies in front of the app append the visitor's address to X-Forwarded-For: 1 for
# Compose's nginx, 2 with a TLS proxy in front of it. 0 (no proxy) uses the connection's
# address and ignores the header, which a visitor could write. Sign-in lockouts and API
# throttles count per visitor address.
PROXY_COUNT = env.int("PROXY_COUNT", default=0)

# Sign-in lockout (django-axes; config/lockout.py): after LOGIN_FAILURE_LIMIT wrong passwords or
# PINs for one sign-in name from one address, that name is refused from that address until
# LOGIN_COOLOFF_MINUTES pass without another try. Name *and* address: a venue's referees share
# one Wi-Fi address, and anyone may type an organiser's name, so locking either alone would let
# one person lock others out. Ten is above a PIN card's own five (tournaments.services): a
# referee who mistypes a card is told the card stopped working, not to wait.
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env.float("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "config.lockout.attempted_username"
AXES_CLIENT_IP_CALLABLE = "config.lockout.client_ip"
AXES_LOCKOUT_CALLABLE = "config.lockout.locked_out_response"
# Recorded attempts keep the name and address (the admin shows them); never a password or PIN.
AXES_SENSITIVE_PARAMETERS = ["password", "pin"]
AXES_VERBOSE = False

# Django REST framework + OpenAPI
# HTTP Basic (a password sent with every API request) only when asked for: scripts use a
# session or a device token. When on, its wrong passwords count towards the sign-in lockout.
API_BASIC_AUTH = env.bool("API_BASIC_AUTH", default=False)


def _rate(variable: str, default: str) -> str | None:
    rate: str = env.str(variable, default=default)
    return None if rate.lower() in ("", "off", "none") else rate


REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        *(["config.lockout.BasicAuthenticationWithLockout"] if API_BASIC_AUTH else []),
        # Referee devices: `Authorization: Token <key>` (hashed at rest, revocable). Last, so
        # anonymous writes elsewhere stay 403; the move endpoint puts it first (401).
        "games.auth.DeviceTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # Bodies bounded and checked before use (config/api_input.py); every error in one shape,
    # a database outage 503 with Retry-After (config/api_errors.py).
    "DEFAULT_PARSER_CLASSES": [
        "config.api_input.JSONParser",
        "rest_framework.parsers.FormParser",
        "config.api_input.BoundedMultiPartParser",
    ],
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    # Per visitor address (anonymous) or per user (a device token is its user); a rate is
    # "<number>/<second|minute|hour|day>", or "off". Throttled answers are 429 with Retry-After.
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": _rate("API_THROTTLE_ANON", "600/minute"),
        "user": _rate("API_THROTTLE_USER", "1200/minute"),
        # Minting credentials: device tokens, sign-in links, PIN cards (config/throttling.py).
        "credentials": _rate("API_THROTTLE_CREDENTIALS", "120/hour"),
        # The table PIN a seated player types to confirm a result: per user, on the requests
        # that carry a PIN (an official's confirmation without one is not counted).
        "table-pin": _rate("API_THROTTLE_TABLE_PIN", "30/minute"),
        # Failed credentials per client address: wrong device tokens, table PINs, sign-in
        # links, PIN cards and passwords (config/throttling.py). Past it the address's next
        # credentials are refused (429) before they are checked. Far above a venue's mistypes
        # (its referees share one address), far below a guessing script.
        "failed-credentials": _rate("API_THROTTLE_FAILED_CREDENTIALS", "60/minute"),
    },
    "NUM_PROXIES": PROXY_COUNT,
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Kakumei API",
    "DESCRIPTION": "Tournament service for Daifugo (大富豪) and its family of climbing games.",
    "VERSION": "1",
    "COMPONENT_SPLIT_REQUEST": True,
    "SERVE_INCLUDE_SCHEMA": False,
    # Served from our own static files: no CDN is reachable from the venues we run at.
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Every operation lists its error answers (401, 403, 404, 413, 429, 503…) as ApiError.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.api_errors.document_error_answers",
    ],
    # Several models have a `status` field with different choices; name each enum.
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "GameStatusEnum": "games.models.Game.Status",
        "GameModeEnum": "games.models.Game.Mode",
        "MoveKindEnum": "games.models.Move.Kind",
        # A time fault's rule: the tournament's setting and what a fault applied share it.
        "TimeFaultRuleEnum": "games.models.TimeFault.Rule",
    },
}

# REST API request bodies (config/api_input.py): larger bodies are refused (413) unread, longer
# JSON-lines batches too; JSON nested deeper is refused (400). Form posts (pages) are bounded by
# Django's own DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB), answered the same way under /api/.
API_MAX_BODY_BYTES = env.int("API_MAX_BODY_BYTES", default=1024 * 1024)
API_MAX_NDJSON_LINES = env.int("API_MAX_NDJSON_LINES", default=1000)
API_MAX_JSON_DEPTH = env.int("API_MAX_JSON_DEPTH", default=32)

# Redis for the cache and the live channel (config.broadcast): the versions of public views,
# pages rendered once per version, device-token lookups. Unset (the embedded default), the
# cache is this process's memory and live pages poll; every production process must share one
# Redis, or a revoked token or a new version would be seen by one process only.
REDIS_URL = env.str("REDIS_URL", default="")
# Every wait on Redis on the request path is bounded: connecting, and each reply (the cache,
# the live channel, a task's hand-over to the broker). Past it, the cache answers from this
# process's memory and a task waits in the outbox (config/cache.py, games.outbox).
REDIS_CONNECT_TIMEOUT_SECONDS = env.float("REDIS_CONNECT_TIMEOUT_SECONDS", default=0.1)
REDIS_TIMEOUT_SECONDS = env.float("REDIS_TIMEOUT_SECONDS", default=0.2)
CACHES = {
    "default": (
        {
            # Fails open: with Redis unreachable, this process's memory answers (logged and
            # counted; /healthz/ready shows it), and no request fails or waits on it.
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            # Keys name rows by id: a database restored or recreated must not meet the
            # versions cached for another one.
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="kakumei"),
            "OPTIONS": {
                "socket_connect_timeout": REDIS_CONNECT_TIMEOUT_SECONDS,
                "socket_timeout": REDIS_TIMEOUT_SECONDS,
            },
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# A signed-in visitor's session is read from the shared cache, not the database, on every
# page and poll, and written through to the database: with Redis away it is read from the
# database (the cache fails open), so an outage or a restart signs nobody out. Not with a
# per-process cache: a session ended in one process would live on in the others.
if REDIS_URL:
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Live table feeds (games.api.table_events): a stream closes after this many seconds and the
# client reconnects with the version it saw (under WSGI a stream holds a worker, so keep it
# short there; the async live process holds no worker and no database connection).
LIVE_FEED_SECONDS = env.float("LIVE_FEED_SECONDS", default=25.0)
LIVE_FEED_POLL_SECONDS = env.float("LIVE_FEED_POLL_SECONDS", default=0.5)

# Celery: eager by default so the embedded setup needs no broker; a real worker in production.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="redis://127.0.0.1:6379/0")
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL)
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=True)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="default")
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
# Nothing reads a task's return value: no result is stored, and sending a task does not
# subscribe to its result (which, with Redis away, retried for 20 s inside the request).
CELERY_TASK_IGNORE_RESULT = True
# Every task has a time limit, and Redis re-delivers an unacknowledged task (its worker was
# killed) after the visibility timeout, which must outlast the longest time limit: 15
# minutes, not the hours a lost recompute once waited.
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=600)
CELERY_TASK_SOFT_TIME_LIMIT = CELERY_TASK_TIME_LIMIT - 30
# Handing a task to the broker waits at most this long (connecting, and each reply), with no
# retries (games.outbox): a request never stalls on a broker that is down; what it could not
# hand over waits in the outbox. Workers' connections keep retrying (below).
CELERY_BROKER_TIMEOUT_SECONDS = env.float("CELERY_BROKER_TIMEOUT_SECONDS", default=1.0)
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, float] = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=900),
    "socket_connect_timeout": CELERY_BROKER_TIMEOUT_SECONDS,
    "socket_timeout": CELERY_BROKER_TIMEOUT_SECONDS,
}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": CELERY_BROKER_TIMEOUT_SECONDS,
    "socket_timeout": CELERY_BROKER_TIMEOUT_SECONDS,
    "retry_policy": {"max_retries": 1},
}
# A worker survives the broker going away: it reconnects for as long as it takes (it used to
# give up after 100 tries). Workers run without gossip and mingle (docker-compose.yml): nothing
# here uses them, and restarting gossip after a Redis drop is where a worker crashed with
# "'NoneType' object has no attribute 'hostname'" (kombu#582). Cancelling running tasks on a
# connection loss is left off: its reconnection has an open crash of its own (celery#9250); a
# task whose acknowledgement is lost is delivered again after the visibility timeout.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# How often a worker sweeps for unacknowledged messages past their visibility timeout (kombu's
# default is about every 100 s); tests that kill a worker lower both to see the redelivery.
if env.str("CELERY_UNACKED_RESTORE_SECONDS", default=""):
    CELERY_BROKER_TRANSPORT_OPTIONS["unacked_restore_interval"] = env.int(
        "CELERY_UNACKED_RESTORE_SECONDS"
    )
    CELERY_BROKER_TRANSPORT_OPTIONS["unacked_restore_throttle"] = 1
CELERY_BROKER_CONNECTION_TIMEOUT = CELERY_BROKER_TIMEOUT_SECONDS
CELERY_TIMEZONE = "UTC"

# /healthz/ready answers within about this many seconds whatever is down: its checks (a database
# write, the schema, the cache, the broker) run side by side, each waiting at most this long;
# one with no answer by then counts as failed (config/health.py).
HEALTHCHECK_TIMEOUT_SECONDS = env.float("HEALTHCHECK_TIMEOUT_SECONDS", default=0.5)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}
CELERY_BEAT_SCHEDULE = {
    # What writes recorded while the broker was away reaches the workers this soon after it
    # is back (games.outbox).
    "dispatch-outbox": {
        "task": "games.dispatch_outbox",
        "schedule": env.float("OUTBOX_SWEEP_SECONDS", default=5.0),
    },
    # Webhook deliveries whose task was lost are sent again (scoring.webhooks.resend_pending).
    "resend-pending-webhooks": {
        "task": "scoring.resend_pending_webhooks",
        "schedule": env.float("WEBHOOK_RESEND_SECONDS", default=60.0),
    },
    "heartbeat": {
        "task": "scoring.heartbeat",
        "schedule": env.float("HEARTBEAT_SECONDS", default=60.0),
    },
    # Standings are recomputed after every game; this catches anything missed (broker down
    # when a game ended, a points table changed, a worker lost mid-task).
    "recompute-all": {
        "task": "scoring.recompute_all",
        "schedule": env.float("RECOMPUTE_ALL_SECONDS", default=600.0),
    },
    # Ratings are recomputed when a rated round settles; nightly, everything again (catch-up
    # after a lost task, and the deal estimates of games that missed theirs). Beat keeps UTC:
    # 18:30 UTC is 03:30 in Japan, when no event is playing.
    "recompute-ratings": {
        "task": "scoring.recompute_ratings",
        "schedule": crontab(hour=18, minute=30),
    },
}

# Scoring (issue #7).
# Seconds the full recompute rests between scopes, so per-game updates queued behind it on a
# single worker are not starved; tests raise it to make a recompute long enough to interrupt.
SCORING_RECOMPUTE_PAUSE_SECONDS = env.float("SCORING_RECOMPUTE_PAUSE_SECONDS", default=0.0)
# A running full recompute with no progress for this long is marked abandoned (worker lost).
SCORING_RUN_STALE_SECONDS = env.int("SCORING_RUN_STALE_SECONDS", default=300)
# Leaderboard pages poll their partial this often while visible.
LEADERBOARD_POLL_SECONDS = env.int("LEADERBOARD_POLL_SECONDS", default=5)
WEBHOOK_TIMEOUT_SECONDS = env.float("WEBHOOK_TIMEOUT_SECONDS", default=5.0)
# A webhook delivery logged this long ago and never attempted lost its task (a worker that died
# holding it): beat gives it a new one (scoring.webhooks.resend_pending).
WEBHOOK_UNSENT_AFTER_SECONDS = env.int("WEBHOOK_UNSENT_AFTER_SECONDS", default=120)
# Webhook URLs may not reach loopback, private, link-local or other internal addresses (an
# organiser must not be able to make the server call its own Redis or a cloud metadata
# service). Allowed in development, where a receiver under test runs on this machine.
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = env.bool("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", default=DEBUG)
