import type { SourceForAnswer } from '../../src/index.js';

export function source(text: string, overrides: Partial<SourceForAnswer> = {}): SourceForAnswer {
  return {
    file_path: 'pkg/module.py',
    first_character_index: 0,
    last_character_index: Array.from(text).length,
    start_line: 1,
    end_line: text.split('\n').length,
    symbol: '',
    text,
    ...overrides,
  };
}
