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

rate=16000
piece=0
# Appends one segment to the stream being built: silence SECONDS, or speech VOICE TEXT.
segment() { # stream kind voice-or-seconds [text]
  local stream=$1 kind=$2 file="$work/piece-$piece.wav"
  piece=$((piece + 1))
  if [ "$kind" = silence ]; then
    sox -n -r $rate -c 1 -b 16 "$file" trim 0 "$3"
    text=""
    voice="-"
  else
    voice=$3
    text=$4
    local engine=${voice%%:*} name=${voice#*:}
    if [ "$engine" = espeak ]; then
      espeak-ng -v "$name" -s 160 -w "$work/raw.wav" "$text"
    else
      flite -voice "$name" -t "$text" -o "$work/raw.wav"
    fi
    # Trim the synthesiser's own leading and trailing silence so the sidecar times are the word's.
    sox "$work/raw.wav" -r $rate -c 1 -b 16 "$file" silence 1 0.01 0.5% reverse silence 1 0.01 0.5% reverse
  fi
  local start end
  start=$(awk '{ s = $2 } END { printf "%.3f", s + 0 }' "$work/$stream.txt" 2>/dev/null || echo 0)
  end=$(awk -v s="$start" -v d="$(soxi -D "$file")" 'BEGIN { printf "%.3f", s + d }')
  printf '%s\t%s\t%s\t%s\t%s\n' "$start" "$end" "$kind" "$voice" "$text" >> "$work/$stream.txt"
  echo "$file" >> "$work/$stream.list"
}

finish() { # stream
  # shellcheck disable=SC2046
  sox $(cat "$work/$1.list") "$1.wav"
  cp "$work/$1.txt" "$1.txt"
}

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
