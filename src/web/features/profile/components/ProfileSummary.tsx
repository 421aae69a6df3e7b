import { formatNaira } from '@shared/money.ts';
import type { User } from '@shared/schemas/users.ts';
import { levelBadge } from '@shared/status.ts';
import { Avatar } from '@web/components/ui/Avatar.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { VerifiedTick } from '@web/components/ui/VerifiedTick.tsx';
import { PhotoUpload } from './PhotoUpload.tsx';

export function ProfileSummary({ user }: { user: User }) {
  const stats = [
    { label: 'Games played', value: user.totalGamesPlayed.toLocaleString('en-NG') },
    { label: 'Games won', value: user.totalGamesWon.toLocaleString('en-NG') },
    { label: 'Total winnings', value: formatNaira(user.totalWinningAmount) },
    { label: 'Points', value: user.points.toLocaleString('en-NG') },
  ];
  return (
    <Card className="flex flex-col gap-6">
      <div className="flex flex-col items-center gap-4 text-center sm:flex-row sm:text-left">
        <Avatar
          src={user.profilePhoto}
          name={user.username}
          className="size-24 text-3xl"
          keepPhoto
        />
        <div className="min-w-0 flex-1">
          <h2 className="text-2xl font-bold">{user.fullname}</h2>
          <p className="mt-1 flex items-center justify-center gap-1.5 text-white/80 sm:justify-start">
            <span className="truncate">{user.username}</span>
            {user.isVerified ? <VerifiedTick /> : null}
          </p>
          <p className="mt-2 flex flex-wrap items-center justify-center gap-2 sm:justify-start">
            <span className="rounded-full bg-accent/15 px-3 py-1 text-xs font-bold tracking-wider text-accent">
              LEVEL {user.level}
            </span>
            <span className="text-sm text-muted">{levelBadge(user.level)}</span>
          </p>
        </div>
        <PhotoUpload />
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {stats.map((stat) => (
          <div key={stat.label} className="rounded-xl bg-card-raised p-4">
            <dt className="text-xs text-muted">{stat.label}</dt>
            <dd className="mt-1 text-lg font-bold">{stat.value}</dd>
          </div>
        ))}
      </dl>
      <div className="flex items-center justify-between rounded-xl border border-wallet/30 bg-wallet/5 p-4">
        <span className="text-sm text-white/80">Wallet balance</span>
        <span className="text-xl font-bold text-wallet">{formatNaira(user.accountBalance)}</span>
      </div>
    </Card>
  );
}
