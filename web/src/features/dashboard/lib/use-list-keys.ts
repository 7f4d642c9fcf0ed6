import { useEffect, useRef } from 'react';

export interface ListKeyHandlers {
  next: () => void;
  previous: () => void;
  open: () => void;
  toggle: () => void;
  acknowledge: () => void;
  resolve: () => void;
  search: () => void;
  help: () => void;
}

/** Where typing goes to a field rather than to the list's keys. */
const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || el.closest('input, textarea, select, [role="listbox"], [role="combobox"]') !== null);

/**
 * The dashboard's keyboard: j/k move, Enter opens, x selects, a acknowledges, r resolves, / searches, ? lists the keys.
 * Keys are ignored while typing in a field, with a modifier held (browser shortcuts stay), or while `paused` (a dialog
 * is open). Enter only acts when the focus is on nothing in particular: on a button (an alert's own, where j/k put
 * the focus) it stays that button's.
 */
export function useListKeys(handlers: ListKeyHandlers, paused: boolean, list: React.RefObject<HTMLElement | null>) {
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  useEffect(() => {
    if (paused) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      const h = ref.current;
      const act = (fn: () => void) => {
        e.preventDefault();
        fn();
      };
      switch (e.key) {
        case 'j':
          return act(h.next);
        case 'k':
          return act(h.previous);
        case 'x':
          return act(h.toggle);
        case 'a':
          return act(h.acknowledge);
        case 'r':
          return act(h.resolve);
        case '/':
          return act(h.search);
        case '?':
          return act(h.help);
        case 'Enter': {
          const t = e.target as HTMLElement | null;
          if (!t || t === document.body || t === list.current) return act(h.open);
          return;
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [paused, list]);
}
