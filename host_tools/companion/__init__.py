"""The companion app: one web page for the simulated board and a real one.

``model`` turns the board's protocol lines (docs/protocol.md) into what the
page shows; ``boards`` has the two boards behind it (the simulator, which
also offers simulated hands, and a Pico over USB serial); ``server`` is the
loopback-only Starlette app that serves the page and its WebSocket.
docs/companion.md says how to run it and what it defends against.
"""
