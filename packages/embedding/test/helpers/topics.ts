import type { ChunkSpec } from './chunks.js';

/**
 * Three topics, twelve chunks. `car` and `automobile` never share a chunk, but both keep
 * company with engine, wheels, road and fuel; the fruit and GPU chunks share nothing with
 * them. A co-occurrence embedder should put the two words together anyway.
 */
export const TOPIC_CHUNKS: ChunkSpec[] = [
  { file: 'docs/vehicles.md', text: 'The car has an engine and four wheels.' },
  { file: 'docs/vehicles.md', text: 'Drive the car on the road with the engine running.' },
  { file: 'docs/vehicles.md', text: 'The automobile engine turns the wheels.' },
  { file: 'docs/vehicles.md', text: 'An automobile needs fuel for the engine on the road.' },
  { file: 'docs/vehicles.md', text: 'Wheels and engine of the car need fuel.' },
  { file: 'docs/fruit.md', text: 'The banana is a yellow fruit with a peel.' },
  { file: 'docs/fruit.md', text: 'Peel the banana and eat the sweet fruit.' },
  { file: 'docs/fruit.md', text: 'An apple is a sweet fruit, red or yellow.' },
  { file: 'docs/fruit.md', text: 'Eat an apple or a banana as fruit.' },
  { file: 'src/gpu.py', text: 'the gpu memory holds the kv cache' },
  { file: 'src/gpu.py', text: 'kv cache blocks live in gpu memory' },
  { file: 'src/gpu.py', text: 'allocate gpu memory for cache blocks' },
];

export const VEHICLES = [0, 1, 2, 3, 4];
export const FRUIT = [5, 6, 7, 8];
export const GPU = [9, 10, 11];

/** Corpus-embedder settings for a corpus this small: one dimension per topic. */
export const TOPIC_SETTINGS = { dimension: 3, oversampling: 4, powerIterations: 2 } as const;
