"""`make deploy`, `make destroy` and `make smoke` against AWS (docs/deploy.md): the
preflight that fits the stack to the account (preflight.py), publishing the phone client
(frontend.py, __main__.py), deleting a stack in any state (stack.py), and the smoke game
(smoke.py). Run as ``python -m deploy …``."""
