/**
 * Kubernetes `$(VAR)` expansion, as the kubelet applies it to `command`, `args` and env values:
 * `$(NAME)` becomes the value of `NAME` when defined and stays verbatim otherwise, `$$` becomes `$` (so
 * `$$(NAME)` yields the literal `$(NAME)`), and an unclosed `$(` is kept. Same algorithm as
 * `k8s.io/kubernetes/third_party/forked/golang/expansion`. Pure.
 */
export function expandVars(input: string, vars: ReadonlyMap<string, string>): string {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const rest = input.slice(cursor + 1);
    let advance = 1;
    if (rest.startsWith('$')) {
      out += '$';
    } else if (rest.startsWith('(')) {
      const close = rest.indexOf(')', 1);
      if (close < 0) {
        out += '$(';
      } else {
        const name = rest.slice(1, close);
        out += vars.get(name) ?? `$(${name})`;
        advance = close + 1;
      }
    } else {
      out += `$${rest[0] ?? ''}`;
    }
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}
