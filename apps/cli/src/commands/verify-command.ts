import { openStore } from '@rag/service/search';
import { INDEX_DIR_FLAG, STORE_FLAG, JSON_FLAG, QUIET_FLAG, VERBOSE_FLAG, writeOut, type Command } from '../command.js';
import { indexDirFrom, showLocation } from '../paths.js';

export const verifyCommand: Command = {
  name: 'verify',
  flags: [INDEX_DIR_FLAG, STORE_FLAG, JSON_FLAG, QUIET_FLAG, VERBOSE_FLAG],
  examples: ['rag verify', 'rag verify --index_dir /path/to/.rag/index --json', 'rag verify --store postgresql://rag@localhost/rag'],
  async run(flags) {
    const indexDir = indexDirFrom(flags);
    // A damaged or missing file throws INDEX_CORRUPT naming it (exit 1).
    const store = openStore(indexDir);
    const report = await store.verify().finally(() => store.close());
    if (flags.json) {
      writeOut(JSON.stringify({ index_dir: showLocation(indexDir), ok: true, ...report }, null, 2));
      return;
    }
    writeOut(`ok: ${report.files} files, ${(report.bytes / 1e6).toFixed(1)} MB of generation ${report.generation} in ${showLocation(indexDir)} match their checksums`);
  },
};
