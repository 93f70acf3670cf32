#!/bin/sh
# engram session-start hook: prints the memory bootstrap (SPEC §4.1) on
# standard output, which a coding agent's session-start hook adds to the
# agent's context. See docs/agents.md.
#
#   ENGRAM_URL     the published memory site, e.g. https://memory.example.com/
#                  (the bootstrap is fetched from its api/v1/bootstrap.md, or,
#                  when the session works in a folder that has a slice, from
#                  api/v1/bootstrap/<area>.md: see the manifest's
#                  bootstrap_slices)
#   ENGRAM_AREA    the area's slug, e.g. scripts or dot-agents (default: the
#                  top-level folder of the working directory in its git
#                  repository; "." or "-" for the whole bootstrap)
#   ENGRAM_REPO    a local memory repository, used with `engram bootstrap`
#                  when ENGRAM_URL is unset or cannot be fetched (default .)
#   ENGRAM_BUDGET  a token budget for the local bootstrap (default: the
#                  repository's, 2000)
#
# It never fails the session: when no memory can be read it says so on
# standard error and exits 0.
set -u

# area is the slug of the top-level folder the session works in: lower
# case, a leading dot as "dot-", other characters as dashes (as engram
# names the slices).
area() {
  if [ -n "${ENGRAM_AREA:-}" ]; then
    printf '%s' "$ENGRAM_AREA"
    return
  fi
  prefix=$(git rev-parse --show-prefix 2>/dev/null) || return
  top=${prefix%%/*}
  [ -n "$top" ] || return
  case "$top" in .*) top="dot-${top#.}" ;; esac
  printf '%s' "$top" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9-' '-' | sed 's/--*/-/g; s/^-//; s/-$//; s/^dot$/dot-/'
}

if [ -n "${ENGRAM_URL:-}" ]; then
  slug=$(area)
  case "$slug" in
  '' | . | -) ;;
  *)
    url="${ENGRAM_URL%/}/api/v1/bootstrap/$slug.md"
    if out=$(curl -fsSL --max-time 10 "$url" 2>/dev/null); then
      printf '%s\n' "$out"
      exit 0
    fi
    ;;
  esac
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
