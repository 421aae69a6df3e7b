/**
 * A GET to another service, asked once more at once when the first attempt fails without an
 * answer, unless it ran out of time. Node's `fetch` may send a request over a kept-alive
 * connection the service has just closed, more likely the busier this process is; it fails at
 * once and says nothing about the service. Only for requests that can be repeated: a POST may have
 * been acted on.
 */
export async function getOnceMore(
  url: string,
  options: { headers: Record<string, string>; timeoutMs: number },
): Promise<Response> {
  const get = () =>
    fetch(url, { headers: options.headers, signal: AbortSignal.timeout(options.timeoutMs) });
  try {
    return await get();
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') throw error;
    return get();
  }
}
