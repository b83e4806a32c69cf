#!/usr/bin/env bash
# The kind check: outside the workloads' drivers, the data sets, their
# registries and the workload library, no C file of the extension or of the
# client names a kind of workload in its code (sysbench, ycsb, oltp, tpcc:
# comments and string literals aside), so that a new kind of workload is a
# driver and a registry row, and nothing else branches on a kind.
#
# Usage: bash test/check_kind_names.sh [repo]
set -euo pipefail
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$repo"

# the files that may: each kind's driver and data set, the registries, and
# the backend-free workload library
allowed='^src/kinds/.*$'

bad=0
for f in $(find src -name '*.[ch]' | sort); do
	[[ $f =~ $allowed ]] && continue
	# the code alone: comments removed by the preprocessor, then string and
	# character literals
	hits=$(gcc -fpreprocessed -dD -E -P -x c "$f" 2>/dev/null |
		sed -E 's/"([^"\\]|\\.)*"/""/g; s/'"'"'([^'"'"'\\]|\\.)*'"'"'/0/g' |
		grep -inE 'sysbench|ycsb|oltp|tpcc|tpc-c' || true)
	if [ -n "$hits" ]; then
		echo "$f names a kind of workload in its code:"
		echo "$hits" | sed 's/^/    /'
		bad=$((bad + 1))
	fi
done
if [ "$bad" -gt 0 ]; then
	echo "check_kind_names: $bad files name a kind outside the drivers, data sets and registries"
	exit 1
fi
echo "check_kind_names: no kind of workload named outside the drivers, data sets and registries"
