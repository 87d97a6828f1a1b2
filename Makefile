# rmacheck: build, check the corpus, test.
#   make          build bin/rmacheck, check every .lit file of the corpus and the tutorial and run it
#   make test     go vet, gofmt check, go test
#   make bench    benchmarks, a run over the generated family, runtime rates beside MPI
#   make exact    the reductions' exactness property, 2,000 checks a sync variant
#   make crosscheck  the two engines (operational, axiomatic) on bench/generated and 2,000 random programs
#   make gen      regenerate the diy7-style family in bench/generated (rmacheck gen --mix)
#   make conform  the corpus on the reference runtime (real shared memory), 10^5 runs a test
#   make mpi-builds  install the MPI library builds of reports/matrix/builds.json into .cache/mpi
#   make matrix-results  conform on every build x transport of builds.json (half an hour); make matrix-report  its page
#   make fmt      gofmt -w and rmacheck fmt -w over the corpus
#   make clean    remove bin/

GO      ?= go
# SB and MP+put+fence for make bench's runtime rates (the acceptance files).
RATEFILES = $(wildcard ../shared/acceptance/01-SB.lit ../shared/acceptance/11-MP+put+fence.lit)
BIN     := bin/rmacheck
CORPUS  := litmus
DOCS    := docs/tutorial
FAMILY  := bench/generated
VERSION ?=
LDFLAGS := $(if $(VERSION),-ldflags "-X main.version=$(VERSION)")

# Every Go file on disk (tracked or not), outside .git and bin.
GOFILES = $(shell find . -name '*.go' -not -path './.git/*' -not -path './bin/*')

.PHONY: all build corpus test vet fmtcheck gotest exact crosscheck bench conform reports conform-results matrix-results matrix-report mpi-builds fmt clean

all: build corpus

# CGO_ENABLED=0: a pure-Go binary. With cgo (pulled in by net, which pflag imports)
# every OS thread gets an 8 MiB pthread stack and a 64 MiB malloc arena of address
# space, so fuzz --max-procs 100 (100 threads) died of "out of memory" under ulimit -v.
build:
	CGO_ENABLED=0 $(GO) build $(LDFLAGS) -o $(BIN) ./cmd/rmacheck

corpus: build
	$(BIN) check $(CORPUS) $(DOCS)
	$(BIN) run $(CORPUS) $(DOCS)

test: vet fmtcheck gotest

# Also for macOS and Windows: the platform files (supervise, the tests' helpers) drift
# apart unnoticed when only Linux builds.
vet:
	$(GO) vet ./...
	GOOS=darwin $(GO) vet ./...
	GOOS=windows $(GO) vet ./...

# The corpus is checked too: rmacheck fmt's canonical form is the one the docs and
# diffs show, and a file that drifts from it is one fmt -w would rewrite under a user.
fmtcheck: build
	@unformatted="$$(gofmt -l $(GOFILES))"; \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt: these files are not formatted (run make fmt):"; \
		echo "$$unformatted"; \
		exit 1; \
	fi
	@unformatted="$$($(BIN) fmt -l $(CORPUS))"; \
	if [ -n "$$unformatted" ]; then \
		echo "rmacheck fmt: these .lit files are not in canonical form (run make fmt):"; \
		echo "$$unformatted"; \
		exit 1; \
	fi

# An explicit bound on each test binary: go test's default (10 minutes a package) is not
# one to lean on. make test takes about 1.5 minutes here on 2 cores; with two busy loops
# per core beside it (load average 8-9) 7 minutes, the longest package conform/cgen
# (compiling the corpus's C, 6 minutes): a load of 15-30 can double or triple that.
GOTESTTIMEOUT ?= 30m

# go test -json through internal/testprogress: the same "ok"/"FAIL" lines as go test
# (CI reads them) as each package finishes, and which packages are still running (on a
# terminal one line rewritten, in a log a line a minute): without it a loaded machine
# printed nothing for up to 19 minutes.
gotest:
	GO=$(GO) $(GO) run ./internal/testprogress -timeout $(GOTESTTIMEOUT) ./...

# The exactness property (reduced == plain, the quotient on and off) over the
# synchronization variants the reductions cover (explorer/exact_test.go): make test
# runs rapid's 100 checks a variant, this 2,000 (under a minute here).
exact:
	$(GO) test -count=1 -run 'TestExactness|TestStubbornRandomSync' ./explorer -rapid.checks=2000

