#!/usr/bin/env bash
# SemEval-2016 Task 3 subtask B through the app (the `qpairs` CLI), to compare with the
# standalone benchmark scripts/bench/semeval-models.ts: imports the three SemEval files into a
# fresh workspace (pools train1, train2, dev), trains every model on train1 + train2 with dev as
# the dev pool (best epoch by dev MRR kept), scores dev, and prints `qpairs eval --convention zero`.
#
#   bash scripts/bench/semeval-app.sh [DATA_DIR] [WORKSPACE]
#
# DATA_DIR defaults to datasets/semeval2016-task3 (the shipped files, .xml or .xml.gz); WORKSPACE to
# a new file under $TMPDIR (an existing file is replaced). MODELS="skipgram lstm" picks a subset.
# Needs the Node bundle (npm run build:node).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
data="${1:-$root/datasets/semeval2016-task3}"
ws="${2:-${TMPDIR:-/tmp}/qpairs-semeval-app-$$.qpairs}"
models="${MODELS:-skipgram lstm gru rcnn cnn bow-cnn tfidf ltr}"
node="$root/node_modules/.bin/node"
[ -x "$node" ] || node=node
q() { "$node" "$root/bin/qpairs.mjs" "$@"; }

# The file itself, or its gzip-compressed copy (QPairs reads both).
file() { if [ -f "$data/$1" ]; then echo "$data/$1"; elif [ -f "$data/$1.gz" ]; then echo "$data/$1.gz"; else echo "missing $data/$1(.gz)" >&2; exit 1; fi; }
train1="$(file SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml)"
train2="$(file SemEval2016-Task3-CQA-QL-train-part2.xml)"
dev="$(file SemEval2016-Task3-CQA-QL-dev.xml)"
rm -f "$ws" "$ws-wal" "$ws-shm"
q init "$ws"
q import "$ws" --format semeval --pool train1 "$train1"
q import "$ws" --format semeval --pool train2 "$train2"
q import "$ws" --format semeval --pool dev "$dev"
q stats "$ws"
for m in $models; do
  start=$(date +%s)
  q train "$ws" --model "$m" --name "$m" --train-pool train1 --train-pool train2 --dev-pool dev
  echo "# $m: $(( $(date +%s) - start )) s"
done
q eval "$ws" --pool dev --convention zero
echo "workspace: $ws"
