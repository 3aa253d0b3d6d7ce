/**
 * Go to a query (g): type an id, a position or words of a title; the list shows every query this
 * annotator works on in the pool (annotate.queries: id, position, title, done), filtered as you
 * type — or, if that list cannot be had, the queries seen in this session — then the pool's queries
 * the workspace's BM25 search finds for the words (questions.search, each checked with
 * question.show to be a query of this pool). Errors stay inside the dialog; so does Tab, and closing
 * it gives the focus back to where it was.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useApp } from '../lib/context';
import { useModalFocus } from '../lib/modal-focus';

export interface SeenQuery {
  id: string;
  /** 0-based position in the pool. */
  index: number;
  title: string;
}

export function GotoDialog(p: { pool: string; annotator: string; seen: SeenQuery[]; current: string; error: string | null; onGo: (id: string) => void; onClose: () => void; onEdit: () => void }): ReactNode {
  const { client } = useApp();
  const root = useRef<HTMLDivElement | null>(null);
  const onKeyDown = useModalFocus(root);
  const [text, setText] = useState('');
  // Every query of this annotator in the pool, once; the session's seen queries until it arrives.
  const [all, setAll] = useState<SeenQuery[] | null>(null);
  useEffect(() => {
    let live = true;
    client
      .invoke('annotate.queries', { pool: p.pool, annotator: p.annotator })
      .then((list) => live && setAll(list.map((q) => ({ id: q.id, index: q.index, title: q.title }))))
      .catch(() => {
        /* the seen queries and the search still work */
      });
    return () => {
      live = false;
    };
  }, [client, p.pool, p.annotator]);
  const known = all ?? p.seen;
  const [sel, setSel] = useState(0);
  const [found, setFound] = useState<SeenQuery[]>([]);
  // Words typed: the pool's queries among the BM25 search's best matches (debounced).
  useEffect(() => {
    const t = text.trim();
    setFound([]);
    if (t.length < 3) return;
    let live = true;
    const timer = setTimeout(() => {
      void (async () => {
        try {
          const r = await client.invoke('questions.search', { text: t, limit: 12 });
          const shown = await Promise.all(r.results.map((h) => client.invoke('question.show', { id: h.id, pool: p.pool }).catch(() => null)));
          if (!live) return;
          const qs: SeenQuery[] = [];
          for (const s of shown) {
            const e = s?.pools.find((x) => x.pool === p.pool && x.as === 'query');
            if (s && e) qs.push({ id: s.question.id, index: e.queryPosition, title: s.question.title });
          }
          setFound(qs);
        } catch {
          /* the search is a help: ids still work */
        }
      })();
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, p.pool, text]);
  const matches = useMemo(() => {
    const t = text.trim().toLowerCase();
    const list = [...known].sort((a, b) => a.index - b.index);
    const local = t ? list.filter((q) => q.id.toLowerCase().includes(t) || q.title.toLowerCase().includes(t) || String(q.index + 1) === t) : list;
    // The typed id, then the typed position, lead the list: the highlighted first row is what Enter opens.
    const rank = (q: SeenQuery): number => (q.id.toLowerCase() === t ? 0 : String(q.index + 1) === t ? 1 : 2);
    local.sort((a, b) => rank(a) - rank(b));
    const ids = new Set(local.map((q) => q.id));
    return [...local, ...found.filter((q) => !ids.has(q.id))];
  }, [known, text, found]);
  const [picked, setPicked] = useState(false);
  const go = (): void => {
    const t = text.trim();
    const exact = known.find((q) => q.id === t);
    // Issue 24: Enter opens a row picked with ↑/↓, else an id typed in full, else the highlighted
    // match (the typed position or title words lead the list), else the text as an id.
    const id = picked && matches[sel] ? matches[sel]!.id : exact ? exact.id : matches[sel] ? matches[sel]!.id : t;
    if (id) p.onGo(id);
  };
  return (
    <div ref={root} className="overlay" role="dialog" aria-modal="true" aria-label="Go to query" data-testid="goto-dialog" onClick={p.onClose} onKeyDown={onKeyDown}>
      <form
        className="overlay-card small-card"
        onClick={(e) => e.stopPropagation()}
        onSubmit={(e) => {
          e.preventDefault();
          go();
        }}
      >
        <label>
          Go to query (its id, or words of its title)
          <input
            autoFocus
            data-testid="goto-input"
            value={text}
            role="combobox"
            aria-expanded={matches.length > 0}
            aria-controls={matches.length > 0 ? 'goto-list' : undefined}
            aria-autocomplete="list"
            onChange={(e) => {
              setText(e.target.value);
              setSel(0);
              setPicked(false);
              p.onEdit();
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') p.onClose();
              else if (e.key === 'ArrowDown') {
                e.preventDefault();
                setPicked(true);
                setSel((i) => Math.min(matches.length - 1, i + 1));
              } else if (e.key === 'ArrowUp') {
                e.preventDefault();
                setPicked(true);
                setSel((i) => Math.max(0, i - 1));
              }
            }}
          />
        </label>
        {p.error && (
          <p className="error" role="alert" data-testid="goto-error">
            {p.error}
          </p>
        )}
        {matches.length > 0 && (
          <ul className="goto-list" id="goto-list" role="listbox" aria-label="Queries of the pool" data-testid="goto-list">
            {matches.slice(0, 50).map((q, i) => (
              <li
                key={q.id}
                role="option"
                aria-selected={i === sel}
                className={i === sel ? 'selected' : ''}
                data-testid={`goto-option-${q.id}`}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => p.onGo(q.id)}
              >
                <span className="muted small">#{q.index + 1}</span> <code>{q.id}</code> {q.title}
                {q.id === p.current && <span className="muted small"> (shown)</span>}
              </li>
            ))}
          </ul>
        )}
        <p className="small muted">Any query id of the pool works; words of a title search the pool’s queries. ↑/↓ pick from the list, Enter goes.</p>
        <div className="actions">
          <button type="submit" className="primary" data-testid="goto-submit">
            Go
          </button>
          <button type="button" onClick={p.onClose}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}
