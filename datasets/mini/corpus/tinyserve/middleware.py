"""Middleware that ships with tinyserve.

This file uses Windows (CRLF) line endings on purpose: offsets count the carriage
return as one character, exactly as Python's open(path, newline="") reads it.
"""

import logging
import time

log = logging.getLogger("tinyserve.access")


def timing_middleware(handler):
    """Log method, path, status and the handler's run time in milliseconds.

    The clock is time.perf_counter(), read before and after the handler, so the figure
    excludes the time spent reading the request body from the socket.
    """

    def timed(request):
        started = time.perf_counter()
        response = handler(request)
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        log.info("%s %s %d %.1fms", request.method, request.path, response.status, elapsed_ms)
        return response

    return timed


def cors_middleware(allowed_origins=("*",)):
    """Add Access-Control-Allow-Origin to every response whose Origin is allowed."""

    def wrap(handler):
        def with_cors(request):
            response = handler(request)
            origin = request.headers.get("origin")
            if "*" in allowed_origins or origin in allowed_origins:
                response.headers["Access-Control-Allow-Origin"] = origin or "*"
            return response

        return with_cors

    return wrap
