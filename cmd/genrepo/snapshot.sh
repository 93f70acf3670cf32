#!/bin/bash
# snapshot.sh BIN OUT: everything one engram binary makes from three
# repositories, into OUT, to compare two binaries byte for byte:
#
#   cmd/genrepo/snapshot.sh /tmp/engram-before /tmp/snap-before
#   cmd/genrepo/snapshot.sh /tmp/engram-after /tmp/snap-after
#   diff -r /tmp/snap-before /tmp/snap-after
#
# The repositories (made once, in $SNAP_REPOS, default /tmp/engram-snap-repos):
# the demo (content/) copied into a git repository of its own with a fixed
# commit, so the engram repository's own commits do not show; a
# generated one (go run ./cmd/genrepo, 600 notes); and the real ai-agents
# corpus imported, when ../shared/corpus/real is there. For each: the
# build (output, report without timings), check, the query commands and
# the ai-agents export, with a fixed --now.
set -u
BIN=$(realpath "$1"); OUT=$2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REPOS=${SNAP_REPOS:-/tmp/engram-snap-repos}
NOW=2026-11-01T00:00:00Z
if [ ! -d "$REPOS/demo" ]; then
  mkdir -p "$REPOS" && cp -r "$ROOT/content" "$REPOS/demo"
  (cd "$REPOS/demo" && git init -q && git add -A &&
    GIT_AUTHOR_DATE=2026-10-01T00:00:00Z GIT_COMMITTER_DATE=2026-10-01T00:00:00Z \
    git -c user.name=snapshot -c user.email=snapshot@example.com commit -qm demo)
  (cd "$ROOT" && go run ./cmd/genrepo -n 600 "$REPOS/gen")
  real="$ROOT/../shared/corpus/real/ai-agents"
  [ -d "$real" ] && "$BIN" import ai-agents "$real" --repo "$REPOS/real" >/dev/null 2>&1
fi
rm -rf "$OUT"; mkdir -p "$OUT"
export ENGRAM_CACHE_DIR=$OUT.cache; rm -rf "$ENGRAM_CACHE_DIR"
for repo in "$REPOS"/*/; do
  name=$(basename "$repo")
  "$BIN" build --repo "$repo" --out "$OUT/$name" --now $NOW > "$OUT/$name.build.txt" 2>&1
  echo "exit $?" >> "$OUT/$name.build.txt"
  sed -i '/ ms$/d; /Total in/d; / s$/d' "$OUT/$name.build.txt"
  "$BIN" check --repo "$repo" --format json > "$OUT/$name.check.json" 2>&1
  q() { f=$1; shift; "$BIN" "$@" --repo "$repo" --now $NOW > "$OUT/$name.q.$f" 2>&1; echo "exit $?" >> "$OUT/$name.q.$f"; }
  q episodes episodes --json
  q patterns patterns --json
  q anti antipatterns --json
  q boot bootstrap --format json
  q bootmd bootstrap
  q search search retry --json
  q similar similar "flaky test retry" --json
  ep=$(ls "$OUT/$name/api/v1/episodes/" 2>/dev/null | head -1 | sed 's/.json$//')
  q decisions decisions "$ep" --json
  "$BIN" export --format ai-agents --out "$OUT/$name.export" --repo "$repo" --now $NOW > "$OUT/$name.export.txt" 2>&1
done
# The output folder's own name is in some messages.
sed -i "s|$OUT|OUT|g" "$OUT"/*.txt "$OUT"/*.q.* 2>/dev/null
rm -rf "$ENGRAM_CACHE_DIR"
