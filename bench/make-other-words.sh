#!/usr/bin/env bash
# Writes the list of common English words the recogniser can search beside a grammar
# (models/other-words.txt; `--other-words`): the most probable words of the general language
# model Debian's pocketsphinx-en-us ships (en-us.lm.bin, by unigram probability), those its
# dictionary pronounces, one a line.
#
#   bench/make-other-words.sh [COUNT] > models/other-words.txt
#
# COUNT defaults to 500: on make bench-real's quiet-room recordings 50, 100 and 200 words
# rejected far less of the speech that must be rejected (see README.md). The same list comes
# out on every run. Needs sphinxbase-utils (sphinx_lm_convert).
set -euo pipefail

count=${1:-500}
[[ "$count" =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [COUNT] (a number of words, e.g. 500)" >&2; exit 64; }
model=${MODEL_DIR:-/usr/share/pocketsphinx/model/en-us}
command -v sphinx_lm_convert >/dev/null || { echo "$0: missing sphinx_lm_convert: apt-get install sphinxbase-utils" >&2; exit 69; }
[ -r "$model/en-us.lm.bin" ] && [ -r "$model/cmudict-en-us.dict" ] || { echo "$0: no en-us model in $model" >&2; exit 66; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# This sphinxbase's converter fails an assertion while writing this model's bigrams, and what
# it had not flushed is lost: the unigrams come out in alphabetical order but for the last
# hundred or so (those after "zim", none of them a common word). So its status says nothing,
# and the unigrams are checked instead: nearly all there, the last of them a "z" word.
exec 3>&2 2>/dev/null  # and bash's own report of the abort
sphinx_lm_convert -i "$model/en-us.lm.bin" -o "$work/lm.arpa" -ofmt arpa >/dev/null 2>&1 || true
exec 2>&3 3>&-
expected=$(awk -F= '/^ngram 1=/ { print $2; exit }' "$work/lm.arpa" 2>/dev/null || true)
awk '/^\\1-grams:/ { on = 1; next } /^\\2-grams:/ { exit } on && NF >= 2 { print $1, $2 }' "$work/lm.arpa" > "$work/unigrams"
read -r found _ < <(wc -l "$work/unigrams")
last=$(tail -n 1 "$work/unigrams" | cut -d' ' -f2)
if [ -z "$expected" ] || [ "$found" -lt $((expected - 500)) ] || [ "${last:0:1}" != z ]; then
  echo "$0: could not read the unigrams of $model/en-us.lm.bin (${found:-0} of ${expected:-?}, the last \"$last\")" >&2
  exit 70
fi
cut -d' ' -f1 "$model/cmudict-en-us.dict" | grep -v '(' | sort -u > "$work/pronounced"
echo "# The $count most probable words of Debian's en-us.lm.bin that cmudict-en-us.dict pronounces."
echo "# Made by bench/make-other-words.sh $count; see RecognizerConfiguration.otherWords."
sort -s -k1,1 -g -r "$work/unigrams" | awk '{ print $2 }' | grep -E "^[a-z][a-z']*$" \
  | awk 'NR == FNR { known[$1] = 1; next } ($1 in known)' "$work/pronounced" - | awk -v count="$count" 'NR <= count'
