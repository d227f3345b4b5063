import { useRef, useState } from 'react';

// Code the first view does not need, loaded at the first sign it is wanted; `load` resolves to whether the
// module is there. A failed fetch leaves the page as it was, and the next call tries again.
export function useDeferredModule<Module extends object>(importModule: () => Promise<Module>) {
  const [module, setModule] = useState<Module | null>(null);
  const pending = useRef<Promise<boolean> | null>(null);
  const load = () => {
    if (module) return Promise.resolve(true);
    pending.current ??= importModule().then(
      (loaded) => {
        setModule(loaded);
        return true;
      },
      () => {
        pending.current = null;
        return false;
      },
    );
    return pending.current;
  };
  return [module, load] as const;
}
