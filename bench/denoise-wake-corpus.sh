#!/bin/bash
# Copies make bench-wake's corpus through WebRTC's noise suppression (bench/webrtc-denoise.cc):
#
#   bench/denoise-wake-corpus.sh DENOISER FROM TO [LEVEL]
#
# Every positive is denoised after hearing its first second (the room before the speech) five
# times, as hark bench-wake warms its spotter up; every negative from its start. LEVEL 0-3,
# default 1 (moderate). Two files at a time; a file already in TO is kept.
set -euo pipefail
denoiser=$(realpath "$1") from=$(realpath "$2") to=$(realpath -m "$3") level=${4:-1}
[ -x "$denoiser" ] || { echo "denoise-wake-corpus: no denoiser at $denoiser" >&2; exit 1; }
[ -d "$from/positives" ] && [ -d "$from/negatives" ] || { echo "denoise-wake-corpus: $from is not a wake corpus (positives/, negatives/)" >&2; exit 1; }
# A copy of another version of the corpus is made again, not mixed into this one.
if [ -d "$to" ] && [ "$(cat "$from/corpus-version" 2>/dev/null)" != "$(cat "$to/corpus-version" 2>/dev/null)" ]; then
    echo "denoise-wake-corpus: $to holds another version of the corpus: making it again" >&2
    rm -rf "$to"
fi
denoise() {  # denoise IN OUT WARM_UP_SAMPLES
    [ -s "$2" ] && return 0
    mkdir -p "$(dirname "$2")"
    sox "$1" -t raw -r 16000 -e signed -b 16 -c 1 - \
        | "$denoiser" "$3" "$level" \
        | sox -t raw -r 16000 -e signed -b 16 -c 1 - -t wav "$2.part" \
        || { echo "denoise-wake-corpus: could not denoise $1" >&2; rm -f "$2.part"; return 1; }
    mv "$2.part" "$2"
}
export -f denoise; export denoiser level
total=$(find "$from/positives" "$from/negatives" -name '*.wav' | wc -l)
echo "denoising $total files of $from into $to (level $level)" >&2
{ cd "$from"
  find positives -name '*.wav' | sed "s|.*|& $to/& 16000|"
  find negatives -name '*.wav' | sed "s|.*|& $to/& 0|"
} | (cd "$from" && xargs -P 2 -L 1 bash -o pipefail -c 'denoise "$0" "$1" "$2"')
[ ! -e "$from/corpus-version" ] || cp "$from/corpus-version" "$to/corpus-version"
echo "done: $(find "$to" -name '*.wav' | wc -l) files" >&2
