import { TOAST_DURATION_MS, TOAST_LIMIT } from '@shared/constants.ts';
import { type ReactNode, useEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react';

/**
 * Toasts with the rules of docs/product.md#constants: 4 s for plain and error toasts, 2 s for success, loading toasts
 * stay until dismissed, at most 20 on screen. The same calls as react-hot-toast (toast,
 * toast.success, toast.error, toast.loading, toast.dismiss), in a fraction of its bytes,
 * because every byte here counts against the 100 KB budget of /login and Home.
 */
type ToastKind = 'blank' | 'success' | 'error' | 'loading';

interface ToastItem {
  id: string;
  kind: ToastKind;
  message: ReactNode;
  icon?: ReactNode;
}

interface ToastOptions {
  id?: string;
  icon?: ReactNode;
  duration?: number;
}

const DURATIONS: Record<ToastKind, number> = {
  blank: TOAST_DURATION_MS.default,
  error: TOAST_DURATION_MS.error,
  success: TOAST_DURATION_MS.success,
  loading: Number.POSITIVE_INFINITY,
};

let items: ToastItem[] = [];
const listeners = new Set<() => void>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function emit(next: ToastItem[]): void {
  items = next;
  for (const listener of listeners) listener();
}

function dismiss(id?: string): void {
  const gone = id === undefined ? items : items.filter((item) => item.id === id);
  for (const item of gone) {
    clearTimeout(timers.get(item.id));
    timers.delete(item.id);
  }
  emit(id === undefined ? [] : items.filter((item) => item.id !== id));
}

function show(kind: ToastKind, message: ReactNode, options: ToastOptions = {}): string {
  counter += 1;
  const id = options.id ?? `toast-${counter}`;
  clearTimeout(timers.get(id));
  const item: ToastItem = { id, kind, message, icon: options.icon };
  const others = items.filter((existing) => existing.id !== id);
  emit([...others, item].slice(-TOAST_LIMIT));
  const duration = options.duration ?? DURATIONS[kind];
  if (Number.isFinite(duration))
    timers.set(
      id,
      setTimeout(() => dismiss(id), duration),
    );
  return id;
}

export const toast = Object.assign(
  (message: ReactNode, options?: ToastOptions) => show('blank', message, options),
  {
    success: (message: ReactNode, options?: ToastOptions) => show('success', message, options),
    error: (message: ReactNode, options?: ToastOptions) => show('error', message, options),
    loading: (message: ReactNode, options?: ToastOptions) => show('loading', message, options),
    dismiss,
    remove: dismiss,
  },
);

const ICONS: Record<ToastKind, ReactNode> = {
  blank: null,
  success: (
    <span className="grid size-5 place-items-center rounded-full bg-vip text-xs font-bold text-black">
      ✓
    </span>
  ),
  error: (
    <span className="grid size-5 place-items-center rounded-full bg-danger text-xs font-bold text-black">
      !
    </span>
  ),
  loading: (
    <span className="size-5 animate-spin rounded-full border-2 border-accent/30 border-t-accent" />
  ),
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

let raiseList: () => void = () => {};

/** Puts the toasts back above a dialog that has just opened (Modal calls it after showModal). */
export function raiseToasts(): void {
  raiseList();
}

export function Toaster() {
  const current = useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
  const ref = useRef<HTMLDivElement>(null);
  const before = useRef<ToastItem[]>([]);
  // An open modal <dialog> sits in the browser's top layer, above any z-index, and makes the
  // rest of the page inert: toasts raised from a dialog (a changed fee, a code sent) would be
  // dimmed behind its backdrop and hidden from screen readers. So the list is a manual popover,
  // put back on top of the top layer whenever a toast arrives (not when one leaves).
  useLayoutEffect(() => {
    const list = ref.current;
    const previous = before.current;
    before.current = current;
    if (!list || typeof list.showPopover !== 'function') return;
    const open = list.matches(':popover-open');
    if (current.length === 0) {
      if (open) list.hidePopover();
      return;
    }
    if (open && current.every((item) => previous.includes(item))) return;
    if (open) list.hidePopover();
    list.showPopover();
  }, [current]);
  // A dialog opened after a toast (a receipt following its success toast) enters the top layer
  // above the list: the modal asks for the list to be lifted again (raiseToasts).
  useEffect(() => {
    raiseList = () => {
      const list = ref.current;
      if (!list || typeof list.showPopover !== 'function' || !list.matches(':popover-open')) return;
      list.hidePopover();
      list.showPopover();
    };
    return () => {
      raiseList = () => {};
    };
  }, []);
  return (
    <div
      ref={ref}
      popover="manual"
      className="pointer-events-none fixed inset-x-0 top-3 bottom-auto z-[100] m-0 flex h-auto w-auto flex-col items-center gap-2 overflow-visible border-0 bg-transparent px-3 py-0 text-white"
    >
      {current.map((item) => (
        <div
          key={item.id}
          className="pointer-events-auto flex max-w-md items-center gap-3 rounded-xl border border-line bg-card-raised px-4 py-3 text-sm text-white shadow-lg shadow-black/40"
        >
          {item.icon !== undefined ? (
            <span aria-hidden="true">{item.icon}</span>
          ) : ICONS[item.kind] ? (
            <span aria-hidden="true">{ICONS[item.kind]}</span>
          ) : null}
          <span role="status" aria-live="polite">
            {item.message}
          </span>
        </div>
      ))}
    </div>
  );
}
