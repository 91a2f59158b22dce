# A small image with the released shipcheck binary, for CI jobs (GitLab's template uses it).
# Build it from what `make dist` produced:
#
#   make dist
#   docker build --build-arg VERSION=0.1.0 -t ghcr.io/shipcheck/shipcheck:0.1.0 -f Dockerfile dist
#
# The binary carries the Swift runtime; it needs glibc, libelf1 (ELF support), libpcre2-8-0 (the
# regex engine) and git (shipcheck asks git which files a repository holds, and reads its index
# and objects for conflicts).
ARG VERSION=0.1.0
ARG PLATFORM=x86_64-unknown-linux-gnu

FROM debian:bookworm-slim AS unpack
ARG VERSION
ARG PLATFORM
ADD shipcheck-${VERSION}-${PLATFORM}.tar.gz /unpack/

FROM debian:bookworm-slim
ARG VERSION
ARG PLATFORM
RUN apt-get update \
    && apt-get install -y --no-install-recommends git libelf1 libpcre2-8-0 \
    && rm -rf /var/lib/apt/lists/* \
    # CI mounts checkouts owned by another user; git would refuse them as "dubious ownership".
    && git config --system --add safe.directory '*'
COPY --from=unpack /unpack/shipcheck-${VERSION}-${PLATFORM}/bin/shipcheck /usr/local/bin/shipcheck
COPY --from=unpack /unpack/shipcheck-${VERSION}-${PLATFORM}/share/ /usr/local/share/
WORKDIR /src
ENTRYPOINT ["shipcheck"]
CMD ["audit", "."]
