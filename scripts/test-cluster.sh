#!/usr/bin/env bash
# `pnpm test:cluster`: the tests that need PostgreSQL and S3 (*.cluster.test.ts).
# Uses the services named by DATABASE_URL and S3_ENDPOINT when both are set; otherwise starts
# them with scripts/dev-services.sh and stops them afterwards (unless they were running already).
# Exit status 3: the services cannot be installed here (see scripts/dev-services.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1

started=0
if [[ -z "${DATABASE_URL:-}" || -z "${S3_ENDPOINT:-}" ]]; then
  if ! scripts/dev-services.sh env >/dev/null 2>&1; then
    started=1
    # Set before `up`: a start that fails half-way must not leave daemons behind.
    trap 'scripts/dev-services.sh down' EXIT
  fi
  status=0
  lines="$(scripts/dev-services.sh up)" || status=$?
  if [[ $status -ne 0 ]]; then
    [[ $status -eq 3 ]] && echo "test:cluster: the cluster services cannot be installed here" >&2
    exit "$status"
  fi
  set -a
  eval "$lines"
  set +a
fi

pnpm exec turbo run build --output-logs=errors-only
pnpm exec vitest run --config vitest.cluster.config.ts "$@"
