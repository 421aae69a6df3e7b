import { PAGE_TEXTS } from '@shared/messages.ts';

/** Landing hero of spec §1: tagline, headline, sub-headline and the welcome text. */
export function Hero() {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative isolate overflow-hidden rounded-3xl border border-line bg-card px-5 py-8 sm:px-10 sm:py-12"
    >
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-linear-to-br from-card via-card to-accent/20"
      />
      <p className="inline-flex items-center gap-2 rounded-full border border-accent/40 bg-accent/10 px-3 py-1 text-xs font-bold tracking-[0.2em] text-accent uppercase">
        <span aria-hidden="true" className="size-1.5 rounded-full bg-accent" />
        {PAGE_TEXTS.tagline}
      </p>
      <h1
        id="hero-title"
        className="mt-4 text-[2.5rem] leading-[0.95] font-bold tracking-tight sm:text-6xl lg:text-7xl"
      >
        {PAGE_TEXTS.headline}
      </h1>
      <p className="mt-3 text-sm font-bold tracking-[0.35em] text-vip sm:text-base">
        {PAGE_TEXTS.subHeadline}
      </p>
      <p className="mt-5 max-w-2xl text-sm leading-relaxed text-white/80 sm:text-base">
        {PAGE_TEXTS.welcome}
      </p>
    </section>
  );
}
