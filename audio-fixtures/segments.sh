# Builds streams of speech and silence from espeak-ng and flite voices, for the fixture
# scripts that source it (wake/make.sh, live/make.sh). Each stream NAME becomes NAME.wav
# (16 kHz mono 16-bit) and NAME.txt, one segment a line, tab-separated: start and end in
# seconds, kind, voice, text. The sourcing script sets `work` to a scratch folder first.
# Needs espeak-ng, flite and sox (Debian packages of the same names).

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

