"""After `sam deploy`: publish the phone client to the stack's bucket, and empty that
bucket before `sam delete` (docs/deploy.md). Run by `make deploy` / `make destroy`."""
