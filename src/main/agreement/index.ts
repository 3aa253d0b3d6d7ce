export type { Stat, Interval } from '../stats/result';
export {
  type Category,
  type RatedItem,
  type RatingTable,
  type Judgment,
  encodeTable,
  ratingTableFromJudgments,
  selectAnnotators,
} from './table';
export { percentAgreement } from './percent';
export {
  type KappaWeights,
  type PositiveSpec,
  type SpecificAgreement,
  cohenKappa,
  kappaFromConfusion,
  specificAgreement,
  specificAgreementFromConfusion,
} from './cohen';
export { fleissKappa } from './fleiss';
export { type AlphaMetric, krippendorffAlpha, coincidenceMatrix, alphaFromCoincidence } from './krippendorff';
export { gwetAC1 } from './gwet';
export { bootstrapByQuery } from './bootstrap';
export {
  type AgreementReport,
  type AgreementReportOptions,
  type PairAgreement,
  type QueryAgreement,
  agreementReport,
} from './report';
