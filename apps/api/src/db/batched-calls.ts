/**
 * Runs calls in batches, one batch at a time: calls made while a batch's statement runs wait and go
 * together in the next one. Under load that is one statement and one commit for many calls (the
 * database's own group commit cannot help a statement that must be alone at its commit, as one that
 * sends a NOTIFY is); alone, a call goes at once.
 *
 * Calls with the same key never share a batch (a statement may not change one row twice): the later
 * one waits for the next batch. `run` answers each input in order, or throws for the whole batch.
 */
export function batchedCalls<Input, Output>(
  run: (inputs: Input[]) => Promise<Output[]>,
  { keyOf, maxBatch }: { keyOf: (input: Input) => string; maxBatch: number },
): (input: Input) => Promise<Output> {
  interface Waiting {
    input: Input;
    resolve: (output: Output) => void;
    reject: (error: unknown) => void;
  }
  let waiting: Waiting[] = [];
  let running = false;

  function nextBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const keys = new Set<string>();
    const left: Waiting[] = [];
    for (const call of waiting) {
      const key = keyOf(call.input);
      if (batch.length < maxBatch && !keys.has(key)) {
        keys.add(key);
        batch.push(call);
      } else left.push(call);
    }
    waiting = left;
    return batch;
  }

  async function drain(): Promise<void> {
    running = true;
    while (waiting.length > 0) {
      const batch = nextBatch();
      try {
        const outputs = await run(batch.map((call) => call.input));
        batch.forEach((call, i) => call.resolve(outputs[i]!));
      } catch (error) {
        for (const call of batch) call.reject(error);
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
