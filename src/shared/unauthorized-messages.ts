/**
 * What a request refused for a dead token says (docs/product.md#errors). A module of its own so
 * the HTTP client, which every screen loads first, does not pull the whole text catalogue
 * (messages.ts) into the first download.
 */
export const UNAUTHORIZED_MESSAGES = {
  unauthorized: 'Unauthorized',
  unauthorizedToast: 'Unauthorized. Redirecting to login...',
} as const;
