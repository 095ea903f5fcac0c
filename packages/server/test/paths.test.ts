import { describe, expect, it } from 'vitest';
import { withoutPaths } from '../src/paths.js';

describe('withoutPaths', () => {
  it('drops the index and corpus folders and masks the folders a watch failure names', () => {
    const stats = {
      index_dir: '/srv/rag/index',
      corpus_dir: '/srv/code',
      files: 3,
      watch: { interval_ms: 2000, change_reports: true, updates: 0, last_update_at: null, last_failure: 'The corpus folder /srv/code is gone.\nhint: Check the path.' },
    };
    const shown = withoutPaths(stats);
    expect(shown).not.toHaveProperty('index_dir');
    expect(shown).not.toHaveProperty('corpus_dir');
    expect(shown.watch!.last_failure).toBe('The corpus folder <path> is gone.\nhint: Check the path.');
    expect(JSON.stringify(shown)).not.toContain('/srv/');
    // What it is not asked to change, it leaves as it is.
    expect(withoutPaths({ ...stats, watch: null }).watch).toBeNull();
    expect(withoutPaths({ ...stats, watch: { ...stats.watch, last_failure: null } }).watch).toEqual({ ...stats.watch, last_failure: null });
  });
});
