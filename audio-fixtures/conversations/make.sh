#!/usr/bin/env bash
# Regenerates the spoken conversations: each turn of three conversations of the
# bundled apps, spoken by a flite voice, as NAME.N.wav with NAME.N.txt saying
# what it says. Needs flite and sox (Debian packages of the same names).
set -euo pipefail
cd "$(dirname "$0")"
rm -f ./*.wav ./*.txt

# conversation|voice|turn;turn;...
conversations=(
  "soup|rms|order a bowl of tomato soup;delivery;the office;yes;one two three four"
  "meditation|rms|start meditation in serene;no;the first one"
  "grind|rms|order some ground coffee;yes;yes;one two three four"
)
for entry in "${conversations[@]}"; do
  IFS='|' read -r name voice turns <<<"$entry"
  IFS=';' read -r -a said <<<"$turns"
  for index in "${!said[@]}"; do
    out="$name.$((index + 1))"
    flite -voice "$voice" -t "${said[$index]}" -o "$out.raw.wav"
    # A little silence either side, as an endpointer would leave; 16 kHz mono.
    sox "$out.raw.wav" -r 16000 -c 1 "$out.wav" pad 0.3 0.3
    rm "$out.raw.wav"
    printf '%s\n' "${said[$index]}" > "$out.txt"
  done
done
