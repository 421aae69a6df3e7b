/**
 * docs/product.md#the-api opens the checkout in a new tab. Browsers only allow a new tab straight from a tap,
 * and the checkout URL only exists after the server answers, so the tab is opened blank during
 * the tap and pointed at the checkout once the URL arrives. When the browser blocks it, the
 * checkout opens in this tab instead.
 */
export interface CheckoutTab {
  /** Sends the tab to the checkout. Returns false when it opened in this tab instead. */
  go(url: string): boolean;
  /** The server refused: close the blank tab again. */
  abandon(): void;
}

const WAITING_PAGE = `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Opening checkout…</title><body style="margin:0;min-height:100vh;display:grid;place-items:center;background:#0b0b0b;color:#fff;font:16px system-ui,sans-serif"><p>Opening secure checkout…</p></body>`;

export function openCheckoutTab(): CheckoutTab {
  let tab: Window | null = null;
  try {
    tab = window.open('', '_blank');
  } catch {
    tab = null;
  }
  if (tab) {
    try {
      // The checkout must not be able to reach back into Pluckers.
      tab.opener = null;
      tab.document.write(WAITING_PAGE);
      tab.document.close();
    } catch {
      // Some browsers do not let us write into the blank tab; it stays blank a moment.
    }
  }
  return {
    go(url) {
      if (tab && !tab.closed) {
        tab.location.href = url;
        return true;
      }
      window.location.assign(url);
      return false;
    },
    abandon() {
      if (tab && !tab.closed) tab.close();
    },
  };
}
