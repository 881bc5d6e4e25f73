# Hark — the two commands a fresh Debian machine needs are `make run` and `make test`.
# Each installs the Debian packages it needs first (apt-get; run as root, or with sudo available).

SWIFT        ?= swift
BUILD_FLAGS  ?=
HARK          = .build/debug/hark
RELEASE_HARK  = .build/release/hark

# Libraries Hark builds against (SQLite for the shortcuts database), the model it listens with, python3 for the example
# messaging app's handler program, and tools the tests use (pip: the reference Wyoming client).
DEBIAN_BUILD_PACKAGES = pkg-config libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us \
                        libespeak-ng-dev espeak-ng-data libasound2-dev libasound2-plugins libsamplerate0-dev \
                        libspeexdsp-dev libwebrtc-audio-processing-dev libsqlite3-dev python3
DEBIAN_TEST_PACKAGES  = sox espeak-ng flite alsa-utils python3-pip dpkg-dev

APT_GET = $(if $(filter 0,$(shell id -u)),,sudo) apt-get
STAMP   = .build/.debian-packages

PREFIX  ?= /usr/local
DESTDIR ?=
SYSTEMD_DIR ?= /etc/systemd/system

.PHONY: run test wyoming-client build release check-release deb deb-test bench bench-ha bench-live bench-wake bench-wake-denoised bench-echo wake-corpus cxx-compiler bench-real bench-noise bench-noise-tune bench-turns bench-serve adapt soak soak-quick install uninstall deps clean help

help:
	@echo "make run    — start Hark on the microphone and speaker (installs what it needs)"
	@echo "make test   — build and run every test (installs what it needs)"
	@echo "make bench  — decode the development corpus and print accuracy, speed and memory"
	@echo "make corpus — synthesise the labelled recogniser corpus into bench-out/corpus (a few minutes)"
	@echo "make bench-corpus — decode that corpus clean and at 20, 10 and 5 dB SNR"
	@echo "make bench-real — real voices in real household noise, Hark beside plain pocketsphinx"
	@echo "make bench-noise — hearing in noise in under 15 minutes: requests and wake words per SNR, beside plain pocketsphinx"
	@echo "make bench-noise-tune — the tune speakers' requests in the same rooms, to choose a setting on (about 5 minutes)"
	@echo "make bench-turns — whole turns in noise: a wake word, then the request, as the live loop hears them (about 25 minutes)"
	@echo "make bench-serve — hark serve under load: 8 clients beside idle, hoarding and surplus ones; bad input; wake streams side by side"
	@echo "make bench-ha — Home Assistant's own sentences imported, typed requests understood as hassil understands them"
	@echo "make bench-wake — real wake words clean and at 10 dB against 10+ hours of speech that must not wake Hark, beside plain pocketsphinx"
	@echo "make bench-wake-denoised — the same with every recording through WebRTC's noise suppression, quiet rooms too"
	@echo "make bench-echo — wake words said while Hark speaks: quiet room, over its echo, echo cancelled"
	@echo "make adapt — estimate models/en-us.mllr (the acoustic adaptation) and models/en-us.noise-network (the noise compensation) from real voices the benchmarks do not measure"
	@echo "make soak — ten thousand requests in one process: memory at 1,000 and 10,000"
	@echo "make soak-quick — the same for 1,000 requests, for development"
	@echo "make check-release — build the release binary and check it needs no Swift toolchain to run"
	@echo "make deb — build dist/hark_VERSION_ARCH.deb (make deb-test installs, upgrades and purges it on a clean Debian 12)"
	@echo "make install — install hark, its apps and a systemd service (PREFIX=$(PREFIX))"

