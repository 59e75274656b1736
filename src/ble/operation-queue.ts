/**
 * Runs async operations one at a time, in the order they were queued: GATT allows a single
 * operation in flight, and a write and its read must not be split by another command's write.
 * A failed operation does not stop the ones queued after it.
 * @example const queue = new OperationQueue(); await queue.run(() => characteristic.readValue());
 */
export class OperationQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.tail.then(operation, operation);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
