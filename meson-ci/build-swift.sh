#!/usr/bin/env bash
# Builds Crate through SwiftPM and copies the binaries, the plugins they open at first use
# (libCrateCoverCheck.so, libCrateGStreamer.so, libCrateSecret.so, libCrateBarcode.so) and the player process they start (crate-player),
# all found next to the executable, into meson's build directory.
set -euo pipefail
root="$1"; config="$2"; outdir="$3"
export PATH="/opt/swift/usr/bin:$PATH"
swift build --package-path "$root" -c "$config"
bin="$(swift build --package-path "$root" -c "$config" --show-bin-path)"
cp "$bin/crate" "$bin/CrateDesktop" "$bin/libCrateCoverCheck.so" "$bin/libCrateGStreamer.so" "$bin/libCrateSecret.so" "$bin/libCrateBarcode.so" "$bin/crate-player" "$outdir/"
