import { PLAYERS_PER_WINNER } from '@shared/constants.ts';
import { formatNaira } from '@shared/money.ts';
import { adminGameBodySchema } from '@shared/schemas/admin.ts';
import type { Game } from '@shared/schemas/games.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { CheckboxField, Field } from '@web/components/ui/Field.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { numberOrUndefined, useSchemaForm } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useCategories } from '../api/get-categories.ts';
import { useSaveGame } from '../api/save-game.ts';
import { isoToLocalInput, localInputToIso } from '../lib/datetime.ts';
import { GamePreview } from './GamePreview.tsx';

type GameFormValues = {
  title: string;
  description: string;
  categoryID: string;
  entryFee: string;
  reward: string;
  maximumPlayers: string;
  isTournament: boolean;
  startsAt: string;
  endsAt: string;
};

const EMPTY: GameFormValues = {
  title: '',
  description: '',
  categoryID: '',
  entryFee: '0',
  reward: '',
  maximumPlayers: '50',
  isTournament: false,
  startsAt: '',
  endsAt: '',
};

function valuesOf(game: Game): GameFormValues {
  return {
    title: game.title,
    description: game.description,
    categoryID: game.categoryID ?? '',
    entryFee: String(game.entryFee),
    reward: String(game.reward),
    maximumPlayers: String(game.maximumPlayers),
    isTournament: game.isTournament,
    startsAt: isoToLocalInput(game.startsAt),
    endsAt: isoToLocalInput(game.endsAt),
  };
}

/** What the inputs hold, as the body the server validates with the same schema. */
function toInput(values: GameFormValues) {
  return {
    title: values.title,
    description: values.description,
    categoryID: values.categoryID || null,
    entryFee: numberOrUndefined(values.entryFee),
    reward: numberOrUndefined(values.reward),
    maximumPlayers: numberOrUndefined(values.maximumPlayers),
    isTournament: values.isTournament,
    startsAt: localInputToIso(values.startsAt),
    endsAt: localInputToIso(values.endsAt),
  };
}

const finite = (value: string) => {
  const number = Number(value);
  return value.trim() !== '' && Number.isFinite(number) ? number : 0;
};

const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Create or edit a game, validated with adminGameBodySchema, with the player card beside it. */
export function GameForm({
  game,
  onSaved,
  onCancel,
}: {
  /** The game being edited; none to create one. */
  game?: Game;
  onSaved: (saved: Game) => void;
  onCancel: () => void;
}) {
  const categories = useCategories();
  const save = useSaveGame();
  const form = useSchemaForm({
    schema: adminGameBodySchema,
    initial: game ? valuesOf(game) : EMPTY,
    toInput,
  });
  const { values, field, checkbox } = form;

  const startsAt = localInputToIso(values.startsAt);
  const opensLater = Boolean(startsAt && new Date(startsAt).getTime() > Date.now());
  const maximumPlayers = Math.max(0, Math.trunc(finite(values.maximumPlayers)));
  const entryFee = finite(values.entryFee);
  const reward = finite(values.reward);
  const winners = Math.floor(maximumPlayers / PLAYERS_PER_WINNER);
  const feesWhenFull = entryFee * maximumPlayers;
  const prizesWhenFull = reward * winners;

  const onSubmit = form.handleSubmit((body) => {
    save.mutate(
      { id: game?.id, body },
      {
        onSuccess: (result) => {
          toast.success(result.message ?? (game ? 'Game updated' : 'Game created'));
          onSaved(result.data);
        },
        onError: (error) => toast.error(errorMessage(error, 'The game could not be saved')),
      },
    );
  });

  return (
    <form
      ref={form.formRef}
      noValidate
      onSubmit={onSubmit}
      aria-label={game ? 'Edit game' : 'New game'}
      className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]"
    >
      <div className="flex min-w-0 flex-col gap-6">
        <Card className="flex flex-col gap-4">
          <h2 className="text-lg font-bold">Question</h2>
          <Field
            label="Title"
            hint="The question players answer, shown in quotes. 3 to 140 characters."
            {...field('title')}
          />
          <Field
            as="textarea"
            label="Description (optional)"
            hint="Line breaks are kept on the card. Up to 1000 characters."
            rows={4}
            {...field('description')}
          />
          <Field
            as="select"
            label="Category"
            hint={categories.isError ? 'The categories could not be loaded.' : undefined}
            {...field('categoryID')}
          >
            <option value="">No category</option>
            {(categories.data ?? []).map((category) => (
              <option key={category.id} value={category.id}>
                {category.emoji} {category.title}
              </option>
            ))}
          </Field>
        </Card>

        <Card className="flex flex-col gap-4">
          <h2 className="text-lg font-bold">Money and places</h2>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field
              label="Entry fee (₦)"
              inputMode="decimal"
              hint="0 makes it a FREE game."
              {...field('entryFee')}
            />
            <Field label="Reward per winner (₦)" inputMode="decimal" {...field('reward')} />
            <Field
              label="Maximum players"
              inputMode="numeric"
              hint="At least 5."
              {...field('maximumPlayers')}
            />
          </div>
          <p className="rounded-xl bg-card-raised px-4 py-3 text-sm text-white/80">
            If every place fills: {winners} {winners === 1 ? 'winner' : 'winners'}, entry fees{' '}
            <strong className="text-white">{formatNaira(feesWhenFull)}</strong>, prizes{' '}
            <strong className="text-wallet">{formatNaira(prizesWhenFull)}</strong>, house margin{' '}
            <strong className={feesWhenFull - prizesWhenFull < 0 ? 'text-danger' : 'text-vip'}>
              {formatNaira(feesWhenFull - prizesWhenFull)}
            </strong>
            .
          </p>
        </Card>

        <Card className="flex flex-col gap-4">
          <h2 className="text-lg font-bold">Schedule</h2>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              type="datetime-local"
              label="Opens at (optional)"
              hint="Blank opens it now; a later time shows it as Upcoming."
              {...field('startsAt')}
            />
            <Field
              type="datetime-local"
              label="Closes at (optional)"
              hint="The draw runs when it closes or fills up."
              {...field('endsAt')}
            />
          </div>
          <p className="text-xs text-muted">Times are in this device's time zone ({timeZone}).</p>
          <CheckboxField
            label="Tournament"
            hint="Only players whose plan includes tournament access can play it."
            {...checkbox('isTournament')}
          />
        </Card>
      </div>

      <aside aria-label="Preview" className="lg:sticky lg:top-24 lg:self-start">
        <GamePreview
          game={{
            title: values.title,
            description: values.description,
            entryFee,
            reward,
            maximumPlayers,
            playerCount: game?.playerCount ?? 0,
            status: opensLater ? 'UPCOMING' : 'ONGOING',
            isTournament: values.isTournament,
          }}
        />
      </aside>

      <div className="flex flex-col-reverse gap-3 sm:flex-row lg:col-span-2">
        <Button variant="outline" onClick={onCancel} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending}>
          {game ? 'Save changes' : 'Create game'}
        </Button>
      </div>
    </form>
  );
}
