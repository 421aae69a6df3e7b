import { KYC_DOCUMENT_LABELS, KYC_MESSAGES } from '@shared/kyc.ts';
import { formatNaira } from '@shared/money.ts';
import type { KycStatus, KycTierCaps } from '@shared/schemas/kyc.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { Spinner } from '@web/components/ui/Spinner.tsx';
import { toast } from '@web/lib/toast.tsx';
import { useRef, useState } from 'react';
import { Link } from 'wouter';
import { useKycStatus } from '../api/get-kyc-status.ts';
import { DocumentUploadForm } from './DocumentUploadForm.tsx';
import { VerifyIdentityForm } from './VerifyIdentityForm.tsx';

const capText = (naira: number | null) => (naira === null ? 'No limit' : formatNaira(naira));

function unlocks(next: KycTierCaps | undefined): string {
  if (!next) return '';
  return `hold ${next.balanceCap === null ? 'any amount' : `up to ${formatNaira(next.balanceCap)}`} and withdraw ${next.dailyWithdrawalCap === null ? 'any amount' : `up to ${formatNaira(next.dailyWithdrawalCap)}`} a day`;
}

function Caps({ status }: { status: KycStatus }) {
  const caps = status.tiers.find((tier) => tier.tier === status.tier);
  const daily = caps?.dailyWithdrawalCap ?? null;
  const left = daily === null ? null : Math.max(0, daily - status.withdrawnToday);
  return (
    <dl className="grid grid-cols-2 gap-3">
      <div className="rounded-xl bg-card-raised p-3">
        <dt className="text-xs text-muted">Wallet can hold</dt>
        <dd className="text-lg font-bold break-words">{capText(caps?.balanceCap ?? null)}</dd>
      </div>
      <div className="rounded-xl bg-card-raised p-3">
        <dt className="text-xs text-muted">Withdraw per day</dt>
        <dd className="text-lg font-bold break-words">{capText(daily)}</dd>
        {left !== null ? (
          <dd className="text-xs text-muted">{formatNaira(left)} left today</dd>
        ) : null}
      </div>
    </dl>
  );
}

type Dialog = 'verify' | 'verified' | 'document' | null;

/**
 * The player's KYC tier on the Wallet page: the caps it allows, what verifying unlocks, and the
 * "Verify your identity" flow (BVN/NIN, then a document for tier 3).
 */
export function IdentityCard() {
  const status = useKycStatus();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [verifiedName, setVerifiedName] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);

  // A native <dialog> also reports its close when the page closes it to open the next one
  // (verify → verified): only the dialog still showing may close the flow.
  const closeFrom = (which: Dialog) => () => {
    setDialog((current) => (current === which ? null : current));
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  return (
    <section
      id="identity"
      aria-labelledby="identity-title"
      aria-busy={status.isPending || undefined}
      className="scroll-mt-24 rounded-2xl border border-line bg-card p-5"
    >
      <div className="mb-4 flex items-center justify-between gap-3">
        <h2
          id="identity-title"
          ref={headingRef}
          tabIndex={-1}
          className="text-lg font-bold outline-none"
        >
          Identity and limits
        </h2>
        {status.data ? (
          <span className="rounded-full border border-accent/50 px-3 py-1 text-sm font-semibold text-accent">
            Tier {status.data.tier}
          </span>
        ) : null}
      </div>
      {status.isPending ? (
        <div className="grid min-h-32 place-items-center">
          <Spinner label="Loading your limits" />
        </div>
      ) : status.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3">
          <p className="text-sm">We could not load your limits.</p>
          <Button
            variant="outline"
            loading={status.isFetching}
            onClick={() => void status.refetch()}
          >
            Try again
          </Button>
        </div>
      ) : (
        <Body
          status={status.data}
          onVerify={() => setDialog('verify')}
          onUpload={() => setDialog('document')}
        />
      )}
      <Modal
        open={dialog === 'verify'}
        title="Verify your identity"
        description="Tier 2: your BVN or NIN, checked with the national records."
        onClose={closeFrom('verify')}
      >
        <VerifyIdentityForm
          onVerified={(name) => {
            setVerifiedName(name);
            setDialog('verified');
          }}
        />
      </Modal>
      <Modal open={dialog === 'verified'} title="Identity verified" onClose={closeFrom('verified')}>
        <div className="flex flex-col gap-4" role="status">
          <p>
            You are verified as <strong className="text-vip">{verifiedName}</strong>.
          </p>
          <p className="text-sm text-muted">{KYC_MESSAGES.verified}</p>
          <Button variant="vip" onClick={closeFrom('verified')} data-autofocus>
            Done
          </Button>
        </div>
      </Modal>
      <Modal
        open={dialog === 'document'}
        title="Upload a document"
        description="Tier 3: an operator checks it, usually within a working day."
        onClose={closeFrom('document')}
      >
        <DocumentUploadForm
          onSubmitted={() => {
            toast.success(KYC_MESSAGES.documentSubmitted);
            closeFrom('document')();
          }}
        />
      </Modal>
    </section>
  );
}

