/** stackexchange: a Stack Exchange data dump's Posts.xml and PostLinks.xml. */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { QPairsError } from '../errors';
import { AnswerPositions } from '../workspace/workspace-corpus';
import { IdLines, putAnswer, putQuestion } from './questions';
import { fileError } from './reader';
import { collapseWhitespace, htmlToText, parseTags } from './text';
import { parseRowsXml } from './xml-rows';
import type { ImportContext, Importer } from './types';

function isLinksFile(file: string): boolean {
  return /postlinks/i.test(path.basename(file));
}

/**
 * Posts.xml rows with PostTypeId=1 → questions: Title; Body HTML as plain text (tags stripped,
 * entities decoded, code text kept, whitespace collapsed); Tags `<a><b>` or `|a|b|`; author =
 * OwnerUserId, else OwnerDisplayName; created = CreationDate; source = opts.source ??
 * `stackexchange`. Rows with PostTypeId=2 → answers (unlabeled text for the models) of their
 * ParentId: Body as plain text as above, same author/created/source; an answer whose question
 * is not a question of the dump is skipped and counted (`skipped.answerToMissingQuestion`), an
 * empty one counted as `skipped.emptyAnswer`. Other post types (tag wikis, …) are counted as
 * `skipped.notAQuestion`. An answer read before its question (possible after merges; dumps are
 * in Id order) waits in a temporary table until all Posts files are read.
 *
 * PostLinks.xml rows with LinkTypeId=3 → duplicate pairs (PostId is marked a duplicate of
 * RelatedPostId). A link naming a post that is not a question of the dump is skipped and counted
 * (`skipped.linkToMissingQuestion`); other link types are counted as `skipped.notDuplicateLink`.
 * "The dump" is the Posts files of the same import; a PostLinks file imported alone is checked
 * against the workspace's questions instead.
 *
 * Arguments: the two files, or the folder holding them; Posts files are read before PostLinks
 * files (told apart by name, checked by their root element). Both are streamed (./xml-rows.ts: a
 * row scanner, with saxes for whatever else the files hold); the only per-post memory kept is
 * the map of question ids (with their line, to report a repeated id; answers are not kept), i.e.
 * one string + number per question (about 100 bytes each: ~2.5 GB for Stack Overflow's 24 M
 * questions, a few MB for most sites), plus the next answer position of at most 65,536 of the
 * questions inserted last (AnswerPositions: new answers to them are one INSERT each).
 */
export const stackexchange: Importer = {
  name: 'stackexchange',
  description: 'Stack Exchange data dump: Posts.xml and PostLinks.xml (or the folder holding them)',
  expandFiles(files) {
    const out: string[] = [];
    for (const f of files) {
      let dir = false;
      try {
        dir = statSync(f).isDirectory();
      } catch {
        dir = false;
      }
      if (!dir) {
        out.push(f);
        continue;
      }
      const pick = (names: string[]): string | null => names.map((n) => path.join(f, n)).find((p) => existsSync(p)) ?? null;
      const posts = pick(['Posts.xml', 'posts.xml', 'Posts.xml.gz', 'posts.xml.gz']);
      const links = pick(['PostLinks.xml', 'postlinks.xml', 'PostLinks.xml.gz', 'postlinks.xml.gz']);
      if (!posts && !links) throw new QPairsError(`${f}: the folder holds neither Posts.xml nor PostLinks.xml`, { file: f });
      if (posts) out.push(posts);
      if (links) out.push(links);
    }
    return [...out.filter((f) => !isLinksFile(f)), ...out.filter(isLinksFile)];
  },
  async run(ctx, files) {
    checkLinksGiven(ctx, files);
    const dumps: IdLines[] = [];
    const positions = new AnswerPositions();
    const pending = new PendingAnswers(ctx, positions);
    try {
      for (const file of files) {
        if (isLinksFile(file)) pending.resolve(dumps);
        await importDumpFile(ctx, file, dumps, pending, positions);
        ctx.endFile();
      }
      pending.resolve(dumps);
    } finally {
      pending.drop();
    }
  },
};

/**
 * Posts without a PostLinks file bring no duplicate links — usually a folder missing its
 * PostLinks.xml, or a file left off the command line: a warning (an error with opts.strict,
 * before anything is read). A PostLinks file alone is fine (checked against the workspace).
 */
function checkLinksGiven(ctx: ImportContext, files: readonly string[]): void {
  if (files.length === 0 || files.some(isLinksFile)) return;
  const dir = path.dirname(files[0]!);
  const what = `no PostLinks.xml in ${dir} (nor among the files given), so no duplicate links would be imported`;
  if (ctx.opts.strict) throw new QPairsError(`${dir}: ${what} (--strict)`, { file: dir, reason: what });
  ctx.warn(`${dir}: no PostLinks.xml in the folder (nor among the files given): no duplicate links were imported (--strict makes this an error)`);
}

interface AnswerRow {
  id: string;
  questionId: string;
  source: string;
  body: string;
  author: string | null;
  created: string | null;
}

/**
 * Answers read before their question: kept in a TEMP table (on disk, not in memory) until every
 * Posts file has been read, then stored when their question turned up, else counted as skipped.
 */
class PendingAnswers {
  private created = false;
  private example = '';
  constructor(
    private readonly ctx: ImportContext,
    private readonly positions: AnswerPositions,
  ) {}

