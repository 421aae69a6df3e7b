import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { expect, it } from 'vitest';
import { PLAYWRIGHT_CHROMIUM_ARGS } from './browser.ts';
import { findChromium } from './prepare.ts';

/** Each `--disable-features` list on a process's command line, in order. */
async function disabledFeatureLists(pid: number): Promise<string[][]> {
  const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
  return commandLine
    .filter((arg) => arg.startsWith('--disable-features='))
    .map((arg) => arg.slice('--disable-features='.length).split(','));
}

it("keeps Playwright's disabled features, and no window loads the address bar's popup", async () => {
  const server = await chromium.launchServer({
    executablePath: findChromium(),
    args: PLAYWRIGHT_CHROMIUM_ARGS,
    headless: true,
  });
  try {
    const pid = server.process().pid;
    if (pid === undefined) throw new Error('Chromium has no process id');
    const lists = await disabledFeatureLists(pid);
    // Chromium applies the last list only: it must hold every feature Playwright turns off.
    const applied = lists.at(-1) ?? [];
    expect(lists.length).toBeGreaterThan(1);
    expect(applied).toEqual(expect.arrayContaining(lists.slice(0, -1).flat()));

    const browser = await chromium.connect(server.wsEndpoint());
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent('<h1>A window</h1>');
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    const urls = targetInfos.map((target) => target.url);
    expect(urls).toContain('about:blank');
    expect(urls.filter((url) => url.startsWith('chrome://'))).toEqual([]);
    await browser.close();
  } finally {
    await server.close();
  }
});
