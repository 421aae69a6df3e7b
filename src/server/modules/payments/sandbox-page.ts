import { formatNaira, koboToNaira } from '../../../shared/money.ts';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The sandbox checkout: unmistakably a test page, no scripts, two real form posts. */
export function sandboxCheckoutPage(options: {
  method: string;
  reference: string;
  amountKobo: bigint;
  status: string;
}): string {
  const action = `/api/v1/payment/sandbox/${encodeURIComponent(options.method)}/${encodeURIComponent(options.reference)}`;
  const open = options.status === 'pending';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox checkout · Pluckers</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0b0b0b;color:#fff;font-family:system-ui,sans-serif}
main{box-sizing:border-box;width:min(92vw,420px);background:#1a1a1a;border:1px solid #2e2e2e;border-radius:18px;padding:28px}
.banner{background:#ffd95a;color:#000;font-weight:700;border-radius:10px;padding:10px 12px;font-size:14px}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;margin:22px 0}dt{color:#a3a3a3}dd{margin:0;font-weight:600;word-break:break-all}
.amount{font-size:34px;font-weight:800;margin:18px 0 0}
form{display:inline}button{min-height:48px;border:0;border-radius:12px;font-weight:700;font-size:16px;padding:0 22px;cursor:pointer}
.pay{background:#00dae4;color:#000}.cancel{background:transparent;color:#fff;border:1px solid #2e2e2e}
.actions{display:flex;gap:12px;flex-wrap:wrap}p{color:#d4d4d4;font-size:14px;line-height:1.5}
</style></head>
<body><main>
<p class="banner" role="note">SANDBOX: no real money moves. This server runs the payments sandbox: this page stands in for ${escapeHtml(options.method)}.</p>
<p class="amount">${escapeHtml(formatNaira(koboToNaira(options.amountKobo)))}</p>
<dl><dt>Reference</dt><dd>${escapeHtml(options.reference)}</dd><dt>Method</dt><dd>${escapeHtml(options.method)}</dd><dt>Status</dt><dd>${escapeHtml(options.status)}</dd></dl>
${
  open
    ? `<div class="actions"><form method="post" action="${action}/pay"><button class="pay" type="submit">Pay ${escapeHtml(formatNaira(koboToNaira(options.amountKobo)))}</button></form>
<form method="post" action="${action}/cancel"><button class="cancel" type="submit">Cancel</button></form></div>`
    : `<p>This checkout is already ${escapeHtml(options.status)}.</p>`
}
</main></body></html>`;
}
