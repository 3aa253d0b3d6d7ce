#!/usr/bin/env bash
# Makes the Lucene reference fixtures under tests/fixtures/lucene/ with real Lucene 8
# (Debian: apt-get install -y default-jdk-headless liblucene8-java: Lucene 8.8.1, whose jars are
# named *-8.7.0.jar under /usr/share/java). Not needed by the tests, which read the committed
# outputs: smallfloat.json (length norms), codepoints.tsv (StandardTokenizer on every code point),
# tokens-ANALYZER.jsonl (the hand-written tricky-text.txt analysed), queries-CORPUS.txt and
# top20-CORPUS-ANALYZER.jsonl (top-20 lists with scores).
#
#   bash tests/reference/lucene_fixtures.sh            # tokens + smallfloat + both shipped corpora
#   LUCENE_QUERIES=100 bash tests/reference/lucene_fixtures.sh
#
# Corpora: the shipped SemEval-2016 files (3, datasets/) and the cstheory-meta Stack Exchange dump are imported
# into a scratch workspace with `qpairs import`, written back with `qpairs corpus export --format
# tsv` (the texts exactly as QPairs stores and indexes them), and searched by LuceneReference.java.
# Queries: LUCENE_QUERIES (default 100) ids spread evenly over each corpus's questions with text.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
data="${QPAIRS_DATA:-$root/datasets}"
out="$root/tests/fixtures/lucene"
jars=/usr/share/java/lucene-core-8.7.0.jar:/usr/share/java/lucene-analyzers-common-8.7.0.jar
n="${LUCENE_QUERIES:-100}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out" "$tmp/classes"
javac -d "$tmp/classes" -cp "$jars" "$here/LuceneReference.java"
run() { java -Xmx2g -cp "$tmp/classes:$jars" LuceneReference "$@"; }
analyzers="lucene-standard lucene-standard-stop lucene-english"

run smallfloat "$out/smallfloat.json"
run codepoints "$out/codepoints.tsv"
for a in $analyzers; do run tokens "$a" "$out/tricky-text.txt" "$out/tokens-$a.jsonl"; done

qpairs() { (cd "$root" && npx qpairs "$@"); }
corpus() { # name, import args…
  local name="$1"; shift
  local ws="$tmp/$name.qpairs"
  qpairs init "$ws" >/dev/null
  qpairs import "$ws" "$@" >/dev/null
  qpairs corpus export "$ws" --format tsv "$tmp/$name.tsv" >/dev/null
  # n query ids spread evenly over the corpus (questions with some text)
  awk -F'\t' -v n="$n" 'NR==FNR { if ($2 != "" || $3 != "") t++; next } ($2 != "" || $3 != "") { i++; if ((i - 1) % int(t / n) == 0 && c < n) { print $1; c++ } }' "$tmp/$name.tsv" "$tmp/$name.tsv" > "$out/queries-$name.txt"
  for a in $analyzers; do run search "$a" "$tmp/$name.tsv" "$out/queries-$name.txt" 20 "$out/top20-$name-$a.jsonl"; done
}
if [ -d "$data/semeval2016-task3" ]; then
  corpus semeval --format semeval "$data"/semeval2016-task3/SemEval2016-Task3-CQA-QL-{train-part1.v2.0,train-part2,dev}.xml.gz
fi
if [ -d "$data/stackexchange-cstheory-meta" ]; then
  corpus cstheory-meta --format stackexchange "$data/stackexchange-cstheory-meta"
fi
ls -l "$out"
