#!/usr/bin/env bash
# Regenerates the live-loop fixture: one recording of a person talking to Hark for a minute,
# as its microphone would hear it: wake words, requests (after a pause, and in one breath with
# the wake word), a question answered without the wake word, speech not meant for Hark, and a
# wake word with nothing after it. The pauses leave room for Hark's replies, which a live
# microphone does not hear (Hark ignores it while speaking).
# session.txt lists the segments (see ../segments.sh).
set -euo pipefail
cd "$(dirname "$0")"
rm -f ./*.wav ./*.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=../segments.sh
source ../segments.sh

: > "$work/session.txt"
segment session silence 1.5
segment session wake flite:rms "Jarvis"
segment session silence 0.7
segment session speech flite:rms "Turn on the garage light."
segment session silence 5.0
segment session speech espeak:en-us "The weather was lovely this morning, so we walked to the market."
segment session silence 1.5
segment session wake flite:rms "Jarvis, what time is it?"
segment session silence 5.0
segment session wake flite:rms "Jarvis"
segment session silence 0.6
segment session speech flite:rms "Start meditation in serene."
segment session silence 7.0
segment session speech flite:rms "Sleep."
segment session silence 6.0
segment session wake flite:rms "Jarvis"
segment session silence 9.0
segment session wake flite:awb "Jarvis"
segment session silence 0.7
segment session speech flite:awb "Turn off the bedroom light."
segment session silence 5.0
finish session
