"""The bundled web client: a local page relaying an ACP agent's session to the browser."""

from tether.web.app import WebConfig, create_app
from tether.web.server import WebOptions, serve

__all__ = ["WebConfig", "WebOptions", "create_app", "serve"]
