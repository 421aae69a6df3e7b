import type { Database } from '../db/client.ts';

/**
 * The database with a fault planted at its `step`-th write (insert, update, delete or execute,
 * inside or outside a transaction): that call throws, as a crash or a failed statement would at
 * that point. Lets a test walk a multi-step operation through a failure at every step.
 */
export function failingAtWrite(db: Database, step: number) {
  let writes = 0;
  let failed = false;
  const write = () => {
    writes += 1;
    if (writes === step) {
      failed = true;
      throw new Error(`injected failure at write ${step}`);
    }
  };
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property) {
        const value: unknown = Reflect.get(object, property, object);
        if (typeof value !== 'function') return value;
        if (property === 'transaction') {
          return (work: (tx: object) => Promise<unknown>, ...rest: unknown[]) =>
            value.call(object, (tx: object) => work(wrap(tx)), ...rest);
        }
        if (['insert', 'update', 'delete', 'execute'].includes(String(property))) {
          return (...args: unknown[]) => {
            write();
            return value.apply(object, args);
          };
        }
        return value.bind(object);
      },
    });
  return { db: wrap(db), failed: () => failed, writes: () => writes };
}
