import { getOnceMore } from '../../lib/get-once-more.ts';
import { ProviderError } from './types.ts';

const PROVIDER_TIMEOUT_MS = 15_000;

/** JSON over HTTPS with a timeout; provider errors carry the provider's message. */
export async function providerRequest<T>(
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown },
): Promise<T> {
  const headers = {
    Accept: 'application/json',
    ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...init.headers,
  };
  let response: Response;
  try {
    // A POST is sent once: a failure without an answer does not say whether it was acted on.
    response =
      init.method === 'GET'
        ? await getOnceMore(url, { headers, timeoutMs: PROVIDER_TIMEOUT_MS })
        : await fetch(url, {
            method: init.method,
            headers,
            body: init.body === undefined ? undefined : JSON.stringify(init.body),
            signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
          });
  } catch (error) {
    throw new ProviderError(
      `payment provider unreachable: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    // The answer broke off after its headers: whatever was asked may or may not have happened.
    throw new ProviderError(
      `payment provider answer interrupted: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // A gateway's HTML error page for a 4xx is still a refusal; anything else is unknown.
    throw new ProviderError(`payment provider answered ${response.status} with a non-JSON body`, {
      httpStatus: response.status,
    });
  }
  if (!response.ok) {
    const message = (body as { message?: unknown } | null)?.message;
    throw new ProviderError(
      typeof message === 'string' ? message : `payment provider answered ${response.status}`,
      { httpStatus: response.status },
    );
  }
  return body as T;
}
