import { ERROR_MESSAGES } from '@shared/messages.ts';
import { Button, buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { PageLoading } from '@web/components/ui/LoadingState.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { useErrorToast } from '@web/components/ui/useErrorToast.ts';
import { Link } from 'wouter';
import { usePlayedGames } from '../api/get-played-games.ts';
import { SubmissionCard } from '../components/SubmissionCard.tsx';
import { submissionStatus } from '../lib/submission-status.ts';

/** /MySubmissions: every answer the player sent, newest first, with its result (docs/product.md#screens, #states). */
export function MySubmissionsPage() {
  const { data, isPending, error, refetch, isFetching } = usePlayedGames();
  useErrorToast(error, ERROR_MESSAGES.playedGames, 'played-games-error');
  const pending = data?.filter((played) => submissionStatus(played).outcome === 'pending').length;

  return (
    <section aria-labelledby="submissions-title">
      <PageHeader title="My Submissions" eyebrow="Your answers">
        {data && data.length > 0 ? (
          <p className="text-sm text-muted">
            {data.length} {data.length === 1 ? 'answer' : 'answers'} · {pending} pending review
          </p>
        ) : null}
      </PageHeader>
      <h2 id="submissions-title" className="sr-only">
        Your submissions
      </h2>
      {isPending ? (
        <PageLoading label="Loading your submissions" />
      ) : error && !data ? (
        <EmptyState icon="📡" title="We could not load your submissions">
          <p>Check your connection and try again.</p>
          <Button variant="outline" className="mt-4" loading={isFetching} onClick={() => refetch()}>
            Try again
          </Button>
        </EmptyState>
      ) : !data || data.length === 0 ? (
        <EmptyState icon="📝" title="No submissions yet">
          <p>Answer a question and it shows up here, with its result once the draw is done.</p>
          <Link href="/Home" className={`${buttonBase} ${buttonStyles.primary} mt-5`}>
            Find a game
          </Link>
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
          {data.map((played) => (
            <li key={played.id} className="grid">
              <SubmissionCard played={played} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
