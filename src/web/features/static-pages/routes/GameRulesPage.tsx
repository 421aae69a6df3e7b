import {
  ANSWER_MAX_CHARACTERS,
  ANSWER_MAX_WORDS,
  GAME_STATUS_LABELS,
  LEVEL_THRESHOLDS,
  PLAYERS_PER_WINNER,
  POINTS_PER_GAME,
  POINTS_PER_WIN,
  PRIZE_PAYOUT_TEXT,
  WITHDRAWAL_PROCESSING_TEXT,
} from '@shared/constants.ts';
import { VALIDATION_MESSAGES } from '@shared/messages.ts';
import { formatNaira } from '@shared/money.ts';
import { levelBadge } from '@shared/status.ts';
import { useSession } from '@web/lib/session.ts';
import { Link } from 'wouter';
import { Callout, Section, StaticPage, type TocEntry } from '../components/StaticPage.tsx';

const SECTIONS = {
  play: { id: 'how-to-play', title: 'How a game works' },
  fees: { id: 'entry-fees', title: 'Entry fees and your wallet' },
  limits: { id: 'daily-limit', title: 'Daily limit, VIP and tournaments' },
  winners: { id: 'winners', title: 'How winners are picked' },
  cancelled: { id: 'cancelled-games', title: 'When a game is cancelled' },
  fair: { id: 'provably-fair', title: 'Provably fair draws' },
  points: { id: 'points-and-levels', title: 'Points and levels' },
  statuses: { id: 'game-status', title: 'What a game’s badge means' },
  conduct: { id: 'fair-play', title: 'Fair play' },
} satisfies Record<string, TocEntry>;

const winnersFor = (players: number) => Math.floor(players / PLAYERS_PER_WINNER);
const WINNER_EXAMPLES = [4, 5, 9, 10, 24, 50, 100];

const AT_A_GLANCE = [
  { icon: '✍️', title: `1 to ${ANSWER_MAX_WORDS} words`, text: 'No right or wrong answers.' },
  { icon: '🔒', title: 'One answer per game', text: 'Once it is in, it cannot be edited.' },
  { icon: '🎯', title: '1 in 5 players win', text: 'Picked by software, no humans.' },
  { icon: '↩️', title: 'Under 5 players?', text: 'The game is cancelled and fees refunded.' },
];

const STATUS_MEANINGS: Record<keyof typeof GAME_STATUS_LABELS, string> = {
  UPCOMING: 'Shown so you can plan ahead; it opens for answers at its start time.',
  ONGOING: 'Taking answers now, while places are left.',
  CLOSED: 'Full or past its end time. No more answers; the draw is on its way.',
  COMPLETED: 'Winners have been drawn, paid and notified.',
  CANCELLED: 'Fewer than 5 players joined (or the game was stopped); every entry fee was refunded.',
};

/** Points needed for each level, from the shared thresholds (the last level has no top). */
const LEVELS = [0, ...LEVEL_THRESHOLDS].map((from, index) => {
  const next = LEVEL_THRESHOLDS[index];
  return { level: index + 1, from, to: next === undefined ? null : next - 1 };
});

const count = (n: number) => n.toLocaleString('en-NG');

const tableClass =
  'w-full border-collapse text-left text-sm [&_td]:border-t [&_td]:border-line [&_td]:px-4 [&_td]:py-3 [&_th]:px-4 [&_th]:py-3 [&_th]:font-semibold [&_th]:text-muted';

