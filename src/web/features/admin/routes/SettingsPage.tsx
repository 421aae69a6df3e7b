import { formatNaira } from '@shared/money.ts';
import { settingsBodySchema } from '@shared/schemas/admin.ts';
import type { AdminSettings } from '@shared/schemas/settings.ts';
import type { BankTransferProvider } from '@shared/schemas/wallet.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { numberOrUndefined, useSchemaForm } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { useAdminSettings } from '../api/get-settings.ts';
import { useSaveBankTransferProvider } from '../api/save-bank-transfer-provider.ts';
import { useSaveSettings } from '../api/save-settings.ts';
import { LoadError, Loading } from '../components/QueryStates.tsx';
import { isoToLocalInput, localInputToIso } from '../lib/datetime.ts';

const CAP_FIELDS = [
  'tier1BalanceCap',
  'tier1DailyWithdrawalCap',
  'tier2BalanceCap',
  'tier2DailyWithdrawalCap',
  'tier3BalanceCap',
  'tier3DailyWithdrawalCap',
] as const;
type CapField = (typeof CAP_FIELDS)[number];

type SettingsValues = {
  withdrawalTransactionFee: string;
  minimumPaymentAmount: string;
  dailyGameLimit: string;
  tournamentLaunchAt: string;
  amlReviewThreshold: string;
} & Record<CapField, string>;

function valuesOf(settings: AdminSettings): SettingsValues {
  const caps = Object.fromEntries(
    CAP_FIELDS.map((field) => [field, settings[field] === null ? '' : String(settings[field])]),
  ) as Record<CapField, string>;
  return {
    withdrawalTransactionFee: String(settings.withdrawalTransactionFee),
    minimumPaymentAmount: String(settings.minimumPaymentAmount),
    dailyGameLimit: String(settings.dailyGameLimit),
    tournamentLaunchAt: isoToLocalInput(settings.tournamentLaunchAt),
    amlReviewThreshold: String(settings.amlReviewThreshold),
    ...caps,
  };
}

/** An empty cap means "no cap" (null); an empty threshold is an error, not "unchanged". */
const capOrNull = (value: string) => (value.trim() === '' ? null : Number(value.trim()));

function toInput(values: SettingsValues) {
  return {
    withdrawalTransactionFee: numberOrUndefined(values.withdrawalTransactionFee),
    minimumPaymentAmount: numberOrUndefined(values.minimumPaymentAmount),
    dailyGameLimit: numberOrUndefined(values.dailyGameLimit),
    tournamentLaunchAt: localInputToIso(values.tournamentLaunchAt),
    ...Object.fromEntries(CAP_FIELDS.map((field) => [field, capOrNull(values[field])])),
    amlReviewThreshold: capOrNull(values.amlReviewThreshold),
  };
}

const TIER_HINTS: Record<1 | 2 | 3, string> = {
  1: 'Verified e-mail and phone number.',
  2: 'BVN or NIN verified with the KYC provider.',
  3: 'Identity document approved by an operator.',
};