  add(a: AnswerRow, file: string, line: number): void {
    const db = this.ctx.ws.db;
    if (!this.created) {
      db.exec(`CREATE TEMP TABLE IF NOT EXISTS qp_pending_answers (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, question_id TEXT NOT NULL,
        source TEXT NOT NULL, body TEXT NOT NULL, author TEXT, created TEXT, file TEXT NOT NULL, line INTEGER NOT NULL)`);
      db.exec(`DELETE FROM temp.qp_pending_answers`);
      this.created = true;
    }
    db.prepare(`INSERT INTO temp.qp_pending_answers(id, question_id, source, body, author, created, file, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(
      a.id,
      a.questionId,
      a.source,
      a.body,
      a.author,
      a.created,
      file,
      line,
    );
  }

  /** Stores the waiting answers whose question is in the dump; skips (and counts) the others. */
  resolve(dumps: readonly IdLines[]): void {
    if (!this.created) return;
    const db = this.ctx.ws.db;
    type Row = { seq: number; id: string; question_id: string; source: string; body: string; author: string | null; created: string | null; file: string; line: number };
    // In pages: better-sqlite3 runs no other statement while an iterator is open.
    const page = db.prepare(`SELECT * FROM temp.qp_pending_answers WHERE seq > ? ORDER BY seq LIMIT 500`);
    for (let after = 0; ; ) {
      const rows = page.all(after) as Row[];
      if (rows.length === 0) break;
      for (const r of rows) {
        after = r.seq;
        if (dumps.some((d) => d.has(r.question_id))) {
          putAnswer(this.ctx, { id: r.id, questionId: r.question_id, source: r.source, body: r.body, author: r.author, created: r.created }, { file: r.file, line: r.line }, this.positions);
        } else {
          this.ctx.skip('answerToMissingQuestion');
          if (!this.example) this.example = `${r.file}, line ${r.line}: answer ${r.id} to ${r.question_id}`;
        }
      }
    }
    db.exec(`DELETE FROM temp.qp_pending_answers`);
    if (this.example) {
      this.ctx.warn(`answers to a post that is not a question of the dump were skipped (e.g. ${this.example})`);
      this.example = '';
    }
  }

  drop(): void {
    if (this.created) this.ctx.ws.db.exec(`DROP TABLE IF EXISTS temp.qp_pending_answers`);
    this.created = false;
  }
}

async function importDumpFile(ctx: ImportContext, file: string, dumps: IdLines[], pending: PendingAnswers, positions: AnswerPositions): Promise<void> {
  const source = ctx.opts.source?.trim() || 'stackexchange';
  let root: 'posts' | 'postlinks' | null = null;
  let depth = 0;
  const ids = new IdLines(file);
  const isQuestion = (id: string): boolean => (dumps.length > 0 ? dumps.some((d) => d.has(id)) : ctx.ws.docOf(id) !== null);
  let missingExample = '';

  await parseRowsXml(ctx, file, {
    open(name, a, line) {
      depth++;
      if (depth === 1) {
        const n = name.toLowerCase();
        if (n !== 'posts' && n !== 'postlinks') throw fileError(file, line, `root element <${name}> is neither <posts> nor <postlinks>`);
        root = n;
        if (root === 'posts') dumps.push(ids);
        return;
      }
      if (depth !== 2 || name !== 'row') return;
      if (root === 'posts') {
        const id = a.Id?.trim();
        if (!id) throw fileError(file, line, 'post row without Id');
        if (a.PostTypeId === '2') {
          const parent = a.ParentId?.trim();
          if (!parent) throw fileError(file, line, `answer ${id} without ParentId`);
          const body = htmlToText(a.Body ?? '');
          if (!body) ctx.skip('emptyAnswer');
          else {
            const answer: AnswerRow = {
              id,
              questionId: parent,
              source,
              body,
              author: a.OwnerUserId?.trim() || a.OwnerDisplayName?.trim() || null,
              created: a.CreationDate?.trim() || null,
            };
            if (dumps.some((d) => d.has(parent))) putAnswer(ctx, answer, { file, line }, positions);
            else pending.add(answer, file, line);
          }
          ctx.tick();
          return;
        }
        if (a.PostTypeId !== '1') {
          ctx.skip('notAQuestion');
          ctx.tick();
          return;
        }
        ids.add(id, line);
        putQuestion(ctx, {
          id,
          source,
          title: collapseWhitespace(a.Title ?? ''),
          body: htmlToText(a.Body ?? ''),
          tags: parseTags(a.Tags ?? ''),
          author: a.OwnerUserId?.trim() || a.OwnerDisplayName?.trim() || null,
          created: a.CreationDate?.trim() || null,
        }, { file, line }, positions);
      } else {
        const from = a.PostId?.trim();
        const to = a.RelatedPostId?.trim();
        if (!from || !to) throw fileError(file, line, 'link row without PostId or RelatedPostId');
        if (a.LinkTypeId !== '3') ctx.skip('notDuplicateLink');
        else if (from === to) ctx.skip('selfLink');
        else if (!isQuestion(from) || !isQuestion(to)) {
          ctx.skip('linkToMissingQuestion');
          if (!missingExample) missingExample = `line ${line}: ${from} → ${to}`;
        } else ctx.count(ctx.ws.addDuplicatePair(from, to, source) ? 'duplicatePairs' : 'duplicatePairsKnown');
      }
      ctx.tick();
    },
    close() {
      depth--;
    },
  });
  if (missingExample) {
    ctx.warn(`${file}: duplicate links naming a post that is not a question ${dumps.length ? 'of the dump' : 'in the workspace'} were skipped (e.g. ${missingExample})`);
  }
}