# Installs only what is missing, so repeated runs cost a dpkg query, not an apt-get.
deps:
	@missing=$$(for p in $(DEBIAN_BUILD_PACKAGES) $(DEBIAN_TEST_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "Installing Debian packages:" $$missing; \
	    $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

# Release builds link the Swift runtime and Foundation in, so the binary runs on a speaker
# without the Swift toolchain: only Debian's libraries are left to load.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib $(BUILD_FLAGS)

# Checks the release binary loads nothing from outside the system's folders (CI runs it).
check-release: release
	packaging/check-binary.sh $(RELEASE_HARK)

# Exit status 69 is Hark saying plainly that there is no sound card; it then listens to the
# recorded session in audio-fixtures/live instead, so the loop can still be seen at work.
run: build
	@$(HARK) listen --apps apps; status=$$?; \
	if [ $$status -eq 69 ]; then \
	    echo "Listening to the recorded session audio-fixtures/live/session.wav instead:"; \
	    $(HARK) listen --apps apps --input audio-fixtures/live/session.wav; \
	else exit $$status; fi

# The reference Wyoming client (the one Home Assistant uses) and Home Assistant's own matcher
# (hassil), peers for hark serve's interoperability tests.
# Debian's own python3 refuses pip installs into it unless told otherwise (PEP 668).
wyoming-client:
	@python3 -c 'import wyoming' 2>/dev/null || python3 -m pip install --quiet wyoming==1.10.0 \
	    || python3 -m pip install --quiet --break-system-packages wyoming==1.10.0
	@python3 -c 'import hassil' 2>/dev/null || python3 -m pip install --quiet hassil==3.13.1 \
	    || python3 -m pip install --quiet --break-system-packages hassil==3.13.1

# Two test processes at once, one per core, each running its tests one at a time
# (Tests/run-in-two.sh). In one process, tests that decode audio synchronously hold every
# thread of Swift's shared pool for minutes and starve the tests that wait on a server, a child
# process or a timer (run in parallel in one process, three such tests failed, one waiting 177 s
# for what takes half a second). Two processes: 7.5 minutes of tests instead of 14.7; with the
# audio modules optimised in debug builds too (Package.swift), about 4.5.
test: deps wyoming-client
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	SWIFT=$(SWIFT) Tests/run-in-two.sh $(BUILD_FLAGS)

# When and on what a benchmark measured, for the line above its figures in docs/benchmarks.md.
MEASURED = $(shell date -u +%F), commit $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)$(shell \
    git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo " with changes not committed"), \
    $(shell nproc) cores, release build
UPDATE_FIGURES = python3 bench/update-figures.py docs/benchmarks.md

# The development corpus lives beside the repository; the figures go to bench-out/. Real voices
# that must be rejected: the wake-word corpus's "jarvis" recordings, labelled as such.
CORPUS ?= ../shared/corpora/home-en
WAKE_CORPUS ?= ../shared/corpora/wake-jarvis
bench: release bench-live
	@mkdir -p bench-out
	@bench/label-rejects.sh $(WAKE_CORPUS) bench-out/reject-jarvis real:jarvis
	$(RELEASE_HARK) bench $(CORPUS) bench-out/reject-jarvis --apps apps --json bench-out/home-en.json
	$(RELEASE_HARK) bench $(CORPUS) --apps apps --input-rate 48000 --json bench-out/home-en-48k.json
	$(RELEASE_HARK) bench audio-fixtures/synthetic --apps apps --json bench-out/synthetic.json
	@echo "The same recordings with a music app of a thousand songs installed beside the others:"
	@bench/make-large-apps.sh apps bench-out/large-apps
	$(RELEASE_HARK) bench $(CORPUS) --apps bench-out/large-apps --json bench-out/home-en-large-apps.json

# The live loop on the recorded session: reply latency (end of speech to the first reply sample
# handed to the loudspeaker), then CPU and memory while waiting for the wake word, in real time.
bench-live: release
	@mkdir -p bench-out
	$(RELEASE_HARK) listen --apps apps --input audio-fixtures/live/session.wav --config packaging/hark.yaml
	$(RELEASE_HARK) listen --apps apps --input audio-fixtures/live/session.wav --config packaging/hark.yaml \
	    --json > bench-out/live.jsonl
	@echo "Idle: 19 s of speech without the wake word, at the pace of speech:"
	$(RELEASE_HARK) listen --apps apps --input audio-fixtures/wake/no_wake.wav --real-time --config packaging/hark.yaml

# What the wake-word benchmarks share: their corpus, made once into bench-out/wake
# (bench/make-wake-corpus.py, about a minute, 2.3 GB; again when its VERSION changes), and for
# the two that build a WebRTC tool of their own, a C++ compiler (Debian's
# libwebrtc-audio-processing-dev is a build package of Hark's own, installed by `deps`).
wake-corpus: deps
	@python3 -c 'import numpy' 2>/dev/null || python3 -m pip install --quiet numpy
	@[ -d bench-out/wake/negatives ] && $(call corpus_current,bench-out/wake,bench/make-wake-corpus.py) \
		|| python3 bench/make-wake-corpus.py $(SHARED_CORPORA) bench-out/wake

cxx-compiler:
	@command -v g++ >/dev/null || DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq g++ >/dev/null

# WebRTC's noise suppression over raw audio (bench/webrtc-denoise.cc), for the benchmarks and
# bench/estimate-noise-compensation.py --denoise; never part of Hark itself.
WEBRTC_DENOISE = .build/webrtc-denoise
$(WEBRTC_DENOISE): bench/webrtc-denoise.cc | deps cxx-compiler
	@mkdir -p .build
	g++ -O2 -o $@ bench/webrtc-denoise.cc $$(pkg-config --cflags --libs webrtc-audio-processing)

# Wake word: real people saying "jarvis", "athena", "amelia" and "hey chatterbox", clean and in real household
# noise at 10 dB, against over 10 hours of real speech that must not wake Hark, Hark beside plain
# pocketsphinx's keyword search with its defaults, heard in the same run (--baseline). The
# benchmark takes about 100 minutes on two cores (some 200 CPU-minutes), and the baseline a little more.
bench-wake: release wake-corpus
	$(RELEASE_HARK) bench-wake --corpus bench-out/wake --phrases jarvis athena amelia hey-chatterbox --baseline --json bench-out/wake.json \
	    --markdown bench-out/wake.md
	$(UPDATE_FIGURES) bench-wake bench-out/wake.md --measured "$(MEASURED)"

# The same benchmark with every recording through WebRTC's noise suppression first (moderate, with
# its high-pass filter; bench/webrtc-denoise.cc, built here only), heard by a spotter that never
# suppresses noise itself (the spotter does only while the room is loud): what always suppressing
# would give. The denoised corpus is made into bench-out/wake-denoised (a few minutes the first
# time; files already there are kept).
bench-wake-denoised: release wake-corpus $(WEBRTC_DENOISE)
	bench/denoise-wake-corpus.sh $(WEBRTC_DENOISE) bench-out/wake bench-out/wake-denoised
	$(RELEASE_HARK) bench-wake --corpus bench-out/wake-denoised --phrases jarvis athena amelia hey-chatterbox \
	    --denoise-above none --json bench-out/wake-denoised.json

# Wake words said while Hark speaks (the issue of barge-in): the test recordings of "jarvis" from
# make bench-wake's corpus, each 3 s into Hark's reply coming back through a simulated room, heard
# in a quiet room, over the echo, as the loop hears while speaking (Hark's canceller and its
# own-voice check) and through WebRTC's canceller for comparison (bench/webrtc-aec.cc, built here
# only); then an hour of Hark's own replies naming the wake word and an hour not naming it; then
# the same recordings with real household noise going on throughout, 10 dB below the person (the
# stretches no model learns from, bench/noise-stretches.py).
bench-echo: release wake-corpus cxx-compiler
	g++ -O2 -o .build/webrtc-aec bench/webrtc-aec.cc $$(pkg-config --cflags --libs webrtc-audio-processing)
	python3 bench/noise-stretches.py $(SHARED_CORPORA) bench-out/noise-stretches
	$(RELEASE_HARK) bench-echo bench-out/wake/positives/jarvis/clean --count 100 --external-canceller .build/webrtc-aec \
	    --own-voice-minutes 60
	$(RELEASE_HARK) bench-echo bench-out/wake/positives/jarvis/clean --count 100 --noise-snr 10 \
	    $$(sed 's/^/--noise /' bench-out/noise-stretches/noises.txt)

# Recogniser corpus: the home-en sentences, sentences drawn from the apps' phrases and speech to
# reject, in many synthetic voices, clean and at 20, 10 and 5 dB SNR, and the real home-en
# recordings in the same noises (bench/make-corpus.sh; it uses festival's English voices,
# installed here when missing). bench-corpus makes it if absent.
.PHONY: corpus bench-corpus
CORPUS_FESTIVAL_PACKAGES = festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts
corpus: release
	@missing=$$(for p in $(CORPUS_FESTIVAL_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "Installing Debian packages:" $$missing; \
	    $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq $$missing >/dev/null; \
	fi
	HARK=$(RELEASE_HARK) bench/make-corpus.sh bench-out/corpus

bench-corpus: release
	@[ -d bench-out/corpus/clean ] && [ -d bench-out/corpus/real-snr10 ] || $(MAKE) --no-print-directory corpus
	$(RELEASE_HARK) bench bench-out/corpus/clean --apps apps --json bench-out/corpus-clean.json
	$(RELEASE_HARK) bench bench-out/corpus/snr20 --apps apps --json bench-out/corpus-snr20.json
	$(RELEASE_HARK) bench bench-out/corpus/snr10 --apps apps --json bench-out/corpus-snr10.json
	$(RELEASE_HARK) bench bench-out/corpus/snr5 --apps apps --json bench-out/corpus-snr5.json
	$(RELEASE_HARK) bench bench-out/corpus/real-snr20 bench-out/corpus/real-snr10 bench-out/corpus/real-snr5 \
	    --apps apps --json bench-out/corpus-real.json

# Real voices in real noise (bench/make-real-corpus.py: home-en, spoken digits, names said alone,
# and real speech that must be rejected, clean and with household noise at 20, 10, 5 and 0 dB,
# and with a click at the start), decoded by Hark and, beside it in the same run, by plain
# pocketsphinx with the same grammar and its default settings. The corpus is made once into
# bench-out/real (again when bench/make-real-corpus.py's VERSION changes).
SHARED_CORPORA ?= ../shared/corpora
# True when the corpus folder $(1) was made by the script $(2) as it is now: its corpus-version
# file says the script's VERSION.
corpus_current = [ "$$(cat $(1)/corpus-version 2>/dev/null)" = "$$(sed -n 's/^VERSION = "\(.*\)"$$/\1/p' $(2))" ]
REAL_CONDITIONS = clean snr20 snr10 snr05 snr00 snr20-click
bench-real: release
	@python3 -c 'import numpy' 2>/dev/null || python3 -m pip install --quiet numpy
	@[ -d bench-out/real/apps/phone ] && $(call corpus_current,bench-out/real,bench/make-real-corpus.py) \
		|| python3 bench/make-real-corpus.py $(SHARED_CORPORA) bench-out/real
	$(RELEASE_HARK) bench $(addprefix bench-out/real/,$(REAL_CONDITIONS)) --apps bench-out/real/apps --baseline \
	    --json bench-out/real.json --markdown bench-out/real.md
	$(UPDATE_FIGURES) bench-real bench-out/real.md --measured "$(MEASURED), corpus version $$(cat bench-out/real/corpus-version)"

# The measuring loop for hearing in noise, under 15 minutes on two cores: a stratified subset of
# the test side of bench-real's and bench-wake's real voices (bench/make-noise-corpus.py, made
# once into bench-out/noise, about 2 minutes), clean and in real household noise at 20, 10, 5 and
# 0 dB, with 5 s of the noisy room before every request and wake word, as a microphone in that
# room hears it: requests are cut by the live loop's endpointer. Per SNR, Hark beside plain
# pocketsphinx in the same run: commands carried out right, wrong actions, rejections, false
# acceptances, wake words missed and false wakes per 10 hours (bench/run-bench-noise.sh;
# reports in bench-out/noise-report). False wakes come from 3 minutes of speech per condition.
# make bench-real and make bench-wake confirm a change on every recording.
bench-noise: release
	@python3 -c 'import numpy' 2>/dev/null || python3 -m pip install --quiet numpy
	@$(call corpus_current,bench-out/noise,bench/make-noise-corpus.py) \
		|| python3 bench/make-noise-corpus.py $(SHARED_CORPORA) bench-out/noise
	bench/run-bench-noise.sh $(RELEASE_HARK) bench-out/noise bench-out/noise-report
	$(UPDATE_FIGURES) bench-noise bench-out/noise-report/table.md --measured "$(MEASURED), corpus version $$(cat bench-out/noise/corpus-version)"

# The tune speakers' requests in bench-noise's rooms (bench/make-noise-corpus.py --split tune
# --requests-only; home-en has no tune side): what a setting of the request stages is chosen on
# before make bench-noise reports it on the test speakers. Hark alone; then the outcomes per
# condition as bench/noisy-reaches.py judges them (pass it --try to weigh other reaches).
bench-noise-tune: release
	@python3 -c 'import numpy' 2>/dev/null || python3 -m pip install --quiet numpy
	@$(call corpus_current,bench-out/noise-tune,bench/make-noise-corpus.py) \
		|| python3 bench/make-noise-corpus.py $(SHARED_CORPORA) bench-out/noise-tune --split tune --requests-only
	$(RELEASE_HARK) bench $(addprefix bench-out/noise-tune/requests/,clean snr20 snr10 snr05 snr00) --apps bench-out/noise-tune/apps \
	    --json bench-out/noise-tune-report.json > bench-out/noise-tune-report.log
	python3 bench/noisy-reaches.py bench-out/noise-tune-report.json bench-out/noise-tune/requests

# Whole turns in noise: bench-noise's requests, each said after a test speaker's "jarvis", the
# wake word found by the spotter as the live loop finds it (tentative wake words included)
# before the request is cut. About 25 minutes on one core: run it in the background.
bench-turns: release
	@python3 -c 'import numpy' 2>/dev/null || python3 -m pip install --quiet numpy
	@$(call corpus_current,bench-out/noise,bench/make-noise-corpus.py) \
		|| python3 bench/make-noise-corpus.py $(SHARED_CORPORA) bench-out/noise
	$(RELEASE_HARK) bench $(addprefix bench-out/noise/turns/,clean snr20 snr10 snr05 snr00) --apps bench-out/noise/apps \
	    --spot-wake --json bench-out/turns.json

# Home Assistant's own English sentences (the home-assistant-intents package) imported with a
# home of 288 entities, and typed requests drawn from them understood as Home Assistant's own
# matcher (hassil, a peer here only) understands them: right, missed and wrong, per intent; then
# the real home-en recordings, labelled by hassil, decoded against that home beside plain
# pocketsphinx (about 3 minutes more: plain pocketsphinx takes 1.5 times real time on it).
HA_SPOKEN ?= 0
bench-ha: release wyoming-client
	@python3 -c 'import hassil, home_assistant_intents' 2>/dev/null \
	    || python3 -m pip install --quiet hassil==3.13.1 home-assistant-intents==2026.12.1 \
	    || python3 -m pip install --quiet --break-system-packages hassil==3.13.1 home-assistant-intents==2026.12.1
	@mkdir -p bench-out/ha
	python3 bench/bench-ha.py --hark $(RELEASE_HARK) --home bench/ha-home.yaml --out bench-out/ha --json bench-out/ha/report.json \
	    --spoken $(HA_SPOKEN) --markdown bench-out/ha/table.md --recordings $(SHARED_CORPORA)/home-en
	$(UPDATE_FIGURES) bench-ha bench-out/ha/table.md --measured "$(MEASURED), home-assistant-intents $$(python3 -c 'import importlib.metadata as m; print(m.version("home-assistant-intents"))'), hassil $$(python3 -c 'import importlib.metadata as m; print(m.version("hassil"))')"

# hark serve under load: 8 reference Wyoming clients streaming real recordings at the pace of speech
# and holding conversations for 2 minutes, then every kind of malformed input (bench/serve-load.py).
bench-serve: release wyoming-client
	python3 bench/serve-load.py --hark $(RELEASE_HARK) --apps apps --clients 8 --seconds 120
	python3 bench/serve-wake.py --hark $(RELEASE_HARK) --streams 1,2,4,8 --sessions 1000

# The acoustic adaptation Hark ships (models/en-us.mllr): a global MLLR transform of Debian's en-us
# model estimated with sphinxtrain on real voices in real household noise, from speakers and
# recordings the benchmarks never measure on (bench/make-adapt-corpus.py). make bench-real judges
# it on the others, beside plain pocketsphinx; `hark bench --acoustic-adaptation none` without it.
# The noise compensation (models/en-us.noise-network) is learnt from the same speech and the tune
# side's wake phrases, clean and in noise.
ADAPT_PACKAGES = sphinxtrain sphinxbase-utils pocketsphinx python3-numpy sox
adapt:
	@missing=$$(for p in $(ADAPT_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "Installing Debian packages:" $$missing; \
	    $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq $$missing >/dev/null; \
	fi
	python3 bench/make-adapt-corpus.py $(SHARED_CORPORA) bench-out/adapt
	bench/estimate-mllr.sh models/en-us.mllr bench-out/adapt/wideband
	python3 bench/estimate-noise-network.py $(SHARED_CORPORA) models/en-us.noise-network

# Ten thousand requests answered in one process (the committed recordings, over and over: decoded,
# carried out, answered in speech, donated to a scratch database), with memory at 1,000 and 10,000.
soak: release
	@mkdir -p bench-out
	$(RELEASE_HARK) bench-soak audio-fixtures/home-en audio-fixtures/synthetic --apps apps \
	    --utterances 10000 --checkpoints 100,1000,5000 --json bench-out/soak.json

# The same for 1,000 requests, for development: a leak shows between its checkpoints too.
soak-quick: release
	@mkdir -p bench-out
	$(RELEASE_HARK) bench-soak audio-fixtures/home-en audio-fixtures/synthetic --apps apps \
	    --utterances 1000 --checkpoints 100,500 --json bench-out/soak-quick.json

# Installs hark, the bundled apps and models, a settings file (kept if one exists), the folder
# for the owner's apps (/etc/hark/apps: loaded beside the bundled apps, never emptied) and the
# systemd unit. DESTDIR stages into a folder instead (for packaging).
install: release
	install -D -m 755 $(RELEASE_HARK) $(DESTDIR)$(PREFIX)/bin/hark
	mkdir -p $(DESTDIR)$(PREFIX)/share/hark
	rm -rf $(DESTDIR)$(PREFIX)/share/hark/apps $(DESTDIR)$(PREFIX)/share/hark/models $(DESTDIR)$(PREFIX)/share/hark/docs
	cp -R apps models README.md docs $(DESTDIR)$(PREFIX)/share/hark/
	@if [ -e $(DESTDIR)/etc/hark/hark.yaml ]; then echo "kept $(DESTDIR)/etc/hark/hark.yaml"; \
	else install -D -m 644 packaging/hark.yaml $(DESTDIR)/etc/hark/hark.yaml; fi
	install -d $(DESTDIR)/etc/hark/apps
	mkdir -p $(DESTDIR)$(SYSTEMD_DIR)
	sed 's|@PREFIX@|$(PREFIX)|g' packaging/hark.service > $(DESTDIR)$(SYSTEMD_DIR)/hark.service
	@if [ -z "$(DESTDIR)" ] && ! id hark >/dev/null 2>&1; then \
	    useradd --system --home-dir /var/lib/hark --create-home --shell /usr/sbin/nologin --groups audio hark; fi
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
	@echo "Installed. Start it now and at every boot with: systemctl enable --now hark"

# The Debian package (dist/hark_VERSION_ARCH.deb), and its install test on a clean Debian 12
# made with debootstrap (root, the archive, about 5 minutes the first time; not run by CI).
VERSION ?= 0.1.0
deb: release
	@command -v lintian >/dev/null && command -v help2man >/dev/null && command -v dpkg-shlibdeps >/dev/null \
	    || $(APT_GET) install -y -qq lintian help2man dpkg-dev >/dev/null
	packaging/make-deb.sh $(VERSION) dist
	lintian --suppress-tags-from-file packaging/lintian-suppressed dist/hark_$(VERSION)_$$(dpkg --print-architecture).deb

deb-test: deb
	packaging/make-deb.sh $(VERSION)+upgrade dist
	@command -v debootstrap >/dev/null || $(APT_GET) install -y -qq debootstrap >/dev/null
	packaging/deb-test.sh dist/hark_$(VERSION)_$$(dpkg --print-architecture).deb \
	    dist/hark_$(VERSION)+upgrade_$$(dpkg --print-architecture).deb

uninstall:
	-@[ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ] && systemctl disable --now hark 2>/dev/null; true
	rm -f $(DESTDIR)$(PREFIX)/bin/hark $(DESTDIR)$(SYSTEMD_DIR)/hark.service
	rm -rf $(DESTDIR)$(PREFIX)/share/hark
	@echo "Left /etc/hark, /var/lib/hark and the hark user in place."

clean:
	rm -rf .build
