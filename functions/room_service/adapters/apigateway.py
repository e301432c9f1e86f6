"""The Pusher port over the API Gateway management API (posts to WebSocket connections)."""

import contextlib
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from . import aws_client
from .aws_client import PUSH_THREADS
from .ports import Pusher
from .wire import frame_bytes


class ApiGatewayPusher(Pusher):
    """Posts to connections in parallel; a 410 (GoneException) reports the id as gone and
    never fails the request."""

    def __init__(self, endpoint_url: str):
        self.endpoint_url = endpoint_url
        self.posted = 0

    def push(self, messages: list[tuple[str, dict[str, Any]]]) -> list[str]:
        api = aws_client.client("apigatewaymanagementapi", self.endpoint_url)
        gone_error = api.exceptions.GoneException

        def post(item: tuple[str, dict[str, Any]]) -> str | None:
            connection_id, message = item
            try:
                api.post_to_connection(ConnectionId=connection_id, Data=frame_bytes(message))
            except gone_error:
                return connection_id
            return None

        self.posted += len(messages)
        if len(messages) == 1:
            results = [post(messages[0])]
        else:
            with ThreadPoolExecutor(min(PUSH_THREADS, len(messages))) as pool:
                results = list(pool.map(post, messages))
        return [connection_id for connection_id in results if connection_id]

    def hang_up(self, connection_id: str) -> None:
        api = aws_client.client("apigatewaymanagementapi", self.endpoint_url)
        with contextlib.suppress(api.exceptions.GoneException):  # closed already: as asked
            api.delete_connection(ConnectionId=connection_id)


def management_endpoint(domain_name: str, stage: str) -> str:
    """The @connections endpoint of the API the event came through (or WEBSOCKET_ENDPOINT,
    e.g. the local gateway)."""
    return os.environ.get("WEBSOCKET_ENDPOINT") or f"https://{domain_name}/{stage}"
