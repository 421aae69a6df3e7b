import { existsSync } from 'node:fs';

export function chromiumPath(): string {
  const configured = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(configured)) {
    throw new Error(
      `no Chromium at ${configured}: install Debian's chromium or set CHROMIUM_PATH (the bench never downloads a browser)`,
    );
  }
  return configured;
}
