#!/bin/sh
# engram session-start hook: prints the memory bootstrap (SPEC §4.1) on
# standard output, which a coding agent's session-start hook adds to the
# agent's context. See docs/agents.md.
#
#   ENGRAM_URL     the published memory site, e.g. https://memory.example.com/
#                  (the bootstrap is fetched from its api/v1/bootstrap.md)
#   ENGRAM_REPO    a local memory repository, used with `engram bootstrap`
#                  when ENGRAM_URL is unset or cannot be fetched (default .)
#   ENGRAM_BUDGET  a token budget for the local bootstrap (default: the
#                  repository's, 2000)
#
# It never fails the session: when no memory can be read it says so on
# standard error and exits 0.
set -u

if [ -n "${ENGRAM_URL:-}" ]; then
  url="${ENGRAM_URL%/}/api/v1/bootstrap.md"
  if out=$(curl -fsSL --max-time 10 "$url" 2>/dev/null); then
    printf '%s\n' "$out"
    exit 0
  fi
  echo "engram hook: could not fetch $url" >&2
fi

if command -v engram >/dev/null 2>&1; then
  if [ -n "${ENGRAM_BUDGET:-}" ]; then
    engram bootstrap --repo "${ENGRAM_REPO:-.}" --format md --budget "$ENGRAM_BUDGET" && exit 0
  else
    engram bootstrap --repo "${ENGRAM_REPO:-.}" --format md && exit 0
  fi
  echo "engram hook: engram bootstrap failed" >&2
  exit 0
fi

echo "engram hook: set ENGRAM_URL to the memory site, or install engram" >&2
exit 0
