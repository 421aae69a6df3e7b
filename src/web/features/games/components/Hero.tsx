import { PAGE_TEXTS } from '@shared/messages.ts';

/**
 * Landing hero of spec §1: tagline, headline, sub-headline and the welcome text. For a player
 * who has been on Home on this device before it is compact on phones: same
 * texts, smaller, with the welcome text cut to two lines, so today's games start on the first
 * screen. Laptops and first-time players keep the full hero. Which one is decided before the
 * first paint by the page's boot script (`returning:` is `<html data-returning>`, see
 * shared/boot-script.ts), so the prerendered hero never changes size under the player.
 */
export function Hero() {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative isolate overflow-hidden rounded-3xl border border-line bg-card px-5 py-8 returning:max-sm:py-4 sm:px-10 sm:py-12"
    >
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-linear-to-br from-card via-card to-accent/20"
      />
      <p className="inline-flex items-center gap-2 rounded-full border border-accent/40 bg-accent/10 px-3 py-1 text-xs font-bold tracking-[0.2em] text-accent uppercase returning:max-sm:hidden">
        <span aria-hidden="true" className="size-1.5 rounded-full bg-accent" />
        {PAGE_TEXTS.tagline}
      </p>
      <h1
        id="hero-title"
        className="mt-4 text-[2.5rem] leading-[0.95] font-bold tracking-tight returning:max-sm:mt-0 returning:max-sm:text-2xl sm:text-6xl lg:text-7xl"
      >
        {PAGE_TEXTS.headline}
      </h1>
      <p className="mt-3 text-sm font-bold tracking-[0.35em] text-vip returning:max-sm:mt-1.5 returning:max-sm:text-xs sm:text-base">
        {PAGE_TEXTS.subHeadline}
      </p>
      <p className="mt-5 max-w-2xl text-sm leading-relaxed text-white/80 returning:max-sm:mt-2 returning:max-sm:line-clamp-2 sm:text-base">
        {PAGE_TEXTS.welcome}
      </p>
    </section>
  );
}
