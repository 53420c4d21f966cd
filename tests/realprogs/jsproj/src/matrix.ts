export class Matrix {
  constructor(readonly n: number, readonly a: number[]) {}
  mul(o: Matrix): Matrix {
    const r = new Array<number>(this.n * this.n).fill(0);
    for (let i = 0; i < this.n; i++)
      for (let j = 0; j < this.n; j++)
        for (let k = 0; k < this.n; k++) r[i * this.n + j] += this.a[i * this.n + k] * o.a[k * this.n + j];
    return new Matrix(this.n, r);
  }
  scale(s: number): Matrix {
    return new Matrix(this.n, this.a.map((x) => x * s));
  }
  trace(): number {
    let t = 0;
    for (let i = 0; i < this.n; i++) t += this.a[i * this.n + i];
    return t;
  }
}

export function identity(n: number): Matrix {
  const a = new Array<number>(n * n).fill(0);
  for (let i = 0; i < n; i++) a[i * n + i] = 1;
  return new Matrix(n, a);
}
