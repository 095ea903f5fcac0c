import type { Embedder } from '../embedder.js';
import type { EmbeddingOptions } from '../options.js';
import { normalizeInPlace } from '../vector-math.js';
import { loadSentenceModel, type LoadedModel, type TensorLike } from './load.js';
import { planWindows } from './windows.js';

/** Cap on the default window: all-MiniLM-L6-v2 and most sentence encoders were trained on ≤ 256 tokens. */
export const DEFAULT_WINDOW_CAP = 256;

interface Window {
  owner: number;
  ids: number[];
  /** Content tokens (specials excluded): the window's weight in its text's average. */
  weight: number;
}

/** The special tokens the tokenizer wraps a single sequence in, found by encoding a probe. */
function findSpecialTokens(encode: (text: string, special: boolean) => number[]): { prefix: number[]; suffix: number[] } {
  const plain = encode('hello', false);
  const wrapped = encode('hello', true);
  for (let start = 0; start + plain.length <= wrapped.length; start++) {
    if (plain.every((id, i) => wrapped[start + i] === id)) {
      return { prefix: wrapped.slice(0, start), suffix: wrapped.slice(start + plain.length) };
    }
  }
  return { prefix: [], suffix: [] };
}

/**
 * A sentence-embedding model run through transformers.js on onnxruntime-node: mean
 * pooling over the attention mask, L2 normalisation, as the feature-extraction pipeline
 * does with `{ pooling: 'mean', normalize: true }`. Texts longer than one window are cut
 * into overlapping token windows (each wrapped in the model's special tokens); the
 * window vectors are averaged weighted by their token counts and normalised again, so
 * nothing is truncated. Windows are sorted by length and packed into forward passes of
 * at most `batchTokens` padded tokens, and every output tensor is freed after pooling.
 */
export class TransformersEmbedder implements Embedder {
  readonly id: string;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly windowTokens: number;
  readonly #loaded: LoadedModel;
  readonly #prefix: number[];
  readonly #suffix: number[];
  readonly #padId: number;
  #dimension = 0;

  private constructor(loaded: LoadedModel, readonly options: EmbeddingOptions) {
    this.#loaded = loaded;
    const tokenizer = loaded.pipeline.tokenizer;
    const specials = findSpecialTokens((text, special) => tokenizer.encode(text, { add_special_tokens: special }));
    this.#prefix = specials.prefix;
    this.#suffix = specials.suffix;
    this.#padId = tokenizer.pad_token_id ?? 0;
    const positions = Number(loaded.config.max_position_embeddings ?? Infinity);
    const modelLimit = Math.min(tokenizer.model_max_length || Infinity, Number.isFinite(positions) ? positions : Infinity);
    this.windowTokens = options.windowTokens ?? Math.min(modelLimit, DEFAULT_WINDOW_CAP);
    if (this.windowTokens - this.#prefix.length - this.#suffix.length < 1) {
      throw new RangeError(`windowTokens ${this.windowTokens} leaves no room next to the model's special tokens`);
    }
    const windowPart = options.windowTokens === null ? '' : `:w${this.windowTokens}`;
    this.id = `${loaded.id}${windowPart}`;
    this.settings = {
      embedder: 'transformers',
      ...(options.modelDir ? { modelDir: options.modelDir } : { model: options.model }),
      dtype: options.dtype,
      windowTokens: options.windowTokens,
      windowOverlap: options.windowOverlap,
    };
  }

  /** Loads the model (see `loadSentenceModel`) and measures its output size with one probe. */
  static async create(options: EmbeddingOptions): Promise<TransformersEmbedder> {
    const embedder = new TransformersEmbedder(await loadSentenceModel(options), options);
    const probe = await embedder.#run([{ owner: 0, ids: [...embedder.#prefix, ...embedder.#suffix], weight: 1 }], 1, null);
    embedder.#dimension = probe.length;
    return embedder;
  }

  get dimension(): number {
    return this.#dimension;
  }

  /** Where the model was loaded from: a folder, the cache, or the hub URL. */
  get location(): string {
    return this.#loaded.location;
  }

