"""The stack as CloudFormation sees it, whatever state it is in: `make destroy` deletes it
(with its bucket's files and its artifacts), and the preflight replaces one whose first
creation failed (docs/deploy.md, "When a deploy fails" and "Tear down").

Nothing here reads the stack's outputs: a stack that failed or was half-deleted has none,
so the bucket is found among the stack's resources by its logical id."""

import sys
from collections.abc import Iterator
from dataclasses import dataclass

from botocore.exceptions import ClientError, WaiterError

#: Logical ids in template.yaml.
FRONTEND_BUCKET = "FrontendBucket"
TIMER_FUNCTION = "TimerFunction"
#: The stack `sam deploy --resolve-s3` keeps its artifact bucket in (output SourceBucket),
#: shared by every SAM project of the account and region; `make deploy` uploads under
#: ``<stack>/`` there (--s3-prefix).
SAM_MANAGED_STACK = "aws-sam-cli-managed-default"

#: A first creation that failed: nothing in it ever served a player, and CloudFormation can
#: only delete it ("is in ROLLBACK_COMPLETE state and can not be updated"). CREATE_FAILED
#: is the same with rollback turned off.
FAILED_CREATION = frozenset({"ROLLBACK_COMPLETE", "ROLLBACK_FAILED", "CREATE_FAILED"})
#: A change set was made for a stack that did not exist and never executed: the stack has
#: no resources, and `sam deploy` creates it as if new.
NEVER_CREATED = "REVIEW_IN_PROGRESS"
#: Seconds between two looks at a stack being deleted (CloudFront takes minutes).
DELETE_POLL_SECONDS = 15
DELETE_POLL_ATTEMPTS = 240  # an hour


class StackProblem(Exception):
    """The stack is in a state the command cannot act on; the message says what to run."""


@dataclass(frozen=True)
class Stack:
    name: str
    id: str  # its ARN: still answers once the stack is deleted, unlike its name
    status: str

    @property
    def busy(self) -> bool:
        """CloudFormation is still working on it: every other operation is refused."""
        return self.status.endswith("_IN_PROGRESS") and self.status != NEVER_CREATED


def is_missing_stack(error: ClientError) -> bool:
    """DescribeStacks' answer for a name no stack has (or only deleted ones)."""
    return (error.response["Error"]["Code"] == "ValidationError"
            and "does not exist" in error.response["Error"]["Message"])  # fmt: skip


def find_stack(cloudformation, name: str) -> Stack | None:
    try:
        (found,) = cloudformation.describe_stacks(StackName=name)["Stacks"]
    except ClientError as error:
        if is_missing_stack(error):
            return None
        raise
    return Stack(name, found["StackId"], found["StackStatus"])


def stack_outputs(cloudformation, stack: str) -> dict[str, str]:
    (found,) = cloudformation.describe_stacks(StackName=stack)["Stacks"]
    return {output["OutputKey"]: output["OutputValue"] for output in found.get("Outputs", [])}


def _resources(cloudformation, stack_id: str) -> Iterator[dict]:
    for page in cloudformation.get_paginator("list_stack_resources").paginate(StackName=stack_id):
        yield from page["StackResourceSummaries"]


def live_resources(cloudformation, stack_id: str) -> dict[str, str]:
    """Logical id → physical id of what the stack still holds (a rolled-back stack lists
    its deleted resources too, and a resource that failed to create may have no id)."""
    return {r["LogicalResourceId"]: r["PhysicalResourceId"]
            for r in _resources(cloudformation, stack_id)
            if r["ResourceStatus"] != "DELETE_COMPLETE" and r.get("PhysicalResourceId")}  # fmt: skip


def _object_versions(s3, bucket: str, prefix: str) -> Iterator[list[dict[str, str]]]:
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=bucket, Prefix=prefix):
        yield [{"Key": v["Key"], "VersionId": v["VersionId"]}
               for v in page.get("Versions", []) + page.get("DeleteMarkers", [])]  # fmt: skip


def empty_bucket(s3, bucket: str, out=sys.stdout, prefix: str = "") -> int:
    """Deletes every object under ``prefix`` (every version, and delete markers, should
    versioning be on: CloudFormation can't delete a bucket holding any). A bucket already
    gone holds nothing."""
    deleted = 0
    try:
        for keys in _object_versions(s3, bucket, prefix):
            for start in range(0, len(keys), 1000):  # DeleteObjects takes 1,000 at a time
                s3.delete_objects(Bucket=bucket, Delete={"Objects": keys[start : start + 1000],
                                                         "Quiet": True})  # fmt: skip
            deleted += len(keys)
    except ClientError as error:
        if error.response["Error"]["Code"] != "NoSuchBucket":
            raise
        print(f"Bucket {bucket} is already gone.", file=out)
        return 0
    print(f"Emptied s3://{bucket}/{prefix} ({deleted} objects).", file=out)
    return deleted


def _failed_resources(cloudformation, stack_id: str, status: str) -> list[str]:
    """The stack's resources in ``status`` (DELETE_FAILED, UPDATE_FAILED), with the reason
    CloudFormation gives."""
    return [f"{r['LogicalResourceId']} ({r.get('ResourceStatusReason', 'no reason given')})"
            for r in _resources(cloudformation, stack_id) if r["ResourceStatus"] == status]  # fmt: skip


