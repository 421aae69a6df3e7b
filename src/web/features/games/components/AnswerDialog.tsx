import { ANSWER_MAX_WORDS } from '@shared/constants.ts';
import { ERROR_MESSAGES, PAGE_TEXTS, VALIDATION_MESSAGES } from '@shared/messages.ts';
import { formatNaira } from '@shared/money.ts';
import type { Game, PlayResult } from '@shared/schemas/games.ts';
import { BreakNotice } from '@web/components/ui/BreakNotice.tsx';
import { Button, buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { quoted } from '@web/components/ui/GameCard.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { type ApiError, errorMessage } from '@web/lib/http.ts';
import { usePlayBreak } from '@web/lib/play-break.ts';
import { useSchemaForm, type Validator } from '@web/lib/schema-form.ts';
import { setCurrentGame } from '@web/lib/session.ts';
import { toast } from '@web/lib/toast.tsx';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { usePlayGame } from '../api/play-game.ts';
import { answerDraft, checkAnswer } from '../lib/answer.ts';

/** docs/product.md#states: FORM → LOADING on submit; LOADING → SUCCESS, or back to FORM on failure. */
export type AnswerStep = 'FORM' | 'LOADING' | 'SUCCESS';

interface AnswerDialogProps {
  game: Game;
  open: boolean;
  onClose: () => void;
}

const feeText = (fee: number) => (fee > 0 ? formatNaira(fee) : 'free');

/** What the dialog says under Submit while nothing is typed: a note, not a mistake. */
const EMPTY_NOTE = 'Type your answer to submit.';

/**
 * The server's answer rule (checkAnswer) as the form's check: a problem is the field's error;
 * an empty answer is reported on the form as a whole (issuesToErrors' 'form'), so Submit waits
 * without the field being marked wrong.
 */
const answerRule: Validator<{ submittedAnswer: string }> = {
  safeParse(input) {
    const { submittedAnswer } = input as { submittedAnswer: string };
    const { problem, canSubmit } = checkAnswer(submittedAnswer);
    if (canSubmit) return { success: true, data: { submittedAnswer: submittedAnswer.trim() } };
    const issue = problem
      ? { path: ['submittedAnswer'], message: problem }
      : { path: [], message: EMPTY_NOTE };
    return { success: false, error: { issues: [issue] } };
  },
};

export function AnswerDialog({ game, open, onClose }: AnswerDialogProps) {
  const [step, setStep] = useState<AnswerStep>('FORM');
  // Errors show as the player types ('live'); Submit is enabled only when the rule passes.
  const form = useSchemaForm({
    schema: answerRule,
    initial: { submittedAnswer: answerDraft.read(game.id) },
    report: 'live',
  });
  const answer = form.field('submittedAnswer');
  const [result, setResult] = useState<PlayResult | null>(null);
  const play = usePlayGame();
  // A break that starts while the dialog is open replaces the form: no answer typed in vain.
  const onBreak = usePlayBreak();
  const { words } = checkAnswer(answer.value);
  const problem = answer.error ?? null;
  const emptyNote = form.errors.form;
  // The fee and reward the player last submitted with (or saw when the page opened). If an
  // operator changes either meanwhile, the server charges nothing (409) and the page reloads the
  // game: the form then says what they are now, so the next Submit is made knowing them.
  const [seenFee, setSeenFee] = useState(game.entryFee);
  const [seenReward, setSeenReward] = useState(game.reward);

  const fieldId = useId();
  const warningId = useId();
  const counterId = useId();
  const problemId = useId();
  const emptyId = useId();
  const feeId = useId();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const loadingRef = useRef<HTMLDivElement>(null);
  const successRef = useRef<HTMLParagraphElement>(null);

  // Focus follows the step, so keyboard and screen-reader users are never left on a button
  // that just disappeared. (The Modal opens the <dialog> in its own effect, which runs first.)
  useEffect(() => {
    if (!open) return;
    if (step === 'FORM') textareaRef.current?.focus();
    if (step === 'LOADING') loadingRef.current?.focus();
    if (step === 'SUCCESS') successRef.current?.focus();
  }, [open, step]);

  function submit({ submittedAnswer }: { submittedAnswer: string }) {
    if (step !== 'FORM') return;
    setSeenFee(game.entryFee);
    setSeenReward(game.reward);
    setStep('LOADING');
    play.mutate(
      // The terms shown here: if an operator changed them meanwhile, nothing is charged (409).
      {
        gameID: game.id,
        submittedAnswer,
        entryFee: game.entryFee,
        reward: game.reward,
      },
      {
        onSuccess: (played) => {
          answerDraft.clear(game.id);
          setCurrentGame({ ...game, hasPlayedGame: true, playerCount: played.playerCount });
          setResult(played);
          setStep('SUCCESS');
        },
        onError: (error) => {
          // No answer from the server (offline, or the spec's 20 s timeout): the spec's own
          // words, not the transport's ('Network Error').
          const unanswered = (error as Partial<ApiError>).code === 'NO_ANSWER';
          toast.error(
            unanswered ? ERROR_MESSAGES.playGame : errorMessage(error, ERROR_MESSAGES.playGame),
          );
          setStep('FORM');
        },
      },
    );
  }

  const overLimit = words > ANSWER_MAX_WORDS;

  return (
    <Modal
      open={open}
      title={quoted(game.title)}
      onClose={onClose}
      dismissible={step !== 'LOADING'}
    >
      <div aria-live="polite">
        {step === 'LOADING' ? (
          <div
            ref={loadingRef}
            tabIndex={-1}
            className="flex flex-col items-center gap-4 py-10 text-center focus:outline-none"
          >
            <span
              aria-hidden="true"
              className="size-12 animate-spin rounded-full border-4 border-accent/25 border-t-accent"
            />
            <p className="font-semibold">{PAGE_TEXTS.answerSending}</p>
          </div>
        ) : null}
        {step === 'SUCCESS' ? (
          <div className="flex flex-col items-center gap-3 pt-2 text-center">
            <span
              aria-hidden="true"
              className="grid size-16 place-items-center rounded-full bg-vip/15 text-vip ring-8 ring-vip/5"
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="size-8"
                fill="none"
                stroke="currentColor"
                strokeWidth="2.5"
              >
                <path d="M5 12.5l4.5 4.5L19 7.5" />
              </svg>
            </span>
            <p ref={successRef} tabIndex={-1} className="text-xl font-bold focus:outline-none">
              {PAGE_TEXTS.answerSubmitted}
            </p>
          </div>
        ) : null}
      </div>

      {step === 'FORM' && onBreak ? <BreakNotice exclusion={onBreak} /> : null}
      {step === 'FORM' && !onBreak ? (
        <form
          ref={form.formRef}
          onSubmit={form.handleSubmit(submit)}
          noValidate
          className="flex flex-col gap-4"
        >
          {game.description ? (
            <p className="-mt-2 text-sm whitespace-pre-line break-words text-white/75">
              {game.description}
            </p>
          ) : null}
          <div className="flex flex-col gap-1.5">
            <label htmlFor={fieldId} className="text-sm font-medium text-white/90">
              Your answer
            </label>
            <textarea
              ref={textareaRef}
              id={fieldId}
              rows={4}
              name={answer.name}
              value={answer.value}
              onChange={(event) => {
                answer.onChange(event);
                answerDraft.write(game.id, event.target.value);
              }}
              placeholder={PAGE_TEXTS.answerPlaceholder}
              aria-invalid={problem ? true : undefined}
              aria-describedby={`${warningId} ${counterId}${problem ? ` ${problemId}` : ''}`}
              className="w-full resize-none rounded-xl border border-line bg-page px-4 py-3 text-base text-white placeholder:text-white/40 focus:border-accent focus:outline-none aria-[invalid=true]:border-danger"
            />
            <div className="flex items-start justify-between gap-3 text-xs">
              <p id={problemId} className="text-danger">
                {problem}
              </p>
              <p
                id={counterId}
                aria-live="polite"
                className={`shrink-0 font-semibold tabular-nums ${overLimit ? 'text-danger' : 'text-muted'}`}
              >
                {words}/{ANSWER_MAX_WORDS} words
              </p>
            </div>
          </div>
          <p
            id={warningId}
            className="flex gap-2 rounded-xl border border-wallet/30 bg-wallet/5 p-3 text-sm text-wallet"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="mt-0.5 size-4 shrink-0"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M12 9v4m0 4h.01M10.3 3.9L1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
            </svg>
            <span>{VALIDATION_MESSAGES.answerWarning}</span>
          </p>
          {/* What Submit takes from the wallet, said before it is pressed; a fee changed since
              the page opened says so instead, with what it was. */}
          {game.entryFee !== seenFee ? (
            <p id={feeId} className="rounded-xl border border-accent/40 bg-accent/5 p-3 text-sm">
              Entry fee: now <strong className="text-accent">{feeText(game.entryFee)}</strong>, was{' '}
              {feeText(seenFee)}.
            </p>
          ) : game.entryFee > 0 ? (
            <p id={feeId} className="text-center text-sm text-white/85">
              Submitting pays the{' '}
              <strong className="text-accent">{formatNaira(game.entryFee)}</strong> entry fee from
              your wallet.
            </p>
          ) : (
            <p id={feeId} className="text-center text-sm text-white/85">
              This game is free: submitting takes nothing from your wallet.
            </p>
          )}
          {game.reward !== seenReward ? (
            <p className="rounded-xl border border-accent/40 bg-accent/5 p-3 text-sm">
              Reward: now <strong className="text-accent">{formatNaira(game.reward)}</strong>, was{' '}
              {formatNaira(seenReward)}.
            </p>
          ) : null}
          <Button
            type="submit"
            disabled={!form.valid}
            aria-describedby={`${feeId}${form.valid ? '' : ` ${problem ? problemId : emptyId}`}`}
            className="w-full"
          >
            Submit
          </Button>
          {emptyNote ? (
            <p id={emptyId} className="-mt-2 text-center text-sm text-muted">
              {emptyNote}
            </p>
          ) : null}
        </form>
      ) : null}

      {step === 'SUCCESS' && result ? (
        <div className="mt-5 flex flex-col gap-4">
          <dl className="grid grid-cols-3 gap-2 text-center">
            <div className="rounded-xl bg-card-raised px-2 py-3">
              <dt className="text-xs text-muted">Seed</dt>
              <dd className="mt-1 font-bold">
                {result.amountPaid > 0 ? formatNaira(result.amountPaid) : 'Free'}
              </dd>
            </div>
            <div className="rounded-xl bg-card-raised px-2 py-3">
              <dt className="text-xs text-muted">Potential payout</dt>
              <dd className="mt-1 font-bold text-wallet">{formatNaira(result.amountToWin)}</dd>
            </div>
            <div className="rounded-xl bg-card-raised px-2 py-3">
              <dt className="text-xs text-muted">Players</dt>
              <dd className="mt-1 font-bold">{result.playerCount.toLocaleString('en-NG')}</dd>
            </div>
          </dl>
          <p className="flex gap-2 rounded-xl border border-accent/30 bg-accent/5 p-3 text-sm text-white/85">
            <span aria-hidden="true">🔔</span>
            <span>
              Keep an eye on your notifications: if your answer is picked when the game closes, we
              will let you know there.
              {pushNotAskedYet() ? (
                <>
                  {' '}
                  <Link href="/Notifications" className="font-semibold text-accent underline">
                    Get them on this device too
                  </Link>
                </>
              ) : null}
            </span>
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Link href="/mysubmissions" className={`${buttonBase} ${buttonStyles.primary} flex-1`}>
              View Game Status
            </Link>
            <Link href="/Home" className={`${buttonBase} ${buttonStyles.outline} flex-1`}>
              Go Back to Home
            </Link>
          </div>
        </div>
      ) : null}
    </Modal>
  );
}

/**
 * The opt-in after an answer: offered while this browser can show pushes and has not
 * been asked yet; the Notifications page asks (a browser only asks on a tap).
 */
function pushNotAskedYet(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window &&
    Notification.permission === 'default'
  );
}
