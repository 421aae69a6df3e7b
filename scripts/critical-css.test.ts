import { describe, expect, it } from 'vitest';
import { classesOf, criticalCss } from './critical-css.ts';

const STYLESHEET = `
@layer theme, base, utilities;
@layer theme { :root { --color-accent: #f5a524; } }
@layer base { body { margin: 0; } h1 { font-weight: 700; } }
@layer utilities {
  .mt-4 { margin-top: 1rem; }
  .mt-8 { margin-top: 2rem; }
  .text-\\[2\\.5rem\\] { font-size: 2.5rem; }
  .hover\\:underline:hover { text-decoration: underline; }
  .rounded-full { border-radius: calc(infinity * 1px); }
  .bg-accent { background: var(--color-accent); }
  @media (min-width: 40rem) { .sm\\:px-10 { padding-inline: 2.5rem; } .sm\\:px-12 { padding-inline: 3rem; } }
  .returning\\:mt-0:where(:root[data-returning] *) { margin-top: 0; }
  .card .title, .mt-8 { color: red; }
}
@font-face { font-family: "Space Grotesk Variable"; src: url(/assets/core.woff2) format("woff2"); font-display: swap; }
@font-face { font-family: "Space Grotesk Fallback"; src: local("Arial"); size-adjust: 108.8%; }
@keyframes spin { to { transform: rotate(360deg); } }
`;

const PAGE = `<main class="mt-4 text-[2.5rem] hover:underline rounded-full bg-accent sm:px-10 returning:mt-0 title"><h1 class="card">Hi</h1></main>`;

describe('criticalCss', () => {
  const critical = criticalCss(STYLESHEET, PAGE);

  it('keeps the rules of the classes the page uses, with their variants and media', () => {
    expect(critical).toContain('.mt-4{margin-top:1rem}');
    expect(critical).toContain('.text-\\[2\\.5rem\\]{font-size:2.5rem}');
    expect(critical).toContain('.hover\\:underline:hover');
    expect(critical).toContain('.sm\\:px-10{padding-inline:2.5rem}');
    expect(critical).toContain('.returning\\:mt-0:where(:root[data-returning] *)');
    // Values a rewrite could not read back stay untouched.
    expect(critical).toContain('.rounded-full{border-radius:');
    expect(critical).toContain('var(--color-accent)');
  });

  it('keeps what applies without classes: theme, base, the fallback face, keyframes', () => {
    expect(critical).toContain('--color-accent:#f5a524');
    expect(critical).toMatch(/body\{margin:0\}/);
    expect(critical).toContain('Space Grotesk Fallback');
    expect(critical).toContain('@keyframes spin');
  });

  it('drops the rules of classes the page does not use', () => {
    expect(critical).not.toContain('.mt-8{margin-top:2rem}');
    expect(critical).not.toContain('sm\\:px-12');
  });

  it('keeps a rule whole when any one of its selectors may apply', () => {
    expect(critical).toContain('.card .title,.mt-8{color:red}');
  });
});

describe('classesOf', () => {
  it('reads every class attribute, entities decoded', () => {
    expect(
      classesOf(`<p class="a  b"></p><div class="content-[&#x27;x&#x27;] a&amp;b"></div>`),
    ).toEqual(new Set(['a', 'b', "content-['x']", 'a&b']));
  });
});
