import { VALIDATION_MESSAGES } from '@shared/messages.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link, useLocation } from 'wouter';
import { SAMPLE_CARDS } from '../lib/sample-cards.ts';

/**
 * /SelectedTournament: the mock five-card tournament of docs/product.md#screens. Sample values only; Confirm
 * moves to the next card and the last one leads to /SuccessfulSubmission. Nothing is sent.
 */
export function SelectedTournamentPage() {
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<string[]>(() => SAMPLE_CARDS.map(() => ''));
  const [, navigate] = useLocation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const fieldId = useId();
  const warningId = useId();
  const card = SAMPLE_CARDS[index] ?? SAMPLE_CARDS[0];
  const total = SAMPLE_CARDS.length;

  if (!card) return null;

  function confirm() {
    if (index + 1 >= total) {
      navigate('/SuccessfulSubmission');
      return;
    }
    // Start the next card from its title, not from a button whose card just went away.
    flushSync(() => setIndex(index + 1));
    headingRef.current?.focus();
  }

  return (
    <div className="mx-auto max-w-xl">
      <Link
        href="/Tournament"
        className="mb-4 inline-flex min-h-11 items-center gap-1 text-sm font-medium text-muted hover:text-accent"
      >
        <span aria-hidden="true">←</span> Tournament Hub
      </Link>
      <p className="text-xs font-semibold tracking-[0.2em] text-purple-300 uppercase">
        Sample round
      </p>
      <h1 className="text-2xl font-bold sm:text-3xl">Pluckers Tournament</h1>

      <div className="mt-6 flex items-center justify-between gap-3">
        <p aria-live="polite" className="text-sm font-semibold text-accent">
          Card {index + 1} of {total}
        </p>
        <ol aria-hidden="true" className="flex gap-1.5">
          {SAMPLE_CARDS.map((sample, position) => (
            <li
              key={sample.title}
              className={`h-1.5 w-8 rounded-full ${position <= index ? 'bg-accent' : 'bg-white/10'}`}
            />
          ))}
        </ol>
      </div>

      <section
        aria-labelledby="card-title"
        className="mt-4 flex flex-col gap-4 rounded-3xl border border-purple-400/30 bg-card p-5 shadow-[0_0_40px_rgb(192_132_252/0.08)] sm:p-7"
      >
        <h2
          id="card-title"
          ref={headingRef}
          tabIndex={-1}
          className="text-xl leading-snug font-bold focus:outline-none"
        >
          “{card.title}”
        </h2>
        <p className="text-white/75">{card.description}</p>
        <dl className="grid grid-cols-2 gap-3">
          <div className="rounded-xl bg-card-raised px-3 py-2.5">
            <dt className="text-xs text-muted">Points</dt>
            <dd className="mt-0.5 font-bold text-wallet">{card.points}</dd>
          </div>
          <div className="rounded-xl bg-card-raised px-3 py-2.5">
            <dt className="text-xs text-muted">Time limit</dt>
            <dd className="mt-0.5 font-bold">{card.timeLimit}</dd>
          </div>
        </dl>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={fieldId} className="text-sm font-medium text-white/90">
            Your answer
          </label>
          <textarea
            id={fieldId}
            rows={4}
            value={answers[index] ?? ''}
            onChange={(event) =>
              setAnswers((all) =>
                all.map((answer, at) => (at === index ? event.target.value : answer)),
              )
            }
            aria-describedby={warningId}
            placeholder="type your answer here..."
            className="w-full resize-none rounded-xl border border-line bg-page px-4 py-3 text-base text-white placeholder:text-white/40 focus:border-accent focus:outline-none"
          />
        </div>
        <p
          id={warningId}
          className="rounded-xl border border-wallet/30 bg-wallet/5 p-3 text-sm text-wallet"
        >
          {VALIDATION_MESSAGES.answerWarning}
        </p>
        <Button onClick={confirm} className="w-full text-base">
          Confirm
        </Button>
      </section>
    </div>
  );
}
