/**
 * The selected pool's guidelines on the Pools screen: the owner edits their Markdown beside a preview
 * and saves them (pool.setGuidelines); anyone else reads them.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { PoolInfo } from '../../shared/contract';
import { useApp } from '../lib/context';
import { errorMessage } from '../lib/format';
import { Markdown } from '../lib/markdown';

/** `focusRequest`: raised by the pools' Guidelines buttons; each raise scrolls to the guidelines and gives their heading the focus. */
export function PoolGuidelines({ selected, owner, focusRequest }: { selected: PoolInfo; owner: boolean; focusRequest: number }): ReactNode {
  const heading = useRef<HTMLHeadingElement | null>(null);
  useEffect(() => {
    if (focusRequest === 0) return;
    heading.current?.focus({ preventScroll: true });
    heading.current?.scrollIntoView({ block: 'start' });
  }, [focusRequest]);
  const { client } = useApp();
  const [draft, setDraft] = useState('');
  const [draftPool, setDraftPool] = useState<string | null>(null);
  const [saveState, setSaveState] = useState<'clean' | 'dirty' | 'saving' | 'saved' | 'error'>('clean');
  const [saveError, setSaveError] = useState<string | null>(null);
  useEffect(() => {
    // Load the pool's guidelines when the selection changes (not while the user edits).
    if (selected && draftPool !== selected.name) {
      setDraft(selected.guidelines);
      setDraftPool(selected.name);
      setSaveState('clean');
    }
  }, [selected, draftPool]);

  const saveGuidelines = async (): Promise<void> => {
    if (!selected) return;
    setSaveState('saving');
    setSaveError(null);
    try {
      await client.invoke('pool.setGuidelines', { pool: selected.name, markdown: draft });
      setSaveState('saved');
    } catch (e) {
      setSaveState('error');
      setSaveError(errorMessage(e));
    }
  };

  return (
    <>
    {selected && !owner && (
      <section className="card" data-testid="guidelines-view">
        <h2 ref={heading} tabIndex={-1} className="guidelines-heading" data-testid="guidelines-heading">
          Guidelines for “{selected.name}”
        </h2>
        {selected.guidelines.trim() ? <Markdown source={selected.guidelines} testId="guidelines-preview" /> : <p className="muted">This pool has no guidelines yet.</p>}
      </section>
    )}
    {selected && owner && (
      <section className="card" data-testid="guidelines-editor">
        <h2 ref={heading} tabIndex={-1} className="guidelines-heading" data-testid="guidelines-heading">
          Guidelines for “{selected.name}”
        </h2>
        <div className="guidelines-grid">
          <label className="wide">
            Markdown
            <textarea
              data-testid="guidelines-text"
              rows={14}
              value={draft}
              onChange={(e) => {
                setDraft(e.target.value);
                setSaveState('dirty');
              }}
            />
          </label>
          <div>
            <div className="label-like">Preview</div>
            <div className="preview">
              <Markdown source={draft} testId="guidelines-preview" />
            </div>
          </div>
        </div>
        <div className="actions">
          <button className="primary" data-testid="guidelines-save" onClick={() => void saveGuidelines()} disabled={saveState === 'saving' || saveState === 'clean'}>
            Save guidelines
          </button>
          <span className={saveState === 'error' ? 'error small' : 'small muted'} data-testid="guidelines-state">
            {saveState === 'dirty' && 'unsaved changes'}
            {saveState === 'saving' && 'saving…'}
            {saveState === 'saved' && 'saved ✓'}
            {saveState === 'error' && `not saved: ${saveError}`}
          </span>
        </div>
      </section>
    )}
    </>
  );
}
