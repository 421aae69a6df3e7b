/**
 * How long a web component test waits for what it expects (Testing Library's waitFor and
 * findBy…, Vitest's expect.poll). Most of them wait on the real server, which under CI's load
 * can take more than the libraries' default second; a test that passes is not slowed by it.
 */
export const WEB_WAIT_MS = 5_000;
