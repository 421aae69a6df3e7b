import { formatPhone } from '@shared/phone.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { useSession } from '@web/lib/session.ts';
import { useState } from 'react';
import { Link } from 'wouter';
import { ChangeEmailModal, pendingEmailText } from '../components/ChangeEmailModal.tsx';
import { ChangeFieldModal, type EditableField } from '../components/ChangeFieldModal.tsx';
import { DataSaverCard } from '../components/DataSaverCard.tsx';
import { DeleteAccount } from '../components/DeleteAccount.tsx';
import { LogoutEverywhere } from '../components/LogoutEverywhere.tsx';
import { PasswordForm } from '../components/PasswordForm.tsx';
import { ProfileSummary } from '../components/ProfileSummary.tsx';

export function ProfilePage() {
  const user = useSession((session) => session.user);
  const [editing, setEditing] = useState<EditableField | null>(null);
  const [changingEmail, setChangingEmail] = useState(false);
  if (!user) return null;

  const rows: Array<{ field: EditableField; label: string; value: string }> = [
    {
      field: 'phoneNumber',
      label: 'Phone number',
      value: user.phoneNumber ? formatPhone(user.phoneNumber) : 'Not set',
    },
    { field: 'username', label: 'Username', value: user.username },
  ];

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Profile" eyebrow="Your account" />
      <ProfileSummary user={user} />
      <Card>
        <h2 className="text-lg font-bold">Account settings</h2>
        <ul className="mt-3 divide-y divide-line">
          <li className="flex items-center justify-between gap-3 py-3">
            <div className="min-w-0 flex-1">
              <p className="text-xs text-muted">E-mail</p>
              {/* Wrapped, not cut: a long address must be readable in full on a phone. */}
              <p className="font-medium break-all">{user.email}</p>
              {user.pendingEmail ? (
                <p role="status" className="mt-1 text-sm break-words text-accent">
                  {pendingEmailText(user.pendingEmail)}
                </p>
              ) : null}
            </div>
            <Button
              variant="outline"
              onClick={() => setChangingEmail(true)}
              aria-label={user.pendingEmail ? 'Enter code for the new e-mail' : 'Change e-mail'}
              className="shrink-0"
            >
              {user.pendingEmail ? 'Enter code' : 'Change'}
            </Button>
          </li>
          {rows.map((row) => (
            <li key={row.field} className="flex items-center justify-between gap-3 py-3">
              <div className="min-w-0 flex-1">
                <p className="text-xs text-muted">{row.label}</p>
                <p className="truncate font-medium">{row.value}</p>
              </div>
              <Button
                variant="outline"
                onClick={() => setEditing(row.field)}
                aria-label={`Change ${row.label.toLowerCase()}`}
                className="shrink-0"
              >
                Change
              </Button>
            </li>
          ))}
          <li className="flex items-center justify-between gap-3 py-3">
            <div className="min-w-0 flex-1">
              <p className="text-xs text-muted">Bank account for withdrawals</p>
              {/* Wrapped, not cut: the account number is what the player checks. */}
              <p className="font-medium break-words">
                {user.bankAccount
                  ? `${user.bankAccount.accountName} · ${user.bankAccount.accountNumber}`
                  : 'Not added yet'}
              </p>
            </div>
            <Link
              href="/withdrawfunds"
              aria-label="Manage bank account"
              className="inline-flex min-h-11 shrink-0 items-center rounded-xl border border-line px-5 py-2.5 text-sm font-semibold hover:border-accent hover:text-accent"
            >
              Manage
            </Link>
          </li>
        </ul>
      </Card>
      <Card className="flex flex-wrap items-center justify-between gap-3">
        {/* Wide enough to read, or the button goes to the next line. */}
        <div className="min-w-0 grow basis-56">
          <h2 className="text-lg font-bold">Responsible play</h2>
          <p className="text-sm text-muted">
            Deposit and spend limits, breaks, reminders and your activity statement.
          </p>
        </div>
        <Link
          href="/ResponsiblePlay"
          className="inline-flex min-h-11 shrink-0 items-center rounded-xl border border-line px-5 py-2.5 text-sm font-semibold hover:border-accent hover:text-accent"
        >
          Open responsible play
        </Link>
      </Card>
      <DataSaverCard />
      <PasswordForm hasSetPassword={user.hasSetPassword} />
      <LogoutEverywhere />
      <DeleteAccount />
      <ChangeFieldModal field={editing} onClose={() => setEditing(null)} />
      <ChangeEmailModal
        open={changingEmail}
        onClose={() => setChangingEmail(false)}
        hasSetPassword={user.hasSetPassword}
        pendingEmail={user.pendingEmail}
      />
    </div>
  );
}
