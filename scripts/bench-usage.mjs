// Preloaded (`node --import ./scripts/bench-usage.mjs …`) into a measured process: on exit it
// writes the process's own peak RSS and CPU time to $RAG_BENCH_USAGE, and on Linux the bytes
// it handed to write calls (`wchar` of /proc/self/io), so a benchmark can measure a whole
// command (the CLI, a floor script) without a `time` binary.
import { readFileSync, writeFileSync } from 'node:fs';

/** Megabytes this process passed to write calls so far; undefined where /proc/self/io is absent. */
function writtenMB() {
  try {
    const found = /^wchar:\s*(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'));
    return found ? Number(found[1]) / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

const target = process.env.RAG_BENCH_USAGE;
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(target, JSON.stringify({ maxRssMB: usage.maxRSS / 1024, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, writtenMB: writtenMB() }));
  });
}
