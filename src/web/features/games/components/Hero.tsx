import { PAGE_TEXTS } from '@shared/messages.ts';

/**
 * Landing hero of docs/product.md#who-it-is-for: tagline, headline, sub-headline and the welcome text. For a player
 * who has played before it is compact on phones (issue 20 point 12): same texts, smaller, with
 * the welcome text cut to two lines, so today's games start on the first screen. Laptops and
 * first-time players keep the full hero.
 */
export function Hero({ compact = false }: { compact?: boolean }) {
  return (
    <section
      aria-labelledby="hero-title"
      className={`relative isolate overflow-hidden rounded-3xl border border-line bg-card px-5 sm:px-10 sm:py-12 ${
        compact ? 'py-4' : 'py-8'
      }`}
    >
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-linear-to-br from-card via-card to-accent/20"
      />
      <p
        className={`items-center gap-2 rounded-full border border-accent/40 bg-accent/10 px-3 py-1 text-xs font-bold tracking-[0.2em] text-accent uppercase ${
          compact ? 'hidden sm:inline-flex' : 'inline-flex'
        }`}
      >
        <span aria-hidden="true" className="size-1.5 rounded-full bg-accent" />
        {PAGE_TEXTS.tagline}
      </p>
      <h1
        id="hero-title"
        className={`leading-[0.95] font-bold tracking-tight sm:mt-4 sm:text-6xl lg:text-7xl ${
          compact ? 'text-2xl' : 'mt-4 text-[2.5rem]'
        }`}
      >
        {PAGE_TEXTS.headline}
      </h1>
      <p
        className={`text-sm font-bold tracking-[0.35em] text-vip sm:mt-3 sm:text-base ${
          compact ? 'mt-1.5 text-xs' : 'mt-3'
        }`}
      >
        {PAGE_TEXTS.subHeadline}
      </p>
      <p
        className={`max-w-2xl text-sm leading-relaxed text-white/80 sm:mt-5 sm:line-clamp-none sm:text-base ${
          compact ? 'mt-2 line-clamp-2' : 'mt-5'
        }`}
      >
        {PAGE_TEXTS.welcome}
      </p>
    </section>
  );
}
