#!/usr/bin/env bash
# Builds the container image from ./Dockerfile with buildah (no daemon) and runs it:
# "version" and "worker --help" must work from the image, as its user.
#
#   scripts/image.sh              # build chesspuzzles:dev from a binary built here, run it
#
# The image reports the version and commit it was built from (chesspuzzles version).
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

# The image's Go stage copies the tree without .git, so the toolchain cannot record the
# commit: it is read here and passed in (build arguments, then -ldflags -X), and the
# version is the pseudo-version Go itself gives a build of this commit, or the release
# tag on it. The binary then says what it was built from, not "(devel)".
revision=$(git rev-parse HEAD)
commit_time=$(TZ=UTC git show -s --date=format-local:%Y-%m-%dT%H:%M:%SZ --format=%cd HEAD)
modified=false
[[ -z $(git status --porcelain --untracked-files=no) ]] || modified=true
version=$(git describe --tags --exact-match --match 'v[0-9]*' HEAD 2>/dev/null) ||
	version="v0.0.0-$(TZ=UTC git show -s --date=format-local:%Y%m%d%H%M%S --format=%cd HEAD)-${revision:0:12}"
[[ $modified == false ]] || version+="+dirty"
ldflags="-s -w -X main.version=$version -X main.revision=$revision -X main.commitTime=$commit_time -X main.modified=$modified"

mkdir -p build
CGO_ENABLED=0 go build -trimpath -ldflags="$ldflags" -o "build/chesspuzzles-linux-$arch" ./cmd/chesspuzzles
"${buildah[@]}" bud --quiet --isolation chroot --build-arg BINARY_FROM=prebuilt --build-arg TARGETARCH="$arch" \
	--build-arg VERSION="$version" --build-arg REVISION="$revision" --build-arg COMMIT_TIME="$commit_time" --build-arg MODIFIED="$modified" \
	-t "$tag" . >/dev/null

user=$("${buildah[@]}" inspect --format '{{.OCIv1.Config.User}}' "$tag")
[[ $user == 65532:65532 ]] || { echo "image user is '$user', want 65532:65532" >&2; exit 1; }

ctr=$("${buildah[@]}" from --quiet "$tag")
trap '"${buildah[@]}" rm "$ctr" >/dev/null' EXIT
run() { "${buildah[@]}" run --isolation chroot "$ctr" -- "$@"; }
got=$(run /chesspuzzles version)
echo "$got"
[[ $got == "chesspuzzles $version (commit ${revision:0:12}, $commit_time"* ]] || { echo "the image's version says '$got', want $version, commit ${revision:0:12}" >&2; exit 1; }
run /chesspuzzles worker --help | grep -- '--nats URL' >/dev/null || { echo "worker --help from the image lacks --nats" >&2; exit 1; }
run /chesspuzzles queens count 8
echo "== image $tag: user $user, version and worker --help run"
