import { describe, expect, it } from 'vitest';
import { branchOutcomes } from '../src/extractive/lead.js';
import type { ScoredUnit } from '../src/extractive/score.js';
import { splitIntoUnits } from '../src/extractive/units.js';
import { source } from './helpers/sources.js';

/** The units of `text` as scored units of source 0 (scores do not matter here). */
function unitsOf(text: string): ScoredUnit[] {
  return splitIntoUnits(text, 'pkg/config.py').map((unit) => ({ unit, sourceIndex: 0, terms: new Set<string>(), length: 0, score: 0, matched: 0, coverage: 0, fromDocs: false, placeTerms: new Set<string>() }));
}

describe('branchOutcomes', () => {
  const text = [
    'def __init__(self, depths=None):',
    '    if isinstance(depths, str):',
    '        depths = [int(x) for x in depths.split("|")]',
    '        self.parsed = True',
    '    else:',
    '        self.parsed = False',
    '    self.depths = depths',
    '',
  ].join('\n');
  const units = unitsOf(text);
  const find = (display: string) => units.find((u) => u.unit.display === display)!;

  it('brings the first line of a quoted branch: the condition says when, the line what happens', () => {
    const outcome = branchOutcomes([find('if isinstance(depths, str):')], units, [source(text, { file_path: 'pkg/config.py' })]);
    expect(outcome.map((u) => u.unit.display)).toEqual(['depths = [int(x) for x in depths.split("|")]']);
  });

  it('brings nothing for a quote that opens no block', () => {
    expect(branchOutcomes([find('self.depths = depths')], units, [source(text, { file_path: 'pkg/config.py' })])).toEqual([]);
  });
});