# The two engines agree (crosscheck/): make test runs the corpus, the acceptance files
# and rapid's 100 random programs; this adds bench/generated and 2,000 random programs
# (minutes: the axiomatic engine enumerates candidate executions).
crosscheck:
	$(GO) test -count=1 -timeout 60m ./crosscheck -crosscheck.generated -rapid.checks=2000

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	@echo "== rmacheck run over the stress tests (8 searches), -j 1 and -j 2"
	@for j in 1 2; do echo "-j $$j:"; bash -c "time $(BIN) run -j $$j explorer/testdata/stress-*.lit >/dev/null" || true; done
	@echo "== the 16-rank fence ring under mpi-4.1 (313 states; it stopped at --max-memory before completion-aware independence)"
	@/usr/bin/time -f "peak RSS %M KB, %e s" $(BIN) run --sem mpi-4.1 explorer/testdata/fence-ring-16.lit 2>&1 | tail -2 || true
	@echo "== rmacheck run over the generated family ($(FAMILY), every preset, hw relaxed)"
	@bash -c "time $(BIN) run $(FAMILY) | tail -1"
	@echo "== run -j 1 and -j 2 over the generated family and the 1,000-test plain family (gen --plain 1000; wall ratios mean something on an idle machine only: load average beside)"
	@plain=$$(mktemp -d) && $(BIN) gen --plain 1000 --out $$plain >/dev/null && \
	for fam in $(FAMILY) $$plain; do \
		t1=$$( { /usr/bin/time -f "%e %U %S" $(BIN) run -j 1 $$fam >/dev/null; } 2>&1 | tail -1); \
		t2=$$( { /usr/bin/time -f "%e %U %S" $(BIN) run -j 2 $$fam >/dev/null; } 2>&1 | tail -1); \
		echo "$$t1 $$t2 $$(cut -d' ' -f1 /proc/loadavg)" | awk -v f=$$fam '{ printf "%s: -j 1 %.2f s wall (%.2f s CPU), -j 2 %.2f s wall (%.2f s CPU, %.2f CPUs busy): %.2fx; load %s\n", f, $$1, $$2+$$3, $$4, $$5+$$6, ($$5+$$6)/$$4, $$1/$$4, $$7 }'; \
	done; rm -rf $$plain
	@echo "== runs/s of SB and MP+put+fence on the reference runtime beside the MPI libraries installed (10^6 runs, one after the other: compare within this run)"
	@[ -n "$(RATEFILES)" ] || echo "../shared/acceptance is absent: no rates"
	@[ -z "$(RATEFILES)" ] || for t in reference mpich openmpi; do \
		if [ $$t != reference ] && ! command -v mpicc.$$t >/dev/null; then echo "$$t: not installed"; continue; fi; \
		$(BIN) conform --target $$t --runs 1000000 --sem mpi-4.1 $(RATEFILES) 2>/dev/null | grep '^Rate' | sed "s/^/$$t: /"; \
	done

# The diy7-style family of rmacheck gen: every shape, sync (mixed per process), flavor and
# locality. It lives outside litmus/ because the corpus tests of explorer/ and conform/
# run every litmus/*/*.lit file under every preset and hw model.
gen: build
	rm -rf $(FAMILY)
	$(BIN) gen --mix --out $(FAMILY)

# The corpus and the acceptance tests on the reference runtime, every preset, 10^5 runs each,
# and the random-program property with 20,000 runs a program.
conform: build
	RMACHECK_CONFORM_RUNS=20000 $(GO) test -count=1 -run RandomProgramsConform ./conform -rapid.checks=200
	$(BIN) conform --target reference --runs 100000 --sem mpi-3.0 --sem A --sem B --sem mpi-4.1 $(CORPUS) ../shared/acceptance

# Evidence reports (reports/*/report.md and report.html, and the index reports/README.md).
# Deterministic: they read the conformance records committed beside them
# (reports/*/{reference,mpich,openmpi}.json, failed and refused runs included, and
# reports/alignment/probe-*.json), which
# `make conform-results` regenerates (those runs differ from run to run), the question and
# the checked answer of each report (reports/*/question.txt) and the upstream status of each
# library finding (reports/upstream/status.json). The date written is the last commit's.
# the two poll tests show the consequence for programs of option A: a producer's remote stores need a flush
T435      := litmus/ticket435 ../shared/acceptance/0[1-9]-*.lit ../shared/acceptance/10-*.lit \
	litmus/poll/MP+rstore+sync+await+sync.lit litmus/poll/MP+rstore+flush+poll+sync.lit
