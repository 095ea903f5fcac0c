import type { FastifyInstance } from 'fastify';
import type { RagService, SearchRequest } from '@rag/service';
import { searchSchema } from '../schemas.js';

/**
 * POST /search. The body is the service's JSON text (`searchJson`: built and serialized by
 * the search worker that searched, keys in the `SearchResult` schema's order), sent as it
 * is: a string with a JSON content type skips Fastify's serializer, so this thread only
 * forwards it. The schema still validates the request and documents the response.
 */
export function registerSearchRoute(app: FastifyInstance, service: RagService): void {
  app.post<{ Body: SearchRequest }>('/search', { schema: searchSchema }, async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(await service.searchJson(request.body)),
  );
}
