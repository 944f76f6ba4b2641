#!/usr/bin/env bash
# Builds the container image from ./Dockerfile with buildah (no daemon) and runs it:
# "version" and "worker --help" must work from the image, as its user.
#
#   scripts/image.sh              # build chesspuzzles:dev from a binary built here, run it
#
# The Dockerfile's Go stage needs docker.io/library/golang from a registry. Where no
# registry can be reached (as in CI here), BINARY_FROM=prebuilt takes a static binary
# built on this machine exactly as that stage builds it (CGO_ENABLED=0 -trimpath), and the
# final stage (FROM scratch: passwd, group, the binary, USER 65532) is built as written.
set -euo pipefail
cd "$(dirname "$0")/.."

arch=$(go env GOARCH)
buildah=(buildah --storage-driver vfs)
tag=localhost/chesspuzzles:dev

mkdir -p build
CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o "build/chesspuzzles-linux-$arch" ./cmd/chesspuzzles
"${buildah[@]}" bud --quiet --isolation chroot --build-arg BINARY_FROM=prebuilt --build-arg TARGETARCH="$arch" -t "$tag" . >/dev/null

user=$("${buildah[@]}" inspect --format '{{.OCIv1.Config.User}}' "$tag")
[[ $user == 65532:65532 ]] || { echo "image user is '$user', want 65532:65532" >&2; exit 1; }

ctr=$("${buildah[@]}" from --quiet "$tag")
trap '"${buildah[@]}" rm "$ctr" >/dev/null' EXIT
run() { "${buildah[@]}" run --isolation chroot "$ctr" -- "$@"; }
run /chesspuzzles version
run /chesspuzzles worker --help | grep -- '--nats URL' >/dev/null || { echo "worker --help from the image lacks --nats" >&2; exit 1; }
run /chesspuzzles queens count 8
echo "== image $tag: user $user, version and worker --help run"
