import type { FastifyInstance } from 'fastify';
import type { RagService } from '@rag/service';
import { SERVER_VERSION } from '../../version.js';
import { withoutPaths } from '../../paths.js';
import { healthSchema, statsSchema } from '../schemas.js';

export function registerStatusRoutes(app: FastifyInstance, service: RagService, exposePaths = false): void {
  const started = Date.now();
  app.get('/health', { schema: healthSchema }, async () => ({
    status: 'ok' as const,
    version: SERVER_VERSION,
    uptime_seconds: Math.round((Date.now() - started) / 1000),
  }));
  app.get('/stats', { schema: statsSchema }, async () => (exposePaths ? service.stats() : withoutPaths(await service.stats())));
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
