import { MAX_QUERY_LENGTH } from '@rag/service';
import type { FastifyError } from 'fastify';
import type { ErrorBody } from '../errors.js';

/** The message the app's JSON parser gives a valid JSON body it refuses for a prototype-poisoning key. */
export const RESERVED_KEY_REFUSAL = 'reserved key';

const JSON_HINT = 'Send a JSON object with content-type application/json, e.g. {"query": "How is the cache sized?"}; /openapi.json lists the fields.';

/**
 * Fastify's own refusal of a request (before any route runs) as the one error shape every
 * other error has: a code of ours, the reason, and a hint. Its `FST_…` codes name Fastify's
 * internals, which a client should not have to know.
 */
export function describeRefusal(error: FastifyError, bodyLimit: number): ErrorBody {
  switch (error.code) {
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: 'INVALID_ARGUMENT', message: 'The request body is empty.', hint: JSON_HINT };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      // Valid JSON can still be refused: a `__proto__` key (or `constructor.prototype`) could
      // change every object of the process, so the parser rejects it. Saying "not valid
      // JSON" then sends the client looking for a syntax error that is not there.
      return error.message === RESERVED_KEY_REFUSAL
        ? { code: 'INVALID_ARGUMENT', message: 'The request body uses a reserved key ("__proto__" or "constructor" with "prototype"), which this server refuses.', hint: 'Leave that key out; /openapi.json lists the fields.' }
        : { code: 'INVALID_ARGUMENT', message: 'The request body is not valid JSON.', hint: JSON_HINT };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'INVALID_ARGUMENT', message: `The request body is larger than ${bodyLimit} bytes.`, hint: `Send a shorter request: a question is at most ${MAX_QUERY_LENGTH} characters.` };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: 'INVALID_ARGUMENT', message: 'The request body has a content type this server does not read.', hint: JSON_HINT };
    default:
      return { code: 'INVALID_ARGUMENT', message: error.message, hint: 'GET /openapi.json lists the routes and their fields.' };
  }
}
