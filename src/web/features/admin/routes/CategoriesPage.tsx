import { categoryBodySchema } from '@shared/schemas/admin.ts';
import type { Category } from '@shared/schemas/catalogue.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useRef, useState } from 'react';
import { Link } from 'wouter';
import { useCategories } from '../api/get-categories.ts';
import { useSaveCategory } from '../api/save-category.ts';
import { ColumnTable, type TableSpec } from '../components/DataTable.tsx';
import { DialogActions, useFocusOnOpen } from '../components/dialogs.tsx';
import { PlusIcon } from '../components/PlusIcon.tsx';
import { LoadError, Loading } from '../components/QueryStates.tsx';

function CategoryForm({ category, onDone }: { category?: Category; onDone: () => void }) {
  const save = useSaveCategory();
  const form = useSchemaForm({
    schema: categoryBodySchema,
    initial: { title: category?.title ?? '', emoji: category?.emoji ?? '' },
    toInput: (values) => values,
  });
  const titleRef = useRef<HTMLInputElement>(null);
  useFocusOnOpen(titleRef);
  return (
    <form
      ref={form.formRef}
      noValidate
      className="flex flex-col gap-4"
      onSubmit={form.handleSubmit((body) =>
        save.mutate(
          { id: category?.id, body },
          {
            onSuccess: (result) => {
              toast.success(result.message ?? 'Category saved');
              onDone();
            },
            onError: (error) => toast.error(errorMessage(error, 'The category could not be saved')),
          },
        ),
      )}
    >
      <div className="grid grid-cols-[6rem_minmax(0,1fr)] gap-3">
        <Field
          name="emoji"
          label="Emoji"
          className="[&_input]:text-center [&_input]:text-2xl"
          value={form.values.emoji}
          error={form.errors.emoji}
          onChange={(event) => form.set('emoji', event.target.value)}
        />
        <Field
          ref={titleRef}
          name="title"
          label="Title"
          value={form.values.title}
          error={form.errors.title}
          onChange={(event) => form.set('title', event.target.value)}
        />
      </div>
      <p className="flex items-center gap-2 text-sm text-muted">
        Shows as
        <span className="rounded-full border border-line bg-card-raised px-3 py-1 text-white">
          {form.values.emoji || '❔'} {form.values.title || 'Title'}
        </span>
      </p>
      <DialogActions>
        <Button variant="outline" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending}>
          {category ? 'Save category' : 'Create category'}
        </Button>
      </DialogActions>
    </form>
  );
}

/** The categories' columns; `onEdit` opens the editor for one. */
function categoriesTable(onEdit: (category: Category) => void): TableSpec<Category> {
  return {
    label: 'Categories',
    minWidth: 'min-w-[20rem]',
    rowKey: (category) => category.id,
    phone: 'scroll',
    columns: [
      {
        header: 'Emoji',
        headerClassName: 'w-16',
        cell: (category) => <span className="text-2xl leading-none">{category.emoji}</span>,
      },
      {
        header: 'Title',
        className: 'font-medium',
        cell: (category) => (
          <>
            {category.title}
            <Link
              href={`/games?category=${category.id}`}
              className="block text-xs font-normal text-accent hover:underline"
            >
              See its games
            </Link>
          </>
        ),
      },
      {
        header: 'Actions',
        headerHidden: true,
        className: 'text-right',
        cell: (category) => (
          <Button
            variant="outline"
            className="px-4"
            aria-label={`Edit ${category.title}`}
            onClick={() => onEdit(category)}
          >
            Edit
          </Button>
        ),
      },
    ],
  };
}

export function CategoriesPage() {
  const categories = useCategories();
  const [editing, setEditing] = useState<Category | 'new' | null>(null);
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Categories" eyebrow="Game topics">
        <Button onClick={() => setEditing('new')}>
          <PlusIcon /> New category
        </Button>
      </PageHeader>
      {categories.isPending ? (
        <Loading label="Loading categories" />
      ) : categories.isError ? (
        <LoadError
          error={categories.error}
          what="the categories"
          onRetry={() => void categories.refetch()}
          retrying={categories.isFetching}
        />
      ) : categories.data.length === 0 ? (
        <EmptyState icon="🏷️" title="No categories yet">
          <p>Categories group games and filter the leaderboard.</p>
        </EmptyState>
      ) : (
        <ColumnTable spec={categoriesTable(setEditing)} rows={categories.data} />
      )}
      <Modal
        open={editing !== null}
        title={editing === 'new' ? 'New category' : 'Edit category'}
        onClose={() => setEditing(null)}
      >
        {editing ? (
          <CategoryForm
            key={editing === 'new' ? 'new' : editing.id}
            category={editing === 'new' ? undefined : editing}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Modal>
    </div>
  );
}
