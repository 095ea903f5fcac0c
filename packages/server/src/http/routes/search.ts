import type { FastifyInstance } from 'fastify';
import type { RagService, SearchRequest } from '@rag/service';
import { searchSchema } from '../schemas.js';

export function registerSearchRoute(app: FastifyInstance, service: RagService): void {
  app.post<{ Body: SearchRequest }>('/search', { schema: searchSchema }, (request) => service.search(request.body));
}
