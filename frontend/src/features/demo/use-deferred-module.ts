import { useRef, useState } from 'react';

/**
 * Code the first view does not need: `load()` fetches the module (the browser fetches each one once) and
 * hands it back through state, so the component renders with it. Components call `load` at the first sign
 * the code is wanted (a pointer or the focus on what opens it), and again on use; what `load` returns says
 * whether the module is there, for a change that must wait for it. Should the fetch fail, the page stays
 * as it was: nothing opens, nothing breaks.
 */
export function useDeferredModule<Module extends object>(
  importModule: () => Promise<Module>,
): [module: Module | null, load: () => Promise<boolean>] {
  const [module, setModule] = useState<Module | null>(null);
  // One fetch at a time, however many signs come while it is on its way; after a failure, the next sign
  // tries again.
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
  return [module, load];
}
