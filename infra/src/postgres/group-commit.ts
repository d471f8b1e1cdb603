// Group commit for small appends. At most `concurrency` appends are in flight; one that arrives while all
// slots are busy waits, and when a slot frees, everything waiting goes together as one transaction. Under
// load, many commands then share one round trip, one statement parse and one WAL flush instead of
// queueing for the same fixed costs one by one; a lone writer finds a slot free and never waits.
//
// Every append stays all-or-nothing on its own: a group that the database refuses (a stream conflict,
// a duplicate id, a constraint) wrote nothing, so its appends run again one by one and each gets its own
// answer. A failure that is not such a refusal (the connection dropped) is every member's answer.

interface GroupCommitOptions<Item, Result> {
  /** Appends in flight at once (each holds one pool connection while it runs). */
  concurrency: number;
  /** A group holds at most this much (`weigh` of its items added up). */
  maxWeight: number;
  weigh(item: Item): number;
  /** Runs items as one transaction: one result per item, in order; null when they cannot go as one. */
  runTogether(items: readonly Item[]): Promise<Result[] | null>;
  /** Whether a failed group wrote nothing and its items may run again one by one. */
  retryAlone(error: unknown): boolean;
  /**
   * A free slot starts its group on the event loop's next turn rather than at once, so the items that
   * arrive in the same turn (requests whose bodies ended in one read of the sockets) go together.
   */
  startOnNextTurn?: boolean;
}

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result | null): void;
  reject(error: unknown): void;
}

export interface GroupCommit<Item, Result> {
  /** The item's result; null when it cannot go in a group (the caller takes another path). */
  submit(item: Item): Promise<Result | null>;
}

export function createGroupCommit<Item, Result>(
  options: GroupCommitOptions<Item, Result>,
): GroupCommit<Item, Result> {
  const queue: Waiting<Item, Result>[] = [];
  let inFlight = 0;

  const runAlone = async (w: Waiting<Item, Result>) => {
    try {
      const results = await options.runTogether([w.item]);
      w.resolve(results ? results[0]! : null);
    } catch (error) {
      w.reject(error);
    }
  };

  const run = async (group: Waiting<Item, Result>[]) => {
    if (group.length === 1) return runAlone(group[0]!);
    let results: Result[] | null;
    try {
      results = await options.runTogether(group.map((w) => w.item));
    } catch (error) {
      if (!options.retryAlone(error)) {
        for (const w of group) w.reject(error);
        return;
      }
      results = null;
    }
    if (results) {
      group.forEach((w, i) => w.resolve(results[i]!));
      return;
    }
    // Refused as a group, or not expressible as one: each on its own, in arrival order.
    for (const w of group) await runAlone(w);
  };

  /** The next group: waiting items in arrival order, up to the weight limit (always at least one). */
  const nextGroup = () => {
    const group: Waiting<Item, Result>[] = [];
    let weight = 0;
    while (queue.length > 0) {
      const w = options.weigh(queue[0]!.item);
      if (group.length > 0 && weight + w > options.maxWeight) break;
      group.push(queue.shift()!);
      weight += w;
    }
    return group;
  };

  const drive = async (first: Waiting<Item, Result>[]) => {
    let group = first;
    try {
      while (group.length > 0) {
        await run(group);
        group = nextGroup();
      }
    } finally {
      inFlight -= 1;
    }
  };

  return {
    submit(item) {
      return new Promise<Result | null>((resolve, reject) => {
        const waiting = { item, resolve, reject };
        if (inFlight < options.concurrency) {
          inFlight += 1;
          if (options.startOnNextTurn) {
            queue.push(waiting);
            setImmediate(() => void drive(nextGroup()));
          } else void drive([waiting]);
        } else queue.push(waiting);
      });
    },
  };
}
