/**
 * The Annotate screen: one query at a time, its candidates in a table, labels by keyboard.
 * Every label goes through the outbox (labelQueue.ts) and shows its saved state per row.
 * The screen composes: useAssignment (who may label the pool), useQueryView (what is shown),
 * useQueryNavigation (reads from the engine), useLabeling (rows and labels), useSessionPace,
 * useAnnotateKeys (the keyboard) and the presentational parts beside this file.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { CandidateView } from '../../shared/contract';
import type { SharedState } from '../lib/shared-state';
import { useApp } from '../lib/context';
import { termSet } from '../lib/highlight';
import { FilterBox } from '../components/DataTable';
import { KeyLegend } from '../components/KeyLegend';
import { liveProgress } from './progress';
import { effectiveSort, headerSort, nextSort, type SortColumn } from './candidateSort';
import { describeLabel, labelKeys, NAV_KEYS } from './keys';
import { CandidateTable } from './CandidateTable';
import { GotoDialog } from './GotoDialog';
import { AnnotateBar } from './AnnotateBar';
import { AnnotateMessages, AnnotateStatus } from './AnnotateMessages';
import { ReadOnlyNote } from '../components/ReadOnlyNote';
import { ProgressLine } from './ProgressLine';
import { QueryPanel } from './QueryPanel';
import { OrderTools } from './OrderTools';
import { GuidelinesOverlay } from './GuidelinesOverlay';
import { announcement, LabelAnnouncer } from './LabelAnnouncer';
import { useAssignment } from './useAssignment';
import { useQueryView } from './useQueryView';
import { useStickyHeadHeight } from './useStickyHeadHeight';
import { useQueryNavigation } from './useQueryNavigation';
import { useLabeling } from './useLabeling';
import { useSessionPace } from './useSessionPace';
import { useAnnotateKeys, type Overlay } from './useAnnotateKeys';
import { NoteDialog } from '../components/NoteDialog';
import { noPoolsText } from '../components/NoPools';
import { useArrivedFromScreenControl } from '../lib/arrival-focus';

export function AnnotateScreen({ shared }: { shared: SharedState }): ReactNode {
  const { outbox, info } = useApp();
  const { pools, pool, setPool, annotator, setAnnotator, lockedAnnotator } = shared;
  const [overlay, setOverlay] = useState<Overlay>(null);
  const [gotoError, setGotoError] = useState<string | null>(null);
  const [bodyOpen, setBodyOpen] = useState(true);
  /** Issue 24: the candidate whose note is being written, and whether its label is "?". */
  const [noteFor, setNoteFor] = useState<{ id: string; row: number; unsure: boolean } | null>(null);
  /** Issue 24: the candidate just marked unsure, offered a note (c). */
  const [offer, setOffer] = useState<{ id: string; row: number } | null>(null);
  /** Where the cursor went after that "?" (c right after it notes the unsure pair, not the next one). */
  const offerCursor = useRef<number | null>(null);

  const { checked, notAssigned, assigned } = useAssignment(pool, annotator);
  const ready = pool !== '' && annotator.trim() !== '' && checked && !notAssigned;
  const qv = useQueryView(shared);
  const { view, cursor, order } = qv;
  const headRef = useStickyHeadHeight(view !== null, ready);
  const nav = useQueryNavigation(pool, annotator, ready, qv);
  const lab = useLabeling(pool, annotator, ready, qv, nav.fetchQuery);
  const { rows, shownRows, giveLabel } = lab;
  const pace = useSessionPace(view, lab.allLabeled, qv.arrival, lab.labelTimes);
  // Any label given, by key or click (the "?" itself offers a note again right after), ends an earlier offer.
  // A pool chosen in the bar: the focus goes to its candidates once they are shown (the select lets
  // it go; the table of the pool before is gone by then — focusing it left the focus on the page).
  // So it does when a button of another screen brought us here (Pools' Annotate): it went with that screen.
  const arrivedFromControl = useArrivedFromScreenControl();
  const focusCandidatesOf = useRef<string | null>(arrivedFromControl ? pool : null);
  useEffect(() => {
    if (!view || !ready || focusCandidatesOf.current !== view.pool) return;
    focusCandidatesOf.current = null;
    const active = document.activeElement;
    if (active && active !== document.body) return; // put elsewhere meanwhile
    document.querySelector<HTMLElement>('[data-testid="candidates"]')?.focus({ preventScroll: true });
  }, [view, ready]);
  const labelEndingOffer = (row: number, value: string | null, advance: boolean): boolean => {
    setOffer(null);
    return giveLabel(row, value, advance);
  };
  useAnnotateKeys({
    overlay,
    setOverlay,
    setGotoError,
    setBodyOpen,
    viewRef: qv.viewRef,
    shownRef: lab.shownRef,
    rows,
    cursor,
    setCursor: qv.setCursor,
    toggleExpand: qv.toggleExpand,
    giveLabel: labelEndingOffer,
    doUndo: lab.doUndo,
    doRedo: lab.doRedo,
    navigate: nav.navigate,
    openNote: (cursorRow) => {
      const v = qv.viewRef.current;
      // c right after a "?" (the cursor has not moved on its own) notes that pair; otherwise the row under the cursor.
      const row = offer && offerCursor.current === cursorRow && v?.candidates[offer.row]?.id === offer.id ? offer.row : cursorRow;
      const c = v?.candidates[row];
      if (!c) return;
      const label = rows[row]?.label ?? null;
      if (label == null) {
        qv.setNotice('Label this candidate first: a note goes with your label (c adds or edits it).');
        return;
      }
      setOffer(null);
      setNoteFor({ id: c.id, row, unsure: label === '?' });
      setOverlay('note');
    },
    offerNote: (row) => {
      const c = qv.viewRef.current?.candidates[row];
      if (!c) return;
      setOffer({ id: c.id, row });
      offerCursor.current = null; // set once the cursor has advanced (below)
    },
  });

  // The cursor's first position after a "?" is where c still means "the unsure pair"; once the
  // cursor moves on from there, c notes the row under it and the offer is gone.
  useEffect(() => {
    if (!offer) return;
    if (offerCursor.current === null) offerCursor.current = cursor;
    else if (cursor !== offerCursor.current) setOffer(null);
  }, [offer, cursor]);

  const counts = outbox.counts();
  const failedOps = outbox.ops().filter((o) => o.state === 'failed');
  const scheme = view?.scheme ?? 'binary';
  const keys = labelKeys(scheme);
  // In the query, highlight the terms it shares with the candidate under the cursor.
  const current: CandidateView | undefined = view?.candidates[cursor];
  const queryTerms = termSet(current?.sharedTerms ?? []);
  // Progress counts saved labels only: one refused (or still waiting) is not counted as labeled.
  const progress = view ? liveProgress(view, qv.baseline.current, lab.savedLabeled) : null;
  const reload = (): void => void nav.fetchQuery(qv.viewRef.current?.queryId);
  // With a query shown, what the keys just did is said in the sticky head, which stays in view
  // however far the candidates are scrolled (above it, a notice scrolled away unseen).
  const inHead = view !== null && ready;
  const setup = !ready && !notAssigned && (pools.length === 0 || !annotator.trim()) ? (pools.length === 0 ? 'no-pools' : 'need-name') : null;

  return (
    <div className="annotate-screen">
      <LabelAnnouncer queue={outbox} say={(op) => announcement(op, qv.viewRef.current, (value) => describeLabel(scheme, value).text)} />
      <AnnotateBar
        pools={pools}
        pool={pool}
        setPool={(p) => {
          focusCandidatesOf.current = p;
          setPool(p);
        }}
        annotator={annotator}
        setAnnotator={setAnnotator}
        lockedAnnotator={lockedAnnotator}
        blind={!!view && view.pool === pool && view.blind}
        counts={counts}
        onRetry={() => failedOps.forEach((o) => outbox.retry(o.id))}
      />
      {info?.readonly && <ReadOnlyNote refused="labeling" testId="annotate-readonly" />}
      <AnnotateMessages
        pool={pool}
        annotator={annotator}
        notAssigned={notAssigned}
        setup={setup}
        noPoolsText={noPoolsText(shared.role)}
        error={inHead ? null : qv.error}
        onReload={reload}
        notice={inHead ? null : qv.notice}
        failedOps={failedOps}
        onRetry={(id) => outbox.retry(id)}
        onDismiss={lab.discardFailed}
        onOpenReview={() => shared.goTo('review')}
      />

      {view && ready && (
        <>
          <div className="annotate-head" ref={headRef} data-testid="annotate-head">
            <ProgressLine view={view} progress={progress!} assigned={assigned} pace={pace} loading={nav.loading} />
            <QueryPanel view={view} terms={queryTerms} bodyOpen={bodyOpen} onToggleBody={() => setBodyOpen((o) => !o)} />
            <AnnotateStatus
              error={qv.error}
              onReload={reload}
              notice={qv.notice}
              offer={
                offer && view.candidates[offer.row]?.id === offer.id && !view.candidates[offer.row]?.note
                  ? { title: view.candidates[offer.row]?.question?.title ?? null, id: offer.id, open: () => { setNoteFor({ id: offer.id, row: offer.row, unsure: true }); setOverlay('note'); setOffer(null); } }
                  : null
              }
              complete={lab.allLabeled}
            />
          </div>

          {!view.blind && <OrderTools view={view} order={order} annotator={annotator} onOrder={qv.changeOrder} />}

          <KeyLegend labels={keys} nav={NAV_KEYS} testId="legend" />

          <FilterBox value={qv.candFilter} onChange={qv.setCandFilter} label="Filter candidates" testId="candidates-filter" shown={shownRows.length} total={rows.length} />
          <CandidateTable
            view={view}
            rows={shownRows}
            cursor={cursor}
            expanded={qv.expanded}
            keys={keys}
            onSelect={qv.setCursor}
            onToggle={qv.toggleExpand}
            onLabel={(i, value) => labelEndingOffer(i, value, false)}
            onRetry={(op) => outbox.retry(op.id)}
            describe={(value) => describeLabel(scheme, value)}
            sort={effectiveSort(view, order)}
            onSort={(by: SortColumn, run?: string) => qv.changeOrder(nextSort(headerSort(view, order), by, run))}
          />
        </>
      )}

      {overlay === 'note' && view && noteFor && view.candidates[noteFor.row]?.id === noteFor.id && (
        <NoteDialog
          title="Note"
          subject={`candidate ${noteFor.id}`}
          hint={noteFor.unsure ? 'you said unsure: why? (Esc skips)' : 'only you, judges and the pool’s owner read it'}
          initial={view.candidates[noteFor.row]!.note ?? ''}
          onSave={(text) => {
            if (text !== (view.candidates[noteFor.row]!.note ?? '')) lab.giveNote(noteFor.row, text);
          }}
          onClose={() => {
            setOverlay(null);
            setNoteFor(null);
          }}
        />
      )}
      {overlay === 'guidelines' && view && <GuidelinesOverlay pool={view.pool} guidelines={view.guidelines} onClose={() => setOverlay(null)} />}
      {overlay === 'goto' && view && (
        <GotoDialog
          pool={view.pool}
          annotator={annotator.trim()}
          seen={[...qv.seen.values()]}
          current={view.queryId}
          error={gotoError}
          onGo={(id) => void nav.goTo(id, { close: () => setOverlay(null), setError: setGotoError })}
          onClose={() => setOverlay(null)}
          onEdit={() => setGotoError(null)}
        />
      )}
    </div>
  );
}
