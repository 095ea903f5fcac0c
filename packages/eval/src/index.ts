export { iou, overlapLength, spanLength } from './iou.js';
export {
  DEFAULT_KS,
  DEFAULT_MAX_CONTEXT_LENGTH,
  DEFAULT_MRR_K,
  DEFAULT_SPAN_LENGTH_K,
  IOU_THRESHOLD,
  type EvaluateOptions,
  type ResolvedEvaluateOptions,
} from './options.js';
export type { BestRetrieved, EvaluationReport, QuestionReport } from './report.js';
export { evaluate } from './evaluate.js';
export { formatReport, type FormatReportOptions } from './format.js';
export { countFacts, keyFacts, statesFacts } from './facts.js';
