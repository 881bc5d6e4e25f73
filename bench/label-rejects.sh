#!/bin/sh
# Labels every WAV in SRC as speech Hark must reject, for `hark bench`: OUT gets a link to each
# recording and a sidecar whose intent is null. Used on the wake-word corpus: hundreds of real
# people saying "jarvis", a word no installed app's phrases contain.
# Usage: bench/label-rejects.sh SRC OUT [VOICE]
set -eu
if [ $# -lt 2 ]; then echo "usage: $0 SRC OUT [VOICE]" >&2; exit 64; fi
src=$1 out=$2 voice=${3:-}
[ -d "$src" ] || { echo "$0: no folder $src" >&2; exit 66; }
mkdir -p "$out"
src=$(cd "$src" && pwd)
count=0
for wav in "$src"/*.wav; do
    [ -e "$wav" ] || continue
    name=$(basename "$wav" .wav)
    ln -sf "$wav" "$out/$name.wav"
    if [ -n "$voice" ]; then
        printf '{"text": null, "intent": null, "voice": "%s"}\n' "$voice" > "$out/$name.json"
    else
        printf '{"text": null, "intent": null}\n' > "$out/$name.json"
    fi
    count=$((count + 1))
done
[ "$count" -gt 0 ] || { echo "$0: no WAV files in $src" >&2; exit 66; }
echo "labelled $count recordings in $out as speech to reject"
