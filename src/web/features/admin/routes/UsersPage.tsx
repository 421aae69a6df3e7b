import { formatNaira } from '@shared/money.ts';
import { formatPhone } from '@shared/phone.ts';
import { type AdminUserRow, adminUserQuerySchema } from '@shared/schemas/admin.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { Tag } from '@web/components/ui/GameCard.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { Pagination } from '@web/components/ui/Pagination.tsx';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { Link } from 'wouter';
import { useAdminUsers } from '../api/get-users.ts';
import { ColumnTable, type TableSpec } from '../components/DataTable.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';
import { Wrappable } from '../components/Wrappable.tsx';
import { useUrlState } from '../lib/url-state.ts';

const USERS_TABLE: TableSpec<AdminUserRow> = {
  label: 'Users',
  minWidth: 'sm:min-w-[52rem]',
  rowKey: (user) => user.id,
  columns: [
    {
      header: 'Name',
      // A handle (28 characters at most) stays on one line beside the other columns, and a
      // phone's card gives it the full width.
      wide: true,
      cell: (user) => (
        <>
          <Link
            href={`/users/${user.id}`}
            className="font-semibold break-words text-white hover:text-accent hover:underline sm:whitespace-nowrap"
          >
            {user.username}
          </Link>
          <span className="block text-xs text-muted">{user.fullname}</span>
        </>
      ),
    },
    {
      header: 'E-mail',
      // The column that gives way: an address wraps before its @, never inside either half (a
      // half longer than the room scrolls the table sideways instead).
      className: 'break-words',
      wide: true,
      cell: (user) => <Wrappable text={user.email} before="@" />,
    },
    {
      header: 'Phone',
      className: 'whitespace-nowrap',
      cell: (user) => (user.phoneNumber ? formatPhone(user.phoneNumber) : '—'),
    },
    {
      header: 'Balance',
      numeric: true,
      className: 'text-wallet',
      cell: (user) => formatNaira(user.accountBalance),
    },
    {
      header: 'Status',
      cell: (user) => (
        <div className="flex flex-wrap gap-1.5">
          {user.suspended ? <Tag tone="danger">Suspended</Tag> : <Tag tone="live">Active</Tag>}
          {user.role === 'admin' ? <Tag tone="accent">Admin</Tag> : null}
        </div>
      ),
    },
    {
      header: 'Joined',
      className: 'min-w-28 text-muted',
      cell: (user) => <DateTime value={user.createdAt} />,
    },
  ],
};

const searchSchema = adminUserQuerySchema.pick({ q: true });

export function UsersPage() {
  const { params, page, update } = useUrlState();
  const q = params.get('q') ?? '';
  // The server's own query schema: it trims the words and caps their length.
  const form = useSchemaForm({ schema: searchSchema, initial: { q } });
  const { error, ...search } = form.field('q');
  const users = useAdminUsers(q, page);

  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Users" eyebrow="Players and operators" />
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is too new for some phones' browsers (and happy-dom); a search form is the portable landmark. */}
      <form
        ref={form.formRef}
        role="search"
        noValidate
        onSubmit={form.handleSubmit((query) => update({ q: query.q, page: 1 }))}
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
      >
        <div className="flex flex-1 flex-col gap-1.5">
          <label htmlFor="user-search" className="text-sm font-medium text-white/90">
            Search
          </label>
          <input
            id="user-search"
            type="search"
            {...search}
            maxLength={100}
            placeholder="Name, e-mail, phone or username"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'user-search-error' : undefined}
            className="min-h-12 w-full rounded-xl border border-line bg-card px-4 text-base text-white placeholder:text-white/40 focus:border-accent focus:outline-none"
          />
          {error ? (
            <p id="user-search-error" className="text-sm text-danger">
              {error}
            </p>
          ) : null}
        </div>
        <Button type="submit" loading={users.isFetching && users.isPlaceholderData}>
          Search
        </Button>
        {q ? (
          <Button
            variant="ghost"
            onClick={() => {
              form.set('q', '');
              update({ q: undefined, page: 1 });
            }}
          >
            Clear
          </Button>
        ) : null}
      </form>

      {users.isPending ? (
        <Loading label="Loading users" />
      ) : users.isError ? (
        <LoadError
          error={users.error}
          what="the users"
          onRetry={() => void users.refetch()}
          retrying={users.isFetching}
        />
      ) : users.data.users.length === 0 ? (
        <EmptyState icon="🔎" title={q ? `Nobody matches “${q}”` : 'No users yet'}>
          <p>Search by full name, e-mail, phone number or username.</p>
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-muted" aria-live="polite">
            {users.data.pagination.totalResults} user
            {users.data.pagination.totalResults === 1 ? '' : 's'}
            {q ? ` matching “${q}”` : ''}
          </p>
          <ColumnTable spec={USERS_TABLE} rows={users.data.users} />
          <Pagination
            label="User pages"
            page={users.data.pagination.page}
            totalPages={users.data.pagination.totalPages}
            busy={users.isPlaceholderData}
            onChange={(next) => update({ page: next })}
          />
        </>
      )}
    </div>
  );
}
