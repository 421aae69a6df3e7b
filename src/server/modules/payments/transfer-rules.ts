import { eq } from 'drizzle-orm';
import { formatDate } from '../../../shared/date.ts';
import { formatNaira, koboToNaira } from '../../../shared/money.ts';
import type { Executor } from '../../db/client.ts';
import { settings, users } from '../../db/schema.ts';
import { capsOf } from '../kyc/caps.ts';
import { activeExclusion, isShownToPlayer } from '../responsible-play/exclusions.ts';
import { breachedLimitName, limitBreach } from '../responsible-play/limits.ts';

/**
 * Why money that arrived by bank transfer may not go into the wallet now, in the player's words
 * ("₦X is on hold: <reason>"), or null when it may. Nobody asked before it was sent, so the
 * rules a checkout meets before it opens are met here, as it lands: a break of the player's
 * (on this account or, bound to the same person, another), the deposit limits (money landed in
 * the period), the KYC tier's balance cap, and the AML review threshold. Inside the transaction
 * that credits or holds it, after the player's row is locked. A suspended or closed account
 * takes no money in either: an operator sends it back.
 */
export async function transferRefusal(
  tx: Executor,
  userId: string,
  amount: bigint,
  now: Date,
): Promise<string | null> {
  const [account] = await tx
    .select({ suspendedAt: users.suspendedAt, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!account || account.deletedAt) return 'this account is closed';
  if (account.suspendedAt) return 'this account is suspended';
  const exclusion = await activeExclusion(tx, userId, now);
  if (exclusion) {
    if (!isShownToPlayer(exclusion)) return 'topping up is paused on this account';
    return exclusion.kind === 'timeout'
      ? `you are taking a break until ${formatDate(exclusion.endsAt)}`
      : `you have excluded yourself from Pluckers until ${formatDate(exclusion.endsAt)}`;
  }
  const breach = await limitBreach(tx, userId, 'deposit', amount, now, { landedOnly: true });
  if (breach) return `it would have taken you past your ${breachedLimitName(breach)}`;
  const [row] = await tx
    .select({ tier: users.kycTier, balance: users.accountBalance, settings })
    .from(users)
    .innerJoin(settings, eq(settings.id, 1))
    .where(eq(users.id, userId));
  if (!row) return 'this account is closed';
  const { balanceCap } = capsOf(row.settings, row.tier);
  if (balanceCap !== null && row.balance + amount > balanceCap)
    return `your wallet may hold at most ${formatNaira(koboToNaira(balanceCap))} at KYC tier ${Math.min(row.tier, 3)}; verify your identity to raise it`;
  // The threshold itself stays unsaid: a threshold known is a threshold sent just under.
  if (amount >= row.settings.amlReviewThreshold)
    return 'our team looks at transfers of this size before they reach a wallet';
  return null;
}
