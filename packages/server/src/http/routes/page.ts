import type { FastifyInstance } from 'fastify';
import { PAGE_HTML } from '../../page/html.js';
import { PAGE_SCRIPT } from '../../page/script.js';
import { PAGE_STYLE } from '../../page/style.js';

/** Everything from this origin, nothing inline, nothing fetched from elsewhere: the page works offline. */
const CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const hidden = { schema: { hide: true } };

export function registerPageRoutes(app: FastifyInstance): void {
  app.get('/', hidden, async (_request, reply) =>
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(PAGE_HTML),
  );
  app.get('/app.js', hidden, async (_request, reply) => reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(PAGE_SCRIPT));
  app.get('/app.css', hidden, async (_request, reply) => reply.header('cache-control', 'no-cache').type('text/css; charset=utf-8').send(PAGE_STYLE));
}
