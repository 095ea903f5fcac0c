import type { FastifyInstance } from 'fastify';
import type { RagService } from '@rag/service';
import { SERVER_VERSION } from '../../version.js';
import { healthSchema, statsSchema } from '../schemas.js';

export function registerStatusRoutes(app: FastifyInstance, service: RagService): void {
  const started = Date.now();
  app.get('/health', { schema: healthSchema }, async () => ({
    status: 'ok' as const,
    version: SERVER_VERSION,
    uptime_seconds: Math.round((Date.now() - started) / 1000),
  }));
  app.get('/stats', { schema: statsSchema }, () => service.stats());
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
