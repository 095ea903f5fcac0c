import type { EvaluationReport } from './report.js';

export interface FormatReportOptions {
  /** Add one line per question (first-hit rank, best IoU, id, question). Default false. */
  perQuestion?: boolean;
}

const QUESTION_WIDTH = 60;

/** Numbers right-aligned; columns listed in `left` (text) left-aligned; the last cell is not padded. */
function table(rows: string[][], left: ReadonlySet<number> = new Set()): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const last = widths.length - 1;
  return rows.map((row) =>
    row
      .map((cell, column) => (left.has(column) ? (column === last ? cell : cell.padEnd(widths[column]!)) : cell.padStart(widths[column]!)))
      .join('  '),
  );
}

function truncate(text: string, width: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= width ? oneLine : `${oneLine.slice(0, width - 1)}…`;
}

/** A compact plain-text summary of a report: one table of the metrics, then warnings. */
export function formatReport(report: EvaluationReport, options: FormatReportOptions = {}): string {
  const { ks, mrrK, spanLengthK } = report.options;
  const header = ['questions', ...ks.map((k) => `R@${k}`), `MRR@${mrrK}`, `span@${spanLengthK}`];
  const values = [
    String(report.questions),
    ...ks.map((k) => (report.recall[k] ?? 0).toFixed(3)),
    report.mrr.toFixed(3),
    report.meanSpanLength.toFixed(1),
  ];
  const lines = table([header, values]);
  if (options.perQuestion) {
    lines.push('');
    const rows = [['hit', 'best IoU', 'question_id', 'question']];
    for (const q of report.perQuestion) {
      rows.push([
        q.firstHitRank === null ? '-' : String(q.firstHitRank),
        q.best === null ? '-' : q.best.iou.toFixed(3),
        q.question_id,
        truncate(q.question, QUESTION_WIDTH),
      ]);
    }
    lines.push(...table(rows, new Set([2, 3])));
  }
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n');
}
