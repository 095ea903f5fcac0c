import { describe, expect, it } from 'vitest';
import { AnswerQueue } from '../src/index.js';

describe('AnswerQueue', () => {
  it('grants slots up to the limit, then queues in arrival order', async () => {
    const queue = new AnswerQueue(2, 2);
    const a = await queue.acquire();
    const b = await queue.acquire();
    const order: string[] = [];
    const c = queue.acquire().then((release) => (order.push('c'), release));
    const d = queue.acquire().then((release) => (order.push('d'), release));
    expect(queue.state()).toEqual({ active: 2, queued: 2, maxConcurrent: 2, maxQueued: 2 });
    a();
    a(); // a second release of the same slot changes nothing
    (await c)();
    b();
    (await d)();
    expect(order).toEqual(['c', 'd']);
    expect(queue.state()).toMatchObject({ active: 0, queued: 0 });
  });

  it('refuses at once when the queue is full', async () => {
    const queue = new AnswerQueue(1, 1);
    const held = await queue.acquire();
    const waiting = queue.acquire();
    expect(() => queue.acquire()).toThrow(expect.objectContaining({ code: 'QUEUE_FULL', hint: expect.stringMatching(/Retry/) }));
    held();
    (await waiting)();
    expect(queue.state().active).toBe(0);
  });

  it('lets a waiter leave the queue when its signal aborts', async () => {
    const queue = new AnswerQueue(1, 4);
    const held = await queue.acquire();
    const controller = new AbortController();
    const waiting = queue.acquire(controller.signal);
    expect(queue.state().queued).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(queue.state().queued).toBe(0);
    held();
    expect(queue.state().active).toBe(0);
  });
});
