import { crc32 } from 'node:zlib';
import { RagError, type TextStore } from '@rag/core';
import type { Pool } from 'pg';
import { toStoreError } from './errors.js';
import { tables } from './schema.js';

export interface DatabaseTextsInput {
  pool: Pool;
  schema: string;
  location: string;
  generation: string;
  count: number;
  /** Texts kept after a fetch; the oldest go first. */
  cacheSize: number;
}

/**
 * The chunk texts of one generation in the database: `prefetch` fetches the ones a search
 * needs in one query (each checked against its CRC-32) into a bounded cache, and `text`
 * reads them from there, synchronously, as the search's second stage and its callers do.
 */
export function openDatabaseTexts(input: DatabaseTextsInput): TextStore {
  const { pool, location, generation, count, cacheSize } = input;
  const table = tables(input.schema).texts;
  const cache = new Map<number, string>();
  let open = true;
  const remember = (id: number, text: string): void => {
    cache.delete(id);
    cache.set(id, text);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
  };
  return {
    count,
    text(i) {
      if (!open) throw new RagError('INVALID_ARGUMENT', 'The index texts were closed.', { hint: 'Open the index again.' });
      const text = cache.get(i);
      if (text === undefined) {
        throw new RagError('INVALID_ARGUMENT', `The text of chunk ${i} was not fetched from ${location}.`, {
          hint: 'Texts in a database are read through `TextStore.prefetch` (IndexSession.search does it); prefetch the ids first.',
        });
      }
      return text;
    },
    async prefetch(ids) {
      if (!open) throw new RagError('INVALID_ARGUMENT', 'The index texts were closed.', { hint: 'Open the index again.' });
      const missing = [...new Set(ids)].filter((id) => Number.isInteger(id) && id >= 0 && id < count && !cache.has(id));
      if (missing.length === 0) return;
      let rows: { chunk_id: number; text: Buffer; crc32: string }[];
      try {
        rows = (await pool.query(`SELECT chunk_id, text, crc32 FROM ${table} WHERE generation = $1 AND chunk_id = ANY($2::int[])`, [generation, missing])).rows;
      } catch (error) {
        throw toStoreError(error, location);
      }
      if (rows.length !== missing.length) {
        const exists = await pool.query(`SELECT 1 FROM ${tables(input.schema).generations} WHERE generation = $1`, [generation]).then(
          (r) => r.rowCount === 1,
          () => false,
        );
        if (exists) {
          throw new RagError('INDEX_CORRUPT', `The index in ${location} is damaged: ${missing.length - rows.length} chunk text(s) of generation ${generation} are missing.`, {
            hint: 'Rebuild it with `rag index --corpus_dir <dir> --store <URL>` (`rag verify --store <URL>` checks every row).',
          });
        }
        throw new RagError('INDEX_NOT_FOUND', `Generation ${generation} of the index in ${location} has been removed (newer ones were published since it was opened).`, {
          hint: 'Open the index again (restart the server) to read the published generation.',
        });
      }
      for (const row of rows) {
        if (crc32(row.text) !== Number(row.crc32)) {
          throw new RagError('INDEX_CORRUPT', `The index in ${location} is damaged: the text of chunk ${row.chunk_id} does not match its checksum.`, {
            hint: 'Rebuild it with `rag index --corpus_dir <dir> --store <URL>` (`rag verify --store <URL>` checks every row).',
          });
        }
        remember(row.chunk_id, row.text.toString('utf8'));
      }
    },
    close() {
      open = false;
      cache.clear();
    },
  };
}
