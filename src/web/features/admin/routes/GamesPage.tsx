import { GAME_STATUS_LABELS, GAME_STATUSES, type GameStatus } from '@shared/constants.ts';
import { formatNaira } from '@shared/money.ts';
import type { AdminGamePage } from '@shared/schemas/admin.ts';
import type { Category } from '@shared/schemas/catalogue.ts';
import { buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { GameStatusBadge, TournamentMarker } from '@web/components/ui/GameCard.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { Pagination } from '@web/components/ui/Pagination.tsx';
import { Link } from 'wouter';
import { useCategories } from '../api/get-categories.ts';
import { useAdminGames } from '../api/get-games.ts';
import { ColumnTable, type TableSpec } from '../components/DataTable.tsx';
import { PlusIcon } from '../components/PlusIcon.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';
import { useUrlState } from '../lib/url-state.ts';

function isStatus(value: string | null): value is GameStatus {
  return GAME_STATUSES.includes(value as GameStatus);
}

/** The games list's columns; a game's category is looked up among those loaded. */
function gamesTable(
  categoryOf: ReadonlyMap<string, Category>,
): TableSpec<AdminGamePage['games'][number]> {
  return {
    label: 'Games',
    minWidth: 'sm:min-w-[50rem]',
    rowKey: (game) => game.id,
    columns: [
      {
        header: 'Game',
        className: 'min-w-44 max-w-72',
        wide: true,
        cell: (game) => (
          <>
            <Link
              href={`/games/${game.id}`}
              className="font-semibold break-words text-white hover:text-accent hover:underline"
            >
              {game.title}
            </Link>
            {game.isTournament ? (
              <div className="mt-1.5">
                <TournamentMarker />
              </div>
            ) : null}
          </>
        ),
      },
      { header: 'Status', cell: (game) => <GameStatusBadge status={game.status} /> },
      {
        header: 'Category',
        className: 'min-w-28',
        cell: (game) => {
          const category = game.categoryID ? categoryOf.get(game.categoryID) : undefined;
          return category ? `${category.emoji} ${category.title}` : '—';
        },
      },
      {
        header: 'Entry fee',
        numeric: true,
        cell: (game) => (game.entryFee === 0 ? 'Free' : formatNaira(game.entryFee)),
      },
      {
        header: 'Reward',
        numeric: true,
        className: 'text-wallet',
        cell: (game) => formatNaira(game.reward),
      },
      {
        header: 'Players',
        numeric: true,
        cell: (game) => `${game.playerCount} / ${game.maximumPlayers}`,
      },
      {
        header: 'Opens',
        className: 'min-w-28 text-muted',
        cell: (game) => (game.startsAt ? <DateTime value={game.startsAt} /> : 'At once'),
      },
      {
        header: 'Created',
        className: 'min-w-28 text-muted',
        cell: (game) => <DateTime value={game.createdAt} />,
      },
    ],
  };
}

export function GamesPage() {
  const { params, page, update } = useUrlState();
  const statusParam = params.get('status');
  const status = isStatus(statusParam) ? statusParam : undefined;
  const type = params.get('type') === 'TOURNAMENT' ? ('TOURNAMENT' as const) : undefined;
  const categoryID = params.get('category') || undefined;
  const games = useAdminGames({ status, type, categoryID, page });
  const categories = useCategories();
  const categoryOf = new Map((categories.data ?? []).map((category) => [category.id, category]));
  const filtered = Boolean(status || type || categoryID);

  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Games" eyebrow="Run the contests">
        <Link href="/games/new" className={`${buttonBase} ${buttonStyles.primary}`}>
          <PlusIcon /> New game
        </Link>
      </PageHeader>

      <fieldset className="grid gap-3 sm:grid-cols-3">
        <legend className="sr-only">Filter games</legend>
        <Field
          as="select"
          label="Status"
          value={status ?? ''}
          onChange={(event) => update({ status: event.target.value, page: 1 })}
        >
          <option value="">All statuses</option>
          {GAME_STATUSES.map((value) => (
            <option key={value} value={value}>
              {GAME_STATUS_LABELS[value]}
            </option>
          ))}
        </Field>
        <Field
          as="select"
          label="Type"
          value={type ?? ''}
          onChange={(event) => update({ type: event.target.value, page: 1 })}
        >
          <option value="">All games</option>
          <option value="TOURNAMENT">Tournaments only</option>
        </Field>
        <Field
          as="select"
          label="Category"
          value={categoryID ?? ''}
          onChange={(event) => update({ category: event.target.value, page: 1 })}
        >
          <option value="">All categories</option>
          {(categories.data ?? []).map((category) => (
            <option key={category.id} value={category.id}>
              {category.emoji} {category.title}
            </option>
          ))}
        </Field>
      </fieldset>

      {games.isPending ? (
        <Loading label="Loading games" />
      ) : games.isError ? (
        <LoadError
          error={games.error}
          what="the games"
          onRetry={() => void games.refetch()}
          retrying={games.isFetching}
        />
      ) : games.data.games.length === 0 ? (
        <EmptyState icon="🎯" title={filtered ? 'No games match these filters' : 'No games yet'}>
          {filtered ? (
            <p>Try another status, type or category.</p>
          ) : (
            <p>Create the first game and it shows up for players straight away.</p>
          )}
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-muted" aria-live="polite">
            {games.data.pagination.totalResults} game
            {games.data.pagination.totalResults === 1 ? '' : 's'}
          </p>
          <ColumnTable spec={gamesTable(categoryOf)} rows={games.data.games} />
          <Pagination
            label="Game pages"
            page={games.data.pagination.page}
            totalPages={games.data.pagination.totalPages}
            busy={games.isPlaceholderData}
            onChange={(next) => update({ page: next })}
          />
        </>
      )}
    </div>
  );
}
