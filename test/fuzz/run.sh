#!/bin/sh
# Build the script-language fuzzer with ASan+UBSan and run it.
#
#   test/fuzz/run.sh [SECONDS] [extra libFuzzer options...]
#
# The seed corpus is test/fuzz/corpus/; new inputs go to a scratch corpus
# under test/fuzz/work/ (not versioned), crashes to test/fuzz/work/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-60}
[ $# -gt 0 ] && shift
work="$here/work"
mkdir -p "$work/corpus"
make -s -C "$here" work/fuzz_script
cd "$work"
exec ./fuzz_script -max_total_time="$secs" -close_fd_mask=2 -max_len=4096 \
	-timeout=10 -rss_limit_mb=2048 -dict="$here/script.dict" \
	-artifact_prefix="$work/" -print_final_stats=1 "$@" \
	"$work/corpus" "$here/corpus"
