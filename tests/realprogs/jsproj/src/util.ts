export function memo<A, R>(f: (a: A) => R): (a: A) => R {
  const cache = new Map<A, R>();
  return (a: A): R => {
    if (!cache.has(a)) cache.set(a, f(a));
    return cache.get(a)!;
  };
}

export const unused = (): string => "tree-shaken away";
