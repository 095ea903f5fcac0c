/** Version of the rag tool, recorded in every index it writes. */
export const VERSION = '0.1.0';