  /** The pipeline itself, for callers that want transformers.js directly. */
  get pipeline(): LoadedModel['pipeline'] {
    return this.#loaded.pipeline;
  }

  /** The token windows `text` is embedded as, special tokens included. */
  windowsOf(text: string): number[][] {
    const ids = this.#loaded.pipeline.tokenizer.encode(text, { add_special_tokens: false });
    const content = this.windowTokens - this.#prefix.length - this.#suffix.length;
    const overlap = Math.min(this.options.windowOverlap, Math.floor(content / 2));
    return planWindows(ids.length, content, overlap).map((start) => [...this.#prefix, ...ids.slice(start, start + content), ...this.#suffix]);
  }

  async embedDocuments(texts: readonly string[]): Promise<Float32Array> {
    const windows: Window[] = [];
    texts.forEach((text, owner) => {
      for (const ids of this.windowsOf(text)) windows.push({ owner, ids, weight: Math.max(1, ids.length - this.#prefix.length - this.#suffix.length) });
    });
    const out = await this.#run(windows, texts.length, this.#dimension);
    for (let t = 0; t < texts.length; t++) normalizeInPlace(out, t * this.#dimension, this.#dimension);
    return out;
  }

  async embedQuery(text: string): Promise<Float32Array> {
    return this.embedDocuments([text]);
  }

  /**
   * Runs windows through the model in length-sorted, token-bounded batches and adds each
   * window's normalised mean-pooled vector, times its weight, into its owner's row.
   * `dimension` null means "not known yet" (the probe): the output then has one row.
   */
  async #run(windows: Window[], owners: number, dimension: number | null): Promise<Float32Array> {
    const { Tensor } = this.#loaded.transformers;
    const order = windows.map((_, i) => i).sort((a, b) => windows[b]!.ids.length - windows[a]!.ids.length || a - b);
    let out = dimension === null ? new Float32Array(0) : new Float32Array(owners * dimension);
    for (let from = 0; from < order.length; ) {
      const longest = windows[order[from]!]!.ids.length;
      const size = Math.max(1, Math.min(order.length - from, Math.floor(this.options.batchTokens / Math.max(1, longest))));
      const batch = order.slice(from, from + size).map((i) => windows[i]!);
      from += size;
      const ids = new BigInt64Array(size * longest).fill(BigInt(this.#padId));
      const mask = new BigInt64Array(size * longest);
      batch.forEach((w, row) => {
        for (let p = 0; p < w.ids.length; p++) {
          ids[row * longest + p] = BigInt(w.ids[p]!);
          mask[row * longest + p] = 1n;
        }
      });
      const inputIds = new Tensor('int64', ids, [size, longest]);
      const attentionMask = new Tensor('int64', mask, [size, longest]);
      let outputs: Record<string, TensorLike | undefined>;
      try {
        outputs = await this.#loaded.pipeline.model({ input_ids: inputIds, attention_mask: attentionMask });
      } finally {
        inputIds.dispose();
        attentionMask.dispose();
      }
      const hidden = outputs.last_hidden_state ?? outputs.token_embeddings ?? outputs.logits;
      try {
        if (!hidden || hidden.dims.length !== 3) throw new Error('the model returned no [batch, sequence, hidden] output');
        const width = hidden.dims[2]!;
        if (dimension === null) {
          dimension = width;
          out = new Float32Array(owners * width);
        }
        const data = hidden.data as Float32Array;
        const pooled = new Float32Array(width);
        batch.forEach((w, row) => {
          pooled.fill(0);
          for (let p = 0; p < w.ids.length; p++) {
            const base = (row * longest + p) * width;
            for (let c = 0; c < width; c++) pooled[c] = pooled[c]! + data[base + c]!;
          }
          normalizeInPlace(pooled);
          const target = w.owner * width;
          for (let c = 0; c < width; c++) out[target + c] = out[target + c]! + w.weight * pooled[c]!;
        });
      } finally {
        for (const tensor of Object.values(outputs)) tensor?.dispose?.();
      }
    }
    return out;
  }

  async dispose(): Promise<void> {
    await this.#loaded.pipeline.dispose?.();
  }
}
