# A stale copy left behind by an editor. The corpus walker must skip __pycache__/:
# if this file is indexed, it competes with tinyserve/app.py for the routing questions.


class App:
    def route(self, pattern, methods=("GET",)):
        """Decorator that registers the decorated function as the handler of ``pattern``."""

        def register(handler):
            return handler

        return register
