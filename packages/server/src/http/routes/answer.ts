import type { FastifyInstance, FastifyReply } from 'fastify';
import { isCancellation } from '@rag/core';
import { classifyError } from '../../errors.js';
import type { AnswerEvent, AnswerRequest, AnswerView, RagService, SearchView } from '@rag/service';
import { answerSchema } from '../schemas.js';
import { acceptsEventStream, openEventStream } from '../sse.js';

interface AnswerBody extends AnswerRequest {
  stream?: boolean;
}

/** Aborts when the client goes away before the response is complete. */
function abortOnDisconnect(reply: FastifyReply): AbortController {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller;
}

function payloadOf(event: AnswerEvent): unknown {
  switch (event.type) {
    case 'sources':
      return event.search;
    case 'queued':
      return { position: event.position };
    case 'token':
      return { text: event.text };
    case 'done':
      return event.answer;
  }
}

async function streamAnswer(reply: FastifyReply, events: AsyncIterable<AnswerEvent>, signal: AbortSignal, log: FastifyInstance['log'], exposePaths: boolean): Promise<void> {
  reply.hijack();
  const stream = openEventStream(reply.raw, { 'x-content-type-options': 'nosniff' });
  try {
    for await (const event of events) {
      // A client that left stops the loop; leaving it also closes the generator.
      if (!(await stream.send(event.type, payloadOf(event)))) break;
    }
  } catch (error) {
    if (!(signal.aborted && isCancellation(error))) {
      const { status, body } = classifyError(error, exposePaths);
      if (status >= 500) log.error(error);
      await stream.send('error', body);
    }
  } finally {
    stream.end();
  }
}

async function collectAnswer(events: AsyncIterable<AnswerEvent>): Promise<AnswerView & SearchView> {
  let search: SearchView | undefined;
  let answer: AnswerView | undefined;
  for await (const event of events) {
    if (event.type === 'sources') search = event.search;
    else if (event.type === 'done') answer = event.answer;
  }
  if (!search || !answer) throw new Error('The answer stream ended without sources or an answer.');
  return { ...search, ...answer };
}

export function registerAnswerRoute(app: FastifyInstance, service: RagService, exposePaths = false): void {
  app.post<{ Body: AnswerBody }>('/answer', { schema: answerSchema }, async (request, reply) => {
    const { stream, ...body } = request.body;
    const controller = abortOnDisconnect(reply);
    // Throws a 400 or a 503 here, before any byte of a stream is written.
    const events = service.beginAnswer(body, controller.signal);
    if (stream === true || acceptsEventStream(request.headers.accept)) {
      await streamAnswer(reply, events, controller.signal, request.log, exposePaths);
      return reply;
    }
    return collectAnswer(events);
  });
}
