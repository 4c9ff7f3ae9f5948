"""Django settings, read from the environment (see README.md, "Configuration").

With nothing set, the platform runs on its embedded default: a SQLite file in the project
folder and a Celery broker on the file system, so a laptop needs no server. Production and
the test suite set DATABASE_URL (PostgreSQL) and REDIS_URL (broker, results and cache).
"""

from __future__ import annotations

from pathlib import Path

from config.env import (
    ConfigError,
    check_secret_key,
    env_bool,
    env_database,
    env_email_address,
    env_email_url,
    env_int,
    env_list,
    env_redis_url,
    env_str,
    env_time_zone,
)

BASE_DIR = Path(__file__).resolve().parent.parent
#: Files the installation writes: the secret key of venue mode, broker, cache, static files, backups.
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", False)
# Tell each request's CPU time in a Server-Timing header (config/server_timing.py): benchmarks.
SERVER_TIMING = env_bool("SERVER_TIMING", False)

_DEV_SECRET = "embedded-default-secret-key-change-me-for-any-real-deployment-0123456789"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET if DEBUG else None)
#: Secret keys anyone can read (the development default): an installation running with one
#: seals nothing as trusted and trusts no seal (venue.installation).
PUBLIC_SECRET_KEYS = (_DEV_SECRET,)
if not DEBUG:
    # A guessable key lets anyone forge a head judge's session: refuse to start with one.
    check_secret_key(SECRET_KEY, known_public=(_DEV_SECRET,))

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
#: The address phones open (`make venue` sets it, e.g. http://192.168.1.20:8000): the QR codes
#: on printed sheets and the players' self check-in links use it, whatever address the head
#: judge's own browser used. Empty: links use the address of the request.
VENUE_URL = env_str("VENUE_URL", "").rstrip("/")
if VENUE_URL and not VENUE_URL.startswith(("http://", "https://")):
    raise ConfigError(f"VENUE_URL must start with http:// or https:// (got {VENUE_URL!r})")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "django_htmx",
    "foundation",
    "tournament",
    "gameplay",
    "scoring",
    "clocks",
    "insights",
    "ratings",
    "venue",
    "mail",
    "web",
]

