#!/bin/sh
# build-revision.sh PACKAGE_DIR OUTPUT_DIR: writes OUTPUT_DIR/BuildInfo.swift with the git
# revision of PACKAGE_DIR, rewriting it only when the revision changed (the ShipcheckBuildInfo
# plugin runs it before every build).
#
# The revision is read from git's own files (HEAD, then the ref's file or packed-refs; a linked
# worktree's .git file and commondir are followed) rather than asked of git: on macOS,
# /usr/bin/git is an xcrun shim, which fails inside SwiftPM's plugin sandbox. Where the files
# say nothing usable (a reftable repository), git is asked; without either, "unknown".
dir=$1
out=$2
revision=
gitdir=$dir/.git
if [ -f "$gitdir" ]; then
    gitdir=$(sed -n 's/^gitdir: //p' "$gitdir")
    case $gitdir in /*) ;; *) gitdir=$dir/$gitdir ;; esac
fi
common=$gitdir
if [ -f "$gitdir/commondir" ]; then
    common=$(cat "$gitdir/commondir")
    case $common in /*) ;; *) common=$gitdir/$common ;; esac
fi
if [ -f "$gitdir/HEAD" ]; then
    head=$(cat "$gitdir/HEAD")
    case $head in
        "ref: "*)
            ref=${head#ref: }
            for file in "$gitdir/$ref" "$common/$ref"; do
                if [ -f "$file" ]; then revision=$(cat "$file"); break; fi
            done
            if [ -z "$revision" ] && [ -f "$common/packed-refs" ]; then
                revision=$(awk -v ref="$ref" '$2 == ref { print $1; exit }' "$common/packed-refs")
            fi ;;
        *) revision=$head ;;
    esac
fi
if printf '%s\n' "$revision" | grep -Eqx '[0-9a-f]{40}|[0-9a-f]{64}'; then
    revision=$(printf '%.12s' "$revision")
else
    revision=$(git -C "$dir" rev-parse --short=12 HEAD 2>/dev/null) || revision=unknown
fi
mkdir -p "$out"
printf '/// Generated before each build by the ShipcheckBuildInfo plugin.\nenum BuildInfo {\n    static let gitRevision = "%s"\n}\n' "$revision" >"$out/BuildInfo.swift.new"
if cmp -s "$out/BuildInfo.swift.new" "$out/BuildInfo.swift"; then rm -f "$out/BuildInfo.swift.new"; else mv "$out/BuildInfo.swift.new" "$out/BuildInfo.swift"; fi
