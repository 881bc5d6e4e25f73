#!/usr/bin/env bash
# Regenerates the wake-word fixtures: streams of speech and silence in which the wake word
# "jarvis" is said a known number of times at known places, and a stream of speech that
# never says it. Each NAME.wav (16 kHz mono 16-bit) has a sidecar NAME.txt, one segment a
# line, tab-separated: start and end in seconds, kind (silence, wake or speech), voice, text.
# Needs espeak-ng, flite and sox (Debian packages of the same names).
set -euo pipefail
cd "$(dirname "$0")"
rm -f ./*.wav ./*.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=../segments.sh
source ../segments.sh

: > "$work/wake_sequence.txt"
segment wake_sequence silence 1.0
segment wake_sequence wake flite:awb "Jarvis"
segment wake_sequence silence 1.5
segment wake_sequence speech espeak:en-us "The weather was lovely this morning, so we walked to the market."
segment wake_sequence silence 1.0
segment wake_sequence wake flite:slt "Jarvis"
segment wake_sequence silence 0.6
segment wake_sequence speech flite:slt "Turn on the kitchen lights, please."
segment wake_sequence silence 2.0
segment wake_sequence speech espeak:en-gb "I think the train leaves at half past seven."
segment wake_sequence silence 0.8
segment wake_sequence wake flite:rms "Jarvis"
segment wake_sequence silence 1.5
segment wake_sequence wake flite:kal16 "Jarvis"
segment wake_sequence silence 1.2
segment wake_sequence speech flite:awb "Remind me to call my sister tomorrow."
segment wake_sequence silence 1.0
finish wake_sequence

: > "$work/no_wake.txt"
segment no_wake silence 0.5
segment no_wake speech espeak:en-us "Hark listens for its name and then for a request."
segment no_wake silence 1.0
segment no_wake speech flite:slt "What time does the service start on Sunday?"
segment no_wake silence 0.7
segment no_wake speech espeak:en-gb "Jars of jam and a jar of honey were on the shelf."
segment no_wake silence 1.0
segment no_wake speech flite:rms "Travis and Marvin carved a harvest of garlic."
segment no_wake silence 0.8
segment no_wake speech flite:awb "Set a timer for ten minutes and play some music."
segment no_wake silence 1.0
finish no_wake

echo "made $(ls ./*.wav | wc -l) recordings"
