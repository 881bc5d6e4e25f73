#!/usr/bin/env bash
# Runs the built tests as two processes at once, one per core: the suites that decode the most
# audio (HEAVY below) in one, every other suite in the other. Each process runs its tests one at
# a time, because a test decoding audio holds a thread of Swift's shared pool for seconds, and
# tests waiting on servers and child processes in the same process would starve behind it.
#
#   Tests/run-in-two.sh [SWIFT_TEST_FLAG...]
#
# The flags (e.g. -c release) go to both `swift test` runs. The second process's output is
# printed as it comes; the first's is kept in a file and printed whole after it, and the exit
# status is the worse of the two.
set -uo pipefail
cd "$(dirname "$0")/.."

# About half of the suite's time (seconds on two cores, serially: BenchWakeCommandTests 100,
# WakeWordSpotterSetupTests 91, WakeWordSecondLookTests 21, ListenCommandTests 17, LiveLoopTests 16,
# CommandLineTests and EchoCancellerTests about 10 each).
HEAVY='\.(BenchWakeCommandTests|WakeWordSpotterSetupTests|WakeWordSecondLookTests|EchoCancellerTests|ListenCommandTests|LiveLoopTests|CommandLineTests)/'

heavy_log=$(mktemp "${TMPDIR:-/tmp}/hark-tests.XXXXXX")
trap 'rm -f "$heavy_log"' EXIT

# Both read the one build; neither builds, so SwiftPM's lock on .build is not needed.
"${SWIFT:-swift}" test --skip-build --ignore-lock --no-parallel --filter "$HEAVY" "$@" > "$heavy_log" 2>&1 &
heavy=$!
"${SWIFT:-swift}" test --skip-build --ignore-lock --no-parallel --skip "$HEAVY" "$@"
rest_status=$?
wait "$heavy"
heavy_status=$?

echo
echo "=== the heaviest suites, run beside the others ==="
cat "$heavy_log"
if [ "$rest_status" -ne 0 ] || [ "$heavy_status" -ne 0 ]; then
  echo "tests failed: the heaviest suites exited $heavy_status, the others $rest_status" >&2
  exit 1
fi
