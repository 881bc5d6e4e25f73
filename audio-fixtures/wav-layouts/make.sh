#!/bin/sh
# Regenerates the WAV layout fixtures with SoX (sox 14.4.2 on Debian 12). Each file is
# 25 ms of a 1 kHz sine at half scale (-6 dBFS), in every channel, without dither.
set -e
cd "$(dirname "$0")"
tone() { out=$1; shift; sox -D -n "$@" "$out" synth 0.025 sine 1000 vol 0.5; }
tone s16-mono-16000.wav        -r 16000 -c 1 -e signed -b 16
tone s16-stereo-44100.wav      -r 44100 -c 2 -e signed -b 16
tone u8-mono-8000.wav          -r 8000  -c 1 -e unsigned -b 8
tone s24-mono-48000.wav        -r 48000 -c 1 -e signed -b 24
tone s32-stereo-22050.wav      -r 22050 -c 2 -e signed -b 32
tone f32-mono-24000.wav        -r 24000 -c 1 -e float -b 32
tone f64-mono-16000.wav        -r 16000 -c 1 -e float -b 64
tone s16-6ch-48000.wav         -r 48000 -c 6 -e signed -b 16
tone ulaw-mono-8000.wav        -r 8000  -c 1 -e u-law
tone alaw-mono-8000.wav        -r 8000  -c 1 -e a-law
tone ima-adpcm-mono-8000.wav   -r 8000  -c 1 -e ima-adpcm
# Written to a pipe, so sox cannot seek back to fill in the sizes: the streamed layout.
sox -D -n -r 16000 -c 1 -e signed -b 16 -t wav - synth 0.025 sine 1000 vol 0.5 | cat > s16-mono-16000-streamed.wav
