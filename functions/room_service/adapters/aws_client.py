"""The boto3 clients every AWS adapter uses: built lazily, on first use, so tests can start
moto (or the local stack its endpoints) first; endpoints come from the standard
``AWS_ENDPOINT_URL`` / ``AWS_ENDPOINT_URL_<SERVICE>`` variables, which boto3 reads.

Adapters call ``aws_client.client`` through this module, so a test or the benchmark can
wrap it in one place.
"""

import threading
from functools import cache

#: Posts run in parallel, one thread each (12 cats: one wave). Every client's connection
#: pool matches it: botocore's default pool of 10 would make two of twelve posts wait.
PUSH_THREADS = 12
#: boto3's default session is not thread-safe while it builds a client, and a message's
#: first calls are made on two threads at once (the room's read, the connection's count).
_CREATING = threading.Lock()


@cache
def client(service: str, endpoint_url: str | None = None):
    import boto3
    from botocore.config import Config

    with _CREATING:
        return boto3.client(service, endpoint_url=endpoint_url,
                            config=Config(max_pool_connections=PUSH_THREADS))  # fmt: skip
