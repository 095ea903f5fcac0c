import { RagError } from '@rag/core';
import type { Generator, GeneratorRegistry, GeneratorSettings } from '@rag/generation';

/**
 * The generators a server uses, each created once on first use. A request may name any
 * of the registry's generators or the server's default; it cannot name a model folder
 * or hub id, so a client never makes the server load or download a model of its choosing.
 */
export class GeneratorPool {
  readonly #registry: GeneratorRegistry;
  readonly #settings: GeneratorSettings;
  readonly #created = new Map<string, Promise<Generator>>();
  readonly defaultName: string;

  constructor(registry: GeneratorRegistry, defaultName: string, settings: GeneratorSettings) {
    this.#registry = registry;
    this.defaultName = defaultName;
    this.#settings = settings;
  }

  /** Names a request may use, the default first. */
  names(): string[] {
    return [this.defaultName, ...this.#registry.names().filter((n) => n !== this.defaultName)];
  }

  get(name: string = this.defaultName): Promise<Generator> {
    const existing = this.#created.get(name);
    if (existing) return existing;
    if (!this.names().includes(name)) {
      return Promise.reject(
        new RagError('UNKNOWN_NAME', `Unknown generator "${name}".`, { hint: `This server offers: ${this.names().join(', ')}.` }),
      );
    }
    const pending = this.#registry.create(name, this.#settings);
    pending.catch(() => this.#created.delete(name));
    this.#created.set(name, pending);
    return pending;
  }

  async dispose(): Promise<void> {
    const created = [...this.#created.values()];
    this.#created.clear();
    await Promise.all(created.map(async (p) => (await p.catch(() => undefined))?.dispose()));
  }
}
