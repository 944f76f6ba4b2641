#!/usr/bin/env bash
# Cross-builds the chesspuzzles binary for every release target, with SHA-256 checksums.
#
#   scripts/release.sh [VERSION]        # → build/release/chesspuzzles-VERSION-OS-ARCH[.exe], SHA256SUMS
#   scripts/release.sh --check          # build every target to a temporary dir, keep nothing (CI)
#
# Targets: linux, darwin, windows × amd64, arm64. Every binary is static (CGO_ENABLED=0) and
# reproducible (-trimpath, no build paths); VERSION (default: git describe) is stamped in
# with -X main.version, which "chesspuzzles version" prints. Verify a download with
# "sha256sum -c SHA256SUMS" (shasum -a 256 -c on macOS).
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64)

check=false
if [[ "${1:-}" == "--check" ]]; then
	check=true
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
	version=check
else
	version=${1:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}
	out=build/release
	rm -rf "$out"
	mkdir -p "$out"
fi

for t in "${targets[@]}"; do
	os=${t%/*} arch=${t#*/}
	name=chesspuzzles-$version-$os-$arch
	[[ $os == windows ]] && name+=.exe
	echo "== $os/$arch → $name"
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags="-s -w -X main.version=$version" -o "$out/$name" ./cmd/chesspuzzles
done

if $check; then
	echo "== all ${#targets[@]} targets build"
	exit 0
fi
(cd "$out" && sha256sum chesspuzzles-* > SHA256SUMS && sha256sum -c --quiet SHA256SUMS)
echo "== $out:"
cat "$out/SHA256SUMS"
