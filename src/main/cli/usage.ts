/**
 * The CLI's usage text, one entry per command: `qpairs CMD --help` prints that command's entry,
 * `qpairs --help` all of them. One table, so the two can never disagree.
 */
import { IMPORT_FORMATS } from '../../shared/contract';
import { EXPORT_FORMATS } from '../../shared/gold';
import { MODEL_KINDS } from '../../shared/models';
import { QUERY_ORDERS } from '../../shared/label-order';

const ANALYZERS = 'lucene-standard-stop|lucene-standard|lucene-english';

export const COMMAND_USAGE: Readonly<Record<string, string>> = {
  init: `  qpairs init W                          create workspace file W`,
  import: `  qpairs import W --format F FILE…       import files (formats: ${IMPORT_FORMATS.join(', ')})
        [--pool P] [--annotator A] [--scheme binary|semeval3|likert5|graded] [--source S] [--json]
        [--update]   replace questions whose id the workspace holds from another source
        [--strict]   questionable input (unknown qrels or labels queries, no PostLinks.xml, …) is an error
        FILE may be gzip-compressed (.gz); stackexchange takes the dump's folder or its files
        or the site's archive as downloaded (X.7z, .zip, .tar.gz; no 7-Zip program needed);
        its default --source is the site (cardano.stackexchange.com.7z → cardano), else stackexchange
  qpairs import undo W [--json]           undo the last finished import that changed something (until another import changes something:
        one that fails, is cancelled or changes nothing leaves it undoable); keeps rows that later work refers to and skips rows changed since, and says which;
        Ctrl-C or a kill stops it partway: the next command that writes to W finishes it (a command that only reads leaves it, saying so)`,
  pool: `  qpairs pool create W --name P (--queries FILE | --sample N --seed S) [--depth 20] [--scheme binary|semeval3|likert5|graded] [--blind true|false]
        --queries FILE: the query ids, one per line (or separated by spaces or commas); --sample N --seed S: a seeded random sample
        [--source S]   queries and candidates from one corpus only (default: all sources mix)
        [--analyzer ${ANALYZERS}]   BM25 analysis for this pool (default: the workspace's)
        [--order ${QUERY_ORDERS.join('|')}] [--order-seed S]   which query annotators get next (default pool)
        [--convention zero|skip]   how eval treats a query without a similar candidate, unless told (default zero)
        [--json]
  qpairs pool set W --pool P [--blind true|false] [--order O] [--order-seed S] [--convention zero|skip] [--guidelines FILE] [--json]
        --blind: annotators label blind (default) or see scores and others' labels
        --guidelines FILE: the pool's labeling guidelines, FILE's Markdown text (an empty file clears them): annotators see them, every export's datasheet carries them
        --order: which query annotators get next: ${QUERY_ORDERS.join(', ')}; decide-rankers-mtc gives one candidate at a time (see README, "Labeling order")
  qpairs pool list W [--json]`,
  stats: `  qpairs stats W [--json]`,
  eval: `  qpairs eval W --pool P [--convention skip|zero] [--annotator A|@aggregate]
        [--ties pool-order|trec-eval] [--threshold 1] [--partial] [--json]
        (fully labeled queries only unless --partial; default labels: gold if the pool has any, else @aggregate (gold while no one has labeled the pool);
         default convention: the pool's own — SemEval imports zero, AskUbuntu pools skip, own pools as created)
        [--compare R1,R2[,…] [--metric AP|RR|P@1|P@5|R-Prec] [--bootstrap N] [--permutations N] [--seed S] [--baseline R]]`,
  annotators: `  qpairs annotators list W [--json]
  qpairs annotators add W NAME… [--role annotator|judge|owner, or system|gold for a label source] [--json]
  qpairs annotators role W NAME ROLE [--json]
  qpairs annotators invite W NAME [--role annotator|judge|owner] [--url http://HOST:PORT] [--json]
        a fresh token for NAME (created when new; an earlier token is revoked; without --role an existing person keeps theirs), printed once with a link;
        only a salted hash is stored. When a server holds W, invite in its Team panel instead
  qpairs annotators revoke W NAME [--json]     NAME's tokens stop working (labels and role stay)`,
  assign: `  qpairs assign W --pool P --annotators A,B[,C] [--per-query K --seed S] [--json]
        full overlap, or K annotators per query (balanced, drawn with seed S: --per-query needs --seed, so the assignment can be reproduced)
        the list replaces the earlier assignment (to add someone, list everyone: those left out no longer vote, and a note says so)`,
  label: `  qpairs label W --pool P --annotator A --query Q --candidate C (--value V | --clear) [--json]
        V: one of the pool's scheme's labels (binary 1, 0; semeval3 PerfectMatch, Relevant, Irrelevant or 2, 1, 0; …) or ? (unsure); --clear removes the label and its note
        a judge's label is a ruling that settles a pair in dispute (qpairs adjudicate lists them), refused on a pair not in dispute,
        on one the judge voted on before judging the pool, and as ?`,
  agreement: `  qpairs agreement W --pool P [--annotators A,B,…] [--queries Q,…] [--bootstrap N --seed S] [--json]
        percent agreement, Cohen's kappa per pair (unweighted, linear, quadratic), Fleiss' kappa, Krippendorff's alpha, Gwet's AC1, PSA/NSA,
        each with a 95% CI by bootstrap over queries (default 1000 resamples, seed 1); default: all of the pool's annotators and queries
        no pair labeled by two of the annotators: the report is printed and agreement fails (exit 1), saying what is missing`,
  aggregate: `  qpairs aggregate W --pool P [--rule adjudicated|majority|mean|unanimous] [--threshold T] [--json]
        how the annotators' labels combine into the gold (@aggregate), which eval and export use when the pool has no imported gold labels;
        without --rule or --threshold it shows the pool's rule and counts; --rule sets it (kept with the pool); --threshold: the mean rule's`,
  adjudicate: `  qpairs adjudicate W --pool P [--judge J] [--all] [--limit N] [--json]
        the disagreements and "?" votes not yet settled, those that can move the runs' MAP most first (--all: settled ones too; --limit N: the first N);
        a judge settles one by labeling it as the judge: qpairs label W --pool P --annotator JUDGE … (printed in full under the list while pairs remain)`,
  export: `  qpairs export W --pool P --format F OUT [--run R] [--annotator A|@aggregate] [--no-text] [--pseudonymize] [--force] [--json]
        existing files are never replaced unless --force
        --pseudonymize: every person's name in every file (labels, votes, judges, notes, datasheet) as A1, A2, … (the same in every export of the workspace)
        formats: ${EXPORT_FORMATS.join(', ')} (each with a datasheet OUT.datasheet.md; hf-dataset: OUT/README.md)
        question text included (jsonl/csv columns, askubuntu also OUT without its extension + .corpus.txt: dev.txt → dev.corpus.txt) unless --no-text; hf-dataset: OUT is a folder
        trec-run without --run: one file per run of the pool, OUT-stem.RUN.ext (dev.run → dev.bm25.run), OUT itself when it has one run
        --run only with askubuntu, semeval-relevancy (default: the pool's first run) and trec-run`,
  train: `  qpairs train W --model M --name NAME [--train-pool P]… [--dev-pool P] [--keep-overlap] [--epochs E] [--seed S]
        [--cv K [--repeats R]]    grouped K-fold cross-validation (near-duplicates kept in one fold), CV MAP with 95% CI
        training queries that are dev queries (same id, text or near-duplicate) are dropped unless --keep-overlap
        [--config JSON] [--vectors word2vec.txt] [--json]    M in ${MODEL_KINDS.join(', ')}
        [--max-extra-texts N] [--max-extra-chars N]   answers used as unlabeled text (default 100000, 20000000)`,
  score: `  qpairs score W --model NAME --pool P [--json]      store NAME's scores as a run of pool P`,
  models: `  qpairs models list W [--json]
  qpairs models delete W NAME [--json]   the model and the runs it scored`,
  serve: `  qpairs serve W [--port 5180] [--host 127.0.0.1] [--require-tokens] [--tokens-file FILE] [--max-trainings 1] [--max-upload-mb 2048]
        the app in a browser on http://HOST:PORT; loopback callers without a token are the owner unless --require-tokens;
        any other host requires tokens: people invited with \`qpairs annotators invite\` (or the Team panel)
        sign in with their links; --tokens-file FILE adds NAME=SECRET lines held in memory only, read
        again whenever the file changes (remove a line to revoke that person at once)
        (--token NAME=SECRET still works, with a warning: secrets show in ps and shell history)
        --max-trainings N: model trainings that run at once (default 1); more wait, shown as queued
        --max-upload-mb N: the largest file an owner may upload to import, in MiB (default 2048)
        (see README, "Running a team" and "Security model")`,
  corpus: `  qpairs corpus export W --format tsv|jsonl OUT [--source S] [--force] [--json]   the questions' texts as indexed (OUT - : stdout)
        an existing OUT is never replaced unless --force
  qpairs corpus index W [--analyzer ${ANALYZERS}] [--json]   rebuild the BM25 index`,
};