export function GameRulesPage() {
  const settings = useSession((session) => session.settings);
  const dailyLimit = settings?.dailyGameLimit;
  const minimumBalance = settings ? formatNaira(settings.minimumPaymentAmount) : null;

  return (
    <StaticPage
      eyebrow="Game rules"
      title="How Pluckers games work"
      intro={
        <p>
          Answer a simple question in a few words. There is no right or wrong answer: when the game
          closes, software picks one in every five players at random to win the reward.
        </p>
      }
      toc={Object.values(SECTIONS)}
    >
      <ul className="mb-10 grid gap-3 sm:grid-cols-2" aria-label="The rules at a glance">
        {AT_A_GLANCE.map((item) => (
          <li
            key={item.title}
            className="flex items-start gap-3 rounded-2xl border border-line bg-card p-4"
          >
            <span
              aria-hidden="true"
              className="grid size-11 shrink-0 place-items-center rounded-xl bg-page text-xl"
            >
              {item.icon}
            </span>
            <span>
              <span className="block font-semibold">{item.title}</span>
              <span className="block text-sm text-muted">{item.text}</span>
            </span>
          </li>
        ))}
      </ul>

      <Section {...SECTIONS.play}>
        <ol>
          <li>Pick a game on Home and press Pluck in to see its question, entry fee and reward.</li>
          <li>
            Write your answer: <strong>1 to {ANSWER_MAX_WORDS} words</strong> (at most{' '}
            {ANSWER_MAX_CHARACTERS} characters). Be creative; there is no right or wrong answer.
          </li>
          <li>
            Submit it. <strong>You get one answer per game</strong> and it is locked once sent.
          </li>
          <li>
            When the game closes, the draw picks the winners and everyone who played gets a
            notification: won, not this time, or refunded.
          </li>
        </ol>
        <Callout tone="wallet">
          <p>{VALIDATION_MESSAGES.answerWarning}</p>
        </Callout>
        <p>
          Each game has a set number of places (“5 Pluckers Left”). When the last place is taken the
          game closes straight away; a game can also close at its end time.
        </p>
      </Section>

      <Section {...SECTIONS.fees}>
        <ul>
          <li>
            Games marked <strong>FREE</strong> cost nothing to enter.
          </li>
          <li>
            For paid games,{' '}
            <strong>the entry fee is taken from your wallet when you submit your answer</strong>,
            not before. Your place and the fee go together.
          </li>
          <li>
            To play a paid game you need a wallet balance of at least the entry fee and at least the
            minimum balance
            {minimumBalance ? ` (currently ${minimumBalance})` : ' shown on your wallet'}.{' '}
            <Link href="/TopUp">Top up</Link> first if you are short.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.limits}>
        <ul>
          <li>
            Without a plan you can play{' '}
            {dailyLimit ? (
              <strong>{dailyLimit} games a day</strong>
            ) : (
              'a limited number of games a day'
            )}
            . The count starts again at midnight, Lagos time.
          </li>
          <li>
            With <strong>VIP</strong> your daily games are <strong>unlimited</strong>.
          </li>
          <li>
            <strong>Tournaments need VIP.</strong> See the <Link href="/Pricing">Pricing</Link> page
            for the plan and its other benefits.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.winners}>
        <p>
          When a game closes, <strong>one in every five players wins</strong>: the number of winners
          is the number of players divided by {PLAYERS_PER_WINNER}, rounded down. Winners are picked
          at random by software, with no human involvement, and each winner receives the game’s
          reward in their wallet.
        </p>
        <div className="overflow-x-auto rounded-2xl border border-line bg-card">
          <table className={tableClass}>
            <caption className="sr-only">Number of winners for a number of players</caption>
            <thead>
              <tr>
                <th scope="col">Players</th>
                <th scope="col">Winners</th>
              </tr>
            </thead>
            <tbody>
              {WINNER_EXAMPLES.map((players) => (
                <tr key={players}>
                  <td>{count(players)}</td>
                  <td className="font-semibold text-white">
                    {winnersFor(players) === 0
                      ? 'None: game cancelled, fees refunded'
                      : count(winnersFor(players))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>
          {PRIZE_PAYOUT_TEXT} You can withdraw your winnings to your bank:{' '}
          {WITHDRAWAL_PROCESSING_TEXT.charAt(0).toLowerCase() + WITHDRAWAL_PROCESSING_TEXT.slice(1)}
        </p>
      </Section>

      <Section {...SECTIONS.cancelled}>
        <p>
          A draw needs at least {PLAYERS_PER_WINNER} players. If fewer than {PLAYERS_PER_WINNER}{' '}
          have played when a game closes, <strong>the game is cancelled</strong> and{' '}
          <strong>every entry fee is refunded in full</strong> to the players’ wallets. You get a
          notification when it happens.
        </p>
      </Section>

      <Section {...SECTIONS.fair}>
        <p>
          You should not have to take our word for it. Every draw can be checked by anyone, and it
          is set up so that nobody, including us, can choose the winners:
        </p>
        <ol>
          <li>
            <strong>Before anyone plays</strong>, the software makes a secret random number for the
            game (the seed) and publishes its SHA-256 fingerprint (the commitment) on the game.
          </li>
          <li>
            The fingerprint locks the seed in. Changing even one character of a seed gives a
            completely different fingerprint, so the seed cannot be swapped once entries come in.
          </li>
          <li>
            <strong>When the game closes</strong>, its entries are sealed in the order they were
            received: their Merkle root is published, so no entry can be added, removed or changed.
          </li>
          <li>
            <strong>At the draw</strong>, the seed, the sealed entries and the first round of a
            public randomness beacon (drand, run by the League of Entropy) published after the close
            together decide, through HMAC-SHA256, a fair shuffle of the entries; the first ones in
            the shuffle are the winners. Nobody knew that round when the entries were sealed.
          </li>
          <li>
            <strong>After the draw</strong>, the seed is revealed with the list of entries, the
            beacon round and the winners, and every step is in a public, hash-chained log. Anyone
            can check the seed against the fingerprint, the entries against the seal, the beacon's
            signature, and repeat the draw to get the same winners.
          </li>
        </ol>
        <p>
          <Link href="/Fairness">More on fairness, and the public log you can verify yourself</Link>
        </p>
      </Section>

      <Section {...SECTIONS.points}>
        <p>
          You earn <strong>+{POINTS_PER_GAME} points</strong> for every game you play and{' '}
          <strong>+{POINTS_PER_WIN} points</strong> for every win. Points raise your level, shown as
          LEVEL n beside your name. The leaderboard ranks players by total winnings, with VIP
          players first on a tie, then by points.
        </p>
        <div className="overflow-x-auto rounded-2xl border border-line bg-card">
          <table className={tableClass}>
            <caption className="sr-only">Points needed for each level</caption>
            <thead>
              <tr>
                <th scope="col">Level</th>
                <th scope="col">Points</th>
                <th scope="col">Badge</th>
              </tr>
            </thead>
            <tbody>
              {LEVELS.map(({ level, from, to }) => (
                <tr key={level}>
                  <td className="font-semibold text-white">{level}</td>
                  <td>{to === null ? `${count(from)} and up` : `${count(from)} – ${count(to)}`}</td>
                  <td>{levelBadge(level)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section {...SECTIONS.statuses}>
        <dl className="space-y-3">
          {(Object.keys(STATUS_MEANINGS) as (keyof typeof STATUS_MEANINGS)[]).map((status) => (
            <div key={status} className="flex flex-col gap-1 sm:flex-row sm:gap-4">
              <dt className="w-28 shrink-0 font-semibold text-white">
                {GAME_STATUS_LABELS[status]}
              </dt>
              <dd className="text-white/80">{STATUS_MEANINGS[status]}</dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section {...SECTIONS.conduct}>
        <p>
          One account per person, no bots, no teaming up, and keep answers clean: an abusive answer,
          or one that shares someone’s personal details, can be voided. The full list is in the{' '}
          <Link href="/Terms">Terms of use</Link>.
        </p>
        <p>
          Something not right? Tell us in the <Link href="/SupportCenter">Support Center</Link>.
        </p>
      </Section>
    </StaticPage>
  );
}
