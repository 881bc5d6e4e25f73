#!/usr/bin/env bash
# Runs make bench-noise's measurements on the corpus bench/make-noise-corpus.py made, in two
# chains at once (two cores): the requests, then the wake words at 0 and 5 dB; and the wake words
# clean, at 20 and at 10 dB. Then prints the table (bench/noise-summary.py) and writes it as
# Markdown to OUT/table.md (for bench/update-figures.py).
#
#   bench/run-bench-noise.sh HARK CORPUS OUT
#
# HARK is the hark binary, CORPUS the corpus folder, OUT the folder for the reports and logs.
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 HARK CORPUS OUT" >&2
  exit 64
fi
hark=$1 corpus=$2 out=$3
conditions=(clean snr20 snr10 snr05 snr00)
for condition in "${conditions[@]}"; do
  [ -d "$corpus/requests/$condition" ] && [ -d "$corpus/wake/$condition" ] \
    || { echo "$0: $corpus has no $condition: make it with bench/make-noise-corpus.py" >&2; exit 66; }
done
mkdir -p "$out/wake"
here=$(cd "$(dirname "$0")" && pwd)

wake() {
  "$hark" bench-wake --corpus "$corpus/wake/$1" --phrases jarvis athena amelia hey-chatterbox --jobs 1 \
    --baseline --json "$out/wake/$1.json" > "$out/wake/$1.log" 2>&1 \
    || { echo "bench-wake failed on $1: see $out/wake/$1.log" >&2; return 1; }
  echo "wake words, $1: done" >&2
}
requests() {
  "$hark" bench "${conditions[@]/#/$corpus/requests/}" --apps "$corpus/apps" --baseline \
    --json "$out/requests.json" > "$out/requests.log" 2>&1 \
    || { echo "hark bench failed: see $out/requests.log" >&2; return 1; }
  echo "requests: done" >&2
}

echo "requests and wake words in two chains (logs in $out)" >&2
( requests && wake snr00 && wake snr05 ) & first=$!
( wake clean && wake snr20 && wake snr10 ) & second=$!
status=0
wait $first || status=1
wait $second || status=1
[ $status -eq 0 ] || exit 1
python3 "$here/noise-summary.py" "$out/requests.json" "$out/wake" --markdown "$out/table.md"
