"""Default settings. Every value can be overridden by an environment variable of the
same name prefixed with ``TINYSERVE_`` (for example ``TINYSERVE_PORT=9000``)."""

import os

# Interface the server binds to. Use "0.0.0.0" to accept connections from other hosts.
DEFAULT_HOST = "127.0.0.1"

# TCP port the development server listens on when none is given.
DEFAULT_PORT = 8421

# Requests with a larger body are rejected with 413 before the handler runs.
MAX_BODY_BYTES = 1_048_576

# Seconds a handler may run before the request is answered with 504.
HANDLER_TIMEOUT_S = 30.0

# Number of worker threads serving requests concurrently.
DEFAULT_WORKERS = 4

# Header names are compared case-insensitively; these are always sent.
DEFAULT_HEADERS = {
    "Server": "tinyserve",
    "X-Content-Type-Options": "nosniff",
}


def from_env(name, default, cast=str):
    """Return ``TINYSERVE_<name>`` from the environment, cast, or ``default`` when unset."""
    raw = os.environ.get("TINYSERVE_" + name)
    if raw is None:
        return default
    return cast(raw)
