#!/usr/bin/env bash
# The kind check: a kind of workload is a folder, src/kinds/<kind>/, and
# nothing outside it names the kind in code (comments and string literals
# aside), so that adding a kind is adding its folder and its line in
# src/kinds/kind_list.h, THE list, which alone names every kind.  Per
# folder: a C file under src/kinds/<kind>/ names no other kind; any other
# C file of the extension or of the command-line program names none.  The
# kinds and the words that name each (its name, and the words its kind.mk
# gives in PB_KIND_<kind>_WORDS, such as sysbench's "oltp") are read from
# the list and the kinds' kind.mk, as the Makefiles read them.
#
# Usage: bash test/check_kind_names.sh [repo]
set -euo pipefail
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$repo"

# "kind word word ..." per kind, from the Makefile fragment that reads the list
kinds=$(make -s --no-print-directory -f src/kinds/kinds.mk -f - PB_KINDS_DIR=src/kinds pb-print-kinds <<'MK'
pb-print-kinds:
	@$(foreach k,$(PB_KINDS),echo "$(k) $(PB_KIND_$(k)_WORDS)";)
MK
)
[ -n "$kinds" ] || { echo "check_kind_names: no kind in src/kinds/kind_list.h" >&2; exit 1; }

# the words of every kind, and of every kind but one, as grep patterns
words_of() {
	echo "$kinds" | awk -v skip="$1" '$1 != skip { for (i = 1; i <= NF; i++) print $i }' |
		sed 's/[.[\*^$]/\\&/g' | paste -sd'|' -
}

bad=0
for f in $(find src -name '*.[ch]' | sort); do
	[ "$f" = src/kinds/kind_list.h ] && continue	# THE list
	case $f in
		src/kinds/*/*) own=${f#src/kinds/}; own=${own%%/*} ;;
		*) own= ;;
	esac
	pattern=$(words_of "$own")
	# the code alone: comments removed by the preprocessor, then string and
	# character literals
	hits=$(gcc -fpreprocessed -dD -E -P -x c "$f" 2>/dev/null |
		sed -E 's/"([^"\\]|\\.)*"/""/g; s/'"'"'([^'"'"'\\]|\\.)*'"'"'/0/g' |
		grep -inE "$pattern" || true)
	if [ -n "$hits" ]; then
		if [ -n "$own" ]; then
			echo "$f, of kind $own, names another kind in its code:"
		else
			echo "$f names a kind of workload in its code:"
		fi
		echo "$hits" | sed 's/^/    /'
		bad=$((bad + 1))
	fi
done
nkinds=$(echo "$kinds" | wc -l)
if [ "$bad" -gt 0 ]; then
	echo "check_kind_names: $bad files name a kind outside its folder"
	exit 1
fi
echo "check_kind_names: each of the $nkinds kinds is named in its folder alone, and in kind_list.h"