function Body({
  status,
  onVerify,
  onUpload,
}: {
  status: KycStatus;
  onVerify: () => void;
  onUpload: () => void;
}) {
  const next = status.tiers.find((tier) => tier.tier === status.tier + 1);
  const pending = status.documents.find((document) => document.status === 'PENDING');
  const latest = status.documents[0];
  const refused = status.lastAttempt?.status === 'REJECTED' ? status.lastAttempt : null;
  return (
    <div className="flex flex-col gap-4">
      <Caps status={status} />
      {status.bankAccountMatches === false && status.verifiedName ? (
        <p role="alert" className="rounded-xl border border-danger/50 bg-danger/10 p-3 text-sm">
          {KYC_MESSAGES.withdrawalBankMismatch(status.verifiedName)}{' '}
          <a href="#bank-account" className="font-semibold text-accent underline">
            Change bank account
          </a>
        </p>
      ) : null}
      {status.tier === 1 ? (
        <>
          <p className="text-sm text-white/90">
            Verify your identity with your BVN or NIN to {unlocks(next)}.
          </p>
          {status.phoneOnFile ? null : (
            <p className="rounded-xl border border-wallet/40 bg-wallet/10 p-3 text-sm">
              {KYC_MESSAGES.phoneNeeded}{' '}
              <Link href="/Profile" className="font-semibold text-accent underline">
                Go to Profile
              </Link>
            </p>
          )}
          {refused ? (
            <p className="text-sm text-muted">
              Your last check ({refused.idType} ending {refused.idLastFour}) was not accepted:{' '}
              {refused.reason}
            </p>
          ) : null}
          <Button onClick={onVerify} disabled={!status.phoneOnFile}>
            Verify your identity
          </Button>
        </>
      ) : (
        <p className="text-sm">
          Verified as <strong className="text-vip">{status.verifiedName}</strong>
          {status.tier >= 3 ? ', with the highest limits.' : '.'}
        </p>
      )}
      {status.tier === 2 ? (
        pending ? (
          <p className="rounded-xl bg-card-raised p-3 text-sm">
            Your {KYC_DOCUMENT_LABELS[pending.documentType].toLowerCase()} is waiting for review.
          </p>
        ) : (
          <>
            {latest?.status === 'REJECTED' ? (
              <p className="text-sm text-muted">
                Your {KYC_DOCUMENT_LABELS[latest.documentType].toLowerCase()} was not accepted:{' '}
                {latest.reviewNote}
              </p>
            ) : null}
            <p className="text-sm text-white/90">
              Upload an identity document for review to {unlocks(next)}.
            </p>
            <Button variant="outline" onClick={onUpload}>
              Upload a document
            </Button>
          </>
        )
      ) : null}
    </div>
  );
}
