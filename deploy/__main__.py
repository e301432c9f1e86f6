"""python -m deploy publish|empty-bucket --stack NAME --region REGION

publish: write config.json from the stack's outputs, upload frontend/ (content types and
cache headers: deploy/frontend.py), invalidate CloudFront's unversioned paths, and print
the game's URL with a QR code. empty-bucket: delete every object of the stack's frontend
bucket, which `sam delete` cannot delete while it holds any."""

import argparse
import sys
import time

from deploy.frontend import invalidation_paths, uploads


def stack_outputs(cloudformation, stack: str) -> dict[str, str]:
    (found,) = cloudformation.describe_stacks(StackName=stack)["Stacks"]
    return {output["OutputKey"]: output["OutputValue"] for output in found.get("Outputs", [])}


def publish(session, stack: str, out=sys.stdout) -> str:
    outputs = stack_outputs(session.client("cloudformation"), stack)
    s3, bucket = session.client("s3"), outputs["FrontendBucketName"]
    published = uploads(outputs["WebSocketUrl"])
    for upload in published:
        s3.put_object(Bucket=bucket, Key=upload.key, Body=upload.body,
                      ContentType=upload.content_type, CacheControl=upload.cache_control)  # fmt: skip
    paths = invalidation_paths(published)
    session.client("cloudfront").create_invalidation(
        DistributionId=outputs["FrontendDistributionId"],
        InvalidationBatch={"Paths": {"Quantity": len(paths), "Items": paths},
                           "CallerReference": f"{stack}-{time.time_ns()}"},
    )  # fmt: skip
    url = outputs["FrontendUrl"].rstrip("/") + "/"
    print(f"Uploaded {len(published)} files to s3://{bucket}; CloudFront is refreshing "
          f"{len(paths)} paths (a minute or two).", file=out)  # fmt: skip
    print(f"\nCatch the Witch is live: {url}\nWebSocket: {outputs['WebSocketUrl']}", file=out)
    _print_qr(url, out)
    return url


def _print_qr(url: str, out) -> None:
    import segno

    print("\nScan to open on a phone:", file=out)
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)


def empty_bucket(session, stack: str, out=sys.stdout) -> int:
    """Deletes every object (and every version, should versioning be turned on)."""
    from botocore.exceptions import ClientError

    try:
        outputs = stack_outputs(session.client("cloudformation"), stack)
    except ClientError as error:
        if "does not exist" in str(error):
            print(f"No stack {stack}: nothing to empty.", file=out)
            return 0
        raise
    bucket = outputs["FrontendBucketName"]
    s3 = session.client("s3")
    deleted = 0
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=bucket):
        keys = [{"Key": v["Key"], "VersionId": v["VersionId"]}
                for v in page.get("Versions", []) + page.get("DeleteMarkers", [])]  # fmt: skip
        for start in range(0, len(keys), 1000):  # DeleteObjects takes 1,000 at a time
            s3.delete_objects(Bucket=bucket, Delete={"Objects": keys[start : start + 1000],
                                                     "Quiet": True})  # fmt: skip
        deleted += len(keys)
    print(f"Emptied s3://{bucket} ({deleted} objects).", file=out)
    return deleted


def main(argv: list[str] | None = None) -> None:
    import boto3

    parser = argparse.ArgumentParser(prog="python -m deploy", description=__doc__)
    parser.add_argument("command", choices=["publish", "empty-bucket"])
    parser.add_argument("--stack", required=True)
    parser.add_argument("--region", required=True)
    args = parser.parse_args(argv)
    session = boto3.Session(region_name=args.region)
    if args.command == "publish":
        publish(session, args.stack)
    else:
        empty_bucket(session, args.stack)


if __name__ == "__main__":
    main()
