#!/usr/bin/env bash
# Makes negative audio for the wake-word benchmark: speech that never says "jarvis".
#
#   bench/make-negatives.sh OUTDIR [MINUTES]
#
# Writes 16 kHz mono 16-bit WAV files into OUTDIR until they add up to MINUTES of
# audio (default 180): varied text read sentence by sentence by twelve espeak-ng and
# flite voices at several speaking rates, a third of it with white or brown noise mixed
# in at 10-20 dB SNR, plus the home-en recordings clean and in noise. Every sentence
# containing "jarvis" (any case) is left out. The output is generated and large: it is
# not committed.
#
# Text: the seed documents (SEEDS, default ../shared/seeds beside the repository) and the
# licence texts in /usr/share/common-licenses. Recordings: HOME_EN (default
# ../shared/corpora/home-en). Missing sources are skipped with a note.
# Needs espeak-ng, flite and sox (Debian packages of the same names).
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 OUTDIR [MINUTES]" >&2
  exit 64
fi
out=$1
minutes=${2:-180}
repo=$(cd "$(dirname "$0")/.." && pwd)
seeds=${SEEDS:-$repo/../shared/seeds}
home_en=${HOME_EN:-$repo/../shared/corpora/home-en}
for tool in espeak-ng flite sox soxi; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is missing (apt-get install espeak-ng flite sox)" >&2; exit 69; }
done
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Plain sentences, one a line: front matter, markup, links and very short lines removed.
sentences="$work/sentences.txt"
{
  if [ -d "$seeds" ]; then
    for file in "$seeds"/*; do
      # Drop the YAML front matter between the first two '---' lines.
      awk 'NR == 1 && /^---$/ { skip = 1; next } skip && /^---$/ { skip = 0; next } !skip' "$file"
    done
  else
    echo "note: no seeds at $seeds; using the licence texts only" >&2
  fi
  for licence in GPL-3 Apache-2.0 MPL-2.0 GFDL-1.3 LGPL-3 Artistic BSD; do
    [ -f "/usr/share/common-licenses/$licence" ] && cat "/usr/share/common-licenses/$licence"
  done
} | sed -E 's/!?\[([^]]*)\]\([^)]*\)/\1/g; s/https?:[^ )]*//g; s/[*#>`|_]+/ /g' \
  | tr '\n' ' ' | sed -E 's/([.!?;:]) +/\1\n/g' \
  | sed -E 's/^ +//; s/ +/ /g' \
  | grep -iv 'jarvis' \
  | awk 'NF >= 4 && NF <= 60' > "$sentences"
echo "$(wc -l < "$sentences") sentences of text" >&2

voices=(espeak:en-us espeak:en-gb espeak:en-us+f3 espeak:en-us+m3 espeak:en-gb-scotland espeak:en-029
        espeak:en-us-nyc espeak:en-gb-x-rp flite:slt flite:rms flite:awb flite:kal16)
rates=(150 165 180 140 195)

speak() { # voice rate text-file out.wav
  local engine=${1%%:*} voice=${1#*:}
  if [ "$engine" = espeak ]; then
    espeak-ng -v "$voice" -s "$2" -f "$3" -w "$work/raw.wav"
  else
    flite -voice "$voice" -f "$3" -o "$work/raw.wav"
  fi
  sox -G "$work/raw.wav" -r 16000 -c 1 -b 16 "$4"
}

rms() { sox "$1" -n stat 2>&1 | awk '/RMS +amplitude/ { print $3 }'; }

# Mixes white or brown noise into $1 at $3 dB SNR (by whole-file RMS), writing $4.
add_noise() { # in.wav kind snr out.wav
  local seconds speech noise gain
  seconds=$(soxi -D "$1")
  sox -n -r 16000 -c 1 -b 16 "$work/noise.wav" synth "$seconds" "$2"noise
  speech=$(rms "$1")
  noise=$(rms "$work/noise.wav")
  gain=$(awk -v s="$speech" -v n="$noise" -v snr="$3" 'BEGIN { printf "%.6f", (s / 10 ^ (snr / 20)) / n }')
  sox -G -m -v 1 "$1" -v "$gain" "$work/noise.wav" "$4"
}

total=0
index=0
target=$((minutes * 60))
snrs=(10 15 20)
noises=(white brown)
while [ "$total" -lt "$target" ]; do
  # Twelve sentences a file, starting where the last file stopped, wrapping around.
  lines=$(wc -l < "$sentences")
  start=$(( (index * 12) % lines + 1 ))
  sed -n "${start},$((start + 11))p" "$sentences" > "$work/text.txt"
  voice=${voices[$((index % ${#voices[@]}))]}
  rate=${rates[$((index / ${#voices[@]} % ${#rates[@]}))]}
  tag=$(echo "${voice#*:}" | tr -c 'a-z0-9\n' '-')
  name=$(printf 'speech-%04d.%s' "$index" "$tag")
  speak "$voice" "$rate" "$work/text.txt" "$work/clean.wav"
  case $((index % 3)) in
    0) mv "$work/clean.wav" "$out/$name.wav" ;;
    *) kind=${noises[$((index % 2))]}; snr=${snrs[$((index % 3))]}
       add_noise "$work/clean.wav" "$kind" "$snr" "$out/$name.$kind-${snr}dB.wav" ;;
  esac
  total=$(( total + $(soxi -D "$out"/"$name"*.wav | awk '{ printf "%d", $1 }') ))
  index=$((index + 1))
done

if [ -d "$home_en" ]; then
  for file in "$home_en"/*.wav; do
    base=$(basename "$file" .wav)
    sox -G "$file" -r 16000 -c 1 -b 16 "$out/home-en.$base.wav"
    add_noise "$out/home-en.$base.wav" white 15 "$out/home-en.$base.white-15dB.wav"
    add_noise "$out/home-en.$base.wav" brown 10 "$out/home-en.$base.brown-10dB.wav"
  done
else
  echo "note: no home-en recordings at $home_en" >&2
fi

seconds=$(soxi -D "$out"/*.wav | awk '{ s += $1 } END { printf "%.0f", s }')
echo "wrote $(ls "$out"/*.wav | wc -l) files, $((seconds / 60)) minutes of audio, to $out" >&2
