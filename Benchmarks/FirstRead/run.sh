#!/bin/bash
# A trait's first read, on this checkout and on an earlier revision, side by side: instructions
# per read under callgrind (deterministic) and nanoseconds per read (best of 15 passes, each
# run 8 times, interleaved), for a plain class, a struct and the string-named API.
#
#   Benchmarks/FirstRead/run.sh [REVISION]   (default d2899ea, before traits took part in Observation)
#
# Each side is the library's `TraitInjection` sources compiled with `main.swift` into one
# release executable; its reads are in the `hotLoop…` functions that callgrind counts.
set -euo pipefail

base=${1:-d2899ea}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
scratch=$(mktemp -d /tmp/first-read.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

for side in base head; do
    mkdir -p "$scratch/$side/Sources/FirstRead"
    if [ "$side" = base ]; then
        git -C "$root" archive "$base" Sources/TraitInjection | tar -x -C "$scratch/$side"
    else
        cp -r "$root/Sources" "$scratch/$side/"
    fi
    rm -rf "$scratch/$side/Sources/TraitInjection/TraitInjection.docc"
    cp "$here/main.swift" "$scratch/$side/Sources/FirstRead/main.swift"
    cat > "$scratch/$side/Package.swift" <<'PACKAGE'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "FirstRead",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "TraitInjection", exclude: ["Resolving/README.md"]),
        .executableTarget(name: "FirstRead", dependencies: ["TraitInjection"]),
    ]
)
PACKAGE
    (cd "$scratch/$side" && swift build -c release >/dev/null 2>&1)
done

# Instructions per read: the difference between 1,000 and 3,000 reads, over 2,000.
instructions() {
    local binary=$1 row=$2 counts=()
    for reads in 1000 3000; do
        counts+=("$(valgrind --tool=callgrind --toggle-collect='$s9FirstRead*hotLoop*' \
            --callgrind-out-file=/dev/null "$binary" "$row" "$reads" 2>&1 \
            | grep -o 'Collected : [0-9]*' | grep -o '[0-9]*')")
    done
    echo $(((counts[1] - counts[0]) / 2000))
}

printf '%-8s %12s %12s %8s\n' "read" "$base" "this" "ratio"
for row in plain struct string; do
    before=$(instructions "$scratch/base/.build/release/FirstRead" "$row")
    after=$(instructions "$scratch/head/.build/release/FirstRead" "$row")
    printf '%-8s %12s %12s %8s\n' "$row" "$before instr" "$after instr" \
        "$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.2f", a / b }')"
done

for _ in $(seq 8); do
    for side in base head; do
        echo "$side $("$scratch/$side/.build/release/FirstRead" time 20000)"
    done
done | awk '
    { for (i = 2; i <= 6; i += 2) { key = $1 " " $i; if (!(key in best) || $(i + 1) < best[key]) best[key] = $(i + 1) } }
    END {
        split("plain struct string", rows, " ")
        for (r = 1; r <= 3; r++) {
            b = best["base " rows[r]]; h = best["head " rows[r]]
            printf "%-8s %9d ns %9d ns %8.2f\n", rows[r], b, h, h / b
        }
    }'
