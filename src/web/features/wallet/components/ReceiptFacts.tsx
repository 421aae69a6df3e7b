import type { ReactNode } from 'react';

export interface ReceiptFact {
  label: string;
  value: ReactNode;
  /** The line the player checks first (the total): larger, in the wallet's yellow. */
  emphasis?: boolean;
  /** A reference or account number: monospaced and free to wrap anywhere on a narrow phone. */
  code?: boolean;
}

/**
 * Label and value rows of a withdrawal's confirmation or receipt, or a top-up's receipt: one
 * layout, so the player reads the same facts in the same places before and after.
 */
export function ReceiptFacts({ facts }: { facts: ReceiptFact[] }) {
  return (
    <dl className="divide-y divide-line rounded-xl border border-line bg-card-raised text-sm">
      {facts.map((fact) => (
        <div key={fact.label} className="flex items-baseline justify-between gap-4 px-3 py-2.5">
          <dt className="shrink-0 text-muted">{fact.label}</dt>
          <dd
            className={`min-w-0 text-right font-semibold ${fact.code ? 'font-mono text-xs break-all' : 'break-words'} ${fact.emphasis ? 'text-base text-wallet' : ''}`}
          >
            {fact.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
