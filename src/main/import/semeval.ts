/** semeval: SemEval-2016/2017 Task 3 (English, Qatar Living) XML. */
import { normaliseLabel } from '../../shared/labels';
import type { PoolInfo } from '../../shared/types';
import { putAnswer, putQuestion } from './questions';
import { addPairs, annotatorName, openPool, openRun, origin, putLabel, putRunScore, requireScheme } from './pools';
import { baseName, fileError, MAX_RECORD_CHARS } from './reader';
import { parseXml } from './xml';
import type { Importer } from './types';

const SOURCE = 'semeval';
/** Said when a file's first thread comes before any OrgQuestion: the layout of subtask A's files. */
const SUBTASK_A =
  ': this looks like a subtask A file (threads of comments, no original questions); the semeval format reads subtask B/C files, whose related questions sit inside OrgQuestion elements';
const TEXT_FIELDS = new Set(['OrgQSubject', 'OrgQBody', 'RelQSubject', 'RelQBody', 'RelCText']);

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * Each `OrgQuestion` (ORGQ_ID, OrgQSubject, OrgQBody) wraps one or more `Thread`s, each with one
 * `RelQuestion` (RELQ_ID, RELQ_CATEGORY, RELQ_DATE, RELQ_USERID, RELQ_RELEVANCE2ORGQ,
 * RELQ_RANKING_ORDER, RelQSubject, RelQBody) and its `RelComment`s (RELC_ID, RELC_USERID, RELC_DATE,
 * RelCText; their relevance attributes, subtask A's labels, are not read). The released files
 * repeat the OrgQuestion element once per thread; the importer groups by ORGQ_ID (a repeat with
 * different text is warned about, the first text kept).
 *
 * Into: questions (source opts.source, else `semeval`; related questions with category, author =
 * user id, created = date); one pool per file, named opts.pool ?? the file name without its extension (scheme
 * semeval3, retriever search-engine): each original question a query, its related questions the
 * candidates in file order; RELQ_RELEVANCE2ORGQ as labels by opts.annotator ?? gold (missing →
 * `skipped.noRelevance`); RELQ_RANKING_ORDER as the run `search-engine` with score = 1/rank (as
 * in the scorer's files), so ranking by score descending gives the search engine's order.
 * Comments → answers of their thread's related question (id RELC_ID, author = user id, created
 * = date; unlabeled text for the models), in thread order, counted once as comments
 * (commentsInserted/-Updated/-Unchanged); empty ones are counted as
 * `skipped.emptyComment`; a RELC_ID repeated in a file (a thread repeated under another original
 * question) is read once, with a warning when its text differs. Whitespace in subjects, bodies
 * and comments is collapsed.
 */
export const semeval: Importer = {
  name: 'semeval',
  description: 'SemEval-2016/2017 Task 3 English XML (questions, a pool, gold labels and the search-engine run)',
  async importFile(ctx, file) {
    const poolName = ctx.opts.pool?.trim() || baseName(file, false);
    let pool: PoolInfo | null = null;
    let runId = 0;
    const annotator = annotatorName(ctx);
    const source = ctx.opts.source?.trim() || SOURCE;
    const from = origin(ctx, file);
    const orgSeen = new Map<string, { subject: string; body: string; line: number }>();
    const relSeen = new Map<string, number>();
    const commentSeen = new Map<string, number>();

    let org: { id: string; line: number; subject: string; body: string; done: boolean } | null = null;
    let rel: { attrs: Record<string, string>; line: number; subject: string; body: string } | null = null;
    /** Id of the current thread's related question (once read), for its comments. */
    let threadRel: string | null = null;
    let comment: { attrs: Record<string, string>; line: number; text: string } | null = null;
    let capture: string | null = null;
    let buf = '';
    let orgElements = 0;
    let inThread = false;
    let curLine = 0;

    const thePool = (): PoolInfo => {
      if (!pool) {
        pool = openPool(ctx, { name: poolName, scheme: 'semeval3', retriever: 'search-engine', sampling: 'SemEval Task 3 related questions', convention: 'zero' });
        requireScheme(ctx, pool, ['semeval3']);
        runId = openRun(ctx, pool, 'search-engine', { format: ctx.format, file, score: '1 / RELQ_RANKING_ORDER' });
      }
      return pool;
    };

    const flushOrg = (): void => {
      if (!org || org.done) return;
      org.done = true;
      const subject = clean(org.subject);
      const body = clean(org.body);
      const prev = orgSeen.get(org.id);
      if (prev) {
        if (prev.subject !== subject || prev.body !== body) {
          ctx.warn(`${file}, line ${org.line}: original question ${org.id} repeats with a different text than on line ${prev.line}; the first was kept`);
        }
        return;
      }
      orgSeen.set(org.id, { subject, body, line: org.line });
      ctx.count('originalQuestions');
      putQuestion(ctx, { id: org.id, source, title: subject, body }, { file, line: org.line });
      addPairs(ctx, thePool(), org.id, []);
    };

    const relQuestion = (): void => {
      const r = rel!;
      const o = org!;
      const a = r.attrs;
      const id = (a.RELQ_ID ?? '').trim();
      if (!id) throw fileError(file, r.line, 'RelQuestion without RELQ_ID');
      if (id === o.id) throw fileError(file, r.line, `related question ${id} is its own original question`);
      const key = `${o.id}\u0000${id}`;
      const prev = relSeen.get(key);
      if (prev !== undefined) throw fileError(file, r.line, `duplicate related question "${id}" for ${o.id} (also on line ${prev})`);
      relSeen.set(key, r.line);
      threadRel = id;
      ctx.count('relatedQuestions');
      putQuestion(ctx, {
        id,
        source,
        title: clean(r.subject),
        body: clean(r.body),
        author: a.RELQ_USERID?.trim() || null,
        created: a.RELQ_DATE?.trim() || null,
        category: a.RELQ_CATEGORY?.trim() || null,
      }, { file, line: r.line });
      const p = thePool();
      addPairs(ctx, p, o.id, [id]);
      const relevance = a.RELQ_RELEVANCE2ORGQ?.trim();
      if (!relevance) ctx.skip('noRelevance');
      else {
        const v = normaliseLabel('semeval3', relevance);
        if (v === null) throw fileError(file, r.line, `RELQ_RELEVANCE2ORGQ="${relevance}" is not PerfectMatch, Relevant or Irrelevant`);
        putLabel(ctx, p, o.id, id, annotator, v, from);
      }
      const rank = a.RELQ_RANKING_ORDER?.trim();
      if (!rank) ctx.skip('noRankingOrder');
      else {
        if (!/^\d+$/.test(rank) || Number(rank) < 1) throw fileError(file, r.line, `RELQ_RANKING_ORDER="${rank}" is not a positive integer`);
        putRunScore(ctx, runId, o.id, id, 1 / Number(rank));
      }
      ctx.tick();
    };

    const relComment = (): void => {
      const c = comment!;
      const id = (c.attrs.RELC_ID ?? '').trim();
      if (!id) throw fileError(file, c.line, 'RelComment without RELC_ID');
      const body = clean(c.text);
      const prev = commentSeen.get(id);
      if (prev !== undefined) {
        const stored = ctx.ws.stmt(`SELECT body FROM answers WHERE id = ?`).get(id) as { body: string } | undefined;
        if ((stored?.body ?? '') !== body) ctx.warn(`${file}, line ${c.line}: comment ${id} repeats with a different text than on line ${prev}; the first was kept`);
        return;
      }
      commentSeen.set(id, c.line);
      if (!body) {
        ctx.skip('emptyComment');
        return;
      }
      putAnswer(ctx, {
        id,
        questionId: threadRel!,
        source,
        body,
        author: c.attrs.RELC_USERID?.trim() || null,
        created: c.attrs.RELC_DATE?.trim() || null,
      }, { file, line: c.line }, undefined, 'comments');
      ctx.tick();
    };

    await parseXml(ctx, file, {
      open(name, attrs, line) {
        curLine = line;
        if (name === 'OrgQuestion') {
          if (org) throw fileError(file, line, `OrgQuestion inside OrgQuestion ${org.id}`);
          const id = (attrs.ORGQ_ID ?? '').trim();
          if (!id) throw fileError(file, line, 'OrgQuestion without ORGQ_ID');
          org = { id, line, subject: '', body: '', done: false };
          orgElements++;
        } else if (name === 'Thread') {
          // Subtask A's files (question–comment) hold bare Threads: they have no original question to pair with.
          if (!org) throw fileError(file, line, `Thread outside an OrgQuestion${orgElements === 0 ? SUBTASK_A : ''}`);
          flushOrg();
          inThread = true;
          threadRel = null;
        } else if (name === 'RelComment') {
          if (!threadRel || rel) throw fileError(file, line, 'RelComment outside a Thread with a RelQuestion before it');
          if (comment) throw fileError(file, line, 'RelComment inside RelComment');
          comment = { attrs, line, text: '' };
        } else if (name === 'RelQuestion') {
          if (!org) throw fileError(file, line, `RelQuestion outside an OrgQuestion${orgElements === 0 ? SUBTASK_A : ''}`);
          if (rel) throw fileError(file, line, 'RelQuestion inside RelQuestion');
          flushOrg();
          rel = { attrs, line, subject: '', body: '' };
        } else if (TEXT_FIELDS.has(name)) {
          const ok = name === 'RelCText' ? !!comment : name.startsWith('Org') ? !!org && !inThread : !!rel;
          if (!ok) throw fileError(file, line, `<${name}> out of place`);
          capture = name;
          buf = '';
        }
      },
      text(t) {
        if (capture === null) return;
        buf += t;
        if (buf.length > MAX_RECORD_CHARS) throw fileError(file, curLine, `<${capture}> longer than ${MAX_RECORD_CHARS} characters`);
      },
      close(name, line) {
        curLine = line;
        if (name === capture) {
          if (name === 'OrgQSubject') org!.subject = buf;
          else if (name === 'OrgQBody') org!.body = buf;
          else if (name === 'RelQSubject') rel!.subject = buf;
          else if (name === 'RelQBody') rel!.body = buf;
          else if (name === 'RelCText') comment!.text += buf;
          capture = null;
          buf = '';
        } else if (name === 'RelQuestion') {
          relQuestion();
          rel = null;
        } else if (name === 'RelComment') {
          relComment();
          comment = null;
        } else if (name === 'Thread') {
          inThread = false;
          threadRel = null;
        } else if (name === 'OrgQuestion') {
          flushOrg();
          org = null;
        }
      },
      end() {
        if (orgElements === 0) throw fileError(file, null, 'no OrgQuestion elements (not a SemEval Task 3 question file?)');
      },
    });
  },
};