SQ        := litmus/sharedquery ../shared/acceptance/17-*.lit ../shared/acceptance/18-*.lit ../shared/acceptance/19-*.lit
ALIGN     := litmus/layout ../shared/acceptance/22-*.lit ../shared/acceptance/23-*.lit
ASSERTS   := litmus/assertions ../shared/acceptance/20-*.lit ../shared/acceptance/21-*.lit
ACCOPS    := litmus/accops ../shared/acceptance/28-*.lit ../shared/acceptance/29-*.lit
POLL      := litmus/poll ../shared/acceptance/3[3-6]-*.lit ../shared/acceptance/38-*.lit
PRESETS   := --sem mpi-3.0 --sem A --sem B --sem mpi-4.1
T435SEMS  := $(PRESETS) --sem mpi-3.0,lock_ls=on,flush_ls=on
REPORT_DATE ?= $(shell git log -1 --format=%cd --date=format:%Y-%m-%d 2>/dev/null)
reportdata = --question reports/$(1)/question.txt --upstream reports/upstream/status.json \
	$(if $(REPORT_DATE),--date $(REPORT_DATE)) \
	$(foreach t,reference mpich openmpi,$(if $(wildcard reports/$(1)/$(t).json),--conform reports/$(1)/$(t).json)) \
	$(foreach f,$(wildcard reports/$(1)/probe-*.json),--probe $(f))

reports: build matrix-report
	$(BIN) report $(T435) --out reports/ticket-435 --title "Ticket #435: are load/store on shared windows RMA operations?" \
		$(T435SEMS) --hw relaxed --hw tso --distinguish $(call reportdata,ticket-435)
	$(BIN) report $(SQ) --out reports/shared-query --title "MPI_Win_shared_query on every window flavor: MPI-3.0/4.0 vs 4.1" \
		--sem mpi-3.0 --sem mpi-4.1 $(call reportdata,shared-query)
	$(BIN) report $(ALIGN) --out reports/alignment --title "Alignment of allocated window memory: before and since MPI-4.0" \
		--sem mpi-3.0 --sem mpi-4.1 $(call reportdata,alignment)
	$(BIN) report $(ASSERTS) --out reports/assertions --title "Assertions: which change outcomes when exploited, and only when false" \
		$(PRESETS) --exploit $(call reportdata,assertions)
	$(BIN) report $(POLL) --out reports/polling --title "Polling: what must a reader do after a flag poll?" \
		$(PRESETS) --sem mpi-4.1,weak_progress=on --hw relaxed --hw tso --hw sc $(call reportdata,polling)
	$(BIN) report $(ACCOPS) --out reports/accumulate-ops --title "accumulate_ops: is compare_and_swap an operation beside fetch_and_op(MPI_REPLACE)?" \
		$(PRESETS) --sem mpi-4.1,cas_replace=on --hw relaxed $(call reportdata,accumulate-ops)
	$(BIN) report --index reports

# The conformance data of the reports: real MPI runs, minutes, and counts that differ from
# run to run (timing decides them; the seed only drives the jitter). Each run's record goes
# to reports/NAME/TARGET.json, a failed or refused one too (status and error), and
# conform's standard error (the same failures, and notes such as a starved run) to
# TARGET.log, for people: the report reads the records only. MPICH busy-polls, so tests
# with more ranks than cores are refused (status "not run"), not oversubscribed.
REF_RUNS  ?= 20000
MPI_RUNS  ?= 5000
conformrun = $(BIN) conform --target $(1) --json --runs $(if $(filter reference,$(1)),$(REF_RUNS),$(MPI_RUNS)) $(3) $(4) \
	> reports/$(2)/$(1).json 2> reports/$(2)/$(1).log || true
conform-results: build
	mkdir -p reports/polling
	$(call conformrun,reference,ticket-435,$(T435SEMS),$(T435))
	$(call conformrun,reference,shared-query,--sem mpi-3.0 --sem mpi-4.1,$(SQ))
	$(call conformrun,reference,assertions,$(PRESETS),$(ASSERTS))
	$(call conformrun,reference,polling,$(PRESETS),$(POLL))
	for lib in mpich openmpi; do \
		$(call conformrun,$$lib,ticket-435,$(T435SEMS),$(T435)); \
		$(call conformrun,$$lib,shared-query,--sem mpi-3.0 --sem mpi-4.1,$(SQ)); \
		$(call conformrun,$$lib,alignment,--sem mpi-3.0 --sem mpi-4.1,$(ALIGN)); \
		$(call conformrun,$$lib,assertions,$(PRESETS),$(ASSERTS)); \
		$(call conformrun,$$lib,polling,$(PRESETS),$(POLL)); \
		$(BIN) probe --target $$lib --json > reports/alignment/probe-$$lib.json || true; \
		cp reports/alignment/probe-$$lib.json reports/shared-query/probe-$$lib.json; \
	done

