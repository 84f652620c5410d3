/**
 * What is asked of the store during one turn of the event loop, handed over together once the
 * turn ends (`setImmediate`). Under load the event loop parses many requests in one turn, and what
 * each asks for can then share one statement, read transaction or commit (docs/performance.md).
 * Nothing asked waits longer than the rest of its turn for its batch to be scheduled.
 */
export class TurnBatch<T> {
  #items: T[] = [];
  readonly #onTurnEnd: () => void;

  /** `onTurnEnd` runs once the turn in which a batch's first item was added has ended. */
  constructor(onTurnEnd: () => void) {
    this.#onTurnEnd = onTurnEnd;
  }

  add(item: T): void {
    if (this.#items.length === 0) setImmediate(this.#onTurnEnd);
    this.#items.push(item);
  }

  get size(): number {
    return this.#items.length;
  }

  /** Everything added since the last take, in the order added; the next item starts a new batch. */
  take(): T[] {
    const items = this.#items;
    this.#items = [];
    return items;
  }
}
