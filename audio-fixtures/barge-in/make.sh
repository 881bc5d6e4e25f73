#!/usr/bin/env bash
# Regenerates the barge-in fixture: a person who asks Hark the time (a short answer, in which
# Hark's canceller first hears the room), then something with a long answer and, while Hark is
# still answering, says the wake word and something else; then asks again and tells it to stop;
# then asks the time again in one breath, over Hark's acknowledgement.
# The wake words said over Hark's answers are real people's (cut from ../wake/real_wakes.wav);
# the rest is flite. Only the person is recorded here: the test plays Hark's replies back into
# this recording through a simulated room, as its microphone would hear them.
# interrupt.txt lists the segments (see ../segments.sh).
set -euo pipefail
cd "$(dirname "$0")"
rm -f ./*.wav ./*.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=../segments.sh
source ../segments.sh

# Appends a stretch of ../wake/real_wakes.wav (START to END seconds, as real_wakes.txt lists it).
real() { # stream start end recording text
  local stream=$1 file="$work/piece-$piece.wav"
  piece=$((piece + 1))
  sox ../wake/real_wakes.wav "$file" trim "$2" ="$3"
  local start end
  start=$(awk '{ s = $2 } END { printf "%.3f", s + 0 }' "$work/$stream.txt")
  end=$(awk -v s="$start" -v d="$(soxi -D "$file")" 'BEGIN { printf "%.3f", s + d }')
  printf '%s\t%s\twake\treal:%s\t%s\n' "$start" "$end" "$4" "$5" >> "$work/$stream.txt"
  echo "$file" >> "$work/$stream.list"
}

: > "$work/interrupt.txt"
segment interrupt silence 1.0
segment interrupt wake flite:rms "Jarvis, what time is it?"
segment interrupt silence 4.0
segment interrupt wake flite:rms "Jarvis"
segment interrupt silence 0.7
segment interrupt speech flite:rms "What can I say?"
segment interrupt silence 2.0
real interrupt 10.144 13.216 41601cb7 jarvis
segment interrupt speech flite:rms "What time is it?"
segment interrupt silence 5.0
segment interrupt wake flite:rms "Jarvis"
segment interrupt silence 0.7
segment interrupt speech flite:rms "What can I say?"
segment interrupt silence 2.0
real interrupt 5.572 8.644 4142863d jarvis
segment interrupt speech flite:rms "Stop."
segment interrupt silence 5.0
segment interrupt wake flite:rms "Jarvis, what time is it?"
segment interrupt silence 4.0
finish interrupt
