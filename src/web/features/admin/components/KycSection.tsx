import { formatDate } from '@shared/date.ts';
import { KYC_DOCUMENT_LABELS } from '@shared/kyc.ts';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useUserKyc } from '../api/get-user-kyc.ts';
import { LoadError, Loading } from './QueryStates.tsx';
import { Section } from './Section.tsx';
import { StatusTag } from './StatusTag.tsx';

/** A player's KYC on the console's user page: tier, verified identity, every check and document. */
export function KycSection({ userId }: { userId: string }) {
  const query = useUserKyc(userId);
  let content: ReactNode;
  if (query.isPending) content = <Loading label="Loading identity checks" />;
  else if (query.isError)
    content = (
      <LoadError
        error={query.error}
        what="identity checks"
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  else {
    const kyc = query.data;
    content = (
      <div className="flex flex-col gap-4 rounded-2xl border border-line bg-card p-4">
        <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs text-muted">Tier</dt>
            <dd className="text-lg font-bold">{kyc.tier}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted">Verified name</dt>
            <dd className="break-words">{kyc.verifiedName ?? '—'}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted">Verified date of birth</dt>
            <dd>{kyc.verifiedBirthDate ?? '—'}</dd>
          </div>
        </dl>
        {kyc.bankAccountMatches === false ? (
          <p role="alert" className="rounded-xl border border-danger/50 bg-danger/10 p-3 text-sm">
            The saved bank account is not in the verified name: withdrawals are paused until the
            player replaces it.
          </p>
        ) : null}
        <div>
          <h3 className="mb-2 text-sm font-semibold">Identity checks</h3>
          {kyc.attempts.length === 0 ? (
            <p className="text-sm text-muted">None yet.</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {kyc.attempts.map((attempt) => (
                <li
                  key={`${attempt.createdAt}-${attempt.idType}-${attempt.idLastFour}`}
                  className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl bg-card-raised p-3 text-sm"
                >
                  <StatusTag status={attempt.status} />
                  <span>
                    {attempt.idType} ending {attempt.idLastFour}
                  </span>
                  <span className="text-muted">
                    {formatDate(attempt.createdAt)} ·{' '}
                    {attempt.mode === 'sandbox' ? 'identity sandbox' : attempt.provider}
                  </span>
                  {attempt.reason ? <span className="basis-full">{attempt.reason}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h3 className="mb-2 text-sm font-semibold">Documents</h3>
          {kyc.documents.length === 0 ? (
            <p className="text-sm text-muted">None yet.</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {kyc.documents.map((document) => (
                <li
                  key={document.id}
                  className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl bg-card-raised p-3 text-sm"
                >
                  <StatusTag status={document.status} />
                  <span>{KYC_DOCUMENT_LABELS[document.documentType]}</span>
                  <span className="text-muted">{formatDate(document.createdAt)}</span>
                  {document.reviewNote ? (
                    <span className="basis-full">{document.reviewNote}</span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          <Link
            href="/kyc"
            className="mt-2 inline-block text-sm font-semibold text-accent underline"
          >
            Review documents
          </Link>
        </div>
      </div>
    );
  }
  return (
    <Section title="Identity (KYC)" id="kyc-title">
      {content}
    </Section>
  );
}
