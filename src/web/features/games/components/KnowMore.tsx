import { Link } from 'wouter';

const CARDS = [
  {
    icon: '🏆',
    title: 'Tournaments',
    text: 'Bigger prize pools, five rounds and a leaderboard to climb.',
    href: '/Tournament',
    action: 'Visit the Tournament Hub',
  },
  {
    icon: '💎',
    title: 'VIP',
    text: 'Unlimited daily games, tournament access, a verified badge and no ads.',
    href: '/Pricing',
    action: 'See VIP plans',
  },
  {
    icon: '🎯',
    title: 'Pluckers',
    text: 'No right or wrong answers. Software picks one in five players, and anyone can check the draw.',
    href: '/GameRules',
    action: 'Read the game rules',
  },
] as const;

/** The marketing section of docs/product.md#who-it-is-for: Tournaments, VIP and Pluckers. */
export function KnowMore() {
  return (
    <section aria-labelledby="know-more-title" className="mt-14">
      <h2 id="know-more-title" className="text-2xl font-bold sm:text-3xl">
        Know More
      </h2>
      <ul className="mt-5 grid gap-4 md:grid-cols-3">
        {CARDS.map((card) => (
          <li
            key={card.title}
            className="flex flex-col gap-3 rounded-2xl border border-line bg-card p-5"
          >
            <span
              aria-hidden="true"
              className="grid size-12 place-items-center rounded-xl border border-accent/30 bg-accent/10 text-2xl"
            >
              {card.icon}
            </span>
            <h3 className="text-lg font-bold">{card.title}</h3>
            <p className="flex-1 text-sm text-white/75">{card.text}</p>
            <Link
              href={card.href}
              className="inline-flex min-h-11 items-center self-start text-sm font-semibold text-accent hover:underline"
            >
              {card.action} →
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
