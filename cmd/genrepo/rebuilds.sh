#!/usr/bin/env bash
# rebuilds.sh BIN SRC_REPO LABEL: the rebuilds of issue 30 (BENCHMARKS.md),
# one engram process each, on a copy of SRC_REPO (a cmd/genrepo
# repository) in /tmp/b30-LABEL: a full build, then one edit and commit
# at a time, each built with the page store the last one left. Prints
# each step's wall time, peak RSS, page reuse and stage times.
set -euo pipefail
BIN=$1; SRC=$2; LABEL=$3
W=/tmp/b30-$LABEL; rm -rf $W; mkdir -p $W; cp -a "$SRC" $W/repo
R=$W/repo; export ENGRAM_CACHE_DIR=$W/cache
day=1
commit() { # message
  local d; d=$(printf '2026-05-%02dT12:00:00Z' $day); day=$((day+1))
  GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d git -C $R -c user.name=b -c user.email=b@b commit -q --allow-empty -am "$1"
}
step() { # label
  /usr/bin/time -f '%e %M' -o $W/time $BIN build --repo $R --out $W/out > $W/log 2>&1 || { echo "$1 FAILED"; tail -5 $W/log; }
  read -r wall rss < $W/time
  printf '%-22s %7.2f s %6d MB  %s | %s | %s\n' "$1" "$wall" $((rss/1024)) \
    "$(grep -E '^  pages +[0-9]+ reused' $W/log | sed 's/  */ /g')" \
    "$(grep -E 'not scanned again' $W/log | sed 's/  */ /g' | cut -c1-40)" \
    "$(grep -E '^  (hugo|secrets-out|export|pages|api|parse|similar|cache\+search) ' $W/log | awk '{printf "%s %s ", $1, $2}')"
}
# A pattern cited by 300 episodes: the first pattern's evidence lists them.
mapfile -t PS < <(ls $R/patterns/PATTERN-*.md); P=${PS[0]}
mapfile -t EPS < <(find $R/episodes -name 'EPISODE-*.md' | sort)
for f in "${EPS[@]:0:300}"; do
  echo "- [[$(basename "$f" .md)]] - success" >> "$P"
done
commit "bench: a pattern cited by 300 episodes"
step "full (empty store)"
step "again, no change"
E1=${EPS[499]}
sed -i 's/^## Context$/## Context\n\nOne more line, edited./' "$E1"; commit "one note"
step "one note edited"
sed -i 's/^## Action$/## Action\n\nCheck first./' "$P"; commit "one pattern"
step "hub pattern's action"
sed -i "s/^trigger: .*/trigger: when the benchmark edits it/" "$P"; commit "one trigger"
step "hub pattern's trigger"
printf 'title = "Bench memory"\n' > $R/engram.toml; git -C $R add engram.toml; commit "engram.toml"
step "engram.toml title"
commit "nothing"
step "empty commit (time)"
s0=$(date +%s.%N); $BIN search --repo $R "stale cache" > /dev/null 2>&1; s1=$(date +%s.%N)
$BIN search --repo $R "stale cache" > /dev/null 2>&1; s2=$(date +%s.%N)
printf '%-22s %7.2f s\n%-22s %7.2f s\n' "search, first" "$(echo "$s1-$s0" | bc)" "search, warm" "$(echo "$s2-$s1" | bc)"
echo "output: $(find $W/out -type f | wc -l) files, $(du -sm $W/out | cut -f1) MB"
