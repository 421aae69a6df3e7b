import { ProviderError } from './types.ts';

const PROVIDER_TIMEOUT_MS = 15_000;

/** JSON over HTTPS with a timeout; provider errors carry the provider's message. */
export async function providerRequest<T>(
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown },
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: {
        Accept: 'application/json',
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
  } catch (error) {
    throw new ProviderError(
      `payment provider unreachable: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    throw new ProviderError(`payment provider answered ${response.status} with a non-JSON body`);
  }
  if (!response.ok) {
    const message = (body as { message?: unknown } | null)?.message;
    throw new ProviderError(
      typeof message === 'string' ? message : `payment provider answered ${response.status}`,
    );
  }
  return body as T;
}
