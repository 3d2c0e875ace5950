# twintorus: the two commands a user needs are `make run` and `make test`.
SHELL := /usr/bin/env bash
GO ?= go
FUZZTIME ?= 15s

.PHONY: test run build vet fuzz gotest

## test: set up what the tests need and run every test
test: vet gotest fuzz

build:
	$(GO) build -o bin/twintorus ./cmd/twintorus

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	$(GO) vet ./...

gotest:
	$(GO) test ./...

## fuzz: run every parser's fuzz target for a short time
fuzz:
	$(GO) test -run=NONE -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./sim/topology/
