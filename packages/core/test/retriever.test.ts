import { describe, expect, it } from 'vitest';
import { deferRetrieverFactory, RetrieverRegistry, type RetrieverFactory } from '../src/index.js';
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

describe('deferRetrieverFactory', () => {
  const previous = { dir: '/nowhere', chunkCount: 0 };

  it('imports the implementation once, on first use, and delegates to it', async () => {
    let imports = 0;
    const real: RetrieverFactory = {
      ...factory('dense'),
      build: (chunks) => Promise.resolve({ name: `built over ${chunks.length}` } as never),
      load: (dir) => Promise.resolve({ name: `loaded from ${dir}` } as never),
      isCurrent: (p) => Promise.resolve(p.dir === '/nowhere'),
    };
    const deferred = deferRetrieverFactory('dense', 'dense vectors', () => {
      imports += 1;
      return Promise.resolve(real);
    });
    expect([deferred.name, deferred.description, imports]).toEqual(['dense', 'dense vectors', 0]);
    expect((await deferred.build([])).name).toBe('built over 0');
    expect((await deferred.load('/idx', [])).name).toBe('loaded from /idx');
    expect(await deferred.isCurrent!(previous)).toBe(true);
    expect(imports).toBe(1);
  });

  it('reads a factory without isCurrent as never current', async () => {
    expect(await deferRetrieverFactory('dense', '', () => Promise.resolve(factory('dense'))).isCurrent!(previous)).toBe(false);
  });

  it('refuses a loaded factory of another name, and retries an import that failed', async () => {
    const misnamed = await rejection(() => deferRetrieverFactory('dense', '', () => Promise.resolve(factory('sparse'))).load('/idx', []));
    expect(misnamed.code).toBe('INVALID_ARGUMENT');
    expect(misnamed.message).toContain('"sparse"');
    let attempts = 0;
    const flaky = deferRetrieverFactory('dense', '', () => (++attempts === 1 ? Promise.reject(new Error('module not found')) : Promise.resolve(factory('dense'))));
    await expect(flaky.isCurrent!(previous)).rejects.toThrow('module not found');
    expect(await flaky.isCurrent!(previous)).toBe(false);
    expect(attempts).toBe(2);
  });
});
