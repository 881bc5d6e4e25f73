#!/usr/bin/env bash
# Regenerates the barge-in fixture: a person who asks Hark something with a long answer and,
# while Hark is still answering, says the wake word and something else; then asks again and
# tells it to stop. Only the person is recorded here: the test plays Hark's replies back into
# this recording through a simulated room, as its microphone would hear them.
# interrupt.txt lists the segments (see ../segments.sh).
set -euo pipefail
cd "$(dirname "$0")"
rm -f ./*.wav ./*.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=../segments.sh
source ../segments.sh

: > "$work/interrupt.txt"
segment interrupt silence 1.0
segment interrupt wake flite:rms "Jarvis"
segment interrupt silence 0.7
segment interrupt speech flite:rms "What can I say?"
segment interrupt silence 3.0
segment interrupt wake flite:rms "Jarvis"
segment interrupt silence 0.7
segment interrupt speech flite:rms "What time is it?"
segment interrupt silence 5.0
segment interrupt wake flite:rms "Jarvis"
segment interrupt silence 0.7
segment interrupt speech flite:rms "What can I say?"
segment interrupt silence 3.0
segment interrupt wake flite:rms "Jarvis"
segment interrupt silence 0.7
segment interrupt speech flite:rms "Stop."
segment interrupt silence 5.0
finish interrupt
