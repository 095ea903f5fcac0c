import { once } from 'node:events';
import type { ServerResponse } from 'node:http';

/** A `text/event-stream` response written by hand (Fastify has let go of it). */
export interface EventStream {
  /** Writes one event; waits while the client reads slowly. False once the client is gone. */
  send(event: string, data: unknown): Promise<boolean>;
  end(): void;
}

export function openEventStream(response: ServerResponse, headers: Record<string, string> = {}): EventStream {
  response.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies such as nginx would otherwise hold tokens back until a buffer fills.
    'x-accel-buffering': 'no',
  });
  response.flushHeaders();
  const open = (): boolean => !response.destroyed && !response.writableEnded;
  return {
    async send(event, data) {
      if (!open()) return false;
      // JSON.stringify escapes newlines, so the payload is always a single `data:` line.
      if (!response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)) {
        await Promise.race([once(response, 'drain'), once(response, 'close')]);
      }
      return open();
    },
    end() {
      if (open()) response.end();
    },
  };
}

/** True when the request asked for a stream of events. */
export function acceptsEventStream(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/event-stream\b/i.test(accept);
}
