"""The multiplayer service: rooms, seats, connections and the game engine behind ports.

Layers (ARCHITECTURE.md): handlers in ``functions/*.py`` parse the event and call
``RoomService``; the service talks to the outside only through the ports in
``ports.py`` (store, connections, pusher, timers), implemented by in-memory fakes
(``memory.py``) for tests and by AWS adapters for Lambda.
"""
