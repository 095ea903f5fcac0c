/** Version of the server, reported by /health, /openapi.json and the MCP handshake. */
export const SERVER_VERSION = '0.1.0';
