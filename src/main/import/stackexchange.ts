/** stackexchange: a Stack Exchange data dump's Posts.xml and PostLinks.xml. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { QPairsError } from '../errors';
import { AnswerPositions } from '../workspace/workspace-corpus';
import { IdLines, putAnswer, putQuestion } from './questions';
import { archiveKind, ArchiveReads, listArchive, memberPath, siteOfFile, splitMemberPath, takeMemberFailure, type ArchiveEntry } from './archive';
import { fileError } from './reader';
import { readDumpRows } from './dump-parse-client';
import { optionName, type ImportContext, type Importer } from './types';

/** The names of a dump's PostLinks file a folder import reads (the first there). */
const LINKS_NAMES = ['PostLinks.xml', 'postlinks.xml', 'PostLinks.xml.gz', 'postlinks.xml.gz'];

function isLinksFile(file: string): boolean {
  return /postlinks/i.test(path.basename(file));
}

/**
 * The dump's members of an archive: its Posts.xml and PostLinks.xml (found by name, any case, at
 * the root as the dump site ships them or in a folder), as member paths. Errors: neither is
 * there, or one of them twice (then the member path names the one to read).
 */
function dumpMembers(archive: string, entries: readonly ArchiveEntry[]): string[] {
  const out: string[] = [];
  for (const want of ['posts.xml', 'postlinks.xml']) {
    const found = entries.filter((e) => path.posix.basename(e.name).toLowerCase() === want);
    if (found.length > 1) {
      throw new QPairsError(`${archive}: holds ${found.length} files named ${want} (${found.map((e) => e.name).join(', ')}); name the one to import as ${memberPath(archive, found[0]!.name)}`, {
        file: archive,
      });
    }
    if (found[0]) out.push(memberPath(archive, found[0].name));
  }
  if (out.length === 0) {
    const names = entries.slice(0, 10).map((e) => e.name);
    const held = entries.length ? `it holds ${names.join(', ')}${entries.length > names.length ? ', …' : ''}` : 'it holds no files';
    throw new QPairsError(`${archive}: the archive holds neither Posts.xml nor PostLinks.xml (${held})`, { file: archive });
  }
  return out;
}

/**
 * The import's question source: opts.source, else the site the files' names say (siteOfFile:
 * `cardano.stackexchange.com.7z` or the folder `cardano.stackexchange.com` → `cardano`), else
 * `stackexchange`. Files naming different sites need an explicit source (an error otherwise), so
 * two sites never share a source by accident.
 */
function dumpSource(ctx: ImportContext, files: readonly string[]): string {
  const given = ctx.opts.source?.trim();
  if (given) return given;
  const sites = new Map<string, string>();
  for (const f of files) {
    const site = siteOfFile(f);
    if (site && !sites.has(site)) sites.set(site, f);
  }
  if (sites.size > 1) {
    const list = [...sites].map(([site, f]) => `${site} (${f})`).join(', ');
    throw new QPairsError(`the files come from different sites: ${list}; import them one site at a time, or give the source (${optionName(ctx, 'source')})`, { reason: 'different sites' });
  }
  return sites.keys().next().value ?? 'stackexchange';
}

/**
 * Posts.xml rows with PostTypeId=1 → questions: Title; Body HTML as plain text (tags stripped,
 * entities decoded, code text kept, whitespace collapsed); Tags `<a><b>` or `|a|b|`; author =
 * OwnerUserId, else OwnerDisplayName; created = CreationDate; source = opts.source, else the
 * site named by the archive, file or folder name (`cardano.stackexchange.com.7z` → `cardano`; see
 * dumpSource), else `stackexchange`. Rows with PostTypeId=2 → answers (unlabeled text for the models) of their
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
 * Arguments: the two files, the folder holding them, or the site's archive as the dump site ships
 * it (`site.stackexchange.com.7z`; also `.zip`, `.tar`, `.tar.gz`/`.tgz`; Stack Overflow's
 * per-file `stackoverflow.com-Posts.7z` + `stackoverflow.com-PostLinks.7z`), whose Posts.xml and
 * PostLinks.xml are streamed out of it (./archive.ts; other members such as Tags.xml are not
 * read: tags come from the posts' Tags attribute). Posts files are read before PostLinks
 * files (told apart by name, checked by their root element). Both are streamed (./xml-rows.ts: a
 * row scanner, with saxes for whatever else the files hold), parsed and their HTML turned into text
 * on a worker thread beside this one, which writes the rows (./dump-parse-client.ts); the only
 * per-post memory kept is the map of question ids (with their line, to report a repeated id; answers are not kept), i.e.
 * one string + number per question (about 100 bytes each: ~2.5 GB for Stack Overflow's 24 M
 * questions, a few MB for most sites), plus the next answer position of at most 65,536 of the
 * questions inserted last (AnswerPositions: new answers to them are one INSERT each).
 */
