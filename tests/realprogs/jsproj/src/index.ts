// A small TypeScript project for tests/programs/t_realprogs.sh: esbuild bundles and
// minifies it, tsgo type-checks and compiles it.
import { Matrix, identity } from "./matrix";
import { tokenize, Token } from "./lexer";
import { memo } from "./util";

export interface Report {
  tokens: number;
  kinds: Record<string, number>;
  trace: number;
}

const fib = memo((n: number): number => (n < 2 ? n : fib(n - 1) + fib(n - 2)));

export function analyse(src: string): Report {
  const toks: Token[] = tokenize(src);
  const kinds: Record<string, number> = {};
  for (const t of toks) {
    kinds[t.kind] = (kinds[t.kind] ?? 0) + 1;
  }
  let m: Matrix = identity(4);
  for (let i = 0; i < 10; i++) {
    m = m.mul(identity(4).scale(fib(i % 20) + 1));
  }
  return { tokens: toks.length, kinds, trace: m.trace() };
}

console.log(JSON.stringify(analyse("let x = 42 + foo(bar, 'baz') * 7; // done")));
