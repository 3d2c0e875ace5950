# twintorus: the two commands a user needs are `make run` and `make test`.
SHELL := /usr/bin/env bash
GO ?= go
FUZZTIME ?= 2s
GOTESTFLAGS ?=
REVISION := $(shell git rev-parse --short HEAD 2>/dev/null)
LDFLAGS := -X github.com/twintorus/twintorus/internal/version.Revision=$(REVISION)

.PHONY: run test test-long setup kernel setup-browser setup-slurm build vet gotest fuzz notebooks reproduce bench pgo docfigures

## run: set up what is missing (saying so), then start Jupyter on notebooks/ and print its URL
run: setup
	scripts/jupyter.sh

## test: set up what the tests need (Jupyter, gonb, Chromium, Slurm, OTF2 and Open MPI) and run every test:
## vet and formatting, the Go tests (the Slurm and browser tests must run, not skip; the
## live notebook test opens every notebook in Jupyter in Chromium), the parsers' fuzz
## targets for a short time, and every notebook run in the live Jupyter in quick mode.
## At most 20 minutes on a quiet 2-core machine; BENCHMARKS.md has where the time goes.
test: setup setup-browser setup-slurm vet gotest fuzz notebooks
# make test's notebook step opens every notebook (notebooks.TestRunAllNotebooks), so its
# Go step need not (notebooks.StepFollowsEnv).
test: NOTEBOOK_STEP_FOLLOWS = TWINTORUS_NOTEBOOK_STEP_FOLLOWS=1

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
## is (scripts/gotest.sh says how). GOTESTFLAGS="--json DIR" keeps every package's
## events for tools/testtimes (BENCHMARKS.md's table).
# The notebook step's events go to DIR/notebook-step/ (GOTESTFLAGS="--json DIR"), beside the
# Go step's notebooks.json rather than over it.
NOTEBOOK_STEP_JSON = $(if $(filter --json,$(GOTESTFLAGS)),--json $(word 2,$(GOTESTFLAGS))/notebook-step)

gotest:
	TWINTORUS_SLURM_REQUIRED=1 TWINTORUS_BROWSER_REQUIRED=1 TWINTORUS_OTF2_REQUIRED=1 $(NOTEBOOK_STEP_FOLLOWS) GO=$(GO) scripts/gotest.sh $(GOTESTFLAGS)
	$(GO) test -count=1 -pgo=$(CURDIR)/cmd/twintorus/default.pgo -run='^TestGoldenResults$$' ./sim/engine/

## fuzz: every parser's fuzz target for FUZZTIME each, one after the other, with the
## executions per target at the end (scripts/fuzz.sh)
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

## notebooks: the notebook step of make test: open every notebook in the live Jupyter
## in Chromium and Run All in quick mode, two at a time (notebooks.TestRunAllNotebooks);
## fails on a cell error or a chart not drawn. scripts/run-notebooks.sh executes them
## headless instead (--inplace refreshes the committed outputs)
notebooks: setup setup-browser
	TWINTORUS_RUN_ALL_NOTEBOOKS=1 TWINTORUS_BROWSER_REQUIRED=1 GO=$(GO) scripts/gotest.sh $(NOTEBOOK_STEP_JSON) --budget 420 -count=1 -run='^TestRunAllNotebooks$$' ./notebooks/

## reproduce: the full runs of one stored experiment (NAME is a file of datasets/experiments/
## without .yaml, e.g. make reproduce NAME=3dt-configurations), resumable, into
## out/store-NAME, then its summary and saturation tables in out/; the notebooks read them
## with %env RECOMPUTE=1 (see datasets/results/README.md for how each stored file was made)
reproduce: build
	@test -n "$(NAME)" && test -f datasets/experiments/$(NAME).yaml || { \
		echo "usage: make reproduce NAME=<experiment>, one of:"; \
		ls datasets/experiments | sed 's/\.yaml$$//' | column -c 100; exit 2; }
	bin/twintorus sweep datasets/experiments/$(NAME).yaml --out out/store-$(NAME)
	bin/twintorus collect out/store-$(NAME) --summary out/$(NAME)-summary.csv --saturation out/$(NAME)-saturation.csv

## pgo: profile the engine's benchmarks into cmd/twintorus/default.pgo, the profile that
## go build compiles the twintorus command with (scripts/pgo.sh); after large engine changes
pgo:
	GO=$(GO) scripts/pgo.sh

## docfigures: redraw the README's and docs/figures' figures from the stored results
docfigures:
	$(GO) run ./tools/docfigures

## bench: the speed benchmarks recorded in BENCHMARKS.md, the engine's compiled as the
## twintorus command is (with its profile, cmd/twintorus/default.pgo)
bench:
	$(GO) test -pgo=$(CURDIR)/cmd/twintorus/default.pgo -run=NONE -bench='Torus8x8x8|Twin4x4x4' -benchtime=200x ./sim/engine/
	$(GO) test -run=NONE -bench=. ./sim/analysis/
