"""Handlers for tests/integration/test_local_stack_hardening.py, run in the local stack's Lambda
workers: a frame or a $connect asking for it kills the worker process outright
(os._exit, as a segfault or the OOM killer would); other frames are echoed to their
connection through the gateway's management API (on 127.0.0.1), after a pause if asked."""

import json
import os
import time
import urllib.request

CRASH_EXIT_CODE = 70
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # this machine only


def handler(event, context):
    request = event["requestContext"]
    body = event.get("body") or ""
    if (event.get("queryStringParameters") or {}).get("crash") or '"crash"' in body:
        os._exit(CRASH_EXIT_CODE)
    if '"slow"' in body:
        time.sleep(1.5)
    if request["eventType"] == "MESSAGE":
        url = f"http://{request['domainName']}/{request['stage']}/@connections/{request['connectionId']}"
        echo = json.dumps({"type": "echo", "body": body, "pid": os.getpid()}).encode()
        _opener.open(urllib.request.Request(url, data=echo, method="POST"), timeout=5).close()
    return {"statusCode": 200}