/** The commands that take a subcommand, with theirs: errors name the full subcommand (`qpairs pool create: …`). */
export const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  import: ['undo'],
  pool: ['create', 'list', 'set'],
  annotators: ['list', 'add', 'role', 'invite', 'revoke'],
  models: ['list', 'delete'],
  corpus: ['export', 'index'],
};

/** How errors and the usage hint name the command argv runs: `pool create` for a known subcommand, else `pool`. */
export function commandName(cmd: string, sub: string | undefined): string {
  return sub !== undefined && SUBCOMMANDS[cmd]?.includes(sub) ? `${cmd} ${sub}` : cmd;
}

const FOOTER = `exit codes: 0 ok, 1 error (bad input, missing pool…; nothing to evaluate, export or measure: eval, export, agreement; also a QPairs bug, printed as "internal error:" with its stack trace), 2 usage error, 130 cancelled
one process writes to a workspace at a time (lock file W.lock); a read-only workspace opens read-only`;

/** Every command's usage: what `qpairs --help` prints. */
export const USAGE = `qpairs — build and evaluate similar-question datasets

usage:
${Object.values(COMMAND_USAGE).join('\n')}

import formats: ${IMPORT_FORMATS.join(', ')}
export formats: ${EXPORT_FORMATS.join(', ')} (each with a datasheet OUT.datasheet.md; hf-dataset: OUT/README.md)
${FOOTER}
"qpairs COMMAND --help" prints one command's usage; "qpairs --version" the version and workspace schema`;

/** One command's usage: what `qpairs CMD --help` prints. */
export function commandUsage(cmd: string): string {
  return `usage:\n${COMMAND_USAGE[cmd]}\n\n${FOOTER}`;
}

/**
 * One subcommand's usage: what `qpairs pool create --help` prints — its lines of the command's entry
 * (they printed every pool command's), and where the others are.
 */
export function subcommandUsage(cmd: string, sub: string): string {
  const own: string[] = [];
  let mine = false;
  for (const line of (COMMAND_USAGE[cmd] ?? '').split('\n')) {
    if (/^ {2}qpairs /.test(line)) mine = line.startsWith(`  qpairs ${cmd} ${sub} `);
    if (mine) own.push(line);
  }
  if (own.length === 0) return commandUsage(cmd);
  return `usage:\n${own.join('\n')}\n(every ${cmd} command: "qpairs ${cmd} --help")\n\n${FOOTER}`;
}

/** True when argv asks for help (`--help` or `-h` before any `--`). */
export function asksForHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}
