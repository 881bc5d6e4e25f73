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
rest_log=$(mktemp "${TMPDIR:-/tmp}/hark-tests.XXXXXX")
trap 'rm -f "$heavy_log" "$rest_log"' EXIT

# Both read the one build; neither builds, so SwiftPM's lock on .build is not needed. Each still
# opens the build database as it starts, and the one that opens it second can find it locked and
# run no test at all ("unable to attach DB … database is locked", then "no tests found"): such a
# start is tried again, up to three times, and any other failure is left as it is.
#   swift_test LOG ARGS...   runs `swift test ARGS` with its output in LOG (and on stdout with --tee)
swift_test() {
  local log=$1 tee=$2; shift 2
  local attempt status
  for attempt in 1 2 3; do
    if [ "$tee" = tee ]; then
      "${SWIFT:-swift}" test --skip-build --ignore-lock --no-parallel "$@" 2>&1 | tee "$log"
      status=${PIPESTATUS[0]}
    else
      "${SWIFT:-swift}" test --skip-build --ignore-lock --no-parallel "$@" > "$log" 2>&1
      status=$?
    fi
    if [ "$status" -ne 0 ] && grep -q "database is locked" "$log" && grep -q "no tests found" "$log"; then
      echo "swift test found SwiftPM's build database locked as it started (attempt $attempt): starting it again" >&2
      sleep $((attempt * 2))
      continue
    fi
    return "$status"
  done
  return "$status"
}

swift_test "$heavy_log" quiet --filter "$HEAVY" "$@" &
heavy=$!
swift_test "$rest_log" tee --skip "$HEAVY" "$@"
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
