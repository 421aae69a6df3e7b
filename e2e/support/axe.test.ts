import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './axe.ts';

let browser: Browser | undefined;
beforeAll(async () => {
  browser = await chromium.connect(inject('chromiumEndpoint'));
});
afterAll(async () => {
  await browser?.close();
});

const document = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Scan</title></head><body><main><h1>Scan</h1>${body}</main></body></html>`;

/** A page of http://scan.test (an origin of its own, as the app's pages have) with its frame. */
async function openPage(body: string, frameBody = ''): Promise<Page> {
  if (!browser) throw new Error('the browser is not connected');
  const page = await browser.newPage();
  await page.route('http://scan.test/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: document(route.request().url().endsWith('/frame') ? frameBody : body),
    }),
  );
  await page.goto('http://scan.test/');
  return page;
}

it('fails naming each serious violation, in the page and in a same-origin frame', async () => {
  const page = await openPage(
    '<img src="cat.png"><iframe title="Checkout" src="/frame"></iframe>',
    '<button></button>',
  );
  await page.frameLocator('iframe').locator('button').waitFor({ state: 'attached' });
  const scan = expectNoSeriousA11yViolations(page, 'the test page');
  await expect(scan).rejects.toThrow(/on the test page:[\s\S]*image-alt/);
  await expect(expectNoSeriousA11yViolations(page)).rejects.toThrow(/button-name/);
  await page.close();
});

it('passes a page without serious violations, and again when scanned a second time', async () => {
  const page = await openPage('<img src="cat.png" alt="A cat asleep on a keyboard">');
  await expectNoSeriousA11yViolations(page);
  await expectNoSeriousA11yViolations(page);
  await page.close();
});
