export * from './errors.js';
export * from './types.js';
export * from './retriever.js';
export * from './schemas.js';
export * from './offsets.js';
export * from './fs.js';
export * from './index-store.js';
export * from './index-session.js';