MIDDLEWARE = [
    # First: the CPU each request cost, in a Server-Timing header (only with SERVER_TIMING on).
    "config.server_timing.ServerTimingMiddleware",
    # The scheme a proxy states (X-Forwarded-Proto) only from a trusted proxy, before it is read.
    "config.client_address.ForwardedProtoMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    # A live region's unchanged poll (every phone, every few seconds) answered 304 from its
    # version alone, before the session, the user and the view are loaded.
    "web.live.UnchangedPollMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # HTML pages and fragments compressed: a table judge's action on slow venue Wi-Fi stays small.
    "config.compression.HtmlGZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language: their switcher choice (cookie), else their browser's, among LANGUAGES.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # An API write's retry (a phone that lost its answer) answered from the stored answer, in
    # the reader's language's headers, before CSRF, the user, the messages and the view.
    "web.idempotency_api.StoredAnswerMiddleware",
    # Before any view reads a form field: NUL, lone surrogates and control characters refused.
    "config.text_guard.TextGuardMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A phone's outbox (X-Outbox) reads a form's redirect as "done", a sign-in redirect as 401.
    "config.outbox_answers.OutboxAnswerMiddleware",
    # A tournament's pages, sheets and exports show its times in its own zone.
    "config.tournament_time.TournamentTimeZoneMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # `request.htmx`: one view answers a whole page or, for htmx, only the part that changed.
    "django_htmx.middleware.HtmxMiddleware",
    # Last, so that it sees the outcome of every authentication attempt.
    "axes.middleware.AxesMiddleware",
]

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
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.tournament_time.time_zone",
                "web.page_address.page_address",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASES = {"default": env_database("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
# Each web thread keeps its connection between requests (CONN_MAX_AGE, set from the URL) and
# checks it once per request before use, so a restarted PostgreSQL costs one reconnect, not errors.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
EMBEDDED = DATABASES["default"]["ENGINE"].endswith("sqlite3")
if EMBEDDED:
    # Write-ahead logging: pages keep reading while a judge's write commits (several web
    # processes, the worker and beat share the file); a write takes its lock at the start of
    # the transaction, so two writers queue instead of failing on a lock upgrade.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }

# --- Redis: cache, Celery broker and results --------------------------------------------------
REDIS_URL = env_redis_url("REDIS_URL", None)
CELERY_BROKER_URL = env_redis_url("CELERY_BROKER_URL", REDIS_URL)

if REDIS_URL:
    # One Redis client per server, not one per cache call (config/redis_cache.py).
    CACHES = {"default": {"BACKEND": "config.redis_cache.RedisCache", "LOCATION": REDIS_URL}}
else:
    # A file cache is shared by the web server and the worker, unlike the per-process memory cache.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }
# Every key names the installation (an id written once into the database) and its imports:
# a new or restored database never reads another's cached answers (config/cache_keys.py).
CACHES["default"]["KEY_FUNCTION"] = "config.cache_keys.make_key"
# Rate counters are not answers read from the database: they need no installation in their
# keys, and reading it would cost every throttled request a query.
CACHES["counters"] = {k: v for k, v in CACHES["default"].items() if k != "KEY_FUNCTION"} | {"KEY_PREFIX": "counters"}

if CELERY_BROKER_URL:
    CELERY_RESULT_BACKEND = env_redis_url("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
    # ETA tasks are armed at most a few minutes ahead (see clocks/), well inside this window.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {"visibility_timeout": 3600}
else:
    # Embedded default: a real worker and beat on a broker that needs no server.
    CELERY_BROKER_URL = "filesystem://"
    _broker_dir = VAR_DIR / "celery" / "broker"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "control_folder": str(VAR_DIR / "celery" / "control"),
    }
    CELERY_RESULT_BACKEND = f"file://{VAR_DIR / 'celery' / 'results'}"
    for _folder in ("celery/broker", "celery/control", "celery/results", "cache"):
        (VAR_DIR / _folder).mkdir(parents=True, exist_ok=True)

CELERY_TASK_ALWAYS_EAGER = False  # timers are never run eagerly, not even in tests
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Moves every clock whose deadline has passed and arms ETA tasks for the next few minutes.
    "clocks-sweep": {"task": "clocks.sweep", "schedule": 15.0},
    # Idempotency keys are kept at least a day; older ones are removed once an hour.
    "gameplay-forget-old-idempotency-keys": {"task": "gameplay.forget_old_idempotency_keys", "schedule": 3600.0},
    # Recomputes ratings a lost task (an unreachable broker) left behind.
    "ratings-catch-up": {"task": "ratings.catch_up", "schedule": 300.0},
    # A backup of every tournament with a round running (venue/backups.py).
    "venue-back-up-running": {"task": "venue.back_up_running", "schedule": 300.0},
    # A backup folder that stops taking files is found within a minute, and a failed backup is
    # tried again at once (venue/tasks.py).
    "venue-check-backups": {"task": "venue.check_backups", "schedule": 60.0},
    # Hands again to delivery a queued message whose task was lost (mail/tasks.py).
    "mail-sweep": {"task": "mail.sweep", "schedule": 60.0},
}
#: Send a ratings recompute when a report is filed, reopened or changed (ratings/effects.py).
RATINGS_RECOMPUTE_ON_CHANGE = True
#: Where the worker keeps the backups of running tournaments (the last 24 of each).
VENUE_BACKUP_DIR = Path(env_str("VENUE_BACKUP_DIR", str(VAR_DIR / "backups")))
#: Back a tournament up as soon as one of its reports is filed (venue/effects.py).
VENUE_BACKUP_ON_FILING = True
#: A failed backup is tried again after this many seconds, this many times (then the
#: five-minute run tries it again); venue/tasks.py.
VENUE_BACKUP_RETRY_SECONDS = 60
VENUE_BACKUP_RETRIES = 4
#: Seconds between two polls of a live region (standings, clocks, room screen; web/live.py).
LIVE_POLL_SECONDS = env_int("LIVE_POLL_SECONDS", 10)

# --- Email (mail/outbox.py) -------------------------------------------------------------------
#: `EMAIL_URL` (smtp://user:pass@host:587/?tls=true, or ssl=true) names the mail server the worker
#: sends through. Unset, messages are kept in the outbox and shown to the head judge on the
#: tournament's outbox page: the venue default without internet, and `make run`'s demo.
_email = env_email_url("EMAIL_URL")
EMAIL_KEEP_IN_OUTBOX = _email is None
if _email is not None:
    EMAIL_BACKEND = _email["EMAIL_BACKEND"]
    EMAIL_HOST = _email["EMAIL_HOST"]
    EMAIL_PORT = _email["EMAIL_PORT"]
    EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
    EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
    EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
    EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
else:
    # Nothing leaves the installation: not even Django's own messages.
    EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
#: Seconds the worker waits for the mail server before it counts an attempt as failed.
EMAIL_TIMEOUT = 20
DEFAULT_FROM_EMAIL = env_email_address("EMAIL_FROM", "dune-tournament@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
#: Where the links in a message (a stop link, a private link, a reset link) start: the address
#: people open the platform at. Defaults to VENUE_URL, else this machine.
SITE_URL = env_str("SITE_URL", VENUE_URL or "http://127.0.0.1:8000").rstrip("/")
if not SITE_URL.startswith(("http://", "https://")):
    raise ConfigError(f"SITE_URL must start with http:// or https:// (got {SITE_URL!r})")
#: A message is tried this many times; the delay before the next try starts at
#: MAIL_RETRY_SECONDS and doubles after each failure.
MAIL_ATTEMPTS = env_int("MAIL_ATTEMPTS", 5)
MAIL_RETRY_SECONDS = float(env_int("MAIL_RETRY_SECONDS", 30))

# --- Auth -----------------------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # A one-time sign-in code after a restore without the judges' passwords (venue.sign_in_codes).
    "venue.sign_in_codes.CodeBackend",
]
LOGIN_URL = "login"
# A form with a stale token gets a page in words and `X-Refused: csrf` (the outbox fetches a new one).
CSRF_FAILURE_VIEW = "web.views.csrf_failure"
# A table judge lands on their tables; everyone else on the home page.
LOGIN_REDIRECT_URL = "after-sign-in"
LOGOUT_REDIRECT_URL = "home"
# django-axes logs every failed sign-in (AccessFailureLog) but locks nobody out itself: a lock
# keyed by the address keeps out everyone behind a venue's one address. config.sign_in_guard
# reads the log instead: a progressive delay per account (at most 30 s) and a limit per address
# for spraying, neither of which holds back a phone the account signed in on before.
AXES_LOCK_OUT_AT_FAILURE = False
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = 0.25  # hours: how long axes keeps its per-address attempt counts
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
#: Wrong passwords from one client address within 15 minutes before it must wait (spraying).
SIGN_IN_ADDRESS_LIMIT = env_int("SIGN_IN_ADDRESS_LIMIT", 50)
AXES_CLIENT_IP_CALLABLE = "config.client_address.client_address"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- API ------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "config.token_auth.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    # Each API token at its own pace (config/token_throttle.py); TOKEN_RATE below.
    "DEFAULT_THROTTLE_CLASSES": ["config.token_throttle.TokenRateThrottle"],
    # JSON bodies: depth and text checked once for every endpoint (config/api_parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "config.api_parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
#: Requests one API token may make (DRF's rate syntax: "1200/min", "50/s").
TOKEN_RATE = env_str("TOKEN_RATE", "1200/min")
SPECTACULAR_SETTINGS = {
    "TITLE": "Dune tournament platform API",
    "DESCRIPTION": "Tournaments, seating, table games, game reports, clocks and standings.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
}

# --- Internationalisation and time -----------------------------------------------------------
LANGUAGE_CODE = "en"
# The languages the platform ships; a tournament's language is one of these codes.
LANGUAGES = [
    ("en", "English"),
    ("es", "Español"),
    ("fr", "Français"),
    ("de", "Deutsch"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_time_zone("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
# The image collects its static files outside var/ (STATIC_ROOT=/app/static): var/ is a volume
# that outlives the image, and would keep the first image's files.
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "static")))
STATICFILES_DIRS = [BASE_DIR / "static"]
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

# --- Security (production: DEBUG off) --------------------------------------------------------
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
# Joining the browsers' preload list is hard to undo: only when the operator asks for it.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if not SECURE_HSTS_PRELOAD:
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
# The container's health probe speaks plain HTTP on the internal network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Behind the reverse proxy (docker/compose.yaml) the proxy's headers say the scheme and the
# client's address; they are believed only from the addresses listed here (see
# config/client_address.py), and gunicorn itself is reachable from the proxy only.
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False)
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", ["127.0.0.1", "::1"])
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
