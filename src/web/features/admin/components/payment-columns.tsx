import { formatNaira } from '@shared/money.ts';
import { Link } from 'wouter';
import { humanise } from '../lib/format.ts';
import type { Column } from './DataTable.tsx';

/** What a console table of top-ups shows of each: who paid, which payment, how much. */
interface PaymentRow {
  userId: string;
  username: string;
  reference: string;
  method: string;
  amount: number;
}

/** The player, the payment's reference with its method, and the amount: the same in every table of payments. */
export function paymentColumns<T extends PaymentRow>(): Column<T>[] {
  return [
    {
      header: 'Player',
      cell: (payment) => (
        <Link href={`/users/${payment.userId}`} className="text-accent underline">
          {payment.username}
        </Link>
      ),
    },
    {
      header: 'Reference',
      cell: (payment) => (
        <>
          <span className="block font-mono text-xs break-all">{payment.reference}</span>
          <span className="text-xs text-muted">{humanise(payment.method)}</span>
        </>
      ),
    },
    {
      header: 'Amount',
      numeric: true,
      cell: (payment) => formatNaira(payment.amount),
    },
  ];
}
