import swagger from '@fastify/swagger';
import { SHARED_SCHEMAS } from './schemas.js';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { classifyError, type ErrorBody } from '../errors.js';
import { isLoopbackHost } from '../options.js';
import type { RagService } from '@rag/service';
import { SERVER_VERSION } from '../version.js';
import { registerAnswerRoute } from './routes/answer.js';
import { registerMcpRoute } from './routes/mcp.js';
import { registerPageRoutes } from './routes/page.js';
import { registerSearchRoute } from './routes/search.js';
import { registerSourcesRoute } from './routes/sources.js';
import { registerStatusRoutes } from './routes/status.js';
import { describeRefusal, RESERVED_KEY_REFUSAL } from './refusals.js';
import { describeValidation } from './validation.js';

export interface AppOptions {
  bodyLimit: number;
  logRequests: boolean;
  /** The interface the server binds; on loopback, requests must name a loopback Host too. */
  host: string;
  /** Absolute paths in errors and stats (see `ServerOptions.exposePaths`). Default `false`. */
  exposePaths?: boolean;
}

/** `localhost:8000` → `localhost`, `[::1]:8000` → `::1`. */
function hostnameOf(hostHeader: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(hostHeader);
  if (bracketed) return bracketed[1]!;
  const colon = hostHeader.lastIndexOf(':');
  return colon === -1 ? hostHeader : hostHeader.slice(0, colon);
}

function send(statusCode: number, body: ErrorBody): ErrorBody & { statusCode: number } {
  return { statusCode, ...body };
}

/** Whether `text` parses as JSON at all (only asked of a body the secure parser refused). */
function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The Fastify app: routes, validation, errors, OpenAPI. Not listening yet. */
export async function buildApp(service: RagService, options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: options.bodyLimit,
    // Request logs go to stderr: stdout stays free for whatever the process is piped into.
    logger: options.logRequests ? { level: 'info', stream: process.stderr } : false,
    // Open event streams and keep-alive sockets must not hold `close()` up.
    forceCloseConnections: true,
    // Unknown fields are errors, not silently dropped, so a typo (`kk`) is reported; and
    // `"query": 42` is an error, not the string "42" (query strings convert their numbers
    // themselves, see the /sources route).
    ajv: { customOptions: { removeAdditional: false, allErrors: false, coerceTypes: false } },
  });

  // Every body this server reads is JSON. Fastify also reads text/plain, as a string, which
  // then fails validation with "must be object": what `fetch(url, { body: JSON.stringify(…) })`
  // sends without a content type. Refused as a content type instead (415), whose hint says
  // which one to send.
  app.removeContentTypeParser('text/plain');
  // Fastify's JSON parser refuses a `__proto__` key (or `constructor.prototype`), which could
  // change every object of the process, with the error it gives for broken JSON; such a body
  // is valid JSON, so the refusal says which key it was (see `describeRefusal`).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    parseJson(request, text, (error, value) => {
      if (error && isValidJson(text)) {
        done(Object.assign(new Error(RESERVED_KEY_REFUSAL), { statusCode: 400, code: (error as FastifyError).code }), undefined);
        return;
      }
      done(error, value);
    });
  });

  if (isLoopbackHost(options.host)) {
    // A page on another site could resolve its own name to 127.0.0.1 (DNS rebinding) and
    // read the corpus through this server; a loopback server answers loopback names only.
    // Hooks in callback form: an async hook costs a promise and its ticks on every request.
    app.addHook('onRequest', (request, reply, done) => {
      const host = request.headers.host;
      if (host !== undefined && !isLoopbackHost(hostnameOf(host))) {
        reply.code(403).send(send(403, { code: 'FORBIDDEN_HOST', message: `Host ${host} is not served here.`, hint: 'Use http://127.0.0.1 or http://localhost.' }));
        return;
      }
      done();
    });
  }
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    done(null, payload);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A body is parsed before Fastify knows no route takes it: for a path that does not
    // exist (or a method it does not take), that is the answer, not the body's fault.
    if (request.is404 && error.code?.startsWith('FST_ERR_CTP_')) return answerUnrouted(request, reply);
    if (error.validation) {
      const { message, field } = describeValidation(error.validation, error.validationContext);
      return reply.code(400).send({ ...send(400, { code: 'INVALID_ARGUMENT', message, hint: 'See /openapi.json for the expected fields.' }), field });
    }
    // Fastify's own refusals (body too large, bad JSON, wrong content type) keep their
    // status but speak the one error shape: a code of ours and a hint.
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 && error.code?.startsWith('FST_')) {
      return reply.code(error.statusCode).send(send(error.statusCode, describeRefusal(error, options.bodyLimit)));
    }
    const { status, body } = classifyError(error, options.exposePaths === true);
    if (status >= 500) request.log.error(error);
    if (body.code === 'QUEUE_FULL') reply.header('retry-after', '2');
    return reply.code(status).send(send(status, body));
  });
  // The methods each path answers, so that a known path asked with another method is told
  // which ones it takes (405 with `Allow`) rather than that it does not exist.
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = methodsByPath.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    methodsByPath.set(route.url, methods);
  });
  function answerUnrouted(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const path = request.url.split('?')[0]!;
    const allowed = methodsByPath.get(path);
    if (allowed && !allowed.has(request.method)) {
      const allow = [...allowed].sort().join(', ');
      return reply
        .code(405)
        .header('allow', allow)
        .send(send(405, { code: 'METHOD_NOT_ALLOWED', message: `${path} does not take ${request.method}.`, hint: `Use ${allow}; GET /openapi.json lists the routes.` }));
    }
    return reply.code(404).send(send(404, { code: 'NOT_FOUND', message: `No route ${request.method} ${path}.`, hint: 'GET /openapi.json lists the routes.' }));
  }
  app.setNotFoundHandler(answerUnrouted);

  // Shared schemas first: routes refer to them by `$id`, and OpenAPI lists them by that name.
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'rag server',
        version: SERVER_VERSION,
        description:
          'Search a codebase and its docs and answer questions with exactly-cited spans. Offsets are Unicode code points of ' +
          'the file as decoded from UTF-8 (\\r\\n counts as two), end exclusive; lines are 1-based.',
      },
      tags: [{ name: 'search' }, { name: 'answer' }, { name: 'sources' }, { name: 'status' }, { name: 'mcp' }],
    },
  });

  registerSearchRoute(app, service);
  registerAnswerRoute(app, service, options.exposePaths === true);
  registerSourcesRoute(app, service);
  registerStatusRoutes(app, service, options.exposePaths === true);
  registerMcpRoute(app, service, options.exposePaths === true);
  registerPageRoutes(app);
  return app;
}
