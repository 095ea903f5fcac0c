// Preloaded (`node --import ./scripts/bench-usage.mjs …`) into a measured process: on exit it
// writes the process's own peak RSS and CPU time to $RAG_BENCH_USAGE, so a benchmark can
// measure a whole command (the CLI, a floor script) without a `time` binary.
import { writeFileSync } from 'node:fs';

const target = process.env.RAG_BENCH_USAGE;
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(target, JSON.stringify({ maxRssMB: usage.maxRSS / 1024, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 }));
  });
}
