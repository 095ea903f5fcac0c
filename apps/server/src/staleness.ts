// The tracker lives in @rag/core so the CLI can flag stale hits the same way.
export { sha256Hex, StalenessTracker, type FileState, type StalenessReport } from '@rag/core';
