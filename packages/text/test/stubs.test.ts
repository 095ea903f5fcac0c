import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMarkupStub } from '../src/index.js';

describe('isMarkupStub', () => {
  it('takes an autodoc section: a title over directives and their options', () => {
    expect(isMarkupStub('Redis Backend\n=============\n\n.. automodule:: cachelib.redis\n   :members:\n   :undoc-members:\n   :show-inheritance:')).toBe(true);
    // Several directives under one title, a label above it, a comment, an overlined title.
    expect(isMarkupStub('.. _numbers-api:\n\n===========\nData Access\n===========\n\n.. autofunction:: get_currency_name\n\n.. autofunction:: get_currency_symbol\n\n.. This page is generated.')).toBe(true);
    // A Markdown heading alone.
    expect(isMarkupStub('## API\n')).toBe(true);
    // A MkDocs API page: headings over autodoc instructions and their options.
    expect(isMarkupStub('## `Client`\n\n::: httpx.Client\n    :docstring:\n    :members: get post stream')).toBe(true);
    expect(isMarkupStub('# Reference\n\n::: pkg.cache.RedisCache\n    options:\n      show_source: false')).toBe(true);
    // A directive whose arguments run on over several lines.
    expect(isMarkupStub('.. autoclass:: SandboxedEnvironment([options])\n    :members: is_safe_attribute,\n        is_safe_callable')).toBe(true);
  });

  it('leaves every chunk that holds a word of its own', () => {
    // A sentence under the title is what the section says.
    expect(isMarkupStub('Redis Backend\n=============\n\nUses a Redis server as the cache.\n\n.. automodule:: cachelib.redis')).toBe(false);
    // The indented body of an admonition (after its blank line) is content, not an option.
    expect(isMarkupStub('.. note::\n\n   The cache is cleared on restart.')).toBe(false);
    expect(isMarkupStub('.. attribute:: pid\n\n   The process ID of the child process.')).toBe(false);
    // A pandoc or MyST container holds content.
    expect(isMarkupStub('::: warning\nKeys are not escaped.\n:::')).toBe(false);
    // A code block, a list item, a table row.
    expect(isMarkupStub('Example\n-------\n\n::\n\n    cache.set("k", 1)')).toBe(false);
    expect(isMarkupStub('# Options\n\n- `timeout`: seconds before an entry expires')).toBe(false);
    expect(isMarkupStub('| name | default |\n|---|---|\n| timeout | 300 |')).toBe(false);
    // A line of text that an adornment-like line follows is a title only when the line is adornment.
    expect(isMarkupStub('Keys longer than 250 characters are ignored.')).toBe(false);
    expect(isMarkupStub('')).toBe(false);
    expect(isMarkupStub('\n \n')).toBe(false);
  });

  it('is never fooled by a sentence added to a stub', () => {
    const stub = fc.constantFrom('Redis Backend\n=============\n\n.. automodule:: cachelib.redis\n   :members:', '## API\n\n.. autoclass:: Signal');
    const sentence = fc.stringMatching(/^[A-Z][a-z]{2,8}( [a-z]{2,8}){2,6}\.$/);
    fc.assert(
      fc.property(stub, sentence, fc.boolean(), (text, words, before) => {
        expect(isMarkupStub(text)).toBe(true);
        expect(isMarkupStub(before ? `${words}\n\n${text}` : `${text}\n\n${words}`)).toBe(false);
      }),
    );
  });
});
