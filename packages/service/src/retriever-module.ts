import { pathToFileURL } from 'node:url';
import { RagError, type RetrieverSource } from '@rag/core';
import { createDefaultRetrieverRegistry, type RetrieverRegistryOptions } from './retrievers.js';

/** A `retrieverModule` option as an importable URL (an absolute path or a `file:` URL). */
export function retrieverModuleUrl(specifier: string): string {
  return specifier.startsWith('file:') ? specifier : pathToFileURL(specifier).href;
}

/**
 * The registry a thread searches with: `createRetrieverRegistry()` of `module` when one is
 * named, else the default registry with `settings`. The main thread and every search
 * worker build theirs the same way (a registry object cannot cross threads).
 */
export async function loadRetrieverRegistry(module: string | undefined, settings: RetrieverRegistryOptions): Promise<RetrieverSource> {
  if (module === undefined) return createDefaultRetrieverRegistry(settings);
  const exported = (await import(retrieverModuleUrl(module))) as { createRetrieverRegistry?: () => RetrieverSource };
  if (typeof exported.createRetrieverRegistry !== 'function') {
    throw new RagError('INVALID_ARGUMENT', `${module} exports no createRetrieverRegistry().`, {
      hint: 'Export a function `createRetrieverRegistry()` that returns a RetrieverRegistry.',
    });
  }
  return exported.createRetrieverRegistry();
}
