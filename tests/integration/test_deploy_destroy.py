"""`make destroy` (python -m deploy destroy, deploy/stack.py) on a stack in any
state, and `python -m deploy rollback` on an update that failed to roll back.

moto's CloudFormation runs a stand-in stack with the real stack's FrontendBucket (moto
cannot run the SAM template) and SAM's artifact stack. Where moto is kinder than AWS, the
AWS answers come from botocore's Stubber instead (tests/integration/test_deploy_preflight):
moto deletes a stack whose bucket still holds files, where AWS fails with DELETE_FAILED,
and it fails DeleteStack when the bucket is already gone (NoSuchBucket); it has no
DELETE_FAILED or UPDATE_ROLLBACK_FAILED states to start from."""

import io

import boto3
import pytest
from moto import mock_aws

import deploy.__main__ as cli
from deploy.stack import SAM_MANAGED_STACK, StackProblem, destroy, roll_back
from tests.integration.test_deploy_preflight import REGION, STACK, STACK_ID, StubbedAws

#: The real stack's bucket, no outputs: what a creation that failed after the bucket, or a
#: stack whose outputs were never written, looks like to `make destroy`.
STAND_IN = """
Resources:
  FrontendBucket: {Type: "AWS::S3::Bucket"}
"""
SAM_STAND_IN = """
Resources:
  SamCliSourceBucket: {Type: "AWS::S3::Bucket"}
Outputs:
  SourceBucket: {Value: !Ref SamCliSourceBucket}
"""


