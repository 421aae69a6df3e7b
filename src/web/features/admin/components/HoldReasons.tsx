import { AML_MESSAGES, type HoldReason, holdReasonLabel } from '@shared/aml.ts';

/**
 * Anti-money-laundering holds as the console shows them: a marker with a few words per reason
 * in the queue, the full reasons where the operator decides. Players never see either.
 */
export function HeldMarker({
  reasons,
  detailed = false,
}: {
  reasons: HoldReason[];
  /** The full reasons rather than a few words each (a player's own page has the room). */
  detailed?: boolean;
}) {
  if (reasons.length === 0) return null;
  return (
    <div className="mt-1.5 flex flex-col items-start gap-1">
      <span className="inline-flex items-center gap-1 rounded-full border border-danger/60 bg-danger/15 px-2 py-0.5 text-xs font-semibold text-danger">
        <span aria-hidden="true">⚑</span>
        {AML_MESSAGES.held}
      </span>
      {detailed ? (
        <ul className="flex max-w-80 list-disc flex-col gap-0.5 pl-4 text-xs text-white/80">
          {reasons.map((reason) => (
            <li key={reason.code}>{reason.text}</li>
          ))}
        </ul>
      ) : (
        <span className="text-xs text-white/80">
          {reasons.map((reason) => holdReasonLabel(reason.code)).join(' · ')}
        </span>
      )}
    </div>
  );
}

/** The full reasons, for the approve and reject dialogs. */
export function HoldReasonList({ reasons }: { reasons: HoldReason[] }) {
  if (reasons.length === 0) return null;
  return (
    <section
      aria-label={AML_MESSAGES.held}
      className="rounded-xl border border-danger/50 bg-danger/10 p-3 text-sm"
    >
      <p className="font-semibold text-danger">{AML_MESSAGES.held}</p>
      <ul className="mt-1 flex list-disc flex-col gap-1 pl-5 text-white/85">
        {reasons.map((reason) => (
          <li key={reason.code}>{reason.text}</li>
        ))}
      </ul>
    </section>
  );
}
