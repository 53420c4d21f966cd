export type Kind = "ident" | "number" | "string" | "punct" | "comment";
export interface Token {
  kind: Kind;
  text: string;
}

const rules: Array<[Kind, RegExp]> = [
  ["comment", /^\/\/[^\n]*/],
  ["ident", /^[A-Za-z_][A-Za-z0-9_]*/],
  ["number", /^[0-9]+/],
  ["string", /^'[^']*'/],
  ["punct", /^[-+*\/=;(),]/],
];

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let s = src;
  while (s.length > 0) {
    const ws = /^\s+/.exec(s);
    if (ws) {
      s = s.slice(ws[0].length);
      continue;
    }
    const hit = rules.find(([, re]) => re.test(s));
    if (!hit) throw new Error(`unexpected ${s[0]}`);
    const m = hit[1].exec(s)!;
    out.push({ kind: hit[0], text: m[0] });
    s = s.slice(m[0].length);
  }
  return out;
}
