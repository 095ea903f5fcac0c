/**
 * Turns text into unit-length vectors whose dot products measure relatedness. Chunks and
 * queries go through separate methods because some models treat them differently.
 */
export interface Embedder {
  /**
   * Identity of the model and of every setting that changes its vectors. Vectors from
   * embedders with different ids are not comparable, and an index refuses queries from
   * an embedder whose id differs from the one that built it.
   */
  readonly id: string;
  /** Length of every vector. */
  readonly dimension: number;
  /** Settings that recreate this embedder; recorded in the index. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Unit-length vectors of `texts`, row-major: row i (dimension entries) is texts[i]. */
  embedDocuments(texts: readonly string[]): Promise<Float32Array>;
  /** The unit-length vector of one query. */
  embedQuery(text: string): Promise<Float32Array>;
  /** Releases native resources (ONNX sessions); the embedder is unusable afterwards. */
  dispose?(): Promise<void>;
}
