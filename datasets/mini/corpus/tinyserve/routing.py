"""URL routing: patterns with ``<name>`` placeholders matched against request paths."""

import re
from dataclasses import dataclass, field

_PLACEHOLDER = re.compile(r"<([a-z_][a-z0-9_]*)(?::(int|path))?>")

_CONVERTERS = {
    None: (r"[^/]+", str),
    "int": (r"[0-9]+", int),
    "path": (r".+", str),
}


@dataclass
class Route:
    """One registered route: a pattern, the methods it accepts and its handler."""

    pattern: str
    handler: object
    methods: tuple = ("GET",)
    regex: re.Pattern = field(init=False, repr=False)
    casts: dict = field(init=False, repr=False)

    def __post_init__(self):
        self.casts = {}

        def replace(match):
            name, kind = match.group(1), match.group(2)
            expression, cast = _CONVERTERS[kind]
            self.casts[name] = cast
            return "(?P<%s>%s)" % (name, expression)

        self.regex = re.compile("^" + _PLACEHOLDER.sub(replace, self.pattern) + "$")


class Router:
    """Keeps routes in registration order; the first match wins."""

    def __init__(self):
        self.routes = []

    def add(self, pattern, handler, methods=("GET",)):
        route = Route(pattern, handler, tuple(m.upper() for m in methods))
        self.routes.append(route)
        return route

    def match(self, method, path):
        """Find the route for ``method`` and ``path``.

        Returns ``(route, params)`` where params holds the placeholder values already
        converted (``<id:int>`` gives an ``int``). Raises ``LookupError`` with status 404
        when no pattern matches and 405 when a pattern matches but not the method.
        """
        allowed = False
        for route in self.routes:
            found = route.regex.match(path)
            if found is None:
                continue
            if method.upper() not in route.methods:
                allowed = True
                continue
            params = {name: route.casts[name](value) for name, value in found.groupdict().items()}
            return route, params
        raise LookupError(405 if allowed else 404)
