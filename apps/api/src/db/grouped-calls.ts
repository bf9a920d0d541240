/**
 * Runs calls in groups, one group at a time: calls made while a group's statement runs wait and go
 * together in the next one. Under load that is one statement and one commit for many calls (the
 * database's own group commit cannot help a statement that must be alone at its commit, as one that
 * sends a NOTIFY is); alone, a call goes at once.
 *
 * Calls with the same key never share a group (a statement may not change one row twice): the later
 * one waits for the next group. `run` answers each input in order, or throws for the whole group.
 */
export function groupedCalls<Input, Output>(
  run: (inputs: Input[]) => Promise<Output[]>,
  { keyOf, maxGroup }: { keyOf: (input: Input) => string; maxGroup: number },
): (input: Input) => Promise<Output> {
  interface Waiting {
    input: Input;
    resolve: (output: Output) => void;
    reject: (error: unknown) => void;
  }
  let waiting: Waiting[] = [];
  let running = false;

  function nextGroup(): Waiting[] {
    const group: Waiting[] = [];
    const keys = new Set<string>();
    const left: Waiting[] = [];
    for (const call of waiting) {
      const key = keyOf(call.input);
      if (group.length < maxGroup && !keys.has(key)) {
        keys.add(key);
        group.push(call);
      } else left.push(call);
    }
    waiting = left;
    return group;
  }

  async function drain(): Promise<void> {
    running = true;
    while (waiting.length > 0) {
      const group = nextGroup();
      try {
        const outputs = await run(group.map((call) => call.input));
        group.forEach((call, i) => call.resolve(outputs[i]!));
      } catch (error) {
        for (const call of group) call.reject(error);
      }
    }
    running = false;
  }

  return (input) =>
    new Promise<Output>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      if (!running) void drain();
    });
}
