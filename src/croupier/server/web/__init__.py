"""The web floor: the only code that knows Starlette, HTTP and WebSockets."""
