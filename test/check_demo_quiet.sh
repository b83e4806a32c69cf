#!/usr/bin/env bash
# The demo prints nothing a user would wonder about: run small (scale 1, one
# client, 1 s per run) on a throwaway server of its own, from a folder the
# postgres user may not enter (as root's home is), its output must hold no
# error, warning or complaint of a program it runs, such as PostgreSQL's
# "could not change directory to ...: Permission denied" when a program run
# as postgres starts in such a folder.  Prints the demo's output and, for
# each line of the kind, "unexpected: LINE"; exits non-zero if there is one,
# or if the demo failed.
#
# Usage: bash test/check_demo_quiet.sh PORT   (as root: the demo installs)
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
port=${1:?usage: check_demo_quiet.sh PORT}

# the folder it starts in: root's own, mode 700, which postgres may not enter
start=$(mktemp -d /tmp/polarbench-demo-cwd.XXXXXX)
chmod 700 "$start"
out="$start/demo.out"
trap 'rm -rf "$start"' EXIT

(cd "$start" && env -u PGHOST -u PGPORT -u PGDATABASE -u PGUSER \
	PB_DEMO_PORT="$port" bash "$repo/test/bench/demo.sh" 1 1 1) >"$out" 2>&1
status=$?
cat "$out"

# what a program says when something went wrong, in its own words
unexpected=$(grep -nE 'could not|Permission denied|No such file|command not found|(^|[^a-z_])(error|warning|fatal):|(ERROR|WARNING|FATAL|PANIC):' "$out")
if [ -n "$unexpected" ]; then
	echo "$unexpected" | sed 's/^/unexpected: /'
	exit 1
fi
if [ "$status" -ne 0 ]; then
	echo "the demo failed with status $status"
	exit 1
fi
echo "the demo printed nothing unexpected"
