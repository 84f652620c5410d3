/** One holder at a time, served in the order they asked. */
export class Mutex {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  lock(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  unlock(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}
