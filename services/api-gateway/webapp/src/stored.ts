import { useEffect, useState } from "preact/hooks";

/**
 * State that survives a reload: kept in sessionStorage under `key` (this tab only, gone when it
 * closes), so what a person typed into a form is still there after an accidental reload.
 */
export function useStored<T>(key: string, initial: T): [T, (value: T) => void, () => void] {
  const storageKey = `esign.${key}`;
  const [value, setValue] = useState<T>(() => {
    try {
      const raw = sessionStorage.getItem(storageKey);
      return raw === null ? initial : (JSON.parse(raw) as T);
    } catch {
      return initial;
    }
  });
  useEffect(() => {
    sessionStorage.setItem(storageKey, JSON.stringify(value));
  }, [storageKey, value]);
  const clear = () => {
    sessionStorage.removeItem(storageKey);
    setValue(initial);
  };
  return [value, setValue, clear];
}
