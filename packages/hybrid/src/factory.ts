import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RagError, type BuildContext, type Chunk, type LoadContext, type RetrieverFactory } from '@rag/core';
import { DEFAULT_HYBRID_OPTIONS, resolveHybridOptions, type HybridOptions, type HybridSettings } from './options.js';
import { HYBRID_FORMAT, HYBRID_FORMAT_VERSION, HYBRID_MANIFEST_FILE, HybridRetriever, type HybridManifest } from './retriever.js';

async function readManifest(dir: string, read: (path: string) => Promise<Uint8Array> = readFile): Promise<HybridManifest> {
  let manifest: Partial<HybridManifest>;
  try {
    manifest = JSON.parse(Buffer.from(await read(join(dir, HYBRID_MANIFEST_FILE))).toString('utf8')) as Partial<HybridManifest>;
  } catch (error) {
    throw new RagError('INDEX_CORRUPT', `The hybrid index in ${dir} is incomplete or damaged (${HYBRID_MANIFEST_FILE}).`, {
      hint: 'Rebuild it with `rag index --corpus_dir <dir> --retriever hybrid`.',
      cause: error,
    });
  }
  if (manifest.format !== HYBRID_FORMAT || manifest.version !== HYBRID_FORMAT_VERSION || !Array.isArray(manifest.components)) {
    throw new RagError('INDEX_INCOMPATIBLE', `The hybrid index in ${dir} has format ${String(manifest.format)} version ${String(manifest.version)}; this version reads ${HYBRID_FORMAT} ${HYBRID_FORMAT_VERSION}.`, {
      hint: 'Rebuild it with `rag index --corpus_dir <dir> --retriever hybrid`.',
    });
  }
  return manifest as HybridManifest;
}

/**
 * A `RetrieverFactory` named `hybrid` that fuses the retrievers `components` build.
 * `build` builds each component (its settings under `settings.components[name]`), and
 * the retriever saves each in its own subdirectory plus `hybrid.json`; `load` loads each
 * with its factory and restores the fusion options it was built with. `options` are the
 * defaults under the build settings (see `HybridOptions`).
 */
export function createHybridRetrieverFactory(components: readonly RetrieverFactory[], options: HybridSettings = {}): RetrieverFactory {
  if (components.length === 0) throw new RagError('INVALID_ARGUMENT', 'A hybrid retriever needs at least one component.', { hint: 'Pass e.g. [bm25RetrieverFactory, embeddingRetrieverFactory].' });
  const { components: defaultComponentSettings = {}, ...fusionDefaults } = options;
  const base: HybridOptions = resolveHybridOptions(fusionDefaults, DEFAULT_HYBRID_OPTIONS);
  const byName = new Map(components.map((f) => [f.name, f]));
  if (byName.size !== components.length) throw new RagError('INVALID_ARGUMENT', 'Two hybrid component factories share a name.', { hint: 'Give every component a distinct name.' });
  return {
    name: 'hybrid',
    description: `fusion of ${components.map((f) => f.name).join(' + ')} (${base.fusion}${base.fusion === 'rrf' ? `, rrf_k ${base.rrfK}` : ''})`,
    async build(chunks: readonly Chunk[], context: BuildContext = {}) {
      const { components: componentSettings = {}, ...fusionSettings } = (context.settings ?? {}) as HybridSettings;
      for (const name of Object.keys(componentSettings)) {
        if (!byName.has(name)) {
          throw new RagError('INVALID_ARGUMENT', `hybrid settings name component "${name}", which this hybrid does not have.`, {
            hint: `Components: ${[...byName.keys()].join(', ')}.`,
          });
        }
      }
      const resolved = resolveHybridOptions(fusionSettings, base);
      const built = [];
      for (const factory of components) {
        const settings = { ...defaultComponentSettings[factory.name], ...componentSettings[factory.name] };
        // Each component finds its own previous build in its subfolder (see `HybridRetriever.save`).
        const previous = context.previous ? { ...context.previous, dir: join(context.previous.dir, factory.name) } : undefined;
        built.push(
          await factory.build(chunks, {
            settings,
            ...(context.onProgress ? { onProgress: context.onProgress } : {}),
            ...(context.collectGarbage ? { collectGarbage: context.collectGarbage } : {}),
            ...(context.onNotice ? { onNotice: context.onNotice } : {}),
            ...(previous ? { previous } : {}),
          }),
        );
      }
      return new HybridRetriever(built, resolved, chunks);
    },
    async load(dir: string, chunks: readonly Chunk[], context?: LoadContext) {
      const manifest = await readManifest(dir, context?.readFile);
      const loaded = [];
      for (const name of manifest.components) {
        const factory = byName.get(name);
        if (!factory) {
          throw new RagError('INDEX_INCOMPATIBLE', `The hybrid index in ${dir} fuses "${name}", which this hybrid retriever does not have.`, {
            hint: `Rebuild it with the current components (${[...byName.keys()].join(', ')}): \`rag index --retriever hybrid\`.`,
          });
        }
        loaded.push(await factory.load(join(dir, name), chunks, context));
      }
      return new HybridRetriever(loaded, resolveHybridOptions(manifest.options as unknown as HybridSettings, base), chunks);
    },
  };
}
