"""The application object: register handlers, then serve requests."""

import json
import traceback

from tinyserve import defaults
from tinyserve.routing import Router


class Request:
    """What a handler receives: method, path, headers, body and route parameters."""

    def __init__(self, method, path, headers=None, body=b""):
        self.method = method
        self.path = path
        self.headers = {k.lower(): v for k, v in (headers or {}).items()}
        self.body = body
        self.params = {}

    def json(self):
        """Decode the body as JSON (UTF-8)."""
        return json.loads(self.body.decode("utf-8"))


class Response:
    """A status, headers and a body; handlers may also return a str, bytes or dict."""

    def __init__(self, body=b"", status=200, headers=None):
        self.body = body
        self.status = status
        self.headers = dict(defaults.DEFAULT_HEADERS)
        self.headers.update(headers or {})

    @classmethod
    def coerce(cls, value):
        """Turn whatever a handler returned into a Response.

        A dict becomes a JSON body with content type application/json, a str is encoded
        as UTF-8 text/plain, bytes are sent as they are.
        """
        if isinstance(value, Response):
            return value
        if isinstance(value, dict):
            return cls(json.dumps(value).encode("utf-8"), headers={"Content-Type": "application/json"})
        if isinstance(value, str):
            return cls(value.encode("utf-8"), headers={"Content-Type": "text/plain; charset=utf-8"})
        return cls(bytes(value))


class App:
    """A tinyserve application.

    Example::

        app = App()

        @app.route("/hello/<name>")
        def hello(request):
            return "hello " + request.params["name"]
    """

    def __init__(self, debug=False):
        self.router = Router()
        self.debug = debug
        self.middleware = []

    def route(self, pattern, methods=("GET",)):
        """Decorator that registers the decorated function as the handler of ``pattern``.

        ``methods`` lists the HTTP methods it accepts (default: GET only). The function
        is returned unchanged, so one handler can be registered for several patterns.
        """

        def register(handler):
            self.router.add(pattern, handler, methods)
            return handler

        return register

    def use(self, middleware):
        """Wrap every handler in ``middleware(handler) -> handler``; the last added runs first."""
        self.middleware.append(middleware)
        return middleware

    def handle(self, request):
        """Answer one request: route it, run the handler, convert errors to responses.

        Unknown paths give 404, a known path with the wrong method 405, and a body over
        ``MAX_BODY_BYTES`` 413. An exception in the handler gives 500; with ``debug=True``
        the traceback is sent as the body, otherwise only "Internal Server Error".
        """
        if len(request.body) > defaults.MAX_BODY_BYTES:
            return Response(b"Payload Too Large", status=413)
        try:
            route, params = self.router.match(request.method, request.path)
        except LookupError as error:
            return Response(b"", status=error.args[0])
        request.params = params
        handler = route.handler
        for wrap in reversed(self.middleware):
            handler = wrap(handler)
        try:
            return Response.coerce(handler(request))
        except Exception:
            body = traceback.format_exc() if self.debug else "Internal Server Error"
            return Response(body.encode("utf-8"), status=500)

    def run(self, host=None, port=None, workers=None):
        """Serve forever on ``host:port`` with a pool of worker threads (development only)."""
        from tinyserve.server import serve

        serve(
            self,
            host or defaults.from_env("HOST", defaults.DEFAULT_HOST),
            port or defaults.from_env("PORT", defaults.DEFAULT_PORT, int),
            workers or defaults.from_env("WORKERS", defaults.DEFAULT_WORKERS, int),
        )
