/**
 * The rows of a Stack Exchange dump file (Posts.xml, PostLinks.xml) as the stackexchange importer
 * uses them: the root element, then each `<row>` directly inside it with the attributes read and
 * the costly text work done (Body HTML → plain text, Title whitespace, Tags list). The same events
 * come from this thread or from the dump-parse worker (dump-parse-client.ts readDumpRows),
 * which does the XML and HTML work beside the thread that writes the rows; both go through
 * dumpRowHandlers, so they yield the same events, lines and errors.
 */
import { collapseWhitespace, htmlToText, parseTags } from './text';
import type { XmlHandlers } from './xml';

/** One `<row>` directly inside the root, as the importer reads it. */
export interface DumpRow {
  /** Line where the row's start tag ends (saxes' count). */
  line: number;
  /** Id, trimmed ('' when absent). */
  id: string;
  /** PostTypeId as written ('' when absent). */
  postTypeId: string;
  /** ParentId, trimmed. */
  parentId: string;
  /** Title with whitespace collapsed: questions (PostTypeId 1) only, else ''. */
  title: string;
  /** Body HTML as plain text (htmlToText): questions and answers (PostTypeId 1, 2) only, else ''. */
  body: string;
  /** Tags parsed (parseTags): questions only, else []. */
  tags: string[];
  /** OwnerUserId, else OwnerDisplayName (trimmed), else null. */
  author: string | null;
  /** CreationDate trimmed, else null. */
  created: string | null;
  /** PostLinks rows: PostId and RelatedPostId trimmed, LinkTypeId as written ('' when absent). */
  postId: string;
  relatedPostId: string;
  linkTypeId: string;
}

/** What a dump file yields, in document order: its root element, then its rows. */
export interface DumpRowSink {
  root(name: string, line: number): void;
  row(r: DumpRow): void;
}

/** A row's attributes as the importer reads them (attrs: entity-decoded, as saxes gives them). */
export function prepareDumpRow(a: Record<string, string>, line: number): DumpRow {
  const type = a.PostTypeId ?? '';
  const question = type === '1';
  return {
    line,
    id: a.Id?.trim() ?? '',
    postTypeId: type,
    parentId: a.ParentId?.trim() ?? '',
    title: question ? collapseWhitespace(a.Title ?? '') : '',
    body: question || type === '2' ? htmlToText(a.Body ?? '') : '',
    tags: question ? parseTags(a.Tags ?? '') : [],
    author: a.OwnerUserId?.trim() || a.OwnerDisplayName?.trim() || null,
    created: a.CreationDate?.trim() || null,
    postId: a.PostId?.trim() ?? '',
    relatedPostId: a.RelatedPostId?.trim() ?? '',
    linkTypeId: a.LinkTypeId ?? '',
  };
}

/**
 * XML handlers that pass the root element and the `<row>`s directly inside it to `sink` (other
 * elements — deeper ones, or not named row — are not the importer's business).
 */
export function dumpRowHandlers(sink: DumpRowSink): Pick<XmlHandlers, 'open' | 'close'> {
  let depth = 0;
  return {
    open(name, attrs, line) {
      depth++;
      if (depth === 1) sink.root(name, line);
      else if (depth === 2 && name === 'row') sink.row(prepareDumpRow(attrs, line));
    },
    close() {
      depth--;
    },
  };
}

// ------------------------------------------------------------------ packed form (worker → import)

/** Strings per packed row (after its kind marker). */
const ROW_FIELDS = 11;
const ROOT = 'r';
const ROW = 'p';
/** Tags are joined with U+0000, which no XML text can hold. */
const TAG_SEP = '\u0000';

/** Events packed as flat arrays (cheap to post between threads): strings, and one line per event. */
export interface PackedDumpRows {
  strings: string[];
  lines: number[];
}

/** Collects events into the packed form; `take` hands over what was collected. */
export class DumpRowPacker implements DumpRowSink {
  private strings: string[] = [];
  private lines: number[] = [];

  root(name: string, line: number): void {
    this.strings.push(ROOT, name);
    this.lines.push(line);
  }

  row(r: DumpRow): void {
    this.strings.push(ROW, r.id, r.postTypeId, r.parentId, r.title, r.body, r.tags.join(TAG_SEP), r.author ?? '', r.created ?? '', r.postId, r.relatedPostId, r.linkTypeId);
    this.lines.push(r.line);
  }

  take(): PackedDumpRows {
    const out = { strings: this.strings, lines: this.lines };
    this.strings = [];
    this.lines = [];
    return out;
  }
}

/** Replays packed events into `sink`, in order. */
export function unpackDumpRows(p: PackedDumpRows, sink: DumpRowSink): void {
  const s = p.strings;
  let i = 0;
  for (const line of p.lines) {
    if (s[i] === ROOT) {
      sink.root(s[i + 1]!, line);
      i += 2;
      continue;
    }
    const tags = s[i + 6]!;
    sink.row({
      line,
      id: s[i + 1]!,
      postTypeId: s[i + 2]!,
      parentId: s[i + 3]!,
      title: s[i + 4]!,
      body: s[i + 5]!,
      tags: tags === '' ? [] : tags.split(TAG_SEP),
      // '' never comes from prepareDumpRow (an empty owner or date is null there).
      author: s[i + 7]! || null,
      created: s[i + 8]! || null,
      postId: s[i + 9]!,
      relatedPostId: s[i + 10]!,
      linkTypeId: s[i + 11]!,
    });
    i += 1 + ROW_FIELDS;
  }
}
