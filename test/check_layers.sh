#!/usr/bin/env bash
# The layer check: each object of the extension (and of the client) uses
# only symbols defined by objects listed before it in its Makefile's OBJS
# (its own layer's earlier files and the layers below), so that no file
# calls a higher layer and no two files call each other.  Read from the
# objects' symbol tables (nm), not from comments.  Run once both are built;
# prints every call that breaks the order, and fails if there is one.
#
# Usage: bash test/check_layers.sh [repo]
set -euo pipefail
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}

# check DIR: the objects of DIR's Makefile, in its OBJS order
check() {
	local dir=$1 objs i
	objs=$(cd "$repo/$dir" && make -s --no-print-directory -f Makefile -f - pb-print-objs <<'MK'
pb-print-objs:
	@echo $(OBJS)
MK
)
	[ -n "$objs" ] || { echo "check_layers: no OBJS in $dir/Makefile" >&2; return 1; }
	# every object's defined (D) and undefined (U) global symbols, with its place
	i=0
	for o in $objs; do
		[ -f "$repo/$dir/$o" ] || { echo "check_layers: $dir/$o is not built" >&2; return 1; }
		nm --defined-only -g "$repo/$dir/$o" | awk -v i=$i -v o="$o" 'NF == 3 { print "D", $3, i, o }'
		nm --undefined-only -g "$repo/$dir/$o" | awk -v i=$i -v o="$o" '{ print "U", $NF, i, o }'
		i=$((i + 1))
	done | awk -v n="$i" -v dir="$dir" '
		$1 == "D" { at[$2] = $3; file[$2] = $4; next }
		{ uses[++u] = $0 }
		END {
			for (k = 1; k <= u; k++) {
				split(uses[k], f, " ")
				if ((f[2] in at) && at[f[2]] >= f[3]) {
					printf "layer order broken in %s: %s calls %s of %s, which comes after it in OBJS\n", dir, f[4], f[2], file[f[2]]
					bad++
				}
			}
			if (bad > 0) {
				printf "check_layers: %s: %d calls against the layer order\n", dir, bad
				exit 1
			}
			printf "check_layers: %s: objects in order\n", dir
		}'
}

status=0
check . || status=1
check src/bin/polarbench || status=1
exit $status
