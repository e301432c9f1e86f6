"""The multiplayer service: rooms, seats, connections and any registered game behind ports.

Layers (ARCHITECTURE.md), each a folder:

- ``domain/``: the room as stored (room.py), the lobby's rules (lobby.py), names (names.py),
  table screens and their key (table_screens.py), the timer messages every layer passes
  along (timers.py). Pure: no I/O.
- ``service/``: typed commands (commands.py), which handler answers each (handlers.py),
  the handlers (lobby_handlers.py, game_handlers.py), the unit of work (unit_of_work.py:
  load, change, conditional write), delivery (delivery.py) and the replies and views sent
  (replies.py). RoomService (room_service.py) routes each event through them, top to
  bottom.
- ``adapters/``: the ports (ports.py, abstract classes) and their implementations: in
  memory (memory.py) for tests, DynamoDB, API Gateway and SQS for Lambda; rate limits.
  They import the domain only, never the service (tests/service/test_layers.py).
- ``entrypoints/``: the Lambda wiring (lambda_app.py) that ``functions/*.py`` call.
"""
