# twintorus: the two commands a user needs are `make run` and `make test`.
SHELL := /usr/bin/env bash
GO ?= go
FUZZTIME ?= 15s
REVISION := $(shell git rev-parse --short HEAD 2>/dev/null)
LDFLAGS := -X github.com/twintorus/twintorus/internal/version.Revision=$(REVISION)

.PHONY: run test setup kernel setup-browser setup-slurm build vet gotest fuzz notebooks bench docfigures

## run: set up what is missing (saying so), then start Jupyter on notebooks/ and print its URL
run: setup
	scripts/jupyter.sh

## test: set up what the tests need (Jupyter, gonb, Chromium, Slurm) and run every test:
## vet and formatting, the Go tests (the Slurm and browser tests must run, not skip; the
## live notebook test drives Jupyter in Chromium), the parsers' fuzz targets for a short
## time, and every notebook headless in quick mode
test: setup setup-browser setup-slurm vet gotest fuzz notebooks

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

gotest:
	TWINTORUS_SLURM_REQUIRED=1 TWINTORUS_BROWSER_REQUIRED=1 $(GO) test -timeout 30m ./...

## fuzz: every parser's fuzz target for FUZZTIME each, one after the other, with the
## executions per target at the end (scripts/fuzz.sh)
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

## notebooks: execute every notebook headless in quick mode; fails on any cell error
notebooks: setup
	scripts/run-notebooks.sh

## docfigures: redraw the README's and docs/figures' figures from the stored results
docfigures:
	$(GO) run ./internal/docfigures

## bench: the speed benchmarks recorded in BENCHMARKS.md
bench:
	$(GO) test -run=NONE -bench='Torus8x8x8|Twin4x4x4' -benchtime=200x ./sim/engine/
	$(GO) test -run=NONE -bench=. ./sim/analysis/
