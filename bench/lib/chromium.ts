import { existsSync } from 'node:fs';

/** Flags for a quiet, sandbox-free headless Debian Chromium that never phones home. */
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string {
  const configured = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(configured)) {
    throw new Error(
      `no Chromium at ${configured}: install Debian's chromium or set CHROMIUM_PATH (the bench never downloads a browser)`,
    );
  }
  return configured;
}
