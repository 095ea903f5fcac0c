import type { ProgressEvent } from '@rag/core';

export interface ProgressReporter {
  /** `extra` is appended to the line, e.g. a second rate such as tokens/s. */
  update(event: ProgressEvent, extra?: string): void;
  /** Ends the current bar (prints a final line on a terminal). */
  done(): void;
}

const PHASE_LABELS: Record<string, string> = {
  walk: 'reading files',
  chunk: 'chunking',
  fit: 'indexing',
  save: 'saving',
  search: 'searching',
  answer: 'answering',
  embed: 'embedding',
};

function formatRate(done: number, seconds: number): string {
  if (seconds <= 0) return '';
  const rate = done / seconds;
  return rate >= 100 ? `${Math.round(rate)}/s` : `${rate.toFixed(1)}/s`;
}

/**
 * A progress bar on stderr. On a terminal it redraws one line in place at most ~15 times a
 * second; elsewhere (CI logs, pipes) it prints one line per phase when the phase ends, so
 * logs stay short.
 */
export function createProgress(stream: NodeJS.WriteStream = process.stderr, enabled = true): ProgressReporter {
  const isTty = Boolean(stream.isTTY);
  let phase: string | undefined;
  let started = 0;
  let lastDraw = 0;
  let last: ProgressEvent | undefined;
  let lastExtra = '';

  const line = (event: ProgressEvent): string => {
    const seconds = (performance.now() - started) / 1000;
    const label = PHASE_LABELS[event.phase] ?? event.phase;
    const fraction = event.total > 0 ? Math.min(1, event.done / event.total) : 0;
    const width = 24;
    const filled = Math.round(fraction * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    const rate = formatRate(event.done, seconds);
    return `${label.padEnd(14)} ${bar} ${String(Math.round(fraction * 100)).padStart(3)}% ${event.done}/${event.total} ${seconds.toFixed(1)}s ${rate}${lastExtra ? ` ${lastExtra}` : ''}`;
  };

  const finishPhase = () => {
    if (!last || !enabled) return;
    if (isTty) stream.write(`\r\x1b[2K${line(last)}\n`);
    else stream.write(`${line(last)}\n`);
    last = undefined;
  };

  return {
    update(event, extra = '') {
      if (!enabled) return;
      if (event.phase !== phase) {
        finishPhase();
        phase = event.phase;
        started = performance.now();
        lastDraw = 0;
      }
      last = event;
      lastExtra = extra;
      if (!isTty) return;
      const now = performance.now();
      if (now - lastDraw < 66 && event.done < event.total) return;
      lastDraw = now;
      stream.write(`\r\x1b[2K${line(event)}`);
    },
    done() {
      finishPhase();
      phase = undefined;
    },
  };
}
