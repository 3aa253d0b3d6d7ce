/**
 * Display helpers for the engine's statistics (StatView / IntervalView from shared/gold.ts): a
 * defined value is a number (with an optional note); an undefined one is shown as "—" with the
 * engine's reason beside it. Pure (no DOM), unit-tested.
 */
import type { AgreementView, IntervalView, StatView } from '../../shared/gold';
import { fixedDecimals } from '../../shared/decimals';
import type { Series } from '../components/LineChart';

export interface Shown {
  /** What the cell shows: the number, "[lo, hi]", or "—". */
  text: string;
  value: number | null;
  /** Why the value is undefined (null when it is defined). */
  reason: string | null;
  note: string | null;
}

const DASH = '—';

/** A statistic for display (missing → "—" without a reason); `scale` 100 shows an IR metric in percent. */
export function showStat(s: StatView | null | undefined, digits = 3, scale = 1): Shown {
  if (!s) return { text: DASH, value: null, reason: null, note: null };
  if (s.value === null) return { text: DASH, value: null, reason: s.reason || 'undefined', note: null };
  if (!Number.isFinite(s.value)) return { text: DASH, value: null, reason: 'not a finite number', note: null };
  return { text: fixedDecimals(s.value * scale, digits), value: s.value, reason: null, note: s.note ?? null };
}

/** An IR metric (or a difference of two) as the papers and the CLI print it: percent, two decimals. */
export function showPct(s: StatView | null | undefined): Shown {
  return showStat(s, 2, 100);
}

/** A 95% CI for display: "[lo, hi]" or "—" with the reason. */
export function showCI(ci: IntervalView | null | undefined, digits = 3, scale = 1): Shown {
  if (!ci) return { text: DASH, value: null, reason: null, note: null };
  if (ci.value === null) return { text: DASH, value: null, reason: ci.reason || 'undefined', note: null };
  const [lo, hi] = ci.value;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return { text: DASH, value: null, reason: 'not a finite interval', note: null };
  return { text: `[${fixedDecimals(lo * scale, digits)}, ${fixedDecimals(hi * scale, digits)}]`, value: null, reason: null, note: ci.note ?? null };
}

/** A p-value: "<0.001" below 0.001, else three decimals; undefined → "—" with the reason. */
export function showP(p: StatView | null | undefined): Shown {
  const s = showStat(p);
  if (s.value === null) return s;
  return { ...s, text: s.value < 0.001 ? '<0.001' : s.value.toFixed(3) };
}

/** The y range of an agreement chart: [min(0, lowest rounded down to 0.1, ≥ −1), 1]. */
export function agreementYRange(values: readonly number[]): { yMin: number; yMax: number } {
  const finite = values.filter((v) => Number.isFinite(v));
  const lo = finite.length ? Math.min(...finite) : 0;
  const yMin = lo >= 0 ? 0 : Math.max(-1, Math.floor(lo * 10) / 10);
  return { yMin, yMax: 1 };
}

/** Agreement over time as chart series; points where a statistic is undefined are left out. */
export function overTimeSeries(overTime: AgreementView['overTime']): Series[] {
  const pick = (name: string, get: (p: AgreementView['overTime'][number]) => StatView | undefined): Series => ({
    name,
    points: overTime.flatMap((p) => {
      const s = get(p);
      return s && s.value !== null && Number.isFinite(s.value) ? [[p.queries, s.value] as [number, number]] : [];
    }),
  });
  const out = [pick('percent agreement', (p) => p.percentAgreement), pick("Fleiss' κ", (p) => p.fleissKappa)];
  if (overTime.some((p) => p.cohenKappa)) out.push(pick("Cohen's κ", (p) => p.cohenKappa));
  return out;
}

/**
 * Names typed in a box: separated by commas, semicolons or line breaks, and by white space too
 * unless the words make up the name of someone in `known` ("Jane Doe", whom Team access invited,
 * stays one person instead of two new annotators "Jane" and "Doe"); trimmed, deduplicated, order kept.
 */
export function parseNames(text: string, known: readonly string[] = []): string[] {
  const people = new Set(known);
  const names = text.split(/[,;\n\r]+/).flatMap((part) => {
    const name = part.trim().replace(/\s+/g, ' ');
    return people.has(name) ? [name] : name.split(' ');
  });
  return [...new Set(names.filter(Boolean))];
}
