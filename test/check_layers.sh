#!/usr/bin/env bash
# The layer checks.  By symbols: each object of the extension (and of the
# command-line program) uses only symbols defined by objects listed before
# it in its Makefile's OBJS (its own layer's earlier files and the layers
# below), so that no file calls a higher layer and no two files call each
# other; read from the objects' symbol tables (nm), not from comments.  By
# includes: each folder of the extension has the rank of its first object
# in OBJS, and no file (header or source) includes a header of a folder of
# higher rank, so that no lower layer's header depends on a higher one's
# (the engine includes the driver interface; the drivers include nothing
# of the engine).  Run once both are built; prints every call and include
# that breaks the order, and fails if there is one.
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

# check_includes: the extension's folders ranked by their first object in
# OBJS; every quoted include of a file of src/ (the program aside) resolved
# to the folder that holds the header, which must not rank above the file's
check_includes() {
	local objs
	objs=$(cd "$repo" && make -s --no-print-directory -f Makefile -f - pb-print-objs <<'MK'
pb-print-objs:
	@echo $(OBJS)
MK
)
	cd "$repo"
	for o in $objs; do dirname "$o"; done | awk '!seen[$0]++ { print $0, NR }' >"$tmp/ranks"
	find src -path src/bin -prune -o -name '*.h' -print | sort >"$tmp/headers"
	find src -path src/bin -prune -o -name '*.[ch]' -print | sort | while read -r f; do
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
			while read -r h; do
				# the header beside the file, else the one of that name in src/
				if [ -f "$(dirname "$f")/$h" ]; then
					echo "$f $(dirname "$f")/$h"
				else
					grep -E "(^|/)${h//./\\.}\$" "$tmp/headers" | sed "s|^|$f |"
				fi
			done
	done | awk -v ranks="$tmp/ranks" '
		BEGIN { while ((getline line < ranks) > 0) { split(line, a, " "); rank[a[1]] = a[2] } }
		{
			from = $1; sub(/\/[^\/]*$/, "", from)
			to = $2; sub(/\/[^\/]*$/, "", to)
			if (!(from in rank) || !(to in rank)) {
				printf "include order unknown: %s (folder %s) includes %s (folder %s), a folder with no object in OBJS\n", $1, from, $2, to
				bad++
			} else if (rank[to] > rank[from]) {
				printf "include order broken: %s includes %s, of folder %s, which ranks above %s in OBJS\n", $1, $2, to, from
				bad++
			}
			n++
		}
		END {
			if (bad > 0) {
				printf "check_layers: %d includes against the folders'"'"' order\n", bad
				exit 1
			}
			printf "check_layers: %d includes of the extension'"'"'s folders in order\n", n
		}'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
check . || status=1
check src/bin/polarbench || status=1
check_includes || status=1
exit $status
