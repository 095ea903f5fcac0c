import type { FastifySchemaValidationError } from 'fastify';

const WHERE: Record<string, string> = { body: 'in the request body', querystring: 'in the query string', params: 'in the path', headers: 'in the headers' };

/**
 * One sentence naming the field that failed and why, from Ajv's first error:
 * `k must be <= 100 (in the request body)`. Ajv's own wording names the parent object
 * for `required` and `additionalProperties`, so those name the property instead.
 */
export function describeValidation(errors: readonly FastifySchemaValidationError[], context: string | undefined): { message: string; field: string } {
  const where = WHERE[context ?? ''] ?? '';
  const suffix = where ? ` (${where})` : '';
  const first = errors[0];
  if (!first) return { message: `The request is invalid${suffix}.`, field: '' };
  const path = first.instancePath.split('/').filter(Boolean);
  const params = first.params as Record<string, unknown>;
  if (first.keyword === 'required' && typeof params.missingProperty === 'string') {
    const field = [...path, params.missingProperty].join('.');
    return { message: `${field} is required${suffix}.`, field };
  }
  if (first.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    const field = [...path, params.additionalProperty].join('.');
    return { message: `${field} is not a known field${suffix}.`, field };
  }
  const field = path.join('.');
  if (field === '') return { message: `The ${context === 'querystring' ? 'query string' : 'request body'} ${first.message ?? 'is invalid'}.`, field };
  return { message: `${field} ${first.message ?? 'is invalid'}${suffix}.`, field };
}
