import { formatDate } from '@shared/date.ts';
import { formatNaira } from '@shared/money.ts';
import { type IdentityKeyKind, periodAdjective } from '@shared/responsible-play.ts';
import { type LinkedAccount, liftExclusionBodySchema } from '@shared/schemas/responsible-play.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Tag } from '@web/components/ui/GameCard.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import { useLiftExclusion, useUserResponsiblePlay } from '../api/responsible-play.ts';
import { ReasonDialog } from './dialogs.tsx';
import { LoadError, Loading } from './QueryStates.tsx';
import { Section } from './Section.tsx';

const KIND_NAMES = { timeout: 'Time-out', self_exclusion: 'Self-exclusion' } as const;
const KEY_NAMES: Record<IdentityKeyKind, string> = {
  email: 'e-mail',
  phone: 'phone number',
  google: 'Google account',
  identity: 'BVN/NIN',
  name_birth: 'verified name and birth date',
};

/** Other accounts of the same person that a break bound, either way, and what they share. */
function LinkedAccounts({ accounts }: { accounts: LinkedAccount[] }) {
  if (accounts.length === 0) return null;
  return (
    <div className="flex flex-col gap-1 border-t border-line pt-3">
      <h3 className="font-semibold">Linked accounts</h3>
      <ul className="flex flex-col gap-2">
        {accounts.map((account) => (
          <li key={`${account.userId}:${account.boundAt}`} className="break-words">
            <Link href={`/users/${account.userId}`} className="font-medium underline">
              {account.handle}
            </Link>{' '}
            <span className="text-muted">({account.email})</span>{' '}
            {account.heldByThisAccountsBreak
              ? 'is held to this player’s break'
              : 'holds this account to its break'}{' '}
            ({KIND_NAMES[account.kind].toLowerCase()} until {formatDate(account.endsAt)}
            {account.liftedAt ? `, lifted ${formatDate(account.liftedAt)}` : ''}). Shared:{' '}
            {account.matchedOn.map((kind) => KEY_NAMES[kind]).join(', ')}.
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A player's limits and breaks on the console's user page; a break is lifted with a reason. */
export function ResponsiblePlaySection({ userId, name }: { userId: string; name: string }) {
  const query = useUserResponsiblePlay(userId);
  const lift = useLiftExclusion();
  const [lifting, setLifting] = useState(false);

  function onLift(reason: string) {
    lift.mutate(
      { id: userId, reason },
      {
        onSuccess: (result) => {
          setLifting(false);
          toast.success(result.message);
        },
        onError: (error) => toast.error(errorMessage(error, 'The break could not be lifted')),
      },
    );
  }

  let content: ReactNode;
  if (query.isPending) content = <Loading label="Loading responsible play" />;
  else if (query.isError)
    content = (
      <LoadError error={query.error} what="responsible play" onRetry={() => query.refetch()} />
    );
  else {
    const data = query.data;
    const set = data.limits.filter((limit) => limit.amount !== null || limit.pending);
    content = (
      <div className="flex flex-col gap-3 rounded-2xl border border-line bg-card p-5 text-sm">
        {data.exclusion ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p>
              <Tag tone="danger">{KIND_NAMES[data.exclusion.kind]}</Tag> until{' '}
              <strong>{formatDate(data.exclusion.endsAt)}</strong>
            </p>
            <Button variant="outline" onClick={() => setLifting(true)}>
              Lift break
            </Button>
          </div>
        ) : (
          <p className="text-muted">No break running.</p>
        )}
        <p>
          {set.length === 0
            ? 'No limits set.'
            : set
                .map(
                  (limit) =>
                    `${periodAdjective(limit.period)} ${limit.kind} ${
                      limit.amount === null ? 'none' : formatNaira(limit.amount)
                    }${limit.pending ? ` (changing ${formatDate(limit.pending.from)})` : ''}`,
                )
                .join(' · ')}
        </p>
        <p className="text-muted">
          Reality check:{' '}
          {data.realityCheckMinutes ? `every ${data.realityCheckMinutes} minutes` : 'off'} ·
          Marketing: {data.marketingEmails ? 'on' : 'off'}
        </p>
        <LinkedAccounts accounts={data.linkedAccounts} />
        {data.exclusions.some((row) => row.liftedAt) ? (
          <ul className="flex flex-col gap-1 border-t border-line pt-3">
            {data.exclusions
              .filter((row) => row.liftedAt)
              .map((row) => (
                <li key={row.id}>
                  {KIND_NAMES[row.kind]} lifted {formatDate(row.liftedAt ?? '')} by{' '}
                  {row.liftedBy ?? 'an operator'}: {row.liftedReason}
                </li>
              ))}
          </ul>
        ) : null}
      </div>
    );
  }

  return (
    <Section title="Responsible play" id="responsible-play-title">
      {content}
      <ReasonDialog
        open={lifting}
        title={`Lift ${name}'s break early?`}
        description="The player chose this break and cannot end it themselves. Only lift it for a documented reason: it is kept in the audit log."
        schema={liftExclusionBodySchema}
        hint="At least 10 characters; kept with the break and in the audit log."
        confirmLabel="Lift break"
        busy={lift.isPending}
        onSubmit={onLift}
        onClose={() => setLifting(false)}
      />
    </Section>
  );
}
