import { useState } from "preact/hooks";

/**
 * State that survives a reload: kept in sessionStorage under `key` (this tab only, gone when it
 * closes), so what a person typed into a form is still there after an accidental reload.
 */
export function useStored<T>(key: string, initial: T): [T, (value: T) => void, (fresh?: T) => void] {
  const storageKey = `esign.${key}`;
  const [value, setValue] = useState<T>(() => {
    try {
      const raw = sessionStorage.getItem(storageKey);
      return raw === null ? initial : (JSON.parse(raw) as T);
    } catch {
      return initial;
    }
  });
  // Stored only when the person changes something: what a form starts from (often the server's
  // values) is never written, so a form opened again after `clear` starts from the server's values
  // of then, not from those it was first given. `clear(fresh)` starts it again from `fresh` (what a
  // save answered).
  const set = (next: T) => {
    sessionStorage.setItem(storageKey, JSON.stringify(next));
    setValue(next);
  };
  const clear = (fresh: T = initial) => {
    sessionStorage.removeItem(storageKey);
    setValue(fresh);
  };
  return [value, set, clear];
}
