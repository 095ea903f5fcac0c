import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RagError } from '@rag/core';
import type { GenerationEvent, GeneratorRegistry } from '@rag/generation';
import type { RunningServer } from '../src/index.js';
import {
  buildIndex,
  controlledGenerator,
  makeTempDir,
  MINI_CORPUS,
  parseEvents,
  PORT_QUESTION,
  postJson,
  readEventStream,
  startTestServer,
  waitFor,
} from './helpers.js';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let indexDir: string;

beforeAll(async () => {
  temp = await makeTempDir('rag-server-answer-');
  indexDir = join(temp.dir, 'index');
  await buildIndex(MINI_CORPUS, indexDir);
});

afterAll(async () => {
  await temp?.remove();
});

function streamAnswer(url: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${url}/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Reads events off a live stream until `until` says stop; returns them. */
async function readUntil(response: Response, until: (events: { event: string; data: any }[]) => boolean): Promise<{ event: string; data: any }[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    const complete = text.slice(0, text.lastIndexOf('\n\n') + 2);
    const events = parseEvents(complete);
    if (until(events)) {
      reader.releaseLock();
      return events;
    }
  }
  return parseEvents(text);
}

describe('POST /answer with the extractive generator', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ indexDir });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers as JSON with citations that point at the retrieved hits', async () => {
    const { status, body } = await postJson(`${server.url}/answer`, { query: PORT_QUESTION, k: 3 });
    expect(status).toBe(200);
    expect(body.generator).toBe('extractive');
    expect(body.answer).toContain('8421');
    expect(body.hits).toHaveLength(3);
    expect(body.cited_sources.length).toBeGreaterThan(0);
    for (const cited of body.cited_sources) {
      const hit = body.hits[cited.n - 1];
      expect(body.answer).toContain(`[${cited.n}]`);
      expect(cited).toMatchObject({ file_path: hit.file_path, first_character_index: hit.first_character_index, last_character_index: hit.last_character_index });
      // Quotes lie inside the cited span.
      for (const quote of cited.quotes) {
        expect(quote.first_character_index).toBeGreaterThanOrEqual(hit.first_character_index);
        expect(quote.last_character_index).toBeLessThanOrEqual(hit.last_character_index);
      }
    }
    // The quote of [1] is exactly the DEFAULT_PORT line the mini dataset names as gold.
    expect(body.cited_sources[0].quotes[0]).toEqual({ first_character_index: 293, last_character_index: 377 });
  });

  it('streams server-sent events: sources, then tokens in order, then one final done', async () => {
    const response = await streamAnswer(server.url, { query: PORT_QUESTION });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readEventStream(response);
    const kinds = events.map((e) => e.event);
    expect(kinds[0]).toBe('sources');
    expect(kinds.at(-1)).toBe('done');
    expect(kinds.filter((k) => k === 'done')).toHaveLength(1);
    expect(kinds.slice(1, -1).every((k) => k === 'token')).toBe(true);
    expect(kinds.length).toBeGreaterThanOrEqual(3);
    const streamed = events.filter((e) => e.event === 'token').map((e) => e.data.text).join('');
    const done = events.at(-1)!.data;
    // The extractive generator drops no citations, so the stream is the final answer.
    expect(streamed).toBe(done.answer);
    expect(done.cited_sources[0].n).toBe(1);
    expect(events[0]!.data.hits[0].file_path).toBe('datasets/mini/corpus/tinyserve/defaults.py');
  });

  it('streams when the body says stream: true, without an Accept header', async () => {
    const response = await fetch(`${server.url}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: PORT_QUESTION, stream: true }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await readEventStream(response)).at(-1)!.event).toBe('done');
  });

  it('refuses unknown generators and model paths before streaming anything', async () => {
    for (const generator of ['gpt-9', '/tmp/some-model', 'owner/model']) {
      const response = await streamAnswer(server.url, { query: PORT_QUESTION, generator });
      expect(response.status, generator).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      const body = (await response.json()) as { code: string; hint: string };
      expect(body.code).toBe('UNKNOWN_NAME');
      expect(body.hint).toContain('extractive');
    }
  });
});

describe('a generator that fails after the stream opened', () => {
  // The failure names a folder of this machine, as a missing-model error does.
  const secret = '/srv/rag-secret/models/qwen3';
  const failing: GeneratorRegistry = {
    names: () => ['extractive'],
    describe: () => [{ name: 'extractive', description: 'fails on purpose' }],
    create: async () => ({
      name: 'extractive',
      identity: { name: 'extractive', settings: {}, templateHash: 'x' },
      // eslint-disable-next-line require-yield
      async *generate(): AsyncGenerator<GenerationEvent> {
        throw new RagError('MODEL_NOT_FOUND', `No model files in ${secret}.`, { hint: `Download the model into ${secret}.` });
      },
      dispose: async () => undefined,
    }),
  };

  for (const exposePaths of [false, true]) {
    it(`ends the stream with one error event (paths ${exposePaths ? 'shown: --show_paths' : 'hidden'})`, async () => {
      const server = await startTestServer({ indexDir, generators: failing, exposePaths });
      try {
        const response = await streamAnswer(server.url, { query: PORT_QUESTION });
        expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        const events = await readEventStream(response);
        expect(events[0]!.event).toBe('sources');
        const last = events.at(-1)!;
        expect(last.event).toBe('error');
        expect(events.filter((e) => e.event === 'error')).toHaveLength(1);
        expect(last.data.code).toBe('MODEL_NOT_FOUND');
        if (exposePaths) expect(last.data.message).toContain(secret);
        else {
          expect(JSON.stringify(last.data)).not.toContain('/srv/rag-secret');
          expect(last.data.message).toContain('<path>');
        }
      } finally {
        await server.close();
      }
    });
  }
});

describe('cancellation', () => {
  it('stops the generation when the client closes the stream, and frees the slot', async () => {
    const { registry, log } = controlledGenerator({ repeat: 200, delayMs: 20 });
    const server = await startTestServer({ indexDir, generators: registry });
    try {
      const controller = new AbortController();
      const response = await streamAnswer(server.url, { query: PORT_QUESTION }, controller.signal);
      const events = await readUntil(response, (evs) => evs.filter((e) => e.event === 'token').length >= 2);
      expect(events[0]!.event).toBe('sources');
      expect(server.service.queue.state().active).toBe(1);
      controller.abort();
      await waitFor(() => log.aborted === 1, 60_000, 'the generator to see the abort');
      await waitFor(() => server.service.queue.state().active === 0, 60_000, 'the slot to be released');
      const tokensAtAbort = log.tokens;
      await new Promise((r) => setTimeout(r, 150));
      // Nothing more was generated after the client left, and the answer never finished.
      expect(log.tokens).toBeLessThanOrEqual(tokensAtAbort + 1);
      expect(log.tokens).toBeLessThan(200);
      expect(log.finished).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('also cancels a JSON (non-streaming) answer whose client went away', async () => {
    const { registry, log } = controlledGenerator({ repeat: 200, delayMs: 20 });
    const server = await startTestServer({ indexDir, generators: registry });
    try {
      const controller = new AbortController();
      const pending = fetch(`${server.url}/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: PORT_QUESTION }),
        signal: controller.signal,
      }).catch((error: Error) => error);
      await waitFor(() => log.tokens >= 2, 60_000, 'generation to start');
      controller.abort();
      expect(await pending).toBeInstanceOf(Error);
      await waitFor(() => log.aborted === 1 && server.service.queue.state().active === 0, 60_000, 'cancellation');
      expect(log.finished).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('the answer queue', () => {
  it('queues answers, refuses with 503 when full, and never holds searches back', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { registry, log } = controlledGenerator({ gate });
    const server = await startTestServer({ indexDir, generators: registry, maxConcurrentAnswers: 1, maxQueuedAnswers: 1 });
    try {
      const first = await streamAnswer(server.url, { query: PORT_QUESTION });
      const firstEvents = readEventStream(first);
      await waitFor(() => log.started === 1, 60_000, 'the first answer to start');

      const second = await streamAnswer(server.url, { query: 'How do I register a route?' });
      expect(second.status).toBe(200);
      const secondEvents = readEventStream(second);
      await waitFor(() => server.service.queue.state().queued === 1, 60_000, 'the second answer to queue');

      const third = await postJson(`${server.url}/answer`, { query: 'one too many' });
      expect(third.status).toBe(503);
      expect(third.body.code).toBe('QUEUE_FULL');
      expect(third.headers.get('retry-after')).toBe('2');
      const thirdStream = await streamAnswer(server.url, { query: 'one too many, streaming' });
      expect(thirdStream.status).toBe(503);

      // The model is busy and the queue full, yet a search is answered at once.
      const search = await postJson(`${server.url}/search`, { query: 'router', k: 3 });
      expect(search.status).toBe(200);
      const stats = await postJson(`${server.url}/search`, { query: 'middleware' });
      expect(stats.status).toBe(200);

      open();
      const a = await firstEvents;
      const b = await secondEvents;
      expect(a.at(-1)!.event).toBe('done');
      // The waiting request was told it waited, after its sources and before its tokens.
      expect(b.map((e) => e.event).slice(0, 2)).toEqual(['sources', 'queued']);
      expect(b[1]!.data.position).toBe(1);
      expect(b.at(-1)!.event).toBe('done');
      expect(server.service.queue.state()).toMatchObject({ active: 0, queued: 0 });
    } finally {
      open();
      await server.close();
    }
  });

  it('drops a queued request whose client left before its turn', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { registry, log } = controlledGenerator({ gate });
    const server = await startTestServer({ indexDir, generators: registry, maxConcurrentAnswers: 1, maxQueuedAnswers: 4 });
    try {
      const first = readEventStream(await streamAnswer(server.url, { query: PORT_QUESTION }));
      await waitFor(() => log.started === 1, 60_000, 'the first answer to start');
      const controller = new AbortController();
      const waiting = await streamAnswer(server.url, { query: 'router' }, controller.signal);
      await readUntil(waiting, (evs) => evs.some((e) => e.event === 'queued'));
      expect(server.service.queue.state().queued).toBe(1);
      controller.abort();
      await waitFor(() => server.service.queue.state().queued === 0, 60_000, 'the waiter to leave the queue');
      open();
      expect((await first).at(-1)!.event).toBe('done');
      // The abandoned request never reached the generator.
      expect(log.started).toBe(1);
      expect(server.service.queue.state()).toMatchObject({ active: 0, queued: 0 });
    } finally {
      open();
      await server.close();
    }
  });
});
