/** Storage that never throws (private mode, disabled storage, quota). */
export interface Store {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

function wrap(get: () => Storage): Store {
  return {
    get(key) {
      try {
        return get().getItem(key);
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        get().setItem(key, value);
      } catch {
        /* storage unavailable: the feature simply does not persist */
      }
    },
    remove(key) {
      try {
        get().removeItem(key);
      } catch {
        /* nothing to remove */
      }
    },
  };
}

export const local = wrap(() => window.localStorage);
export const session = wrap(() => window.sessionStorage);
