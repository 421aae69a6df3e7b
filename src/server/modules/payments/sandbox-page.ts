import { formatNaira, koboToNaira } from '../../../shared/money.ts';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

// The card is centred, and keeps the web app's page spacing (24 px, 40 px from 640 px wide)
// from the window's edges when it is taller than the window (the transfer form with a result).
const SANDBOX_STYLE = `<style>
body{box-sizing:border-box;margin:0;padding:24px 16px;min-height:100vh;display:grid;place-items:center;background:#0b0b0b;color:#fff;font-family:system-ui,sans-serif}
@media (min-width:640px){body{padding:40px 16px}}
main{box-sizing:border-box;width:min(100%,420px);background:#1a1a1a;border:1px solid #2e2e2e;border-radius:18px;padding:28px}
.banner{background:#ffd95a;color:#000;font-weight:700;border-radius:10px;padding:10px 12px;font-size:14px;margin-top:0}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;margin:22px 0}dt{color:#a3a3a3}dd{margin:0;font-weight:600;word-break:break-all}
.amount{font-size:34px;font-weight:800;margin:18px 0 0}
form{display:inline}button{min-height:48px;border:0;border-radius:12px;font-weight:700;font-size:16px;padding:0 22px;cursor:pointer}
.pay{background:#00dae4;color:#000}.cancel{background:transparent;color:#fff;border:1px solid #2e2e2e}
.actions{display:flex;gap:12px;flex-wrap:wrap}p{color:#d4d4d4;font-size:14px;line-height:1.5}
label{display:block;margin:14px 0 6px;color:#d4d4d4;font-size:14px}
input{box-sizing:border-box;width:100%;min-height:48px;border-radius:12px;border:1px solid #3a3a3a;background:#0b0b0b;color:#fff;font-size:16px;padding:0 14px}
input:focus{outline:2px solid #00dae4;outline-offset:1px}
.submit{margin-top:20px;width:100%}
.result{border-radius:12px;padding:12px 14px;font-size:15px;line-height:1.5;margin:18px 0 0;color:#fff}
.credited{background:#0f3d2b;border:1px solid #1f7a55}.held{background:#3d300f;border:1px solid #7a611f}.refused{background:#3d0f14;border:1px solid #7a1f2a}
h1{font-size:22px;margin:18px 0 4px}form.transfer{display:block}
</style>`;

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
${SANDBOX_STYLE}</head>
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

/** What became of a transfer the sandbox page sent, as its result line says. */
export type SandboxTransferResult =
  | {
      kind: 'credited' | 'held' | 'returned' | 'waiting';
      amountKobo: bigint;
      to: string;
      reason?: string;
    }
  | { kind: 'refused'; message: string };

function resultLine(result: SandboxTransferResult): string {
  if (result.kind === 'refused')
    return `<p class="result refused" role="alert">${escapeHtml(result.message)}</p>`;
  const amount = escapeHtml(formatNaira(koboToNaira(result.amountKobo)));
  const to = escapeHtml(result.to);
  if (result.kind === 'credited')
    return `<p class="result credited" role="status">${amount} arrived at ${to} and is in the player's wallet.</p>`;
  if (result.kind === 'held')
    return `<p class="result held" role="status">${amount} arrived at ${to} and is on hold: ${escapeHtml(result.reason ?? '')}. An operator releases or returns it under Held payments in the console.</p>`;
  if (result.kind === 'returned')
    return `<p class="result held" role="status">${amount} arrived at ${to}, was held (${escapeHtml(result.reason ?? '')}) and has been returned to the sender.</p>`;
  return `<p class="result held" role="status">${amount} was sent to ${to} but has not landed yet: the server log says why.</p>`;
}

/**
 * The sandbox's "a transfer arrives" page: a form that sends test money from a named sender and
 * bank to a player's sandbox account number, the way a bank app would. No scripts, one form post.
 */
export function sandboxTransferPage(options: {
  values: { account: string; amount: string; senderName: string; senderBank: string };
  result: SandboxTransferResult | null;
}): string {
  const { values } = options;
  const field = (name: string, label: string, value: string, extra: string) =>
    `<label for="${name}">${label}</label><input id="${name}" name="${name}" value="${escapeHtml(value)}" required ${extra}>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox bank transfer · Pluckers</title>
${SANDBOX_STYLE}</head>
<body><main>
<p class="banner" role="note">SANDBOX: no real money moves. This page stands in for a player's bank app: the transfer lands through the same webhook, rules and holds as a real one.</p>
<h1>Send a test transfer</h1>
<p>To a player's account number from their wallet's <strong>Top up by bank transfer</strong> card.</p>
${options.result ? resultLine(options.result) : ''}
<form class="transfer" method="post" action="/api/v1/payment/sandbox/transfer">
${field('account', 'Account number', values.account, 'inputmode="numeric" pattern="[0-9]{10}" maxlength="10" autocomplete="off"')}
${field('amount', 'Amount (₦)', values.amount, 'inputmode="numeric" pattern="[0-9]{1,8}" maxlength="8" autocomplete="off"')}
${field('senderName', "Sender's name", values.senderName, 'maxlength="100" autocomplete="off"')}
${field('senderBank', "Sender's bank", values.senderBank, 'maxlength="100" autocomplete="off"')}
<button class="pay submit" type="submit">Send the transfer</button>
</form>
</main></body></html>`;
}
