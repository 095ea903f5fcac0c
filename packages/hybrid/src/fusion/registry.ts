import { RagError } from '@rag/core';
import { reciprocalRankFusion } from './rrf.js';
import { minMaxFusion, zScoreFusion } from './score.js';
import type { FusionMethod } from './types.js';

const methods = new Map<string, FusionMethod>([reciprocalRankFusion, minMaxFusion, zScoreFusion].map((m) => [m.name, m]));

/** Names of the registered fusion methods, in registration order. */
export function fusionMethodNames(): string[] {
  return [...methods.keys()];
}

/** The fusion method called `name`; an unknown name is `RagError('UNKNOWN_NAME')` listing the valid ones. */
export function getFusionMethod(name: string): FusionMethod {
  const method = methods.get(name);
  if (!method) {
    throw new RagError('UNKNOWN_NAME', `Unknown fusion method "${name}".`, { hint: `Valid fusion methods: ${fusionMethodNames().join(', ')}.` });
  }
  return method;
}

/** Adds a fusion method (e.g. a learned one); a taken name is `INVALID_ARGUMENT`. */
export function registerFusionMethod(method: FusionMethod): void {
  if (methods.has(method.name)) throw new RagError('INVALID_ARGUMENT', `A fusion method named "${method.name}" is already registered.`);
  methods.set(method.name, method);
}
