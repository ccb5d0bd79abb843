#!/usr/bin/env bash
# The one test command (README, .ci/run): installs what the tests need, then lint, types,
# build, the suites on the embedded database, on a PostgreSQL server and through PgBouncer, the
# browser tests, the fleet test and the REST client example.
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

if ! command -v pnpm >/dev/null 2>&1; then
  step "installing pnpm"
  npm install -g pnpm@10 >/dev/null
fi

step "pnpm install"
pnpm install --frozen-lockfile

# Debian packages the tests run for real: Chromium (Playwright cannot download browsers here),
# PgBouncer and HAProxy for the runs behind a pooler and the fleet test, and the Prometheus
# project's own exposition parser (its Python client) that reads the API's /metrics.
missing=()
if [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
[ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
[ -f /usr/lib/python3/dist-packages/prometheus_client/parser.py ] || missing+=(python3-prometheus-client)
if [ "${#missing[@]}" -gt 0 ]; then
  step "installing ${missing[*]} from Debian"
  sudo_=""
  [ "$(id -u)" = 0 ] || sudo_="sudo"
  $sudo_ apt-get update -qq
  $sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

step "lint"
pnpm lint

step "typecheck"
pnpm typecheck

step "build"
pnpm build

step "OpenAPI document: Spectral (OpenAPI + OWASP rules) and Redocly (recommended rules); waivers in apps/api/.spectral.yaml, redocly.yaml"
pnpm --filter @music/api lint:openapi

step "tests on the embedded database (PGlite)"
env -u TEST_DATABASE_URL pnpm test

PG_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
pg_reachable() {
  (cd apps/api && node -e "const c=new (require('pg').Client)({connectionString:process.argv[1],connectionTimeoutMillis:3000});c.connect().then(()=>c.end()).catch(()=>process.exit(1))" "$1") 2>/dev/null
}
if pg_reachable "$PG_URL"; then
  step "tests on PostgreSQL ($PG_URL)"
  TEST_DATABASE_URL="$PG_URL" pnpm test
  step "tests on PostgreSQL through a stock transaction-mode PgBouncer"
  TEST_DATABASE_DIRECT_URL="$PG_URL" pnpm --filter @music/fleet exec tsx src/with-pgbouncer.ts pnpm test
elif [ "${CI:-}" = "true" ]; then
  echo "PostgreSQL is not reachable at $PG_URL; CI must run both databases" >&2
  exit 1
else
  echo "PostgreSQL not reachable at $PG_URL: skipping the server run (set TEST_DATABASE_URL)" >&2
fi

if [ -f apps/web/playwright.config.ts ]; then
  step "browser tests (Playwright, Chromium)"
  pnpm --filter @music/web test:e2e
fi

if pg_reachable "$PG_URL"; then
  step "fleet test (its own PostgreSQL and streaming replica, each behind PgBouncer; three API instances, HAProxy without retries, two consoles, Chromium)"
  pnpm --filter @music/fleet test:fleet
fi

step "REST client example (the built API on loopback: committed OpenAPI types, strict typecheck, the scenario)"
pnpm --filter @music/example-rest-client example

step "all tests passed"
