#!/usr/bin/env bash
# Regenerates Sources/AndroidArtifacts/Protos/Generated/*.pb.swift from the .proto files beside
# it, with protoc (PyPI's grpcio-tools) and protoc-gen-swift built from the swift-protobuf
# version Package.swift names (so the generated code matches the runtime it links). The output
# is committed: `make build` needs neither tool. Run it after changing a .proto file.
#
#   scripts/generate-protos.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
protos="$here/Sources/AndroidArtifacts/Protos"
version="$(sed -nE 's|.*swift-protobuf", exact: "([0-9.]+)".*|\1|p' "$here/Package.swift")"
work="${TMPDIR:-/tmp}/shipcheck-protoc-gen-swift-$version"

python3 -m grpc_tools.protoc --version >/dev/null 2>&1 || python3 -m pip install --quiet grpcio-tools
if [ ! -x "$work/.build/release/protoc-gen-swift" ]; then
  rm -rf "$work"
  git clone --quiet --depth 1 --branch "$version" https://github.com/apple/swift-protobuf "$work"
  swift build --package-path "$work" -c release --product protoc-gen-swift
fi
mkdir -p "$protos/Generated"
python3 -m grpc_tools.protoc --plugin="protoc-gen-swift=$work/.build/release/protoc-gen-swift" \
  --swift_opt=Visibility=Package --swift_out="$protos/Generated" -I "$protos" "$protos"/*.proto