function SettingsForm({ settings }: { settings: AdminSettings }) {
  const save = useSaveSettings();
  const form = useSchemaForm({ schema: settingsBodySchema, initial: valuesOf(settings), toInput });
  const { values, field } = form;
  const changed = JSON.stringify(values) !== JSON.stringify(valuesOf(settings));
  return (
    <form
      ref={form.formRef}
      noValidate
      aria-label="Settings"
      onSubmit={form.handleSubmit((body) =>
        save.mutate(body, {
          onSuccess: (result) => {
            toast.success(result.message ?? 'Settings saved');
            form.reset(valuesOf(result.data));
          },
          onError: (error) => toast.error(errorMessage(error, 'The settings could not be saved')),
        }),
      )}
      className="flex flex-col gap-6"
    >
      <Card className="flex flex-col gap-4">
        <h2 className="text-lg font-bold">Money</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Minimum payment (₦)"
            inputMode="decimal"
            hint="Smallest top-up and smallest withdrawal; paid games need at least this balance."
            {...field('minimumPaymentAmount')}
          />
          <Field
            label="Withdrawal fee (₦)"
            inputMode="decimal"
            hint="Taken with every withdrawal, on top of the amount."
            {...field('withdrawalTransactionFee')}
          />
        </div>
      </Card>
      <Card className="flex flex-col gap-4">
        <h2 className="text-lg font-bold">Play</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Daily game limit"
            inputMode="numeric"
            hint="Games a day for players without a plan (Lagos day)."
            {...field('dailyGameLimit')}
          />
          <Field
            type="datetime-local"
            label="Tournament launch"
            hint="The countdown on the Tournament Hub. Blank: no date announced."
            {...field('tournamentLaunchAt')}
          />
        </div>
      </Card>
      <Card className="flex flex-col gap-4">
        <div>
          <h2 className="text-lg font-bold">KYC tier limits</h2>
          <p className="text-sm text-muted">
            Modelled on the CBN&apos;s three-tier KYC. Top-ups that would take a wallet above its
            tier&apos;s balance cap are refused (winnings always land); withdrawals count per Lagos
            day. Leave a cap empty for no cap; a higher tier never has a lower cap.
          </p>
        </div>
        {([1, 2, 3] as const).map((tier) => (
          <fieldset key={tier} className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-sm font-semibold">
              Tier {tier} <span className="font-normal text-muted">· {TIER_HINTS[tier]}</span>
            </legend>
            <Field
              label={`Tier ${tier} balance cap (₦)`}
              inputMode="decimal"
              placeholder="No cap"
              hint="Most a wallet may hold after a top-up."
              {...field(`tier${tier}BalanceCap`)}
            />
            <Field
              label={`Tier ${tier} daily withdrawal cap (₦)`}
              inputMode="decimal"
              placeholder="No cap"
              hint="Most that may be withdrawn in one Lagos day."
              {...field(`tier${tier}DailyWithdrawalCap`)}
            />
          </fieldset>
        ))}
      </Card>
      <Card className="flex flex-col gap-4">
        <h2 className="text-lg font-bold">Anti-money-laundering</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="AML review threshold (₦)"
            inputMode="decimal"
            hint="A withdrawal of this amount or more is held for an operator's review."
            {...field('amlReviewThreshold')}
          />
        </div>
      </Card>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <Button type="submit" loading={save.isPending} disabled={!changed}>
          Save settings
        </Button>
        <Button
          variant="ghost"
          disabled={!changed || save.isPending}
          onClick={() => form.reset(valuesOf(settings))}
        >
          Discard changes
        </Button>
        <p className="text-sm text-muted sm:ml-auto">
          Now: minimum {formatNaira(settings.minimumPaymentAmount)}, fee{' '}
          {formatNaira(settings.withdrawalTransactionFee)}, {settings.dailyGameLimit} games a day.
        </p>
      </div>
    </form>
  );
}

/** Where players' account numbers for bank transfers are made: saved on its own. */
function BankTransferProviderCard({ current }: { current: BankTransferProvider }) {
  const save = useSaveBankTransferProvider();
  const [provider, setProvider] = useState(current);
  return (
    <Card className="flex flex-col gap-4">
      <h2 className="text-lg font-bold">Bank transfers</h2>
      <form
        aria-label="Bank transfers"
        className="grid items-end gap-4 sm:grid-cols-[minmax(0,1fr)_auto]"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(provider, {
            onSuccess: () => toast.success('Saved'),
            onError: (error) => toast.error(errorMessage(error, 'The provider could not be saved')),
          });
        }}
      >
        <Field
          as="select"
          label="Account numbers from"
          hint="Where players get their account numbers for top-ups by bank transfer. Numbers already given out keep working."
          value={provider}
          onChange={(event) => setProvider(event.target.value as BankTransferProvider)}
        >
          <option value="paystack">Paystack (dedicated virtual accounts)</option>
          <option value="flutterwave">Flutterwave (virtual accounts, need the player's BVN)</option>
        </Field>
        <Button type="submit" loading={save.isPending} disabled={provider === current}>
          Save provider
        </Button>
      </form>
    </Card>
  );
}

export function SettingsPage() {
  const settings = useAdminSettings();
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Settings" eyebrow="Tune the platform" />
      {settings.isPending ? (
        <Loading label="Loading settings" />
      ) : settings.isError ? (
        <LoadError
          error={settings.error}
          what="the settings"
          onRetry={() => void settings.refetch()}
          retrying={settings.isFetching}
        />
      ) : (
        <>
          <SettingsForm settings={settings.data} />
          <BankTransferProviderCard current={settings.data.bankTransferProvider} />
        </>
      )}
    </div>
  );
}
