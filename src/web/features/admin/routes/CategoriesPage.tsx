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
import { DataTable, Row, td, th } from '../components/DataTable.tsx';
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
        <DataTable label="Categories" minWidth="min-w-[20rem]">
          <thead>
            <tr>
              <th scope="col" className={`${th} w-16`}>
                Emoji
              </th>
              <th scope="col" className={th}>
                Title
              </th>
              <th scope="col" className={th}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {categories.data.map((category) => (
              <Row key={category.id}>
                <td className={td}>
                  <span className="text-2xl leading-none">{category.emoji}</span>
                </td>
                <td className={`${td} font-medium`}>
                  {category.title}
                  <Link
                    href={`/games?category=${category.id}`}
                    className="block text-xs font-normal text-accent hover:underline"
                  >
                    See its games
                  </Link>
                </td>
                <td className={`${td} text-right`}>
                  <Button
                    variant="outline"
                    className="px-4"
                    aria-label={`Edit ${category.title}`}
                    onClick={() => setEditing(category)}
                  >
                    Edit
                  </Button>
                </td>
              </Row>
            ))}
          </tbody>
        </DataTable>
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
