# edu-platform: `make help` lists the targets. Two commands set up a fresh machine:
#   make dev    installs, provisions and starts the local servers and every service, prints URLs
#   make test   installs, provisions, runs every test, prints "N passed, M failed, K skipped"
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

export EDU_CACHE_DIR ?= $(HOME)/.cache/edu-platform
RUN_DIR := $(EDU_CACHE_DIR)/run
TEST_LOG_DIR := $(RUN_DIR)/test-logs

.PHONY: help install build typecheck lint format openapi test unit-test k8s-test schemathesis dev dev-down dev-status \
        infra-up infra-down infra-status cluster-build cluster-up cluster-down cluster-status \
        crds-sync chart-lint bench bench-auth bench-outbox bench-question-bank bench-question-bank-jobs bench-kit bench-operator bench-docx bench-document-import bench-attempt bench-notification bench-analytics bench-gateway bench-security bench-kafka-secure clean kind-up kind-down kind-test kind-load helm-install node-up node-down netpol-up netpol-down images node-test bench-operator-node package

help: ## list the targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

node_modules/.install-stamp: package.json package-lock.json
	@echo "installing npm packages (npm ci)..."
	@npm ci --no-audit --no-fund --loglevel=error
	@touch $@

install: node_modules/.install-stamp ## install npm packages (only when package-lock.json changed)

build: install ## compile TypeScript to dist/ (and copy the JSON documents the code reads)
	@npx tsc -p tsconfig.json
	@find services kafka -name '*.json' -not -path '*/node_modules/*' -not -path '*/test/*' | \
	  while read -r f; do mkdir -p "dist/$$(dirname "$$f")"; cp "$$f" "dist/$$f"; done

typecheck: install ## type-check everything without emitting
	@npx tsc -p tsconfig.json --noEmit

lint: install ## eslint with the size budget; shellcheck and shfmt over the shell scripts
	@npx eslint .
	@scripts/lint-shell.sh

format: install ## prettier --write
	@npx prettier --write .

openapi: install ## regenerate every service's openapi.json from its route declarations (a test fails when one is stale)
	@node --import tsx services/openapi.ts

infra-up: install ## start (or reuse) local Kafka + MongoDB for development (PROFILE=test for the test servers)
	@scripts/infra.sh up --profile $(or $(PROFILE),dev)

infra-down: ## stop the local servers this project started (PROFILE=dev|test)
	@scripts/infra.sh down --profile $(or $(PROFILE),dev)

infra-status: ## show the local servers
	@scripts/infra.sh status --profile $(or $(PROFILE),dev) || true

dev: install infra-up ## provision, start local servers and every service; print their URLs
	@scripts/dev.sh up

dev-down: ## stop the services started by make dev (the servers stay: make infra-down)
	@scripts/dev.sh down

dev-status: ## show the services started by make dev
	@scripts/dev.sh status

unit-test: install typecheck ## unit and service tests against the local servers (started once per run)
	@mkdir -p $(TEST_LOG_DIR)
	@npx mocha 2>&1 | tee $(TEST_LOG_DIR)/unit.log

k8s-test: install ## cluster tests against KUBECONFIG, or the local control plane (built on first use)
	@mkdir -p $(TEST_LOG_DIR)
	@npx mocha --config k8s-tests/.mocharc.json 2>&1 | tee $(TEST_LOG_DIR)/k8s.log

test: install ## every test: typecheck, lint, unit/service tests, schemathesis, cluster tests; prints "N passed, M failed, K skipped"
	@scripts/test-all.sh

schemathesis: install ## fuzz every service's OpenAPI document with schemathesis (installed into the cache)
	@scripts/schemathesis.sh

cluster-build: ## build kube-apiserver, etcd and kube-controller-manager from the Go proxy (cached)
	@scripts/cluster.sh build && scripts/cluster.sh tools

cluster-up: ## start the local control plane; writes a kubeconfig
	@scripts/cluster.sh up

cluster-down: ## stop the local control plane
	@scripts/cluster.sh down

cluster-status: ## show the local control plane
	@scripts/cluster.sh status || true

