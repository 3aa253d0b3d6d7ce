/**
 * The gold workflow over a workspace: pool assignment to several annotators (assign.ts,
 * store.ts), aggregation rules (rules.ts) and the aggregate (state.ts), agreement over a pool
 * (agreement.ts → src/main/agreement), the adjudication queue ordered by impact (review.ts) and
 * ranker comparison over a pool (compare.ts → src/main/stats).
 */
export { planAssignment } from './assign';
export { gradeValue, meanGrade, isDisagreement, strictMajority, resolvePair, type Resolution, type ResolveOptions } from './rules';
export {
  ANNOTATOR_ROLES,
  addAnnotator,
  annotatorRole,
  assignPool,
  checkAnnotatorName,
  getAggregation,
  getAssignment,
  setAggregation,
  setAnnotatorRole,
  type AggregationSetting,
  type AssignmentPlan,
} from './store';
export {
  aggregationSummary,
  defaultLabelSource,
  isDisagreementEntry,
  needsReview,
  loadPoolState,
  pairKey,
  sourceGrades,
  sourceLabels,
  type PairEntry,
  type PoolState,
  type SourceLabels,
  type Vote,
} from './state';
export { judgesByVotesOn } from './judge-voted';
export { agreementJson, agreementOverTime, poolAgreement, putStat, type PoolAgreementOptions } from './agreement';
export { poolRatingTable, schemeCategories, type PoolRatingTable } from './rating-table';
export { KeptPoolState, MAX_APPLIED_EVENTS } from './kept-state';
export { checkJudge, checkRuling, pairFigures, pairImpact, pairNotes, queryRelevance, reviewPair, reviewQueue, type ReviewOptions } from './review';
export { comparePoolRuns, perQueryMetric, type PoolCompareOptions } from './compare';
export { assignmentView } from './progress';
export {
  AGREEMENT_WORK_LIMIT,
  COMPARE_WORK_LIMIT,
  agreementWork,
  checkAgreementBudget,
  checkCompareBudget,
  compareWork,
} from './budget';
