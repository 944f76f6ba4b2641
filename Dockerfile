# The chesspuzzles image: one static binary that serves as worker, coordinator and web
# server, on an empty base (no shell, no package manager), running as the non-root user
# chesspuzzles (uid 65532).
#
#   docker build -t chesspuzzles .                       # or: podman build / buildah bud
#   docker run --rm chesspuzzles version
#   docker run --rm chesspuzzles worker --nats nats://coordinator:4222 --log-format json
#
# BINARY_FROM=prebuilt skips the Go stage and takes a binary built on the host as
# build/chesspuzzles-linux-<arch> (CGO_ENABLED=0 go build -trimpath, as below); CI builds
# the image that way because it cannot pull golang:… from a registry. See docs/distributed.md.
ARG BINARY_FROM=build

FROM docker.io/library/golang:1.26 AS build
# The tree is copied without .git, so the commit comes in as build arguments
# (scripts/image.sh reads them from git): "chesspuzzles version" then names it.
ARG VERSION=
ARG REVISION=
ARG COMMIT_TIME=
ARG MODIFIED=
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.version=${VERSION} -X main.revision=${REVISION} -X main.commitTime=${COMMIT_TIME} -X main.modified=${MODIFIED}" -o /out/chesspuzzles ./cmd/chesspuzzles

FROM scratch AS prebuilt
ARG TARGETARCH=amd64
COPY build/chesspuzzles-linux-${TARGETARCH} /out/chesspuzzles

FROM ${BINARY_FROM} AS binary

FROM scratch
COPY deploy/image/passwd deploy/image/group /etc/
COPY --from=binary /out/chesspuzzles /chesspuzzles
USER 65532:65532
WORKDIR /var/lib/chesspuzzles
ENV XDG_STATE_HOME=/var/lib/chesspuzzles
# 8080: serve (give --addr 0.0.0.0:8080); 4222: the coordinator's embedded NATS server.
EXPOSE 8080 4222
ENTRYPOINT ["/chesspuzzles"]
CMD ["--help"]
