# Hark — the two commands a fresh Debian machine needs are `make run` and `make test`.
# Each installs the Debian packages it needs first (apt-get; run as root, or with sudo available).

SWIFT        ?= swift
BUILD_FLAGS  ?=
HARK          = .build/debug/hark
RELEASE_HARK  = .build/release/hark

# Libraries Hark builds against (SQLite for the shortcuts database), the model it listens with, python3 for the example
# messaging app's handler program, and tools the tests use.
DEBIAN_BUILD_PACKAGES = pkg-config libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us \
                        libespeak-ng-dev espeak-ng-data libasound2-dev libasound2-plugins libsamplerate0-dev \
                        libsqlite3-dev python3
DEBIAN_TEST_PACKAGES  = sox espeak-ng flite alsa-utils

APT_GET = $(if $(filter 0,$(shell id -u)),,sudo) apt-get
STAMP   = .build/.debian-packages

.PHONY: run test build release bench deps clean help

help:
	@echo "make run    — start Hark on the microphone and speaker (installs what it needs)"
	@echo "make test   — build and run every test (installs what it needs)"
	@echo "make bench  — decode the development corpus and print accuracy, speed and memory"

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

release: deps
	$(SWIFT) build -c release $(BUILD_FLAGS)

# Exit status 69 is Hark saying plainly that there is no sound card; that is not a build failure.
run: build
	@$(HARK) listen --apps apps; status=$$?; [ $$status -eq 0 ] || [ $$status -eq 69 ] || exit $$status

test: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS)

# The development corpus lives beside the repository; the figures go to bench-out/.
CORPUS ?= ../shared/corpora/home-en
bench: release
	@mkdir -p bench-out
	$(RELEASE_HARK) bench $(CORPUS) --apps apps --json bench-out/home-en.json
	$(RELEASE_HARK) bench $(CORPUS) --apps apps --input-rate 48000 --json bench-out/home-en-48k.json
	$(RELEASE_HARK) bench audio-fixtures/synthetic --apps apps --json bench-out/synthetic.json

clean:
	rm -rf .build