export const stackexchange: Importer = {
  name: 'stackexchange',
  description: "Stack Exchange data dump: Posts.xml and PostLinks.xml, the folder holding them, or the site's archive (.7z, .zip, .tar.gz)",
  async expandFiles(files, signal) {
    const out: string[] = [];
    for (const f of files) {
      const member = splitMemberPath(f);
      if (member) {
        const entries = await listArchive(member.archive, signal);
        if (!entries.some((e) => e.name === member.member)) {
          throw new QPairsError(`${member.archive}: holds no member ${member.member}`, { file: f, reason: `no member ${member.member}` });
        }
        out.push(f);
        continue;
      }
      let dir = false;
      let file = false;
      try {
        const st = statSync(f);
        dir = st.isDirectory();
        file = st.isFile();
      } catch {
        dir = false;
      }
      if (file && archiveKind(f)) {
        out.push(...dumpMembers(f, await listArchive(f, signal)));
        continue;
      }
      if (!dir) {
        out.push(f);
        continue;
      }
      const pick = (names: string[]): string | null => names.map((n) => path.join(f, n)).find((p) => existsSync(p)) ?? null;
      const posts = pick(['Posts.xml', 'posts.xml', 'Posts.xml.gz', 'posts.xml.gz']);
      const links = pick(LINKS_NAMES);
      if (!posts && !links) throw new QPairsError(`${f}: the folder holds neither Posts.xml nor PostLinks.xml`, { file: f });
      if (posts) out.push(posts);
      if (links) out.push(links);
    }
    // A file named twice (an archive and one of its members, a folder and its file) is read once.
    const once = [...new Set(out)];
    return [...once.filter((f) => !isLinksFile(f)), ...once.filter(isLinksFile)];
  },
  async run(ctx, files) {
    await checkLinksGiven(ctx, files);
    const source = dumpSource(ctx, files);
    const dumps: IdLines[] = [];
    const positions = new AnswerPositions();
    const pending = new PendingAnswers(ctx, positions);
    // Posts.xml and PostLinks.xml of one archive: unpacked in one 7-Zip run.
    const reads = new ArchiveReads(files, ctx.signal);
    ctx.archiveReads = reads;
    try {
      for (const file of files) {
        if (isLinksFile(file)) pending.resolve(dumps);
        await importDumpFile(ctx, file, source, dumps, pending, positions);
        ctx.endFile();
      }
      pending.resolve(dumps);
    } finally {
      ctx.archiveReads = undefined;
      await reads.close();
      pending.drop();
    }
  },
};

/**
 * Posts without a PostLinks file bring no duplicate links — a folder or archive missing its
 * PostLinks.xml, or a file left off the command line: a warning (an error with opts.strict,
 * before anything is read). Which one it is, the warning says: a PostLinks file lying in the Posts
 * file's folder (or archive, or beside a per-file archive) was there but not given — a folder given
 * as a whole would have brought it (expandFiles) — and is named. A PostLinks file alone is fine
 * (checked against the workspace).
 */
async function checkLinksGiven(ctx: ImportContext, files: readonly string[]): Promise<void> {
  if (files.length === 0 || files.some(isLinksFile)) return;
  const left = await linksLeftOut(files[0]!, ctx.signal);
  if (left) {
    const what = `${left.name} is in the ${left.place} but was not given: ${left.hint}`;
    if (ctx.opts.strict) throw new QPairsError(`${left.where}: ${what}; no duplicate links would be imported (${optionName(ctx, 'strict')})`, { file: left.where, reason: what });
    ctx.warn(`${left.where}: ${what}; no duplicate links were imported (${optionName(ctx, 'strict')} makes this an error)`);
    return;
  }
  const member = splitMemberPath(files[0]!);
  if (!member && ctx.opts.uploads?.has(files[0]!)) {
    // An uploaded Posts file: its folder on the server holds nothing else; the PostLinks file was not uploaded with it.
    const what = 'no PostLinks.xml among the files uploaded: upload the dump\'s PostLinks.xml (or .xml.gz) with it to import its duplicate links';
    if (ctx.opts.strict) throw new QPairsError(`${files[0]!}: ${what} (${optionName(ctx, 'strict')})`, { file: files[0]!, reason: what });
    ctx.warn(`${files[0]!}: ${what}; no duplicate links were imported (${optionName(ctx, 'strict')} makes this an error)`);
    return;
  }
  const where = member?.archive ?? path.dirname(files[0]!);
  const place = member ? 'archive' : 'folder';
  const what = `no PostLinks.xml in ${where} (nor among the files given), so no duplicate links would be imported`;
  if (ctx.opts.strict) throw new QPairsError(`${where}: ${what} (${optionName(ctx, 'strict')})`, { file: where, reason: what });
  ctx.warn(`${where}: no PostLinks.xml in the ${place} (nor among the files given): no duplicate links were imported (${optionName(ctx, 'strict')} makes this an error)`);
}