# The data of reports/matrix (`rmacheck report --matrix`): every build of
# reports/matrix/builds.json (make mpi-builds) over each transport it has on one node
# (shm, net), one cell at a time under nice, a cell's records NAME-TRANSPORT.json and its
# standard error NAME-TRANSPORT.log. Every cell runs the tests of the upstream findings
# (reports/upstream) and the acceptance tests (../shared/acceptance, when present); the
# newest build of each family also runs the corpus (NAME-TRANSPORT-corpus.json) and, over
# shm, a fixed shard of the generated family (NAME-shm-gen.json); every build runs the probe
# over shm (NAME-shm-probe.json: the alignment finding's Versions). A build that does not
# install is reported and skipped. About 25 minutes on this 2-core machine (NOTES.md).
MATRIX    := $(wildcard ../shared/acceptance/02-SB+sync.lit ../shared/acceptance/11-MP+put+fence.lit \
	../shared/acceptance/24-create-over-shared.lit ../shared/acceptance/33-MP+flush+poll.lit \
	../shared/acceptance/34-MP+flush+poll+sync.lit) litmus/assertions/fence-noprecede-nosucceed.lit \
	litmus/assertions/post-nostore-noput.lit litmus/assertions/pscw-nocheck-true.lit \
	litmus/layout/align-v64-minalign.lit litmus/layout/disp_unit-int32.lit litmus/poll/Ex12.21-peterson.lit \
	litmus/poll/MP+acc-flag+gacc-poll.lit litmus/poll/MP+rstore+flush+poll+sync.lit \
	litmus/poll/poll-both-flags+fop.lit litmus/poll/poll-own+fence-put.lit litmus/poll/poll-own+lock-put.lit
MATRIXTESTS  = $(sort $(MATRIX) $(wildcard ../shared/acceptance/*.lit))
MATRIXCORPUS = $(filter-out $(MATRIX),$(sort $(wildcard $(CORPUS)/*/*.lit)))
MATRIXNEWEST ?= mpich-5.0.2,openmpi-5.0.11,impi-2021.19.0
MATRIX_RUNS  ?= 200
MATRIX_NET_RUNS  ?= 50
MATRIX_GEN_SHARD ?= 1/40
MATRIX_GEN_RUNS  ?= 50
MATRIXRUN = nice $(GO) run ./internal/mpibuilds matrix -bin $(BIN) -out reports/matrix -net-runs $(MATRIX_NET_RUNS)
MATRIXPROBES = $(sort $(wildcard reports/matrix/*-probe.json))
MATRIXJSON  = $(sort $(filter-out reports/matrix/builds.json $(MATRIXPROBES),$(wildcard reports/matrix/*.json)))
matrix-results: build
	mkdir -p reports/matrix
	$(MATRIXRUN) -- --runs $(MATRIX_RUNS) --timeout 30s $(MATRIXTESTS)
	$(MATRIXRUN) -suffix gen -builds $(MATRIXNEWEST) -transports shm -- --runs $(MATRIX_GEN_RUNS) --timeout 30s \
		--shard $(MATRIX_GEN_SHARD) bench/generated
	$(MATRIXRUN) -suffix corpus -builds $(MATRIXNEWEST) -transports shm -- --runs $(MATRIX_RUNS) --timeout 30s $(MATRIXCORPUS)
	$(MATRIXRUN) -probe -suffix probe -transports shm --

# reports/matrix/README.md from the matrix's records alone (make reports does it too), and
# the Versions tables of the upstream drafts (reports/upstream/*.md) from the same records:
# every build each finding's tests ran on, and the newest release it reproduces on or the
# first where it stops.
matrix-report: build
	$(if $(MATRIXJSON),$(BIN) report --matrix --title "Conformance matrix: library x version x transport" \
		$(foreach f,$(MATRIXJSON),--conform $(f)) $(foreach f,$(MATRIXPROBES),--probe $(f)) \
		--upstream reports/upstream/status.json --out reports/matrix)

# The MPI library builds of the matrix (reports/matrix/builds.json: Debian's MPICH and Open
# MPI, and pinned wheels of MPICH, Open MPI and Intel MPI from PyPI), each installed into
# .cache/mpi/NAME (a virtual environment; reused while its entry is unchanged) and checked
# with a program on two ranks: ok with its prefix for conform --mpi, or refused or broken
# with why (not fatal). MPIBUILDS=NAME... installs those only (and fails if one is not ok).
MPIBUILDS ?=
mpi-builds:
	$(GO) run ./internal/mpibuilds install $(MPIBUILDS)

fmt: build
	gofmt -w $(GOFILES)
	$(BIN) fmt -w $(CORPUS)

clean:
	rm -rf bin