crds-sync: ## copy crds/ into the chart (the chart's copy must stay identical)
	@mkdir -p charts/edu-platform/crds && cp crds/*.yaml charts/edu-platform/crds/

chart-lint: ## helm lint the chart with each ci/ and examples/ values file (the defaults alone name no store, so they do not render)
	@eval "$$(scripts/cluster.sh env)" && for f in charts/edu-platform/ci/*.yaml charts/edu-platform/examples/*.yaml; do \
	  "$$HELM" lint --strict charts/edu-platform -f "$$f" --quiet || exit 1; done && echo "chart-lint: every values file lints"

bench: bench-auth bench-kit bench-outbox bench-question-bank bench-question-bank-jobs bench-document-import bench-attempt bench-notification bench-analytics bench-gateway bench-security bench-kafka-secure ## every benchmark

bench-auth: install ## auth throughput and latency at the production bcrypt cost
	@scripts/with-servers.sh -- node --import tsx bench/auth/run.ts

bench-outbox: install ## outbox commit-to-Kafka latency at 200 and 500 events/s, relay throughput, beside bare bus.publish
	@scripts/with-servers.sh -- node --import tsx bench/outbox/run.ts

bench-question-bank: install ## question-bank list/detail/create throughput and p99 beside the raw driver, outbox commit-to-Kafka latency
	@scripts/with-servers.sh -- node --import tsx bench/question-bank/run.ts

bench-question-bank-jobs: install ## question-bank permanent deletion of 10,000 by job, 120-question DOCX ingest, blueprint of 50 from 10,000, each beside the raw driver
	@scripts/with-servers.sh -- bash -c 'for b in deletion ingest blueprint; do node --import tsx bench/question-bank/$$b.ts; done'

bench-document-import: install ## DOCX import jobs/minute with 1 and 2 workers on a 120-question file; upload-to-job.completed p50/p99 under a burst of 50
	@scripts/with-servers.sh -- node --import tsx bench/document-import/run.ts

bench-attempt: install ## attempt answer-save/submit p99 at fixed rates, a 500 students x 40 saves surge, beside the raw driver's update of the same documents
	@scripts/with-servers.sh -- node --import tsx bench/attempt/run.ts

bench-notification: install ## notification inbox list p99 (user with 10,000 rows) and 10,000-recipient batch throughput, beside the raw driver
	@scripts/with-servers.sh -- node --import tsx bench/notification/run.ts

bench-analytics: install ## analytics weak-topics p50/p99 over 100 results through the service, beside the raw driver find + derivation
	@scripts/with-servers.sh -- node --import tsx bench/analytics/run.ts

bench-gateway: install ## p50/p99 and throughput of `me` and an analytics read through the gateway and directly, same run
	@scripts/with-servers.sh -- node --import tsx bench/gateway/run.ts

bench-kafka-secure: install ## the kit bus over SASL_SSL (SCRAM-SHA-512, private CA) beside plaintext in one run: first publish, end-to-end p50/p99 at 200 events/s, batch throughput
	@node --import tsx bench/kafka-secure/run.ts

bench-security: install ## /healthz latency of a service while it processes each hostile input, beside the idle service; the API's peak RSS
	@scripts/with-servers.sh -- node --import tsx bench/security/run.ts

bench-kit: install ## the kit's per-request cost: createApp vs bare Express on a trivial route, one run
	@node --import tsx bench/kit/run.ts

bench-operator: install ## operator reaction time and API requests per reconcile
	@scripts/with-servers.sh --cluster -- node --import tsx bench/operator/run.ts

bench-docx: install ## native DOCX parser vs mammoth on a 120-question exam (ms per file and per question, peak RSS), and time per KiB of a 41,685-line document beside the exam's
	@node --import tsx bench/docx-parse/run.ts

kind-up: ## create (or reuse) the kind cluster edu-platform: Docker where an engine answers, else podman as root (node image built here); prints KUBECONFIG=
	@scripts/kind.sh up

kind-down: ## delete the kind cluster kind-up created and undo its host changes
	@scripts/kind.sh down --force

kind-test: install ## the cluster and platform suites on kind (cluster created or reused, images built and loaded, logs on failure, deleted after)
	@mkdir -p $(TEST_LOG_DIR)
	@scripts/kind-test.sh 2>&1 | tee $(TEST_LOG_DIR)/kind.log

IMAGE_TAG ?= dev
HELM_VALUES ?= charts/edu-platform/ci/all-values.yaml

node-up: install ## start a real node beside the local control plane (containerd, kubelet, scheduler, kube-proxy, CoreDNS; built on first use)
	@scripts/node.sh up

node-down: ## stop the local node and undo its host changes (the control plane stays: make cluster-down)
	@scripts/node.sh down

netpol-up: ## start the NetworkPolicy controller (kube-router, firewall only) on the local node
	@scripts/netpol.sh up

netpol-down: ## stop the NetworkPolicy controller and remove its iptables chains and ipsets
	@scripts/netpol.sh down

images: ## build the base, platform and Kafka images with buildah (cached); imported into the local node when it runs
	@scripts/images.sh build all --tag $(IMAGE_TAG)

node-test: install ## the node suite: the whole chart in real pods on the local node (brought up, built and imported first)
	@mkdir -p $(TEST_LOG_DIR)
	@npx mocha --config k8s-tests/node.mocharc.json 2>&1 | tee $(TEST_LOG_DIR)/node.log

package: ## a release for your registry in dist/release/: the chart archive, the image as an OCI archive, SHA256SUMS (docs/operating.md)
	@scripts/package.sh

kind-load: ## build the images the kind cluster runs (edu-platform:$(IMAGE_TAG); without a registry also Kafka, MongoDB stand-in, policy controller) and load them
	@scripts/kind-platform.sh images --tag $(IMAGE_TAG)

helm-install: install ## install the chart and wait until every pod is Ready: into KUBECONFIG's cluster with HELM_VALUES when set, else the kind cluster of make kind-up (images built and loaded)
	@if [[ -n "$${KUBECONFIG:-}" ]]; then \
	  source scripts/lib/clients.sh && k8s_clients && \
	  "$$HELM" upgrade --install edu-platform charts/edu-platform --namespace edu-platform --create-namespace \
	    -f $(HELM_VALUES) --set image.tag=$(IMAGE_TAG) --wait --timeout 12m && \
	  "$$KUBECTL" get pods -n edu-platform; \
	else scripts/kind-platform.sh install --namespace edu-platform --tag $(IMAGE_TAG); fi

bench-operator-node: install ## a burst of 20 DOCX uploads to every job completed: the operator scaling real worker pods vs one fixed worker pod (after make helm-install: KUBECONFIG's cluster, else make kind-up's)
	@eval "$$(scripts/cluster.sh env | grep -E '^(KUBECTL|HELM)=')"; export KUBECTL HELM; \
	  export KUBECONFIG="$${KUBECONFIG:-$$(scripts/kind.sh env | sed -n 's/^KUBECONFIG=//p')}"; node --import tsx bench/operator/node-burst.ts

clean: ## remove build output (the cache outside the clone stays)
	@rm -rf dist coverage
