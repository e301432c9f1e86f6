"""python -m deploy preflight|publish|destroy|rollback|region --stack NAME --region REGION

preflight: before `sam deploy`, check the account and the stack and choose the template
parameters for them (deploy/preflight.py); prints the parameter overrides on stdout.
publish: write config.json from the stack's outputs, upload frontend/ (content types and
cache headers: deploy/frontend.py), invalidate CloudFront's unversioned paths, and print
the game's URL with a QR code. destroy: delete the stack in whatever state it is, with its
bucket's files and its artifacts (deploy/stack.py). rollback: finish a failed update's
rollback, so the stack can be updated again. region: the region the operator's AWS
profile names, for the Makefile's REGION."""

import argparse
import sys
import time

from deploy.frontend import invalidation_paths, uploads
from deploy.preflight import (
    Refused,
    format_overrides,
    parse_overrides,
    preflight,
    template_parameters,
)
from deploy.stack import StackProblem, destroy, roll_back, stack_outputs

#: Where `make deploy` goes when neither REGION, AWS_REGION, AWS_DEFAULT_REGION nor the
#: AWS profile names a region.
DEFAULT_REGION = "eu-west-1"

__all__ = ["publish", "stack_outputs"]


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


def profile_region() -> str:
    """The region boto3 finds (AWS_DEFAULT_REGION, else the profile's in ~/.aws/config)."""
    import boto3

    return boto3.Session().region_name or DEFAULT_REGION


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m deploy", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument(
        "command", choices=["preflight", "publish", "destroy", "rollback", "region"]
    )
    parser.add_argument("--stack")
    parser.add_argument("--region")
    parser.add_argument("--parameter-overrides", default="",
                        help="preflight: the operator's Name=Value pairs (ALARM_EMAIL, PARAMS)")  # fmt: skip
    parser.add_argument("--skip", nargs="*", default=[],
                        help="rollback: logical ids CloudFormation may leave as they are")  # fmt: skip
    args = parser.parse_args(argv)
    if args.command == "region":
        print(profile_region())
        return 0
    if not (args.stack and args.region):
        parser.error(f"{args.command} needs --stack and --region")

    import boto3
    from botocore.exceptions import NoCredentialsError, ProfileNotFound

    try:
        session = boto3.Session(region_name=args.region)
        if args.command == "preflight":
            requested = parse_overrides(args.parameter_overrides, template_parameters())
            chosen = preflight(session, args.stack, args.region, requested, out=sys.stderr)
            print(format_overrides(chosen))
        elif args.command == "publish":
            publish(session, args.stack, out=sys.stdout)
        elif args.command == "destroy":
            destroy(session, args.stack, out=sys.stdout)
        else:
            roll_back(session, args.stack, out=sys.stdout, skip=tuple(args.skip))
    except (Refused, StackProblem) as problem:
        print(f"\n{args.command}: {problem}", file=sys.stderr)
        return 1
    except (NoCredentialsError, ProfileNotFound) as problem:
        print(f"\n{args.command}: {problem}. Give the AWS tools credentials first "
              "(docs/deploy.md, step 2: AWS_PROFILE or AWS_ACCESS_KEY_ID).", file=sys.stderr)  # fmt: skip
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