def wait_until_deleted(cloudformation, stack: Stack, poll_seconds: float) -> None:
    """By the stack's id: its name answers "does not exist" once deleted, its id
    DELETE_COMPLETE (the waiter takes either as done)."""
    try:
        cloudformation.get_waiter("stack_delete_complete").wait(
            StackName=stack.id,
            WaiterConfig={"Delay": poll_seconds, "MaxAttempts": DELETE_POLL_ATTEMPTS},
        )
    except WaiterError as error:
        failed = _failed_resources(cloudformation, stack.id, "DELETE_FAILED") or [str(error)]
        raise StackProblem(
            f"Stack {stack.name} could not be deleted: {'; '.join(failed)}. Remove or fix what "
            "that names (the CloudFormation console shows the events), then run make destroy "
            "again."
        ) from error


def delete_stack(session, stack: Stack, out=sys.stdout,
                 poll_seconds: float = DELETE_POLL_SECONDS) -> None:  # fmt: skip
    """Empties the stack's bucket if it still has one, deletes the stack and waits for
    the deletion to end."""
    cloudformation = session.client("cloudformation")
    bucket = live_resources(cloudformation, stack.id).get(FRONTEND_BUCKET)
    if bucket:
        empty_bucket(session.client("s3"), bucket, out)
    print(f"Deleting stack {stack.name} ({stack.status}); a CloudFront distribution takes "
          "several minutes to go.", file=out, flush=True)  # fmt: skip
    cloudformation.delete_stack(StackName=stack.id)
    wait_until_deleted(cloudformation, stack, poll_seconds)
    print(f"Stack {stack.name} is deleted.", file=out)


def delete_artifacts(session, stack: str, out=sys.stdout) -> int:
    """What `sam deploy` uploaded for this stack (its code and templates under
    ``<stack>/`` in SAM's artifact bucket), as `sam delete` removes it. The bucket itself
    and SAM's stack stay: other projects of the region share them."""
    managed = find_stack(session.client("cloudformation"), SAM_MANAGED_STACK)
    if managed is None:
        return 0
    bucket = stack_outputs(session.client("cloudformation"), SAM_MANAGED_STACK).get("SourceBucket")
    if not bucket:
        return 0
    return empty_bucket(session.client("s3"), bucket, out, prefix=f"{stack}/")


def destroy(session, name: str, out=sys.stdout, poll_seconds: float = DELETE_POLL_SECONDS) -> None:
    """`make destroy`: the stack and everything in it, from any state it can be deleted
    in: complete, failed, half-created, half-deleted (DELETE_FAILED), without outputs, or
    already gone."""
    cloudformation = session.client("cloudformation")
    region = cloudformation.meta.region_name
    stack = find_stack(cloudformation, name)
    if stack is None:
        print(f"No stack {name} in {region}: nothing to delete.", file=out)
    elif stack.status == "DELETE_IN_PROGRESS":
        print(f"Stack {name} is already being deleted; waiting for it.", file=out, flush=True)
        wait_until_deleted(cloudformation, stack, poll_seconds)
    elif stack.busy:
        raise StackProblem(
            f"Stack {name} is {stack.status}: CloudFormation is still working on it and refuses "
            f"a delete until it ends. Run make destroy STACK={name} REGION={region} again once "
            "it has (the CloudFormation console shows its progress)."
        )
    else:
        delete_stack(session, stack, out, poll_seconds)
    delete_artifacts(session, name, out)


def roll_back(session, name: str, out=sys.stdout, skip: tuple[str, ...] = (),
              poll_seconds: float = DELETE_POLL_SECONDS) -> None:  # fmt: skip
    """`python -m deploy rollback`: brings a stack whose update failed without rolling back
    (UPDATE_ROLLBACK_FAILED, or UPDATE_FAILED with rollback turned off) back to its last
    working state, UPDATE_ROLLBACK_COMPLETE, which `sam deploy` can update again. ``skip``:
    logical ids CloudFormation may leave as they are when it can't roll them back
    (ContinueUpdateRollback's ResourcesToSkip)."""
    cloudformation = session.client("cloudformation")
    stack = find_stack(cloudformation, name)
    if stack is None:
        raise StackProblem(f"No stack {name} in {cloudformation.meta.region_name}.")
    if stack.status == "UPDATE_ROLLBACK_FAILED":
        cloudformation.continue_update_rollback(StackName=stack.id, ResourcesToSkip=list(skip))
    elif stack.status == "UPDATE_FAILED":
        cloudformation.rollback_stack(StackName=stack.id)
    else:
        print(f"Stack {name} is {stack.status}: nothing to roll back.", file=out)
        return
    print(f"Rolling stack {name} back ({stack.status}).", file=out, flush=True)
    try:
        cloudformation.get_waiter("stack_rollback_complete").wait(
            StackName=stack.id,
            WaiterConfig={"Delay": poll_seconds, "MaxAttempts": DELETE_POLL_ATTEMPTS},
        )
    except WaiterError as error:
        failed = _failed_resources(cloudformation, stack.id, "UPDATE_FAILED")
        raise StackProblem(
            f"Stack {name} could not be rolled back: {'; '.join(failed) or error}. Fix what "
            "that names, or let CloudFormation leave those resources as they are: "
            f".venv/bin/python -m deploy rollback --stack {name} --region "
            f"{cloudformation.meta.region_name} --skip LogicalId (they may then differ from "
            "the template until the next deploy)."
        ) from error
    print(f"Stack {name} is back to UPDATE_ROLLBACK_COMPLETE: make deploy can update it.", file=out)
