# twintorus: the two commands a user needs are `make run` and `make test`.
SHELL := /usr/bin/env bash
GO ?= go
FUZZTIME ?= 4s
REVISION := $(shell git rev-parse --short HEAD 2>/dev/null)
LDFLAGS := -X github.com/twintorus/twintorus/internal/version.Revision=$(REVISION)

.PHONY: run test test-long setup kernel setup-browser setup-slurm build vet gotest fuzz notebooks bench pgo docfigures

## run: set up what is missing (saying so), then start Jupyter on notebooks/ and print its URL
run: setup
	scripts/jupyter.sh

## test: set up what the tests need (Jupyter, gonb, Chromium, Slurm) and run every test:
## vet and formatting, the Go tests (the Slurm and browser tests must run, not skip; the
## live notebook test opens every notebook in Jupyter in Chromium and runs it all in
## quick mode), and the parsers' fuzz targets for a short time. About 15 minutes on a
## quiet 2-core machine; BENCHMARKS.md has where the time goes.
test: setup setup-browser setup-slurm vet gotest fuzz

## test-long: make test with the acceptance runs at full length (TWINTORUS_LONG=1: the
## no-deadlock runs of 100,000 cycles and every selection function on the 512-PE 5DT
## torus) and the fuzz targets for a minute each; an hour or two of CPU
test-long: export TWINTORUS_LONG = 1
test-long: FUZZTIME = 60s
test-long: test

## setup: Debian's Jupyter, the module's dependencies, gonb, goimports, gopls and twintorus
## in bin/, the "Go (twintorus)" kernelspec, and the shipped notebooks signed as trusted
setup:
	scripts/setup.sh

## kernel: only the kernel (gonb, goimports, gopls, kernelspec, trust), for a Jupyter you already have
kernel:
	scripts/setup.sh --kernel-only

setup-browser:
	scripts/setup-browser.sh

setup-slurm:
	scripts/setup-slurm.sh

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/twintorus ./cmd/twintorus

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	$(GO) vet ./...

## gotest also runs the engine's golden results compiled with the twintorus command's
## profile (cmd/twintorus/default.pgo): profile-guided optimisation must not change them
## Each package runs under a timeout from its budget, scaled by how busy the machine
## is (scripts/gotest.sh says how).
gotest:
	TWINTORUS_SLURM_REQUIRED=1 TWINTORUS_BROWSER_REQUIRED=1 GO=$(GO) scripts/gotest.sh
	$(GO) test -count=1 -pgo=$(CURDIR)/cmd/twintorus/default.pgo -run='^TestGoldenResults$$' ./sim/engine/

## fuzz: every parser's fuzz target for FUZZTIME each, one after the other, with the
## executions per target at the end (scripts/fuzz.sh)
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

## notebooks: execute every notebook headless (nbconvert) in quick mode, into a
## temporary directory; fails on any cell error. make test runs them in the live
## Jupyter instead (notebooks/live_test.go); QUICK=0 make notebooks runs the stored mode
notebooks: setup
	scripts/run-notebooks.sh

## pgo: profile the engine's benchmarks into cmd/twintorus/default.pgo, the profile that
## go build compiles the twintorus command with (scripts/pgo.sh); after large engine changes
pgo:
	GO=$(GO) scripts/pgo.sh

## docfigures: redraw the README's and docs/figures' figures from the stored results
docfigures:
	$(GO) run ./internal/docfigures

## bench: the speed benchmarks recorded in BENCHMARKS.md, the engine's compiled as the
## twintorus command is (with its profile, cmd/twintorus/default.pgo)
bench:
	$(GO) test -pgo=$(CURDIR)/cmd/twintorus/default.pgo -run=NONE -bench='Torus8x8x8|Twin4x4x4' -benchtime=200x ./sim/engine/
	$(GO) test -run=NONE -bench=. ./sim/analysis/
