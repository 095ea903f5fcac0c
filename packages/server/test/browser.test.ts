import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/index.js';
import { buildIndex, makeTempDir, MINI_CORPUS, PORT_QUESTION, startTestServer } from './helpers.js';

/** Debian's Chromium; playwright-core never downloads a browser. `RAG_CHROMIUM` overrides it. */
const CHROMIUM = process.env.RAG_CHROMIUM ?? '/usr/bin/chromium';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let server: RunningServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser test needs Chromium at ${CHROMIUM}, which is missing. Install it with ` +
        '`sudo apt-get install -y chromium` (Debian/Ubuntu; .ci/run does this), or set RAG_CHROMIUM to a Chromium binary.',
    );
  }
  temp = await makeTempDir('rag-server-browser-');
  await buildIndex(MINI_CORPUS, join(temp.dir, 'index'));
  server = await startTestServer({ indexDir: join(temp.dir, 'index') });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await temp?.remove();
});

describe('the web page in Chromium', () => {
  it('searches, shows highlighted spans, streams an answer and jumps to a citation', async () => {
    await page.goto(server.url);
    await expect.poll(() => page.textContent('#index-info')).toMatch(/11 files, \d+ chunks · retriever bm25 · generator extractive/);

    // Search: results with path, line range, symbol and the span's text.
    await page.fill('#query', PORT_QUESTION);
    await page.click('#search-button');
    await page.waitForSelector('#results .result[data-loaded="true"]');
    const first = page.locator('#source-1');
    // The settings block and the `from_env` helper right after it are both candidates: one hit, joined.
    await expect.poll(() => first.locator('.path').textContent()).toBe('datasets/mini/corpus/tinyserve/defaults.py:1-33');
    // The helper the joined span also holds is named beside it.
    expect(await first.locator('.symbol').allTextContents()).toEqual(['from_env']);
    const code = await first.locator('code').textContent();
    expect(code).toContain('DEFAULT_PORT = 8421');
    // Query terms are marked and Python is coloured.
    expect(await first.locator('mark').allTextContents()).toEqual(expect.arrayContaining(['port']));
    expect(await first.locator('.tok-keyword, .tok-comment, .tok-number').count()).toBeGreaterThan(0);
    expect(await page.locator('#results .result').count()).toBe(5);

    // Answer: streamed over SSE into the page, with clickable citations.
    await page.click('#answer-button');
    await page.waitForSelector('#answer[data-state="done"]', { timeout: 120_000 });
    expect(Number(await page.getAttribute('#answer', 'data-tokens'))).toBeGreaterThan(0);
    const answer = await page.textContent('#answer-text');
    expect(answer).toContain('8421');
    expect(await page.textContent('#answer-meta')).toMatch(/extractive/);
    const citations = page.locator('#answer-text a.cite');
    expect(await citations.count()).toBeGreaterThan(0);
    // The quoted lines of source 1 are flagged, and only they: the port's comment and
    // assignment (the answer); not the headers table or the `from_env` helper of the same
    // hit. (The changelog's "Changed the default port from 8000 to 8421" is release notes,
    // discounted by bm25's history factor, so it is not among the five sources.)
    await page.waitForSelector('#source-1 .line.quoted');
    expect(await page.locator('#source-1 .line.quoted').allTextContents()).toEqual([
      '# TCP port the development server listens on when none is given.',
      'DEFAULT_PORT = 8421',
    ]);

    // Open the last citation from the top of the page: the page scrolls to that source and highlights it.
    const last = citations.last();
    const n = await last.getAttribute('data-n');
    // A short window, so that any source starts below the fold.
    await page.setViewportSize({ width: 1100, height: 240 });
    await page.evaluate('window.scrollTo(0, 0)');
    const target = page.locator(`#source-${n}`);
    const scrolledBefore = Number(await page.evaluate('window.scrollY'));
    await last.click();
    await expect.poll(() => target.getAttribute('class')).toMatch(/focused/);
    expect(await page.evaluate('location.hash')).toBe(`#source-${n}`);
    // Its top edge is now inside the viewport (boundingBox is relative to the viewport).
    const box = await target.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(-1);
    expect(box!.y).toBeLessThan(page.viewportSize()!.height);
    expect(Number(await page.evaluate('window.scrollY'))).toBeGreaterThan(scrolledBefore);
    await page.setViewportSize({ width: 1100, height: 700 });

    expect(pageErrors).toEqual([]);
  });

  it('refuses a k outside 1..100 in the page instead of quietly using 5', async () => {
    // The Answer button is not a submit button, so the form's own min/max check (which stops
    // the Search button) does not apply: the page checks k itself and sends nothing.
    await page.fill('#query', 'router');
    for (const [k, button] of [
      ['0', '#answer-button'],
      ['500', '#answer-button'],
      ['', '#answer-button'],
    ] as const) {
      await page.fill('#k', k);
      await page.evaluate(`document.getElementById('status').textContent = ''`);
      await page.click(button);
      await expect.poll(() => page.textContent('#status')).toMatch(new RegExp(`k must be a whole number from 1 to 100 \\(got "${k}"\\)`));
      expect(await page.getAttribute('#status', 'class')).toMatch(/error/);
    }
    await page.fill('#k', '5');
  });

  it('says why a search matched nothing', async () => {
    await page.fill('#k', '5');
    await page.fill('#query', 'kafka zookeeper');
    await page.click('#search-button');
    await expect.poll(() => page.textContent('#status')).toMatch(/^No matches\. No indexed chunk holds "kafka" or "zookeeper": check the spelling/);
    expect(await page.locator('#results .result').count()).toBe(0);
  });

  it('searches within the globs of its "in" field, and everywhere again once the field is cleared', async () => {
    await page.fill('#k', '5');
    await page.fill('#query', PORT_QUESTION);
    await page.fill('#globs', 'docs/, README.md');
    await page.click('#search-button');
    await expect.poll(() => page.textContent('#status')).toMatch(/^\d+ results \(bm25; files matching docs\/, README\.md\)\.$/);
    const paths = await page.locator('#results .result a.path').allTextContents();
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/^datasets\/mini\/corpus\/(docs\/|README\.md)/);
    await page.fill('#globs', '');
    await page.click('#search-button');
    await expect.poll(() => page.locator('#results .result a.path').first().textContent()).toMatch(/tinyserve\/defaults\.py/);
  });

  it('shows a server error, message and hint, in the status line', async () => {
    await page.route('**/answer', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'BUSY', message: 'Too many answers are being generated.', hint: 'Retry in a moment.' }) }),
    );
    try {
      await page.fill('#k', '5');
      await page.fill('#query', 'router');
      await page.click('#answer-button');
      await expect.poll(() => page.textContent('#status')).toBe('Too many answers are being generated. — Retry in a moment.');
      expect(await page.getAttribute('#status', 'class')).toMatch(/error/);
    } finally {
      await page.unroute('**/answer');
    }
  });

  it('links each result path to its exact span', async () => {
    await page.fill('#query', PORT_QUESTION);
    await page.click('#search-button');
    await page.waitForSelector('#results .result[data-loaded="true"]');
    const href = await page.locator('#source-1 a.path').getAttribute('href');
    const response = await page.request.get(new URL(href!, server.url).toString());
    expect(response.status()).toBe(200);
    const span = (await response.json()) as { file_path: string; text: string };
    expect(span.file_path).toBe('datasets/mini/corpus/tinyserve/defaults.py');
    expect(span.text).toContain('DEFAULT_PORT = 8421');
  });
});
