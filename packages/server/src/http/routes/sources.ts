import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SpanRequest } from '@rag/service';
import type { RagService } from '@rag/service';
import { sourcesSchema } from '../schemas.js';

const NUMERIC_PARAMETERS = ['start', 'end'] as const;

/** Query strings carry text; whole numbers become numbers here so the schema can check their range. */
async function convertNumbers(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>;
  for (const name of NUMERIC_PARAMETERS) {
    const value = query[name];
    if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) query[name] = Number(value);
  }
}

export function registerSourcesRoute(app: FastifyInstance, service: RagService): void {
  app.get<{ Querystring: SpanRequest }>('/sources', { schema: sourcesSchema, preValidation: convertNumbers }, (request) => service.readSpan(request.query));
}
