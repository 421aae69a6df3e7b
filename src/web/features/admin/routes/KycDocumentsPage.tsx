import { formatDate } from '@shared/date.ts';
import { KYC_DOCUMENT_LABELS } from '@shared/kyc.ts';
import { type AdminKycDocument, kycRejectReasonSchema } from '@shared/schemas/kyc.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { Spinner } from '@web/components/ui/Spinner.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { Link } from 'wouter';
import { useKycDocumentFile } from '../api/get-kyc-document-file.ts';
import { type KycDocumentStatus, useKycDocuments } from '../api/get-kyc-documents.ts';
import { useReviewKycDocument } from '../api/review-kyc-document.ts';
import { ConfirmDialog, ReasonDialog } from '../components/dialogs.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';
import { StatusTag } from '../components/StatusTag.tsx';
import { TabbedSections } from '../components/TabbedSections.tsx';

function DocumentViewer({
  document,
  onClose,
}: {
  document: AdminKycDocument | null;
  onClose: () => void;
}) {
  const file = useKycDocumentFile(document?.id ?? null);
  return (
    <Modal
      open={document !== null}
      title={
        document ? `${KYC_DOCUMENT_LABELS[document.documentType]} of ${document.fullname}` : ''
      }
      onClose={onClose}
    >
      {file.isPending ? (
        <div className="grid min-h-48 place-items-center">
          <Spinner label="Loading the document" />
        </div>
      ) : file.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(file.error, 'The document could not be loaded')}
        </p>
      ) : (
        <img
          src={file.data.dataUrl}
          alt={
            document
              ? `${KYC_DOCUMENT_LABELS[document.documentType]} uploaded by ${document.fullname}`
              : ''
          }
          className="max-h-[70dvh] w-full rounded-xl object-contain"
        />
      )}
    </Modal>
  );
}

function DocumentCard({
  document,
  onView,
  onApprove,
  onReject,
}: {
  document: AdminKycDocument;
  onView: () => void;
  onApprove: () => void;
  onReject: () => void;
}) {
  return (
    <li className="flex flex-col gap-3 rounded-2xl border border-line bg-card p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-bold break-words">
            <Link href={`/users/${document.userId}`} className="hover:text-accent">
              {document.fullname}
            </Link>
          </h3>
          <p className="text-sm break-all text-muted">{document.email}</p>
        </div>
        <StatusTag status={document.status} />
      </div>
      <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-xs text-muted">Document</dt>
          <dd>{KYC_DOCUMENT_LABELS[document.documentType]}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">Sent</dt>
          <dd>{formatDate(document.createdAt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">Verified name (BVN/NIN)</dt>
          <dd className="break-words">{document.verifiedName ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">Verified date of birth</dt>
          <dd>{document.verifiedBirthDate ?? '—'}</dd>
        </div>
        {document.reviewNote ? (
          <div className="sm:col-span-2">
            <dt className="text-xs text-muted">Review note</dt>
            <dd className="break-words">{document.reviewNote}</dd>
          </div>
        ) : null}
      </dl>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button variant="outline" onClick={onView}>
          View document
        </Button>
        {document.status === 'PENDING' ? (
          <>
            <Button variant="vip" onClick={onApprove}>
              Approve (tier 3)
            </Button>
            <Button variant="danger" onClick={onReject}>
              Reject
            </Button>
          </>
        ) : null}
      </div>
    </li>
  );
}

function DocumentList({ status }: { status: KycDocumentStatus }) {
  const list = useKycDocuments(status);
  const review = useReviewKycDocument();
  const [viewing, setViewing] = useState<AdminKycDocument | null>(null);
  const [approving, setApproving] = useState<AdminKycDocument | null>(null);
  const [rejecting, setRejecting] = useState<AdminKycDocument | null>(null);

  const decide = (document: AdminKycDocument, decision: 'approve' | 'reject', reason?: string) =>
    review.mutate(
      { id: document.id, decision, reason },
      {
        onSuccess: () => {
          toast.success(
            decision === 'approve'
              ? `${document.fullname} is now tier 3`
              : `Rejected; ${document.fullname} was told why`,
          );
          setApproving(null);
          setRejecting(null);
        },
        onError: (error) => toast.error(errorMessage(error, 'The review could not be saved')),
      },
    );

  if (list.isPending) return <Loading label="Loading documents" />;
  if (list.isError)
    return (
      <LoadError
        error={list.error}
        what="the documents"
        onRetry={() => void list.refetch()}
        retrying={list.isFetching}
      />
    );
  if (list.data.length === 0)
    return (
      <EmptyState icon="🪪" title={status === 'PENDING' ? 'Nothing to review' : 'No documents'}>
        <p>Documents players upload for tier 3 are listed here.</p>
      </EmptyState>
    );
  return (
    <>
      <ul className="grid grid-cols-1 gap-3 xl:grid-cols-2" aria-label="Identity documents">
        {list.data.map((document) => (
          <DocumentCard
            key={document.id}
            document={document}
            onView={() => setViewing(document)}
            onApprove={() => setApproving(document)}
            onReject={() => setRejecting(document)}
          />
        ))}
      </ul>
      <DocumentViewer document={viewing} onClose={() => setViewing(null)} />
      <ConfirmDialog
        open={approving !== null}
        title="Approve this document?"
        description={
          approving
            ? `${approving.fullname} moves to tier 3, the highest limits. Check the document matches the verified name and date of birth.`
            : undefined
        }
        confirmLabel="Approve"
        variant="vip"
        busy={review.isPending}
        onConfirm={() => approving && decide(approving, 'approve')}
        onClose={() => setApproving(null)}
      />
      <ReasonDialog
        open={rejecting !== null}
        title="Reject this document?"
        description="The player is told the reason and can upload another one."
        schema={kycRejectReasonSchema}
        label="Reason (sent to the player)"
        confirmLabel="Reject"
        busy={review.isPending}
        onSubmit={(reason) => rejecting && decide(rejecting, 'reject', reason)}
        onClose={() => setRejecting(null)}
      />
    </>
  );
}

/** Tier 3: identity documents players uploaded, for an operator to approve or reject. */
export function KycDocumentsPage() {
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Identity documents" eyebrow="KYC tier 3" />
      <TabbedSections
        label="Documents by status"
        items={[
          { key: 'PENDING', label: 'Pending', content: <DocumentList status="PENDING" /> },
          { key: 'APPROVED', label: 'Approved', content: <DocumentList status="APPROVED" /> },
          { key: 'REJECTED', label: 'Rejected', content: <DocumentList status="REJECTED" /> },
        ]}
      />
    </div>
  );
}
