"""The boto3 clients every AWS adapter uses: built lazily, on first use, so tests can start
moto (or the local stack its endpoints) first; endpoints come from the standard
``AWS_ENDPOINT_URL`` / ``AWS_ENDPOINT_URL_<SERVICE>`` variables, which boto3 reads.

Adapters call ``aws_client.client`` through this module, so a test or the benchmark can
wrap it in one place.
"""

from functools import cache

#: Posts run in parallel, one thread each (12 cats: one wave). Every client's connection
#: pool matches it: botocore's default pool of 10 would make two of twelve posts wait.
PUSH_THREADS = 12


@cache
def client(service: str, endpoint_url: str | None = None):
    import boto3
    from botocore.config import Config

    return boto3.client(service, endpoint_url=endpoint_url,
                        config=Config(max_pool_connections=PUSH_THREADS))  # fmt: skip