/**
 * A PostLinks file where the dump's Posts file (`posts`: a file, or an archive member) came from
 * but not given: in its folder (the names a folder import reads), in its archive (a member path
 * named alone), or beside its archive (Stack Overflow's per-file `…-PostLinks.7z`). Null if none.
 */
async function linksLeftOut(posts: string, signal?: AbortSignal): Promise<{ where: string; place: string; name: string; hint: string } | null> {
  const member = splitMemberPath(posts);
  if (!member) {
    const dir = path.dirname(posts);
    const name = LINKS_NAMES.find((n) => existsSync(path.join(dir, n)));
    return name ? { where: dir, place: 'folder', name, hint: 'give the folder to import both' } : null;
  }
  const inArchive = (await listArchive(member.archive, signal)).find((e) => path.posix.basename(e.name).toLowerCase() === 'postlinks.xml');
  if (inArchive) return { where: member.archive, place: 'archive', name: inArchive.name, hint: 'give the archive alone to import both' };
  const dir = path.dirname(member.archive);
  let beside: string | undefined;
  try {
    beside = readdirSync(dir).find((n) => isLinksFile(n) && archiveKind(n) !== null);
  } catch {
    beside = undefined;
  }
  return beside ? { where: dir, place: 'folder', name: beside, hint: `give ${path.basename(member.archive)} and ${beside} together to import both` } : null;
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

async function importDumpFile(ctx: ImportContext, file: string, source: string, dumps: IdLines[], pending: PendingAnswers, positions: AnswerPositions): Promise<void> {
  let root: 'posts' | 'postlinks' | null = null;
  const ids = new IdLines(file);
  const isQuestion = (id: string): boolean => (dumps.length > 0 ? dumps.some((d) => d.has(id)) : ctx.ws.docOf(id) !== null);
  let missingExample = '';

  const parsing = readDumpRows(ctx, file, {
    root(name, line) {
      const n = name.toLowerCase();
      if (n !== 'posts' && n !== 'postlinks') throw fileError(file, line, `root element <${name}> is neither <posts> nor <postlinks>`);
      root = n;
      if (root === 'posts') dumps.push(ids);
    },
    row(r) {
      const line = r.line;
      if (root === 'posts') {
        const id = r.id;
        if (!id) throw fileError(file, line, 'post row without Id');
        if (r.postTypeId === '2') {
          const parent = r.parentId;
          if (!parent) throw fileError(file, line, `answer ${id} without ParentId`);
          if (!r.body) ctx.skip('emptyAnswer');
          else {
            const answer: AnswerRow = { id, questionId: parent, source, body: r.body, author: r.author, created: r.created };
            if (dumps.some((d) => d.has(parent))) putAnswer(ctx, answer, { file, line }, positions);
            else pending.add(answer, file, line);
          }
          ctx.tick();
          return;
        }
        if (r.postTypeId !== '1') {
          ctx.skip('notAQuestion');
          ctx.tick();
          return;
        }
        ids.add(id, line);
        putQuestion(ctx, { id, source, title: r.title, body: r.body, tags: r.tags, author: r.author, created: r.created }, { file, line }, positions);
      } else {
        const from = r.postId;
        const to = r.relatedPostId;
        if (!from || !to) throw fileError(file, line, 'link row without PostId or RelatedPostId');
        if (r.linkTypeId !== '3') ctx.skip('notDuplicateLink');
        else if (from === to) ctx.skip('selfLink');
        else if (!isQuestion(from) || !isQuestion(to)) {
          ctx.skip('linkToMissingQuestion');
          if (!missingExample) missingExample = `line ${line}: ${from} → ${to}`;
        } else ctx.count(ctx.ws.addDuplicatePair(from, to, source) ? 'duplicatePairs' : 'duplicatePairsKnown');
      }
      ctx.tick();
    },
  });
  try {
    await parsing;
  } catch (e) {
    // Garbage from a corrupt archive shows as malformed XML before 7-Zip reports the corruption.
    const failure = takeMemberFailure(file);
    throw (e instanceof QPairsError && failure) || e;
  }
  if (missingExample) {
    ctx.warn(`${file}: duplicate links naming a post that is not a question ${dumps.length ? 'of the dump' : 'in the workspace'} were skipped (e.g. ${missingExample})`);
  }
}
