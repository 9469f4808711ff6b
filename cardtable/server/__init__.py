"""Browser play: ``cardtable serve`` (extra ``[web]``).

A generic server: every game comes from the registry's manifests. See
``docs/server.md`` for the HTTP and WebSocket protocol, and
:func:`cardtable.server.app.create_app` for the ASGI application.
"""
