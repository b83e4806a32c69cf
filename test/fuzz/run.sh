#!/bin/sh
# Build a fuzzer with ASan+UBSan and run it: the script language's, or with
# FUZZ=capture the capture library's (server logs).
#
#   test/fuzz/run.sh [SECONDS] [extra libFuzzer options...]
#   FUZZ=capture test/fuzz/run.sh [SECONDS] [...]
#
# The seed corpus is test/fuzz/corpus/ (corpus_capture/ for the logs); new
# inputs go to a scratch corpus under test/fuzz/work/ (not versioned),
# crashes to test/fuzz/work/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-60}
[ $# -gt 0 ] && shift
target=${FUZZ:-script}
case $target in
	script) seeds="$here/corpus";;
	capture) seeds="$here/corpus_capture";;
	*) echo "FUZZ is script or capture" >&2; exit 2;;
esac
work="$here/work"
mkdir -p "$work/corpus_$target"
make -s -C "$here" "work/fuzz_$target"
cd "$work"
exec "./fuzz_$target" -max_total_time="$secs" -close_fd_mask=2 -max_len=4096 \
	-timeout=10 -rss_limit_mb=2048 -dict="$here/$target.dict" \
	-artifact_prefix="$work/" -print_final_stats=1 "$@" \
	"$work/corpus_$target" "$seeds"
