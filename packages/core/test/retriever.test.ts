import { describe, expect, it } from 'vitest';
import { RetrieverRegistry, type RetrieverFactory } from '../src/index.js';
import { rejection } from './helpers.js';

function factory(name: string): RetrieverFactory {
  return {
    name,
    description: `${name} retriever`,
    build: () => Promise.reject(new Error('not used')),
    load: () => Promise.reject(new Error('not used')),
  };
}

describe('RetrieverRegistry', () => {
  const registry = new RetrieverRegistry([factory('bm25'), factory('dense')]);

  it('finds factories by name, in registration order', () => {
    expect(registry.names()).toEqual(['bm25', 'dense']);
    expect(registry.has('dense')).toBe(true);
    expect(registry.get('bm25').description).toBe('bm25 retriever');
  });

  it('rejects an unknown name and lists the valid ones', async () => {
    const error = await rejection(() => registry.get('hybird'));
    expect(error.code).toBe('UNKNOWN_NAME');
    expect(error.message).toContain('"hybird"');
    expect(error.hint).toBe('Valid retrievers: bm25, dense.');
    expect(error.format()).toBe('Unknown retriever "hybird".\n  hint: Valid retrievers: bm25, dense.');
  });

  it('refuses to register a name twice', async () => {
    const error = await rejection(() => new RetrieverRegistry().register(factory('bm25')).register(factory('bm25')));
    expect(error.code).toBe('INVALID_ARGUMENT');
  });
});
