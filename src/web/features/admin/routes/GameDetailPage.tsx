import { formatDate } from '@shared/date.ts';
import { formatNaira } from '@shared/money.ts';
import type { AdminEntry } from '@shared/schemas/admin.ts';
import { cancelGameBodySchema } from '@shared/schemas/admin.ts';
import type { Game } from '@shared/schemas/games.ts';
import { Button, buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { Tag } from '@web/components/ui/GameCard.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { useCancelGame } from '../api/cancel-game.ts';
import { useCloseGame } from '../api/close-game.ts';
import { useCategories } from '../api/get-categories.ts';
import { useAdminGame } from '../api/get-game.ts';
import { useGameEntries } from '../api/get-game-entries.ts';
import { ColumnTable, type TableSpec } from '../components/DataTable.tsx';
import { DrawProof } from '../components/DrawProof.tsx';
import { ConfirmDialog, ReasonDialog } from '../components/dialogs.tsx';
import { GamePreview } from '../components/GamePreview.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';
import { BackLink, Section } from '../components/Section.tsx';

function Result({ entry }: { entry: AdminEntry }) {
  if (entry.refunded) return <Tag tone="muted">Refunded</Tag>;
  if (entry.isWinner === true) return <Tag tone="wallet">Winner</Tag>;
  if (entry.isWinner === false) return <Tag tone="muted">Not picked</Tag>;
  return <Tag tone="accent">Pending</Tag>;
}

/** An entry with its place in the game: the first answer is 1. */
type NumberedEntry = AdminEntry & { place: number };

const ENTRIES_TABLE: TableSpec<NumberedEntry> = {
  label: 'Entries',
  minWidth: 'sm:min-w-[46rem]',
  rowKey: (entry) => entry.entryId,
  columns: [
    {
      header: 'Entry',
      className: 'font-mono text-muted',
      // Numbered within the game; the id the audit log and support use stays one glance away.
      cell: (entry) => (
        <>
          <span className="text-white">#{entry.place}</span>
          <span className="block text-xs">id {entry.entryId}</span>
        </>
      ),
    },
    {
      header: 'Player',
      className: 'whitespace-nowrap',
      // A handle is up to 28 characters: half a phone's card would break it mid-word.
      wide: true,
      cell: (entry) => (
        <>
          <Link href={`/users/${entry.userId}`} className="text-accent hover:underline">
            {entry.username}
          </Link>
          <span className="block text-xs text-muted">{entry.fullname}</span>
        </>
      ),
    },
    {
      header: 'Answer',
      className: 'max-w-96 break-words',
      wide: true,
      cell: (entry) => entry.answer,
    },
    {
      header: 'Paid',
      numeric: true,
      cell: (entry) => (entry.amountPaid === 0 ? 'Free' : formatNaira(entry.amountPaid)),
    },
    { header: 'Result', cell: (entry) => <Result entry={entry} /> },
    {
      header: 'When',
      className: 'whitespace-nowrap text-muted',
      cell: (entry) => <DateTime value={entry.createdAt} />,
    },
  ],
};

function Entries({ game }: { game: Game }) {
  const entries = useGameEntries(game.id);
  if (entries.isPending) return <Loading label="Loading entries" />;
  if (entries.isError) {
    return (
      <LoadError
        error={entries.error}
        what="the entries"
        onRetry={() => void entries.refetch()}
        retrying={entries.isFetching}
      />
    );
  }
  if (entries.data.length === 0) {
    return (
      <EmptyState icon="✍️" title="No entries yet">
        <p>Answers show up here as players pluck in.</p>
      </EmptyState>
    );
  }
  // The server lists entries oldest first.
  const numbered = entries.data.map((entry, index) => ({ ...entry, place: index + 1 }));
  return <ColumnTable spec={ENTRIES_TABLE} rows={numbered} />;
}

function Facts({ game }: { game: Game }) {
  const categories = useCategories();
  const category = categories.data?.find((item) => item.id === game.categoryID);
  const facts: [string, string][] = [
    ['Players', `${game.playerCount} of ${game.maximumPlayers}`],
    ['Entry fee', game.entryFee === 0 ? 'Free' : formatNaira(game.entryFee)],
    ['Reward per winner', formatNaira(game.reward)],
    ['Category', category ? `${category.emoji} ${category.title}` : '—'],
    ['Opens', game.startsAt ? formatDate(game.startsAt) : 'At once'],
    ['Closes', game.endsAt ? formatDate(game.endsAt) : 'When full or closed by hand'],
    ['Created', formatDate(game.createdAt)],
    ['Game id', game.id],
  ];
  return (
    <Card>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs text-muted">{label}</dt>
            <dd
              className={`font-medium ${label === 'Game id' ? 'font-mono text-xs break-all' : ''}`}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

type Dialog = 'close' | 'cancel' | null;

export function GameDetailPage() {
  const { id = '' } = useParams<{ id: string }>();
  const game = useAdminGame(id);
  const close = useCloseGame();
  const cancel = useCancelGame();
  const [dialog, setDialog] = useState<Dialog>(null);

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
  const data = game.data;
  const open = data.status === 'UPCOMING' || data.status === 'ONGOING';
  const editable = open && data.playerCount === 0;
  const cancellable = data.status !== 'COMPLETED' && data.status !== 'CANCELLED';

  function onClose() {
    close.mutate(id, {
      onSuccess: (result) => {
        toast.success(result.message);
        setDialog(null);
      },
      onError: (error) => toast.error(errorMessage(error, 'The game could not be closed')),
    });
  }

  function onCancel(reason: string) {
    cancel.mutate(
      { id, reason },
      {
        onSuccess: (result) => {
          toast.success(result.message);
          setDialog(null);
        },
        onError: (error) => toast.error(errorMessage(error, 'The game could not be cancelled')),
      },
    );
  }

  return (
    <div className="flex flex-col gap-8">
      <div>
        <BackLink>
          <Link href="/games" className="text-accent hover:underline">
            ← Games
          </Link>
        </BackLink>
        <header className="flex flex-col gap-4">
          <div>
            <p className="text-xs font-semibold tracking-[0.2em] text-accent uppercase">Game</p>
            <h1 className="text-2xl font-bold break-words sm:text-3xl">{data.title}</h1>
          </div>
          <div className="flex flex-wrap gap-2">
            {editable ? (
              <Link href={`/games/${id}/edit`} className={`${buttonBase} ${buttonStyles.outline}`}>
                Edit
              </Link>
            ) : null}
            {open ? (
              <Button variant="wallet" onClick={() => setDialog('close')}>
                Close now
              </Button>
            ) : null}
            {cancellable ? (
              <Button variant="danger" onClick={() => setDialog('cancel')}>
                Cancel game
              </Button>
            ) : null}
          </div>
          {open && !editable ? (
            <p className="text-sm text-muted">
              Someone has played, so the terms are fixed: it can be closed or cancelled, not edited.
            </p>
          ) : null}
        </header>
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Facts game={data} />
        <GamePreview game={data} />
      </div>

      <Section title="Draw proof" id="proof-title">
        <DrawProof game={data} />
      </Section>

      <Section title={`Entries (${data.playerCount})`} id="entries-title">
        <Entries game={data} />
      </Section>

      <ConfirmDialog
        open={dialog === 'close'}
        title="Close this game now?"
        confirmLabel="Close game"
        variant="wallet"
        busy={close.isPending}
        onConfirm={onClose}
        onClose={() => setDialog(null)}
      >
        <p>
          No more answers will be taken and the draw runs straight away. With {data.playerCount}{' '}
          player{data.playerCount === 1 ? '' : 's'},{' '}
          {data.playerCount < 5
            ? 'fewer than 5 have played, so the game will be cancelled and every fee refunded.'
            : `${Math.floor(data.playerCount / 5)} winner(s) will be drawn.`}
        </p>
      </ConfirmDialog>

      <ReasonDialog
        open={dialog === 'cancel'}
        title="Cancel this game?"
        description={`Every entry fee is refunded to the ${data.playerCount} player(s) and they are told why. This cannot be undone.`}
        schema={cancelGameBodySchema}
        hint="Players see this reason in their notification."
        confirmLabel="Cancel game and refund"
        busy={cancel.isPending}
        onSubmit={onCancel}
        onClose={() => setDialog(null)}
      />
    </div>
  );
}
