# rmacheck: build, check the corpus, test.
#   make          build bin/rmacheck, check every .lit file of the corpus and run it
#   make test     go vet, gofmt check, go test
#   make bench    benchmarks
#   make conform  the corpus on the reference runtime (real shared memory), 10^5 runs a test
#   make fmt      gofmt -w and rmacheck fmt -w over the corpus
#   make clean    remove bin/

GO      ?= go
BIN     := bin/rmacheck
CORPUS  := litmus
VERSION ?=
LDFLAGS := $(if $(VERSION),-ldflags "-X main.version=$(VERSION)")

# Every Go file on disk (tracked or not), outside .git and bin.
GOFILES = $(shell find . -name '*.go' -not -path './.git/*' -not -path './bin/*')

.PHONY: all build corpus test vet fmtcheck gotest bench conform fmt clean

all: build corpus

build:
	$(GO) build $(LDFLAGS) -o $(BIN) ./cmd/rmacheck

corpus: build
	$(BIN) check $(CORPUS)
	$(BIN) run $(CORPUS)

test: vet fmtcheck gotest

vet:
	$(GO) vet ./...

fmtcheck:
	@unformatted="$$(gofmt -l $(GOFILES))"; \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt: these files are not formatted (run make fmt):"; \
		echo "$$unformatted"; \
		exit 1; \
	fi

gotest:
	$(GO) test ./...

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	@echo "== rmacheck run over the stress tests (8 searches, 13 s of CPU), -j 1 and -j 2"
	@for j in 1 2; do echo "-j $$j:"; bash -c "time $(BIN) run -j $$j explorer/testdata/*.lit >/dev/null" || true; done

# The corpus and the acceptance tests on the reference runtime, every preset, 10^5 runs each.
conform: build
	$(BIN) conform --target reference --runs 100000 --sem mpi-3.0 --sem A --sem B --sem mpi-4.1 $(CORPUS) ../shared/acceptance

fmt: build
	gofmt -w $(GOFILES)
	$(BIN) fmt -w $(CORPUS)

clean:
	rm -rf bin
