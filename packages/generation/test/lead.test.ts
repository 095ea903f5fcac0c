import { describe, expect, it } from 'vitest';
import { branchOutcomes, leadCompletion, listIntroductionOf, listSiblingsOf, parameterDefaultsOf } from '../src/extractive/lead.js';
import type { ScoredUnit } from '../src/extractive/score.js';
import { splitIntoUnits } from '../src/extractive/units.js';
import { source } from './helpers/sources.js';

/** The units of `text` as scored units of source 0 (scores do not matter here). */
function unitsOf(text: string, path = 'pkg/config.py'): ScoredUnit[] {
  const units = splitIntoUnits(text, path).map((unit): ScoredUnit => ({ unit, sourceIndex: 0, terms: new Set<string>(), length: 0, score: 0, matched: 0, coverage: 0, fromDocs: false, placeTerms: new Set<string>() }));
  // What `scoredUnitsOf` marks: a sentence ending in a colon right before a list item introduces a list.
  for (let i = 0; i + 1 < units.length; i++) if (units[i]!.unit.display.endsWith(':') && units[i + 1]!.unit.item) units[i]!.introducesList = true;
  return units;
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

describe('listIntroductionOf', () => {
  const text = ['Intro sentence.', '', 'We support five formats:', '', '- CSV files', '- JSON lines', '- Parquet tables', '- Avro records', '- ORC stripes', ''].join('\n');
  const units = unitsOf(text, 'docs/formats.md');
  const find = (display: string) => units.find((u) => u.unit.display === display)!;

  it("gives the sentence that introduces an item's list, for an item among the first four", () => {
    expect(listIntroductionOf(find('Parquet tables'), units)?.unit.display).toBe('We support five formats:');
    expect(listIntroductionOf(find('Avro records'), units)?.unit.display).toBe('We support five formats:');
  });

  it('gives nothing for an item the introduction would not bring, for a list with no introduction, or for a sentence', () => {
    expect(listIntroductionOf(find('ORC stripes'), units)).toBeUndefined();
    const bare = unitsOf(['Intro sentence.', '', '- CSV files', '- JSON lines', ''].join('\n'), 'docs/formats.md');
    expect(listIntroductionOf(bare.find((u) => u.unit.display === 'JSON lines')!, bare)).toBeUndefined();
    expect(listIntroductionOf(find('Intro sentence.'), units)).toBeUndefined();
  });
});

describe('listSiblingsOf', () => {
  const text = ['Supported:', '', '- one', '- two', '- three', '- four', '- five', '', 'After the list.', ''].join('\n');
  const units = unitsOf(text, 'docs/list.md');
  const find = (display: string) => units.find((u) => u.unit.display === display)!;

  it('brings the items nearest a quoted item, in text order, three items in all', () => {
    expect(listSiblingsOf([find('four')], units).map((u) => u.unit.display)).toEqual(['three', 'five']);
    expect(listSiblingsOf([find('one')], units).map((u) => u.unit.display)).toEqual(['two', 'three']);
  });

  it('brings nothing for a quoted sentence, and no item already quoted', () => {
    expect(listSiblingsOf([find('After the list.')], units)).toEqual([]);
    expect(listSiblingsOf([find('one'), find('two')], units).map((u) => u.unit.display)).toEqual(['three']);
  });
});

describe('parameterDefaultsOf', () => {
  // A docs sentence says what `threshold` does; the code's signature says what it is when nobody passes it.
  const prose = unitsOf('With `threshold` you set the value after which the next larger unit is used.\n', 'docs/dates.rst').map((u) => ({ ...u, fromDocs: true }));
  const code = unitsOf(
    [
      'def format_delta(delta, granularity="second", threshold=.85, locale=None):',
      '    """Format a time difference."""',
      '    limit = threshold * 2',
      '    return delta',
      '',
      'def enable(self, size: int = 5) -> None:',
      '    self.size = size',
      '',
    ].join('\n'),
  );
  const units = [...prose, ...code];
  const signature = code.find((u) => u.unit.display.startsWith('def format_delta'))!;

  it('brings the signature that gives a quoted parameter its default', () => {
    expect(parameterDefaultsOf([prose[0]!], units)).toEqual([signature]);
  });

  it('brings nothing when a quoted line already gives the default, or the sentence names no parameter', () => {
    expect(parameterDefaultsOf([prose[0]!, signature], units)).toEqual([]);
    expect(parameterDefaultsOf(unitsOf('The value after which the next larger unit is used.\n', 'docs/dates.rst'), units)).toEqual([]);
  });

  it('reads a default with a type annotation, and not a use of the name or a comparison', () => {
    const sized = unitsOf('Buffer `size` items before yielding them.\n', 'docs/api.rst');
    expect(parameterDefaultsOf(sized, units).map((u) => u.unit.display)).toEqual(['def enable(self, size: int = 5) -> None:']);
    const compared = unitsOf('def check(limit):\n    return limit == 5\n');
    expect(parameterDefaultsOf(unitsOf('The `limit` is checked.\n', 'docs/api.rst'), compared)).toEqual([]);
  });
});

describe('leadCompletion after an assignment', () => {
  const text = [
    'def precision_of(currency):',
    "    precisions = load_table('fractions')",
    "    return precisions.get(currency, precisions['DEFAULT'])[0]",
    '',
    'def limit_of(name):',
    '    limit = 100',
    '    return limit',
    '',
    'def size_of(name):',
    '    sizes = load_table(name)',
    '    log(sizes)',
    '    return 0',
    '',
  ].join('\n');
  const units = unitsOf(text);
  const find = (display: string) => units.find((u) => u.unit.display === display)!;
  const complete = (display: string) => leadCompletion(find(display), units, source(text, { file_path: 'pkg/config.py' }), new Set<string>(), 'value').map((u) => u.unit.display);

  it('brings the return that makes the result from a fetched value: the fetch alone does not say what comes back', () => {
    expect(complete("precisions = load_table('fractions')")).toEqual(["return precisions.get(currency, precisions['DEFAULT'])[0]"]);
  });

  it('brings nothing after a literal assignment (the value itself) or before a line that is not a return using the name', () => {
    expect(complete('limit = 100')).toEqual([]);
    expect(complete('sizes = load_table(name)')).toEqual([]);
  });
});
