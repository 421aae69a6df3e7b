/**
 * What `work` settles with, or what `late()` gives (or throws) once `ms` have passed without an
 * outcome. The work itself goes on; only the wait for it ends. The timer is cleared either way,
 * so nothing is left to fire after the race.
 */
export function beforeDeadline<T, L>(work: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<L>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
