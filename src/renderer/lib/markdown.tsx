/**
 * A tiny, safe markdown renderer for annotation guidelines and export datasheets: headings
 * (#…######), unordered (-, *, +) and ordered (1.) lists, fenced code blocks (```), pipe tables
 * (`| a | b |` then `|---|---|`; `\|` is a literal pipe), block quotes (`>`), paragraphs, and inline **bold**,
 * *italic* (or _italic_) and `code`; YAML front matter (a first line `---` up to the next `---`, as an hf-dataset
 * export's dataset card begins) is shown as it is, as a code block. Output is React elements built from text — raw HTML in the source
 * is shown as text, never interpreted, and links are not made clickable.
 */
import { Fragment, type ReactNode } from 'react';

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'ul' | 'ol'; items: string[] }
  | { kind: 'code'; text: string }
  | { kind: 'table'; head: string[]; rows: string[][] }
  | { kind: 'quote'; blocks: Block[] };

const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_SEP = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/** The cells of a pipe-table row (outer pipes dropped, `\|` kept as a literal pipe). */
export function tableCells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** Splits markdown into blocks. */
export function parseBlocks(md: string): Block[] {
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  let list: { kind: 'ul' | 'ol'; items: string[] } | null = null;
  const flush = (): void => {
    if (para.length) blocks.push({ kind: 'paragraph', text: para.join(' ') });
    para = [];
    if (list) blocks.push(list);
    list = null;
  };
  // Front matter: shown verbatim (it was read as paragraphs and lists: "--- pretty_name: … language:", "• en").
  const end = lines[0] === '---' ? lines.indexOf('---', 1) : -1;
  if (end > 0) blocks.push({ kind: 'code', text: lines.slice(0, end + 1).join('\n') });
  for (let i = end > 0 ? end + 1 : 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*```/.test(line)) {
      flush();
      const code: string[] = [];
      i++;
      while (i < lines.length && !/^\s*```/.test(lines[i]!)) code.push(lines[i++]!);
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    if (TABLE_ROW.test(line) && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]!)) {
      flush();
      const head = tableCells(line);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && TABLE_ROW.test(lines[i]!)) rows.push(tableCells(lines[i++]!));
      i--;
      blocks.push({ kind: 'table', head, rows: rows.map((r) => head.map((_, j) => r[j] ?? '')) });
      continue;
    }
    if (/^\s*>/.test(line)) {
      flush();
      const inner: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i]!)) inner.push(lines[i++]!.replace(/^\s*> ?/, ''));
      i--;
      blocks.push({ kind: 'quote', blocks: parseBlocks(inner.join('\n')) });
      continue;
    }
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      flush();
      blocks.push({ kind: 'heading', level: h[1]!.length as 1, text: h[2]! });
      continue;
    }
    const ul = /^\s*[-*+]\s+(.*)$/.exec(line);
    const ol = /^\s*\d{1,9}[.)]\s+(.*)$/.exec(line);
    if (ul || ol) {
      const kind = ul ? 'ul' : 'ol';
      if (para.length) {
        blocks.push({ kind: 'paragraph', text: para.join(' ') });
        para = [];
      }
      if (!list || list.kind !== kind) {
        if (list) blocks.push(list);
        list = { kind, items: [] };
      }
      list.items.push((ul ?? ol)![1]!);
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    if (list && /^\s{2,}\S/.test(line)) {
      // continuation of the last list item
      list.items[list.items.length - 1] += ' ' + line.trim();
      continue;
    }
    if (list) {
      blocks.push(list);
      list = null;
    }
    para.push(line.trim());
  }
  flush();
  return blocks;
}

const INLINE = /(`[^`\n]+`)|(\*\*[^*\n]+?\*\*|__[^_\n]+?__)|(\*[^*\s][^*\n]*?\*|\b_[^_\s][^_\n]*?_\b)/g;

/** Inline markup to React nodes. */
export function renderInline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let k = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    if (m[1]) out.push(<code key={k++}>{m[1].slice(1, -1)}</code>);
    else if (m[2]) out.push(<strong key={k++}>{renderInline(m[2].slice(2, -2))}</strong>);
    else if (m[3]) out.push(<em key={k++}>{renderInline(m[3].slice(1, -1))}</em>);
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ source, testId }: { source: string; testId?: string }): ReactNode {
  return (
    <div className="markdown" data-testid={testId}>
      {renderBlocks(parseBlocks(source))}
    </div>
  );
}

function renderBlocks(blocks: Block[]): ReactNode[] {
  return blocks.map((b, i) => {
    switch (b.kind) {
      case 'heading': {
        const H = `h${Math.min(6, b.level + 1)}` as 'h2';
        return <H key={i}>{renderInline(b.text)}</H>;
      }
      case 'paragraph':
        return <p key={i}>{renderInline(b.text)}</p>;
      case 'code':
        return (
          <pre key={i}>
            <code>{b.text}</code>
          </pre>
        );
      case 'quote':
        return <blockquote key={i}>{renderBlocks(b.blocks)}</blockquote>;
      case 'table':
        return (
          <table key={i} className="data md-table">
            <thead>
              <tr>
                {b.head.map((h, j) => (
                  <th key={j}>{renderInline(h)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {b.rows.map((r, j) => (
                <tr key={j}>
                  {r.map((c, k) => (
                    <td key={k}>{renderInline(c)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        );
      case 'ul':
      case 'ol': {
        const L = b.kind;
        return (
          <L key={i}>
            {b.items.map((it, j) => (
              <li key={j}>{renderInline(it)}</li>
            ))}
          </L>
        );
      }
      default:
        return <Fragment key={i} />;
    }
  });
}
