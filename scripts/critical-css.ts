/**
 * A prerendered page's critical stylesheet: the rules of the app's stylesheet that
 * can apply to the page's HTML, inlined so the first response paints it, while the whole
 * stylesheet follows after the first paint (shared/boot-script.ts). Small enough that the page
 * fits the first round trip of a new connection (~14 KB), which the whole stylesheet (12.7 KB
 * gzip alone) did not leave room for.
 *
 * A rule stays unless each of its selectors requires a class absent from the page: classes
 * inside `:where()`, `:is()`, `:not()` and the like are not judged, so the subset errs towards
 * keeping. Every @font-face stays, though the app's own are not in the stylesheet: every page
 * declares them in its head (index.html), and the text font is preloaded so the first paint is
 * already drawn in it.
 */
import { type Selector, transform } from 'lightningcss';

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
};

/** Every class named in the HTML's class attributes. */
export function classesOf(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    const value = (match[1] ?? '').replace(/&(?:amp|quot|#x27|#39|lt|gt);/g, (entity) => {
      return ENTITIES[entity] ?? entity;
    });
    for (const name of value.split(/\s+/)) if (name) classes.add(name);
  }
  return classes;
}

/** The classes a selector's own compounds require (not those inside pseudo-class arguments). */
function requiredClasses(selector: Selector): string[] {
  return selector.flatMap((component) => (component.type === 'class' ? [component.name] : []));
}

export function criticalCss(css: string, html: string): string {
  const present = classesOf(html);
  const { code } = transform({
    filename: 'critical.css',
    code: Buffer.from(css),
    minify: true,
    visitor: {
      Rule: {
        // Rules are only ever dropped whole, never rewritten: lightningcss cannot yet read back
        // every value it hands a visitor (var(), calc(infinity)), so a rule with one selector
        // that may apply stays as it is.
        style(rule) {
          const mayApply = rule.value.selectors.some((selector) =>
            requiredClasses(selector).every((name) => present.has(name)),
          );
          return mayApply ? undefined : [];
        },
      },
    },
  });
  return code.toString();
}
