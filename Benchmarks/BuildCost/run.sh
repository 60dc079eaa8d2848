#!/bin/bash
# Build cost: a clean build of the same one-service app on TraitInjection, Swinject 2.10.0 and
# Factory 3.2.2, side by side in one run, release and debug; prints each time (best of
# `ROUNDS`, 2 by default) and each library's time divided by Swinject's.
#
#   Benchmarks/BuildCost/run.sh [ROUNDS] [REVISION]
#
# With a REVISION (`9331005`, say), the app is also built on TraitInjection as it was at that
# commit of this repository, in a column of its own.
#
# Each app is copied to a scratch folder and its packages resolved first, so that what is timed
# is `swift build` after `swift package clean`: compiling the library and the app, and linking.
# The rounds are interleaved (TraitInjection, Swinject, Factory, then again), so that a busy
# machine weighs on each alike. Factory is the copy beside this repository
# (`../shared/vendor/Factory`); without it, its column is left out.
set -euo pipefail

rounds=${1:-2}
revision=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
factory=$(cd "$root/../shared/vendor/Factory" 2>/dev/null && pwd || true)
scratch=$(mktemp -d /tmp/build-cost.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

libraries=(TraitInjection Swinject)
[ -n "$factory" ] && libraries+=(Factory)
[ -n "$revision" ] && libraries+=("TraitInjection@$revision")

for library in "${libraries[@]}"; do
    # TraitInjection@REVISION is the TraitInjection app on that commit's tree.
    template=${library%@*} library_root=$root
    if [ "$library" != "$template" ]; then
        library_root="$scratch/tree-$revision"
        mkdir -p "$library_root"
        git -C "$root" archive "$revision" | tar -x -C "$library_root"
    fi
    mkdir -p "$scratch/App-$library/Sources/App"
    cp "$here/Apps/$template.swift" "$scratch/App-$library/Sources/App/main.swift"
    sed -e "s|@ROOT@|$library_root|" -e "s|@FACTORY@|$factory|" "$here/Apps/$template.Package.swift" \
        > "$scratch/App-$library/Package.swift"
    (cd "$scratch/App-$library" && swift package resolve >/dev/null)
done

# The seconds a clean `swift build -c $1` of the app in $2 takes.
build_seconds() {
    (cd "$2" && swift package clean && start=$(date +%s.%N) \
        && swift build -c "$1" >/dev/null \
        && end=$(date +%s.%N) && awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')
}

# The bytes of machine code (`.text`) in the library's object files of the release build in $1:
# deterministic, unlike the times.
machine_code() {
    local module=${2%@*}
    [ "$module" = Factory ] && module=FactoryKit
    for object in "$1"/.build/release/"$module".build/*.o; do size -A "$object"; done \
        | awk '$1 ~ /^\.text/ { bytes += $2 } END { printf "%.1f KB", bytes / 1000 }'
}

declare -A best text
for configuration in release debug; do
    for _ in $(seq "$rounds"); do
        for library in "${libraries[@]}"; do
            seconds=$(build_seconds "$configuration" "$scratch/App-$library")
            [ "$configuration" = release ] && text[$library]=$(machine_code "$scratch/App-$library" "$library")
            key="$configuration/$library"
            if [ -z "${best[$key]:-}" ] || awk -v a="$seconds" -v b="${best[$key]}" 'BEGIN { exit !(a < b) }'; then
                best[$key]=$seconds
            fi
        done
    done
done

printf '%-8s' "build"
for library in "${libraries[@]}"; do printf ' %23s' "$library"; done
printf ' %s\n' "(seconds, best of $rounds; ÷ Swinject)"
for configuration in release debug; do
    printf '%-8s' "$configuration"
    for library in "${libraries[@]}"; do
        seconds=${best[$configuration/$library]}
        printf ' %23s' "$(awk -v s="$seconds" -v b="${best[$configuration/Swinject]}" 'BEGIN { printf "%.2f s %.2f×", s, s / b }')"
    done
    printf '\n'
done
printf '%-8s' ".text"
for library in "${libraries[@]}"; do printf ' %23s' "${text[$library]}"; done
printf ' %s\n' "(the library's machine code, release)"
