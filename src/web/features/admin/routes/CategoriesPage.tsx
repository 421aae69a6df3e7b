import { categoryBodySchema } from '@shared/schemas/admin.ts';
import type { Category } from '@shared/schemas/catalogue.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { useRef } from 'react';
import { Link } from 'wouter';
import { useCategories } from '../api/get-categories.ts';
import { useSaveCategory } from '../api/save-category.ts';
import { ColumnTable, type TableSpec } from '../components/DataTable.tsx';
import { useFocusOnOpen } from '../components/dialogs.tsx';
import { closeWhenSaved, EditableListPage, EditorActions } from '../components/EditableList.tsx';

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
        save.mutate({ id: category?.id, body }, closeWhenSaved('category', onDone)),
      )}
    >
      <div className="grid grid-cols-[6rem_minmax(0,1fr)] gap-3">
        <Field
          label="Emoji"
          className="[&_input]:text-center [&_input]:text-2xl"
          {...form.field('emoji')}
        />
        <Field ref={titleRef} label="Title" {...form.field('title')} />
      </div>
      <p className="flex items-center gap-2 text-sm text-muted">
        Shows as
        <span className="rounded-full border border-line bg-card-raised px-3 py-1 text-white">
          {form.values.emoji || '❔'} {form.values.title || 'Title'}
        </span>
      </p>
      <EditorActions saving={save.isPending} onCancel={onDone}>
        {category ? 'Save category' : 'Create category'}
      </EditorActions>
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
  return (
    <EditableListPage
      title="Categories"
      eyebrow="Game topics"
      noun="category"
      plural="categories"
      query={useCategories()}
      empty={
        <EmptyState icon="🏷️" title="No categories yet">
          <p>Categories group games and filter the leaderboard.</p>
        </EmptyState>
      }
      list={(categories, edit) => <ColumnTable spec={categoriesTable(edit)} rows={categories} />}
      form={(category, done) => <CategoryForm category={category} onDone={done} />}
    />
  );
}
