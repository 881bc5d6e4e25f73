#!/bin/sh
# Makes an apps folder for measuring how grammar size costs speed and memory: OUT gets the
# apps of APPS plus a "music" app with a thousand two-word song names, three hundred artists,
# phrases with optional parts around both ("(play | put on | start | queue) [the song] <song>
# [by <artist>]") and three hundred fixed phrases: some three million sentences.
# The names are dictionary words chosen by position, so every run writes the same app.
# Usage: bench/make-large-apps.sh APPS OUT [DICTIONARY]
set -eu
if [ $# -lt 2 ]; then echo "usage: $0 APPS OUT [DICTIONARY]" >&2; exit 64; fi
apps=$1 out=$2
dictionary=${3:-/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict}
[ -d "$apps" ] || { echo "$0: no apps folder $apps" >&2; exit 66; }
[ -r "$dictionary" ] || { echo "$0: cannot read the dictionary $dictionary (apt-get install pocketsphinx-en-us)" >&2; exit 66; }
mkdir -p "$out/music"
for app in "$apps"/*/; do
    name=$(basename "$app")
    [ "$name" = music ] && continue
    rm -rf "${out:?}/$name"
    cp -R "$app" "$out/$name"
done

# Every 37th plain word of 4 to 8 letters: 1,600 words, from "aarhus" to the end of the alphabet.
words=$(mktemp)
trap 'rm -f "$words"' EXIT
awk 'NR % 37 == 0 && $1 ~ /^[a-z]+$/ && length($1) >= 4 && length($1) <= 8 { print $1 }' "$dictionary" \
    | head -n 1600 > "$words"
[ "$(wc -l < "$words")" -eq 1600 ] || { echo "$0: $dictionary has too few plain words" >&2; exit 65; }

awk '{ w[NR - 1] = $1 } END {
    print "# Made by bench/make-large-apps.sh: a large grammar for benchmarks, not an app to use."
    print "name: Music Library"
    print "description: A thousand songs, for measuring grammar size."
    print ""
    print "types:"
    print "  Song:"
    print "    values:"
    for (i = 0; i < 1000; i++) print "      - " w[i] " " w[(i * 7 + 3) % 1600]
    print "  Artist:"
    print "    values:"
    for (j = 0; j < 300; j++) print "      - " w[1000 + j]
    print ""
    print "intents:"
    print "  PlaySong:"
    print "    title: Play a song"
    print "    category: generic"
    print "    parameters:"
    print "      song:"
    print "        type: Song"
    print "        required: true"
    print "        prompt: Which song?"
    print "      artist:"
    print "        type: Artist"
    print "        required: false"
    print "    phrases:"
    print "      - (play | put on | start | queue) [the song] <song> [by <artist>]"
    print "      - i want to hear <song> [by <artist>]"
    print "      - listen to <song> [by <artist>]"
    print "    responses:"
    print "      success: Playing ${song}."
    print "  OpenShelf:"
    print "    title: Open a shelf"
    print "    category: generic"
    print "    phrases:"
    for (k = 0; k < 300; k++) print "      - show me the " w[1300 + k] " shelf"
    print "    responses:"
    print "      success: Here it is."
}' "$words" > "$out/music/app.yaml"
echo "wrote $out: the apps of $apps and a music app with 1000 songs, 300 artists and 300 fixed phrases"
