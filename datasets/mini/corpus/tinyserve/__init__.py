"""tinyserve: a deliberately small HTTP framework used as a test corpus.

Import the pieces you need from here; everything else is an implementation detail.
"""

from tinyserve.app import App, Request, Response
from tinyserve.defaults import DEFAULT_HOST, DEFAULT_PORT
from tinyserve.routing import Route, Router

__all__ = ["App", "Request", "Response", "Route", "Router", "DEFAULT_HOST", "DEFAULT_PORT"]

__version__ = "0.3.1"
