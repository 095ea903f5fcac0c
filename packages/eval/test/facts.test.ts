import { describe, expect, it } from 'vitest';
import { countFacts, keyFacts, statesFacts } from '../src/index.js';

describe('key facts of a reference answer', () => {
  it('takes code, quoted strings, flags, paths, identifiers and numbers, not prose words', () => {
    expect(keyFacts('The default value of `max_tokens` is 16.')).toEqual(['max_tokens', '16']);
    expect(keyFacts('Pass --enable-auto-tool-choice with --tool-call-parser, or set VLLM_SERVER_DEV_MODE=1.')).toEqual(
      expect.arrayContaining(['--enable-auto-tool-choice', '--tool-call-parser', 'vllm_server_dev_mode', '1']),
    );
    expect(keyFacts('It reads ~/.config/vllm/usage_stats.json and raises ValueError("No free blocks").')).toEqual(
      expect.arrayContaining(['~/.config/vllm/usage_stats.json', 'valueerror', 'no free blocks']),
    );
    expect(keyFacts('SamplingParams and the sampling.params module')).toEqual(expect.arrayContaining(['samplingparams', 'sampling.params']));
    expect(keyFacts('It is only supported on CUDA.')).toEqual(['cuda']);
    expect(keyFacts('Yes, it works.')).toEqual([]);
  });

  it('takes a possessive’s apostrophes for no quotes', () => {
    expect(keyFacts("The model's eos_token_id values other than the model's own are added.")).toEqual(['eos_token_id']);
    expect(keyFacts("Set it to 'auto' (the parent's choice).")).toEqual(['auto']);
  });

  it('takes no Latin abbreviation of prose for a dotted name', () => {
    // "e.g." introduces the example; the example is the fact.
    expect(keyFacts('Give a mapping, e.g. `custom = mypackage.module:extract_custom`.')).toEqual(['custom = mypackage.module:extract_custom']);
    expect(keyFacts('The prefix, i.e. PREFIX_COMMAND_VARIABLE, comes first; I.E. and E.G. alike.')).toEqual(['prefix_command_variable']);
    // A dotted name is still one.
    expect(keyFacts('Call e.get() or i.e2 on the module (see os.path).')).toEqual(expect.arrayContaining(['os.path']));
  });

  it('counts a number only where it stands alone', () => {
    expect(countFacts('max_tokens defaults to 160', ['max_tokens', '16'])).toBe(1);
    expect(countFacts('max_tokens: Optional[int] = 16', ['max_tokens', '16'])).toBe(2);
    expect(countFacts('version 0.10.1', ['0.10'])).toBe(0);
  });

  it('states the fact when at least half of the facts are there', () => {
    expect(statesFacts('`max_tokens: Optional[int] = 16`', keyFacts('The default max_tokens is 16.'))).toBe(true);
    expect(statesFacts('The number of tokens to generate.', keyFacts('The default max_tokens is 16.'))).toBe(false);
    expect(statesFacts('anything', [])).toBe(false);
  });
});
