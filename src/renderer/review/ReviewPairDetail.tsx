/**
 * The Review screen's detail pane: the selected pair's query and candidate texts (review.pair),
 * every vote with its note, the judge's label, save state and reason, what settling it can move,
 * and the ruling keys. The keys themselves are the screen's.
 */
import type { ReactNode } from 'react';
import { KeyLegend } from '../components/KeyLegend';
import { describeLabel, type LabelKey } from '../annotate/keys';
import { fmtInt } from '../lib/format';
import { REVIEW_KEYS } from './reviewKeys';
import { labelWords, type Row } from './reviewRow';
import { ReviewState } from './ReviewState';
import { JudgeLabelText } from './JudgeLabelText';
import type { PairDetail } from './usePairTexts';
import { votedByYouText } from './rulingKey';

export function ReviewPairDetail({
  current,
  detail,
  judge,
  scheme,
  reason,
  reasonUnsent,
  rulingKeys,
  onWriteReason,
  place,
}: {
  current: Row;
  /** The cursor's place in the list as shown (1-based) and the list's length: "item N of M". */
  place: { at: number; of: number };
  /** Its texts and notes; undefined while not asked yet. */
  detail: PairDetail | undefined;
  judge: string;
  scheme: string;
  /** The judge's reason on the pair: written in this page, else the stored one ('' for none). */
  reason: string;
  /** A reason written in this page waits for the judge's ruling. */
  reasonUnsent: boolean;
  rulingKeys: LabelKey[];
  onWriteReason: () => void;
}): ReactNode {
  const pair = detail?.pair ?? null;
  const runs = pair ? Object.keys(pair.apChange) : [];
  const judgeLabel = describeLabel(scheme, current.value);
  const placeText = `item ${fmtInt(place.at)} of ${fmtInt(place.of)}`;
  // The other judges' rulings the one shown overrules (the engine's reading of the stored ruling, so not while another is unsaved).
  const settled = current.item.settled;
  const overrules = settled?.overrules?.length && current.state === 'saved' && current.by === settled.judge && current.value === settled.value ? settled.overrules : null;
  return (
    <section
      className="review-detail"
      data-testid="review-current"
      data-query={current.item.queryId}
      data-candidate={current.item.candidateId}
      data-state={current.state}
      data-texts={detail?.pair ? 'loaded' : detail?.error ? 'failed' : 'loading'}
    >
      {detail?.error && !detail.pair && (
        <p className="warn-text small" role="alert" data-testid="review-pair-error">
          The texts of this pair could not be read: {detail.error}
        </p>
      )}
      {/* Shown where the split fills a short window (styles.css): the progress line has scrolled away
          there. At the pane's top, it stays there as the judge scrolls the pair. */}
      <div className="review-detail-place-bar small" aria-hidden="true">
        <span className="review-detail-place" data-testid="review-detail-place">
          {placeText}
        </span>
      </div>
      <PairText
        which="query"
        id={current.item.queryId}
        position={pair && `#${pair.queryPosition + 1} in the pool`}
        title={pair ? pair.query?.title : current.item.queryTitle}
        body={pair ? (pair.query?.body ?? null) : undefined}
        aside={
          // The room the place below takes at the end of the pair's first line (hidden, holding the line clear of it).
          <span className="review-detail-place-room" aria-hidden="true">
            {placeText}
          </span>
        }
      />
      <PairText
        which="candidate"
        id={current.item.candidateId}
        position={pair && `#${pair.candidatePosition + 1} of the query’s pool`}
        title={pair ? pair.candidate?.title : current.item.candidateTitle}
        body={pair ? (pair.candidate?.body ?? null) : undefined}
      />
      <div className="review-verdict">
        <ul className="votes" data-testid="review-votes">
          {current.item.labels.map((l) => {
            // The vote as the queue has it; its note's text from the pair's detail.
            const note = l.noted ? (pair?.labels.find((x) => x.annotator === l.annotator)?.note ?? null) : null;
            return (
              <li key={l.annotator} className="vote" data-annotator={l.annotator} data-value={l.value}>
                {l.annotator} <span className={`label-pill tone-${describeLabel(scheme, l.value).tone}`}>{labelWords(scheme, l.value)}</span>
                {note && (
                  <q className="vote-note small" data-testid={`review-note-${l.annotator}`}>
                    {note}
                  </q>
                )}
              </li>
            );
          })}
        </ul>
        <div className="row wrap">
          <span className="vote">
            judge{current.by && current.by !== judge ? ` (${current.by})` : ''}{' '}
            <span className={`label-pill tone-${judgeLabel.tone}`} data-testid="review-judge-label" data-value={current.value ?? ''}>
              <JudgeLabelText text={judgeLabel.text} />
            </span>
            {overrules && (
              <span className="small muted" data-testid="review-overrules">
                {' '}overrules {overrules.map((o) => `${o.judge} (${labelWords(scheme, o.value)})`).join(', ')}
              </span>
            )}
          </span>
          <ReviewState state={current.state} error={current.error} testId="review-state" />
          <span className="spacer" />
          <button type="button" className="small" data-testid="review-reason-button" onClick={onWriteReason}>
            {reason ? 'Edit reason' : 'Add reason'} <kbd>c</kbd>
          </button>
        </div>
        {current.item.votedByYou && (
          <p className="small warn-text" role="note" data-testid="review-voted-by-you">
            {votedByYouText(current.item.votedByYou)}
          </p>
        )}
        {current.item.outdatedRuling && current.value === null && (
          <p className="small warn-text" role="note" data-testid="review-outdated-ruling">
            An earlier ruling ({current.item.outdatedRuling.judge}: {labelWords(scheme, current.item.outdatedRuling.value)}) came before a vote on this pair changed or
            arrived, so it no longer counts: rule again on the votes as they stand (the same value too).
          </p>
        )}
        {(reason || (current.by && current.by !== judge && current.item.settled?.note)) && (
          <p className="small review-reason" data-testid="review-reason">
            Reason: <q>{reason || current.item.settled?.note}</q>
            {reasonUnsent && current.value === null && <span className="muted"> (sent with your ruling)</span>}
          </p>
        )}
        <p className="small muted review-impact">
          impact {current.item.impact.toFixed(4)}
          {pair && runs.length > 0 && <> · |ΔAP| {runs.map((r) => `${r} ${pair.apChange[r]!.toFixed(3)}`).join(', ')}</>}
          {pair && <> · the rule gives now: {pair.ruleValue === null ? 'open' : labelWords(scheme, pair.ruleValue)}</>}
        </p>
        <KeyLegend labels={rulingKeys} nav={REVIEW_KEYS} testId="review-legend" />
      </div>
    </section>
  );
}

/**
 * The query's or the candidate's text in the detail pane: its id and place, title and body (the
 * queue's title until review.pair answers; `body` undefined while loading, null when the workspace
 * has no text for it).
 */
function PairText({
  which,
  id,
  position,
  title,
  body,
  aside,
}: {
  which: 'query' | 'candidate';
  id: string;
  position: string | null;
  title: string | null | undefined;
  body: string | null | undefined;
  /** At the end of the id's line. */
  aside?: ReactNode;
}): ReactNode {
  const Which = which === 'query' ? 'Query' : 'Candidate';
  return (
    <div className="review-text" data-testid={`review-${which}`}>
      <div className="small muted">
        {Which} <span data-testid={`review-${which}-id`}>{id}</span> {position && <> · {position}</>}
        {aside}
      </div>
      <h2 data-testid={`review-${which}-title`} dir="auto">
        {title || <span className="muted">(no title)</span>}
      </h2>
      <div className="query-body review-body" data-testid={`review-${which}-body`} tabIndex={0} role="region" aria-label={`${which} body`} dir="auto">
        {body === undefined ? <span className="muted">loading…</span> : body === null ? <span className="muted">The text of this {which} is not in the workspace.</span> : body}
      </div>
    </div>
  );
}
