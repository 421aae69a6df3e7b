import { buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { Link, useLocation, useParams } from 'wouter';
import { useAdminGame } from '../api/get-game.ts';
import { GameForm } from '../components/GameForm.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';
import { BackLink } from '../components/Section.tsx';

function NewGame() {
  const [, navigate] = useLocation();
  return (
    <div>
      <BackLink>
        <Link href="/games" className="text-accent hover:underline">
          ← Games
        </Link>
      </BackLink>
      <PageHeader title="New game" eyebrow="Games" />
      <GameForm onSaved={() => navigate('/games')} onCancel={() => navigate('/games')} />
    </div>
  );
}

function EditGame({ id }: { id: string }) {
  const [, navigate] = useLocation();
  const game = useAdminGame(id);
  const back = `/games/${id}`;
  if (game.isPending) return <Loading label="Loading the game" />;
  if (game.isError) {
    return (
      <LoadError
        error={game.error}
        what="the game"
        onRetry={() => void game.refetch()}
        retrying={game.isFetching}
      />
    );
  }
  const editable =
    game.data.playerCount === 0 &&
    (game.data.status === 'UPCOMING' || game.data.status === 'ONGOING');
  return (
    <div>
      <BackLink>
        <Link href={back} className="text-accent hover:underline">
          ← Back to the game
        </Link>
      </BackLink>
      <PageHeader title="Edit game" eyebrow="Games" />
      {editable ? (
        <GameForm game={game.data} onSaved={() => navigate(back)} onCancel={() => navigate(back)} />
      ) : (
        <EmptyState icon="🔒" title="This game can no longer be edited">
          <p>Once someone has played, or the game has closed, its terms are fixed.</p>
          <Link href={back} className={`${buttonBase} ${buttonStyles.outline} mt-4`}>
            Back to the game
          </Link>
        </EmptyState>
      )}
    </div>
  );
}

/** /admin/games/new and /admin/games/:id/edit. */
export function GameEditorPage() {
  const { id } = useParams<{ id?: string }>();
  return id ? <EditGame id={id} /> : <NewGame />;
}