@pytest.fixture
def cloud(monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    with mock_aws():
        yield boto3.Session(region_name=REGION)


def _bucket_of(session, stack: str, logical_id: str) -> str:
    (resource,) = [r for r in session.client("cloudformation").list_stack_resources(
        StackName=stack)["StackResourceSummaries"] if r["LogicalResourceId"] == logical_id]  # fmt: skip
    return resource["PhysicalResourceId"]


def _keys(session, bucket: str) -> set[str]:
    listed = session.client("s3").list_object_versions(Bucket=bucket)
    return {v["Key"] for v in listed.get("Versions", []) + listed.get("DeleteMarkers", [])}


def test_destroy_deletes_a_stack_without_outputs_its_files_and_only_its_artifacts(cloud):
    """The bucket is found among the stack's resources (no FrontendBucketName output to
    read), emptied of every version, and the stack deleted; then what sam deploy uploaded
    under the stack's prefix goes, and another stack's artifacts stay."""
    cloudformation, s3 = cloud.client("cloudformation"), cloud.client("s3")
    cloudformation.create_stack(StackName=STACK, TemplateBody=STAND_IN)
    cloudformation.create_stack(StackName=SAM_MANAGED_STACK, TemplateBody=SAM_STAND_IN)
    bucket = _bucket_of(cloud, STACK, "FrontendBucket")
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
    for body in (b"v1", b"v2"):
        s3.put_object(Bucket=bucket, Key="index.html", Body=body)
    s3.delete_object(Bucket=bucket, Key="index.html")  # a delete marker too
    artifacts = _bucket_of(cloud, SAM_MANAGED_STACK, "SamCliSourceBucket")
    for key in (f"{STACK}/3f2a.template", f"{STACK}/9c1d", f"{STACK}-test/9c1d", "other/9c1d"):
        s3.put_object(Bucket=artifacts, Key=key, Body=b"zip")
    out = io.StringIO()

    destroy(cloud, STACK, out, poll_seconds=0)

    assert [s["StackName"] for s in cloudformation.describe_stacks()["Stacks"]] == [
        SAM_MANAGED_STACK]  # fmt: skip
    assert bucket not in {b["Name"] for b in s3.list_buckets()["Buckets"]}
    assert _keys(cloud, artifacts) == {f"{STACK}-test/9c1d", "other/9c1d"}
    said = out.getvalue()
    assert f"Emptied s3://{bucket}/ (3 objects)" in said
    assert said.index("Emptied") < said.index("Deleting stack") < said.index("is deleted")


def test_destroy_of_a_missing_stack_deletes_nothing_and_exits_0(cloud, capsys):
    assert cli.main(["destroy", "--stack", "no-such-stack", "--region", REGION]) == 0
    assert capsys.readouterr().out == f"No stack no-such-stack in {REGION}: nothing to delete.\n"


def test_destroy_of_a_half_deleted_stack_empties_what_remains_and_deletes_it_again():
    """DELETE_FAILED (its bucket still held files): the bucket is emptied, the stack
    deleted again, and destroy waits until CloudFormation says DELETE_COMPLETE."""
    aws = StubbedAws()
    aws.stack("DELETE_FAILED")
    aws.resources(("FrontendBucket", "witch-frontendbucket-x1", "DELETE_FAILED"),
                  ("RoomsTable", "witch-RoomsTable-Q", "DELETE_COMPLETE"))  # fmt: skip
    s3 = aws.answers("s3")
    s3.add_response("list_object_versions", {"Versions": [
        {"Key": "index.html", "VersionId": "null"}, {"Key": "v/abc/app.js", "VersionId": "null"}]},
        {"Bucket": "witch-frontendbucket-x1", "Prefix": ""})  # fmt: skip
    s3.add_response("delete_objects", {}, {"Bucket": "witch-frontendbucket-x1", "Delete": {
        "Objects": [{"Key": "index.html", "VersionId": "null"},
                    {"Key": "v/abc/app.js", "VersionId": "null"}], "Quiet": True}})  # fmt: skip
    aws.answers("cloudformation").add_response("delete_stack", {}, {"StackName": STACK_ID})
    aws.stack("DELETE_IN_PROGRESS", by=STACK_ID)
    aws.stack("DELETE_COMPLETE", by=STACK_ID)
    aws.no_stack(SAM_MANAGED_STACK)  # nothing uploaded in this region: no artifacts to delete
    out = io.StringIO()

    destroy(aws, STACK, out, poll_seconds=0)

    assert "Deleting stack catch-the-witch (DELETE_FAILED)" in out.getvalue()
    assert aws.all_answered()


def test_destroy_of_a_stack_whose_bucket_is_gone_deletes_the_stack():
    aws = StubbedAws()
    aws.stack("UPDATE_COMPLETE")
    aws.resources(("FrontendBucket", "witch-frontendbucket-x1", "UPDATE_COMPLETE"))
    aws.answers("s3").add_client_error(
        "list_object_versions", service_error_code="NoSuchBucket", http_status_code=404,
        service_message="The specified bucket does not exist")  # fmt: skip
    aws.answers("cloudformation").add_response("delete_stack", {}, {"StackName": STACK_ID})
    aws.stack("DELETE_COMPLETE", by=STACK_ID)
    aws.no_stack(SAM_MANAGED_STACK)
    out = io.StringIO()

    destroy(aws, STACK, out, poll_seconds=0)

    assert "witch-frontendbucket-x1 is already gone" in out.getvalue()
    assert "is deleted" in out.getvalue() and aws.all_answered()


def test_a_delete_that_fails_again_names_what_failed():
    aws = StubbedAws()
    aws.stack("DELETE_FAILED")
    aws.resources(("ApiAccessLogs", "/aws/witch", "DELETE_FAILED"))
    aws.answers("cloudformation").add_response("delete_stack", {}, {"StackName": STACK_ID})
    aws.stack("DELETE_FAILED", by=STACK_ID)
    aws.resources(("ApiAccessLogs", "/aws/witch", "DELETE_FAILED"))
    with pytest.raises(StackProblem, match=r"ApiAccessLogs \(ApiAccessLogs: DELETE_FAILED\)"):
        destroy(aws, STACK, io.StringIO(), poll_seconds=0)
    assert aws.all_answered()  # and no artifacts were touched


def test_destroy_waits_for_a_delete_already_under_way_and_refuses_a_busy_stack():
    aws = StubbedAws()
    aws.stack("DELETE_IN_PROGRESS")
    aws.stack("DELETE_COMPLETE", by=STACK_ID)
    aws.no_stack(SAM_MANAGED_STACK)
    destroy(aws, STACK, io.StringIO(), poll_seconds=0)  # no second DeleteStack
    aws.stack("UPDATE_IN_PROGRESS")
    with pytest.raises(StackProblem, match=r"is UPDATE_IN_PROGRESS.*make destroy STACK="):
        destroy(aws, STACK, io.StringIO(), poll_seconds=0)
    assert aws.all_answered()


def test_rollback_finishes_a_failed_updates_rollback_so_make_deploy_can_update_again():
    aws = StubbedAws()
    aws.stack("UPDATE_ROLLBACK_FAILED")
    aws.answers("cloudformation").add_response(
        "continue_update_rollback",
        {},
        {"StackName": STACK_ID, "ResourcesToSkip": ["TimerFunction"]},
    )
    aws.stack("UPDATE_ROLLBACK_IN_PROGRESS", by=STACK_ID)
    aws.stack("UPDATE_ROLLBACK_COMPLETE", by=STACK_ID)
    out = io.StringIO()
    roll_back(aws, STACK, out, skip=("TimerFunction",), poll_seconds=0)
    assert "back to UPDATE_ROLLBACK_COMPLETE" in out.getvalue()

    aws.stack("UPDATE_ROLLBACK_FAILED")
    aws.answers("cloudformation").add_response(
        "continue_update_rollback", {}, {"StackName": STACK_ID, "ResourcesToSkip": []}
    )
    aws.stack("UPDATE_ROLLBACK_FAILED", by=STACK_ID)
    aws.resources(("TimerFunction", "witch-TimerFunction-A", "UPDATE_FAILED"))
    with pytest.raises(StackProblem, match=r"TimerFunction .*--skip LogicalId"):
        roll_back(aws, STACK, io.StringIO(), poll_seconds=0)
    assert aws.all_answered()
