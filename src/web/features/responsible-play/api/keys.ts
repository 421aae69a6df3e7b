/** Query keys of this feature: one root, so a change can refresh everything the page shows. */
export const responsiblePlayKeys = {
  all: ['responsible-play'] as const,
  overview: () => [...responsiblePlayKeys.all, 'overview'] as const,
  statement: () => [...responsiblePlayKeys.all, 'statement'] as const,
  realityCheck: () => [...responsiblePlayKeys.all, 'reality-check'] as const,
};
