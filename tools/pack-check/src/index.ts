export * from './manifest.js';
export * from './pack.js';
